"""The RoPE tab: rotations you can watch, both channel layouts, and where precision runs out."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLabel,
    QPushButton,
    QSpinBox,
    QWidget,
)

from posenc_gui.choices import format_number, rounded_number
from posenc_gui.controls import IntControl, index_list, parse_indices
from posenc_gui.encodings.rope import QueryKey
from posenc_gui.i18n import N_, tr
from posenc_gui.presets import Preset
from posenc_gui.tab import Tab, TabContext
from posenc_gui.tabs.rope import SPEC
from posenc_gui.tabs.rope.compute import (
    COMPARE,
    DTYPES,
    RopeFrame,
    RopeParams,
    RotationFrame,
    RotationParams,
    compute_rope,
    compute_rotation,
)
from posenc_gui.tabs.rope.figures import (
    DECAY_TITLE,
    draw_invariance,
    draw_layouts,
    draw_precision,
    draw_tables,
)
from posenc_gui.views import CurvesView, HeatmapView
from posenc_gui.views.deferred import settle
from posenc_gui.views.rotation import RotationPanel, RotationView
from posenc_gui.views.style import SEQUENTIAL

MAX_PANELS = 16
ANIMATION_MS = 33  # ~30 frames per second
SWEEP_FRAMES = 300  # a whole sequence plays in about ten seconds
NOTE = N_(
    "Pair i of q at position m turns by m·θ<sub>i</sub>, θ<sub>i</sub> = θ<sup>−2i/d</sup>; "
    "(R<sub>m</sub>q)·(R<sub>n</sub>k) depends on n − m only."
)


def spread_pairs(count: int, n_pairs: int) -> list[int]:
    """``count`` pair indices spread evenly from the fastest (0) to the slowest pair."""
    return sorted({round(x) for x in np.linspace(0, n_pairs - 1, min(count, n_pairs))})


class RopeTab(Tab):
    spec = SPEC
    compute = staticmethod(compute_rope)
    compare = COMPARE
    per_page = True  # only the page in front is computed

    @classmethod
    def shows_preset(cls, preset: Preset) -> bool:
        return preset.plain_rope

    @classmethod
    def preset_page(cls, preset: Preset) -> str | None:
        return "tables"

    @classmethod
    def preset_parameters(cls, preset: Preset) -> dict[str, float]:
        scaling = preset.rope
        return {} if scaling is None else {"head_dim": scaling.head_dim, "theta": scaling.base}

    def __init__(self, context: TabContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        parameters = self.parameters
        seq_len = parameters.seq_len.value()
        self.layout_choice = QComboBox(objectName="layout")
        self.layout_choice.addItem(tr("interleaved (Meta LLaMA, GPT-J)"), "interleaved")
        self.layout_choice.addItem(tr("half (GPT-NeoX, Hugging Face)"), "half")
        self.query = QComboBox(objectName="query")
        self.query.addItem(tr("q = k = all ones"), "ones")
        self.query.addItem(tr("random q, k (seeded)"), "random")
        self.seed = QSpinBox(objectName="seed", minimum=0, maximum=2**31 - 1)
        self.table = QComboBox(objectName="table")
        for label, key in (
            (N_("angle m·θ mod 2π"), "angle"),
            ("cos(m·θ)", "cos"),
            ("sin(m·θ)", "sin"),
        ):
            self.table.addItem(tr(label), key)
        self.pair_count = IntControl("pair_count", 1, MAX_PANELS, 8)
        self.pairs = index_list("pairs", placeholderText=tr("auto: spread evenly"))
        self.position = IntControl("position", 0, seq_len - 1, min(10, seq_len - 1))
        self.play = QPushButton(tr("Play"), objectName="play", checkable=True)
        self.query_position = IntControl("query_position", 0, seq_len - 1, 2)
        self.key_position = IntControl("key_position", 0, seq_len - 1, min(5, seq_len - 1))
        self.shift = IntControl("shift", 0, seq_len - 1, 0)
        self.log_distance = QCheckBox(tr("logarithmic distance axis"), objectName="log_distance")
        self.dtype = QComboBox(objectName="dtype")
        for name in DTYPES:
            self.dtype.addItem(name, name)
        self.dtype.setCurrentText("bfloat16")
        self.readout = QLabel(objectName="invariance_readout", wordWrap=True)
        note = QLabel(tr(NOTE), wordWrap=True)
        on = self._on_page
        self.add_controls(
            [(N_("layout"), self.layout_choice)],
            applies=lambda: on("tables", "rotation", "invariance", "layouts"),
        )
        self.add_controls(
            [(N_("q and k"), self.query)], applies=lambda: on("rotation", "invariance")
        )
        self.add_controls(
            [(N_("seed"), self.seed)],
            applies=lambda: on("rotation", "invariance") and self.query.currentData() == "random",
        )
        self.add_controls([(N_("table"), self.table)], applies=lambda: on("tables"))
        self.add_controls(
            [
                (N_("rotation panels"), self.pair_count),
                (N_("pairs shown"), self.pairs),
                (N_("position m"), self.position),
                ("", self.play),
            ],
            applies=lambda: on("rotation"),
        )
        self.add_controls(
            [
                (N_("query position m"), self.query_position),
                (N_("key position n"), self.key_position),
                (N_("shift t"), self.shift),
                ("", self.log_distance),
                ("", self.readout),
            ],
            applies=lambda: on("invariance"),
        )
        self.add_controls([(N_("precision dtype"), self.dtype)], applies=lambda: on("precision"))
        for widget in (self.message, note):
            self.controls.addRow(widget)

        self.table_view = HeatmapView(
            tr("(a) Angle m·θᵢ mod 2π"), tr("pair i"), tr("position m"), tr("value")
        )
        self.spectrum_view = CurvesView(
            tr("(e) Wavelength 2π/θᵢ per pair"), tr("pair i"), tr("wavelength (positions)")
        )
        self.spectrum_view.set_log(y=True)
        self.rotation_view = RotationView(
            ahead=MAX_PANELS,
            labels=(
                tr("(b) Each chosen pair of q rotated over positions 0 … m"),
                tr("first channel of the pair"),
                tr("second channel of the pair"),
            ),
        )
        self.invariance_view = CurvesView(
            tr("(c) Relative invariance: shift both by t"), tr("shift t"), tr("score")
        )
        self.decay_view = CurvesView(tr(DECAY_TITLE), tr("relative distance n − m"), tr("score"))
        self.layout_view = HeatmapView(
            tr("(f) Pair of each channel"),
            tr("channel"),
            tr("layout"),
            tr("pair"),
            colormap_role=SEQUENTIAL,
        )
        self.permutation_view = CurvesView(
            tr("(f) Permutation P: half channel j holds interleaved channel P[j]"),
            tr("half-layout channel j"),
            "P[j]",  # the title says what it holds: a low plot's axis has room for this only
        )
        # a no-break space and word joiners: a title wrapped to a narrow view never breaks
        # inside |cos − cos₆₄|
        self.error_view = HeatmapView(
            tr("(g) log₁₀ |\u2060cos\u00a0−\u00a0cos₆₄\u2060|"),
            tr("pair i"),
            tr("position m"),
            tr("log₁₀ error"),
            colormap_role=SEQUENTIAL,
        )
        self.error_curve_view = CurvesView(
            tr("(g) Worst |\u2060cos\u00a0−\u00a0cos₆₄\u2060| over pairs"),
            tr("position m"),
            tr("|⁠error|"),
        )
        self.error_curve_view.set_log(y=True)
        self.add_page(
            "tables",
            tr("Tables && spectrum"),
            {"table": self.table_view, "spectrum": self.spectrum_view},
        )
        self.add_page("rotation", tr("Rotation"), {"rotation": self.rotation_view})
        self.add_page(
            "invariance",
            tr("Invariance && decay"),
            {"invariance": self.invariance_view, "decay": self.decay_view},
        )
        self.add_page(
            "layouts",
            tr("Layouts"),
            {"layout": self.layout_view, "permutation": self.permutation_view},
            columns=1,
        )
        self.add_page(
            "precision",
            tr("Precision"),
            {"error": self.error_view, "error_curve": self.error_curve_view},
        )

        assert self.pages is not None  # added above
        self.pages.currentChanged.connect(self._on_page_change)
        self.timer = QTimer(self, interval=ANIMATION_MS)
        self.timer.timeout.connect(self._advance)
        self.play.toggled.connect(self._play)
        parameters.seq_len.valueChanged.connect(self._fit_positions)
        self.follow_views(
            (
                self.table_view,
                self.invariance_view,
                self.decay_view,
                self.error_view,
                self.error_curve_view,
            )
        )
        for signal in (
            self.layout_choice.currentIndexChanged,
            self.query.currentIndexChanged,
            self.seed.valueChanged,
            self.table.currentIndexChanged,
            self.query_position.valueChanged,
            self.key_position.valueChanged,
            self.shift.valueChanged,
            self.log_distance.toggled,
            self.dtype.currentIndexChanged,
        ):
            signal.connect(self.refresh)
        for signal in (
            self.pair_count.valueChanged,
            self.pairs.editingFinished,
            self.position.valueChanged,
        ):
            signal.connect(self.refresh_rotation)

    def _on_page(self, *names: str) -> bool:
        return self.current_page() in names

    def _on_page_change(self) -> None:
        if self._on_page("rotation"):
            self.refresh_rotation()  # the panels of the settings now (delivered again if so)

    def is_waiting(self) -> bool:
        return super().is_waiting() or self.engine.is_coming("rope.rotation")

    def apply_preset(self, preset: Preset) -> None:
        if preset.kind == "rope":
            self.layout_choice.setCurrentIndex(self.layout_choice.findData(preset.layout))

    def _fit_positions(self, seq_len: int) -> None:
        for control in (self.position, self.query_position, self.key_position, self.shift):
            control.setRange(0, seq_len - 1)

    def _play(self, on: bool) -> None:
        self.play.setText(tr("Pause") if on else tr("Play"))
        self.timer.start() if on else self.timer.stop()

    def _advance(self) -> None:
        seq_len = self.parameters.seq_len.value()
        step = max(1, seq_len // SWEEP_FRAMES)
        self.position.setValue((self.position.value() + step) % seq_len)

    def query_key(self) -> QueryKey:
        return QueryKey(
            self.parameters.head_dim.value(), self.query.currentData(), self.seed.value()
        )

    def refresh(self) -> None:
        self.decay_view.set_log(x=self.log_distance.isChecked())
        # the page in front first: on the rotation page its panels (elsewhere only their note)
        if not self.is_behind():
            self.engine.prefer("rope.rotation" if self._on_page("rotation") else self.name)
        self.refresh_rotation()
        super().refresh()

    def refresh_rotation(self) -> None:
        """Only the rotation panels: what the animation and the position slider change. They
        are computed while their page is in front (``_on_page_change`` asks when it comes):
        behind another page they would only take the worker and the GUI thread from it."""
        self.note("rotation", self._rotation_pairs()[1])
        if self.is_behind() or not self._on_page("rotation"):
            return  # asked for when the tab (the window) or the page comes to the front
        self.engine.submit(  # a few pairs at a few positions: light at any size
            "rope.rotation",
            compute_rotation,
            self.rotation_request(),
            self.draw_rotation,
            light=True,
        )

    def _rotation_pairs(self) -> tuple[list[int], str]:
        """The pairs the rotation panels show, and what is wrong with those typed (or ``""``)."""
        n_pairs = self.parameters.head_dim.value() // 2
        spread = spread_pairs(self.pair_count.value(), n_pairs)
        if not self.pairs.text().strip():
            return spread, ""
        try:
            chosen = parse_indices("pairs", self.pairs.text())
        except ValueError as exc:
            return spread, str(exc)
        if any(not 0 <= i < n_pairs for i in chosen):
            return chosen, tr("pairs must be in [0, {0}]; others are skipped").format(n_pairs - 1)
        if len(chosen) > MAX_PANELS:
            return chosen, tr("pairs: at most {0} panels; the first {0} are shown").format(
                MAX_PANELS
            )
        return chosen, ""

    def rotation_request(self) -> RotationParams:
        return RotationParams(
            self.parameters.head_dim.value(),
            self.parameters.theta.value(),
            self.layout_choice.currentData(),
            self.query_key(),
            tuple(self._rotation_pairs()[0][:MAX_PANELS]),
            self.position.value(),
        )

    def request(self, page: str | None = None) -> RopeParams:
        seq_len = self.parameters.seq_len.value()
        n_pairs = self.parameters.head_dim.value() // 2
        log = self.log_distance.isChecked()
        page = page or self.current_page() or "tables"
        # Only the page in front is computed: its views' windows alone (another page's views
        # are resized when it is laid out, which must not make this page's frame stale).
        by_page: dict[str, dict[str, Any]] = {
            "tables": {"table_windows": self.table_view.windows(n_pairs, seq_len)},
            "rotation": {},  # its panels: refresh_rotation
            "invariance": {
                "invariance_x": self.invariance_view.x_window(0, seq_len),
                "decay_x": self.decay_view.x_window(1 if log and seq_len > 1 else 0, seq_len),
            },
            "layouts": {},
            "precision": {
                "error_windows": self.error_view.windows(n_pairs, seq_len),
                "error_x": self.error_curve_view.x_window(0, seq_len),
            },
        }
        return RopeParams(
            seq_len=seq_len,
            head_dim=self.parameters.head_dim.value(),
            theta=self.parameters.theta.value(),
            layout=self.layout_choice.currentData(),
            query=self.query_key(),
            table=self.table.currentData(),
            query_position=self.query_position.value(),
            key_position=self.key_position.value(),
            shift=self.shift.value(),
            dtype=self.dtype.currentData(),
            pages=(page,),
            **by_page[page],
        )

    def caption_parameters(self) -> str:
        p = self.parameters
        return (
            f"head_dim {p.head_dim.value()}, θ {format_number(p.theta.value())}, "
            f"{self.layout_choice.currentData()} layout, {self.dtype.currentData()}"
        )

    def draw(self, frame: RopeFrame) -> None:
        if frame.tables is not None:
            draw_tables(self, frame, frame.tables)
        if frame.invariance is not None:
            draw_invariance(self, frame, frame.invariance)
        if frame.layouts is not None:
            draw_layouts(self, frame, frame.layouts)
        notes = [] if frame.precision is None else draw_precision(self, frame, frame.precision)
        pages = frame.params.pages  # (None: every page)
        if pages is None or self._on_page(*pages):  # not a page drawn ahead behind the one shown
            self.note("frame", "\n".join(notes))  # the precision views' notes, while in front

    def draw_rotation(self, frame: RotationFrame) -> None:
        # a narrow panel's title may break after "=" (as TeX does), never between "λ" and "="
        title = tr("pair {0}<br>θ\u00a0= {1:.3g}, λ\u00a0= {2}")
        self.rotation_view.set_panels(
            [
                RotationPanel(title.format(i, theta, rounded_number(2 * np.pi / theta)), trail)
                for i, theta, trail in zip(frame.pairs, frame.inv_freq, frame.trails, strict=True)
            ]
        )
        settle([self.rotation_view])  # its new titles laid out before it paints
        self.release_paint()
