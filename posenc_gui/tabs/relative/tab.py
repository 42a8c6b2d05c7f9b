"""The Relative tab: distances, the sinusoidal relative table, Shaw, T5 buckets and ALiBi."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QSpinBox, QWidget

from posenc_gui.choices import format_number
from posenc_gui.controls import IntControl
from posenc_gui.encodings import relative
from posenc_gui.i18n import N_, tr
from posenc_gui.pooled import pooled_note
from posenc_gui.presets import Preset
from posenc_gui.tab import Tab, TabContext
from posenc_gui.tabs.relative import SPEC
from posenc_gui.tabs.relative.compare import COMPARE, MAX_HEADS
from posenc_gui.tabs.relative.compute import (
    SCHEME_LABELS,
    SCHEME_PAGES,
    SCHEME_SHORT,
    SCHEMES,
    AlibiPage,
    DistancesPage,
    Matrix,
    RelativeFrame,
    RelativeParams,
    ScoresPage,
    T5Page,
    compute_relative,
)
from posenc_gui.views import MAX_LINES_APART, Curve, CurvesView, HeatmapView
from posenc_gui.views.style import SEQUENTIAL, family_colour, set_title

NOTE = N_(
    "Score(q<sub>i</sub>, k<sub>j</sub>) = q<sub>i</sub>ᵀk<sub>j</sub> + b<sub>r(i,j)</sub>, "
    "r(i, j) = j − i. Row i of the sinusoidal relative table is the absolute table shifted "
    "by −i: R[i, j] = PE(j − i); for i = 0 it is the absolute table."
)


def _show(
    view: HeatmapView,
    matrix: Matrix,
    extent: tuple[int, int],
    levels: tuple[float, float] | None = None,
) -> None:
    view.set_data(
        matrix.values,
        x_edges=matrix.col_edges,
        y_edges=matrix.row_edges,
        levels=levels,
        extent=extent,
    )


class RelativeTab(Tab):
    spec = SPEC
    compute = staticmethod(compute_relative)
    per_page = True
    compare = COMPARE

    @classmethod
    def preset_page(cls, preset: Preset) -> str | None:
        return SCHEME_PAGES[preset.kind]

    @classmethod
    def preset_parameters(cls, preset: Preset) -> dict[str, float]:
        return {"d_model": preset.config["d_model"]} if preset.kind == "t5" else {}

    def __init__(self, context: TabContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        parameters = self.parameters
        seq_len = parameters.seq_len.value()
        self.scheme = QComboBox(objectName="scheme")
        for key in SCHEMES:
            self.scheme.addItem(tr(SCHEME_LABELS[key]), key)
        self.scheme.setCurrentIndex(SCHEMES.index("sinusoidal"))  # the distances page's
        self._distances_scheme = "sinusoidal"  # its scheme there when last shown
        self.max_relative_position = IntControl("max_relative_position", 0, 512, 4)
        self.query_position = IntControl("query_position", 0, seq_len - 1, 0)
        self.num_buckets = IntControl("num_buckets", 4, 256, 32)  # odd too, as in Hugging Face
        self.max_distance = IntControl("max_distance", 9, 16384, 128)
        self.bidirectional = QCheckBox(
            tr("bidirectional (else causal)"), objectName="bidirectional", checked=True
        )
        self.n_heads = IntControl("n_heads", 1, MAX_HEADS, 8)
        self.head = IntControl("head", 1, 8, 1)
        self.causal = QCheckBox(
            tr("causal (else symmetric |⁠i − j|)"), objectName="causal", checked=True
        )
        self.seed = QSpinBox(objectName="seed", minimum=0, maximum=2**31 - 1)
        note = QLabel(tr(NOTE), wordWrap=True)
        self.window_note = QLabel(objectName="window_note", wordWrap=True)
        scheme, page = self.scheme.currentData, self.current_page
        self.add_controls([(N_("scheme"), self.scheme)])
        self.add_controls(
            [(N_("Shaw clip k"), self.max_relative_position)],
            applies=lambda: page() in ("distances", "scores") and scheme() == "shaw",
        )
        self.add_controls(
            [(N_("query position i"), self.query_position)],
            applies=lambda: page() == "distances",
        )
        self.add_controls(
            [
                (N_("T5 num_buckets"), self.num_buckets),
                (N_("T5 max_distance"), self.max_distance),
                ("", self.bidirectional),
            ],
            applies=lambda: page() == "t5" or (page() == "scores" and scheme() == "t5"),
        )
        self.add_controls(
            [
                (N_("ALiBi n_heads"), self.n_heads),
                (N_("ALiBi head h"), self.head),
                ("", self.causal),
            ],
            applies=lambda: page() == "alibi" or (page() == "scores" and scheme() == "alibi"),
        )
        self.add_controls(
            [(N_("seed (q, k, tables)"), self.seed), ("", self.window_note)],
            applies=lambda: page() == "scores",
        )
        for widget in (self.message, note):
            self.controls.addRow(widget)

        self.distance_view = HeatmapView(
            tr("(a) Relative distance j − i"), tr("key j"), tr("query i"), "j − i", square=True
        )
        self.table_view = HeatmapView(
            tr("(b) Sinusoidal relative table R[i, j, :]"),
            tr("dimension"),
            tr("key j"),
            tr("PE(j − i)"),
        )
        self.bucket_view = HeatmapView(
            tr("(c) T5 bucket of j − i"),
            tr("key j"),
            tr("query i"),
            tr("bucket"),
            colormap_role=SEQUENTIAL,
            square=True,
        )
        self.bucket_curve_view = CurvesView(
            tr("(c) T5 bucket against distance"), "j − i", tr("bucket")
        )
        self.slope_view = CurvesView(tr("(d) ALiBi slope per head"), tr("head h"), tr("slope mₕ"))
        self.alibi_view = HeatmapView(
            tr("(d) ALiBi bias, head 0"), tr("key j"), tr("query i"), tr("bias"), square=True
        )
        self.alibi_curve_view = CurvesView(
            tr("(d) ALiBi bias against distance"),
            "i − j",
            tr("−mₕ·|⁠i − j|"),  # the bias (the title says so): short enough for a low plot
            # an item per head while at most MAX_LINES_APART are unnamed (all but the first
            # and last; more are one item): a step to more heads makes none
            ahead=min(MAX_HEADS, MAX_LINES_APART + 2),
        )
        self.content_view = HeatmapView(
            tr("(e) Content qᵢ·kⱼ/√d"), tr("key j"), tr("query i"), tr("score"), square=True
        )
        self.bias_view = HeatmapView(
            tr("(e) Bias b(r(i, j))"), tr("key j"), tr("query i"), tr("bias"), square=True
        )
        self.total_view = HeatmapView(
            tr("(e) Sum"), tr("key j"), tr("query i"), tr("score"), square=True
        )
        self.attention_view = HeatmapView(
            tr("(e) softmax over j"),
            tr("key j"),
            tr("query i"),
            tr("attention"),
            colormap_role=SEQUENTIAL,
            square=True,
        )
        self.add_page(
            "distances",
            tr("Distances && table"),
            {"distance": self.distance_view, "table": self.table_view},
        )
        self.add_page(
            "t5",
            tr("T5 buckets"),
            {"bucket": self.bucket_view, "bucket_curve": self.bucket_curve_view},
        )
        self.add_page(
            "alibi",
            tr("ALiBi"),
            {
                "alibi": self.alibi_view,
                "alibi_curve": self.alibi_curve_view,
                "slope": self.slope_view,
            },
            columns=2,
        )
        self.add_page(
            "scores",
            tr("Score formula"),
            {
                "content": self.content_view,
                "bias": self.bias_view,
                "total": self.total_view,
                "attention": self.attention_view,
            },
            columns=2,
        )

        parameters.seq_len.valueChanged.connect(lambda n: self.query_position.setRange(0, n - 1))
        self.n_heads.valueChanged.connect(lambda n: self.head.setRange(1, n))
        self.num_buckets.valueChanged.connect(self._fit_max_distance)
        self.bidirectional.toggled.connect(self._fit_max_distance)
        self.scheme.currentIndexChanged.connect(self._show_scheme_page)
        self.pages.currentChanged.connect(self._follow_page)  # type: ignore[union-attr]
        self.follow_views(
            (
                self.distance_view,
                self.table_view,
                self.bucket_view,
                self.bucket_curve_view,
                self.alibi_view,
                self.alibi_curve_view,
            )
        )
        for signal in (
            self.scheme.currentIndexChanged,
            self.max_relative_position.valueChanged,
            self.query_position.valueChanged,
            self.num_buckets.valueChanged,
            self.max_distance.valueChanged,
            self.bidirectional.toggled,
            self.n_heads.valueChanged,
            self.head.valueChanged,
            self.causal.toggled,
            self.seed.valueChanged,
        ):
            signal.connect(self.refresh)

    def apply_preset(self, preset: Preset) -> None:
        config = preset.config
        if preset.kind == "t5":
            self.scheme.setCurrentIndex(self.scheme.findData("t5"))
            self.bidirectional.setChecked(True)  # the encoder's buckets
            self.num_buckets.setValue(config["relative_attention_num_buckets"])
            self.max_distance.setValue(config["relative_attention_max_distance"])
        elif preset.kind == "alibi":
            self.scheme.setCurrentIndex(self.scheme.findData("alibi"))
            self.n_heads.setValue(config["n_head"])
            self.causal.setChecked(True)

    def _fit_max_distance(self) -> None:
        """T5 needs max_distance above its exact range (num_buckets/4, or /2 when causal)."""
        exact = relative.t5_max_exact(self.num_buckets.value(), self.bidirectional.isChecked())
        self.max_distance.setRange(exact + 1, 16384)

    def _show_scheme_page(self) -> None:
        """A scheme chosen brings its page to the front (the score formula's page stays)."""
        scheme = self.scheme.currentData()
        if SCHEME_PAGES[scheme] == "distances":
            self._distances_scheme = scheme
        if self.current_page() != "scores":
            self.show_page(SCHEME_PAGES[scheme])

    def _follow_page(self) -> None:
        """The scheme box agrees with the page in front (the distances page: its last scheme
        there, sinusoidal or Shaw's); the score formula takes any."""
        page, scheme = self.current_page(), self.scheme.currentData()
        if page is not None and page != "scores" and SCHEME_PAGES[scheme] != page:
            self.scheme.setCurrentIndex(self.scheme.findData(self._page_scheme(page)))

    def _page_scheme(self, page: str) -> str:
        """The scheme of ``page`` shown: the scheme box's where it agrees (the score formula
        takes any), else the page's own (the distances page's last there)."""
        scheme = self.scheme.currentData()
        if page == "scores" or SCHEME_PAGES[scheme] == page:
            return scheme
        return self._distances_scheme if page == "distances" else page

    def request(self, page: str | None = None) -> RelativeParams:
        seq_len, d_model = self.parameters.seq_len.value(), self.parameters.d_model.value()
        page = page or self.current_page() or "distances"
        # Only the page in front is computed: its views' windows alone (another page's views
        # are resized when it is laid out, which must not make this page's frame stale).
        by_page: dict[str, dict[str, Any]] = {
            "distances": {
                "distance_windows": self.distance_view.windows(seq_len, seq_len),
                "table_windows": self.table_view.windows(d_model, seq_len),
            },
            "t5": {
                "bucket_windows": self.bucket_view.windows(seq_len, seq_len),
                "bucket_x": self.bucket_curve_view.x_window(-(seq_len - 1), seq_len),
            },
            "alibi": {
                "alibi_windows": self.alibi_view.windows(seq_len, seq_len),
                "alibi_x": self.alibi_curve_view.x_window(0, seq_len),
            },
            "scores": {},
        }
        return RelativeParams(
            seq_len=seq_len,
            d_model=d_model,
            theta=self.parameters.theta.value(),
            scheme=self._page_scheme(page),  # (a page drawn ahead: the one it will show)
            max_relative_position=self.max_relative_position.value(),
            query_position=self.query_position.value(),
            num_buckets=self.num_buckets.value(),
            max_distance=self.max_distance.value(),
            bidirectional=self.bidirectional.isChecked(),
            n_heads=self.n_heads.value(),
            head=self.head.value(),
            causal=self.causal.isChecked(),
            seed=self.seed.value(),
            pages=(page,),
            **by_page[page],
        )

    def caption_parameters(self) -> str:
        p = self.parameters
        return (
            f"d_model {p.d_model.value()}, θ {format_number(p.theta.value())}, "
            f"{self.scheme.currentText()}; Shaw K {self.max_relative_position.value()}, "
            f"T5 {self.num_buckets.value()}/{self.max_distance.value()}, "
            f"ALiBi n_heads {self.n_heads.value()}"  # parameter names stay as in the code
        )

    def draw(self, frame: RelativeFrame) -> None:
        p = frame.params
        if frame.distances is not None:
            self._draw_distances(p, frame.distances)
        if frame.t5 is not None:
            self._draw_t5(p, frame.t5)
        if frame.alibi is not None:
            self._draw_alibi(p, frame.alibi)
        if frame.scores is not None:
            self._draw_scores(p, frame.scores)

    def _draw_distances(self, p: RelativeParams, frame: DistancesPage) -> None:
        square = (p.seq_len, p.seq_len)
        clip = tr(", clipped to ±{0}").format(p.max_relative_position) if p.scheme == "shaw" else ""
        _show(self.distance_view, frame.distances, square)
        title = tr("(a) Relative distance j − i{0}").format(clip)
        positions = tr("positions")
        set_title(
            self.distance_view.plot, title + pooled_note(*self.distance_view.cell_span(), positions)
        )
        _show(self.table_view, frame.relative_table, (p.d_model, p.seq_len), levels=(-1.0, 1.0))
        title = tr("(b) Sinusoidal relative table R[{0}, j, :]").format(p.query_position)
        columns = tr("dimensions")
        set_title(self.table_view.plot, title + pooled_note(*self.table_view.cell_span(), columns))

    def _draw_t5(self, p: RelativeParams, frame: T5Page) -> None:
        square = (p.seq_len, p.seq_len)
        _show(self.bucket_view, frame.buckets, square, levels=(0.0, p.num_buckets - 1.0))
        self.bucket_curve_view.set_curves(
            [
                Curve(
                    tr("{0} buckets, max_distance {1}").format(p.num_buckets, p.max_distance),
                    frame.bucket_x,
                    frame.bucket_by_distance,
                )
            ],
            x_extent=(-(p.seq_len - 1), p.seq_len),
        )

    def _draw_alibi(self, p: RelativeParams, frame: AlibiPage) -> None:
        square = (p.seq_len, p.seq_len)
        heads = np.arange(1, p.n_heads + 1)
        self.slope_view.set_curves([Curve("mₕ", heads, frame.slopes, scatter=True)])
        kind = tr("causal") if p.causal else tr("symmetric")
        _show(self.alibi_view, frame.alibi_matrix, square)
        title = tr("(d) ALiBi head {0}, {1}").format(p.head, kind)
        pooled = pooled_note(*self.alibi_view.cell_span(), tr("positions"))
        set_title(self.alibi_view.plot, title + pooled)
        self.alibi_curve_view.set_curves(
            [
                Curve(
                    tr("head {0}").format(h + 1) if h in (0, p.n_heads - 1) else "",
                    frame.alibi_x,
                    curve,
                    color=family_colour(h, p.n_heads),
                )
                for h, curve in enumerate(frame.alibi_curves)
            ],
            x_extent=(0, p.seq_len),
        )

    def _draw_scores(self, p: RelativeParams, frame: ScoresPage) -> None:
        window = np.arange(frame.window + 1)
        set_title(self.bias_view.plot, tr("(e) Bias: {0}").format(tr(SCHEME_SHORT[p.scheme])))
        for view, values in (
            (self.content_view, frame.content),
            (self.bias_view, frame.bias),
            (self.total_view, frame.total),
        ):
            view.set_data(values, x_edges=window, y_edges=window)
        self.window_note.setText(
            tr(
                "Score formula (e) over positions 0 … {0} with seeded random q, k (d = {1})."
            ).format(frame.window - 1, p.d_model)
        )
        self.attention_view.set_data(
            frame.attention,
            x_edges=window,
            y_edges=window,
            levels=(0.0, float(frame.attention.max())),
        )
