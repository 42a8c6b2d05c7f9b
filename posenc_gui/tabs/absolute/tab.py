"""The Absolute tab: the sinusoidal table, its waveforms and its similarity structure."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QLineEdit, QWidget

from posenc_gui.choices import SEQ_LEN_RANGE, format_number
from posenc_gui.controls import IntControl, index_list, parse_indices
from posenc_gui.i18n import N_, tr
from posenc_gui.pooled import band_note, distances_note, pooled_note
from posenc_gui.presets import Preset
from posenc_gui.tab import Tab, TabContext
from posenc_gui.tabs.absolute import SPEC
from posenc_gui.tabs.absolute.compute import (
    COMPARE,
    AbsoluteFrame,
    AbsoluteParams,
    compute_absolute,
)
from posenc_gui.views import Curve, CurvesView, HeatmapView
from posenc_gui.views.style import set_title

DEFAULT_SENTENCE = "我爱你，中国。"
OFFSET_TITLE = N_("(d) PE(p)·PE(p+k) against distance k")  # and, as drawn, what a pixel averages
NOTE = N_(
    "PE[p, 2i] = sin(p·ω<sub>i</sub>), PE[p, 2i+1] = cos(p·ω<sub>i</sub>), "
    "ω<sub>i</sub> = θ<sup>−2i/d</sup>. PE(p)·PE(p+k) = Σ<sub>i</sub> cos(k·ω<sub>i</sub>) "
    "depends on k only."
)


class AbsoluteTab(Tab):
    spec = SPEC
    compute = staticmethod(compute_absolute)
    compare = COMPARE

    def __init__(self, context: TabContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        parameters = self.parameters
        self.layout_choice = QComboBox(objectName="layout")
        self.layout_choice.addItem(tr("interleaved (paper)"), "interleaved")
        self.layout_choice.addItem(tr("concatenated [sin | cos]"), "concat")
        self.similarity = QComboBox(objectName="similarity")
        self.similarity.addItem(tr("dot product PE·PE"), False)
        self.similarity.addItem(tr("cosine"), True)
        self.reference_position = IntControl(
            "reference_position", 0, parameters.seq_len.value() - 1, 0
        )
        self.dimensions = index_list("dimensions", "0, 2, 8, 32")
        # a character a position, up to seq_len's largest (Qt's default cut a text at 32,767)
        self.tokens = QLineEdit(DEFAULT_SENTENCE, objectName="tokens", maxLength=SEQ_LEN_RANGE[1])
        # the example sentence whole (presentation's fonts cut its first character): its width
        # and the field's frame and margins (its size hint less that hint's 17 x's)
        metrics = self.tokens.fontMetrics()
        frame = self.tokens.sizeHint().width() - 17 * metrics.horizontalAdvance("x")
        self.tokens.setMinimumWidth(metrics.horizontalAdvance(DEFAULT_SENTENCE) + frame)
        self.label_tokens = QCheckBox(tr("label positions with tokens"), objectName="label_tokens")
        note = QLabel(tr(NOTE))
        note.setWordWrap(True)
        for label, widget in (
            (N_("layout"), self.layout_choice),
            (N_("similarity"), self.similarity),
            (N_("reference position p"), self.reference_position),
            (N_("waveform dimensions"), self.dimensions),
            (N_("sentence"), self.tokens),
        ):
            self.controls.addRow(tr(label), widget)
        for widget in (self.label_tokens, self.message, note):
            self.controls.addRow(widget)

        self.table_view = HeatmapView(
            tr("(a) PE[position, dimension]"), tr("dimension"), tr("position"), tr("PE")
        )
        self.wave_view = CurvesView(tr("(b) Waveforms PE[:, i]"), tr("position"), tr("PE"))
        self.similarity_view = HeatmapView(
            tr("(c) Similarity PE·PEᵀ"),
            tr("position"),
            tr("position"),
            tr("similarity"),
            square=True,
        )
        self.offset_view = CurvesView(tr(OFFSET_TITLE), tr("distance k"), tr("similarity"))
        self.add_view("table", self.table_view, 0, 0)
        self.add_view("wave", self.wave_view, 0, 1)
        self.add_view("similarity", self.similarity_view, 1, 0)
        self.add_view("offset", self.offset_view, 1, 1)

        parameters.seq_len.valueChanged.connect(
            lambda n: self.reference_position.setRange(0, n - 1)
        )
        self.label_tokens.toggled.connect(self._follow_tokens)
        self.tokens.textChanged.connect(self._follow_tokens)
        self.follow_views((self.table_view, self.wave_view, self.similarity_view, self.offset_view))
        for signal in (
            self.layout_choice.currentIndexChanged,
            self.similarity.currentIndexChanged,
            self.reference_position.valueChanged,
            self.dimensions.editingFinished,
            self.label_tokens.toggled,
        ):
            signal.connect(self.refresh)

    @classmethod
    def preset_parameters(cls, preset: Preset) -> dict[str, float]:
        config = preset.config
        return {"d_model": config["d_model"], "theta": config.get("rope_theta", 10000.0)}

    def token_labels(self) -> list[str] | None:
        """One label per position when labelling with tokens, else None."""
        return list(self.tokens.text()) if self.label_tokens.isChecked() else None

    def _follow_tokens(self) -> None:
        """With token labels on, seq_len is the sentence length and cannot be moved."""
        on = self.label_tokens.isChecked()
        reason = tr(
            "held at the sentence's length while the Absolute tab labels positions with tokens"
        )
        self.parameters.hold("seq_len", reason if on else "")
        if on and self.tokens.text():
            self.parameters.seq_len.setValue(len(self.tokens.text()))
            self.refresh()

    def _dimensions(self) -> tuple[tuple[int, ...], str]:
        """The waveform dimensions typed, and what is wrong with them (``""``: nothing)."""
        try:
            dims = tuple(parse_indices("dimensions", self.dimensions.text()))
        except ValueError as exc:
            return (), str(exc)
        d_model = self.parameters.d_model.value()
        if any(not 0 <= i < d_model for i in dims):  # a negative one too (it went silently)
            return dims, tr("dimensions must be in [0, {0}]; others are skipped").format(
                d_model - 1
            )
        return dims, ""

    def input_notes(self) -> list[str]:
        notes = [self._dimensions()[1]]
        if self.label_tokens.isChecked() and not self.tokens.text():
            notes.append(tr("sentence must not be empty to label positions with tokens"))
        return notes

    def request(self, page: str | None = None) -> AbsoluteParams:
        dims = self._dimensions()[0]
        seq_len, d_model = self.parameters.seq_len.value(), self.parameters.d_model.value()
        table_cols, table_rows = self.table_view.windows(d_model, seq_len)
        similarity_cols, similarity_rows = self.similarity_view.windows(seq_len, seq_len)
        return AbsoluteParams(
            seq_len=seq_len,
            d_model=d_model,
            theta=self.parameters.theta.value(),
            layout=self.layout_choice.currentData(),
            cosine=self.similarity.currentData(),
            reference_position=self.reference_position.value(),
            dimensions=dims,
            table_cols=table_cols,
            table_rows=table_rows,
            wave_x=self.wave_view.x_window(0, seq_len),
            similarity_cols=similarity_cols,
            similarity_rows=similarity_rows,
            offset_x=self.offset_view.x_window(-(seq_len - 1), seq_len),
        )

    def caption_parameters(self) -> str:
        p = self.parameters
        return (
            f"d_model {p.d_model.value()}, θ {format_number(p.theta.value())}, "
            f"layout {self.layout_choice.currentData()}"
        )

    def draw(self, frame: AbsoluteFrame) -> None:
        p = frame.params
        labels = self.token_labels()
        whole = len(frame.table_row_edges) == p.seq_len + 1  # one row per position, all shown
        if labels is None or len(labels) != p.seq_len or not whole:
            labels = None
        self.table_view.set_data(
            frame.table,
            x_edges=frame.table_col_edges,
            y_edges=frame.table_row_edges,
            levels=(-1.0, 1.0),
            row_labels=labels,
            extent=(p.d_model, p.seq_len),
        )
        pooled = frame.wave_per_pixel > 1
        # A pixel of many positions: its mean inside the band of its least and largest value,
        # so a fast oscillation keeps its amplitude (its mean alone would be near 0).
        rows, cols = self.table_view.cell_span()
        set_title(
            self.table_view.plot,
            tr("(a) PE[position, dimension]") + pooled_note(rows, cols, tr("dimensions")),
        )
        envelopes = [
            Curve.min_max(frame.wave_x, low, high, color=i)
            for i, (low, high) in enumerate(
                zip(frame.waveform_low, frame.waveform_high, strict=True)
            )
        ]
        self.wave_view.set_curves(
            [
                *(
                    Curve(tr("dim {0}").format(i), frame.wave_x, wave, color=index)
                    for index, (i, wave) in enumerate(
                        zip(frame.dimensions, frame.waveforms, strict=True)
                    )
                ),
                *(envelopes if pooled else ()),  # drawn behind the means (z order)
            ],
            x_labels=labels,
            x_extent=(0, p.seq_len),
        )
        set_title(
            self.wave_view.plot, tr("(b) Waveforms PE[:, i]") + band_note(frame.wave_per_pixel)
        )
        kind = tr("cosine") if p.cosine else "PE·PEᵀ"
        # labels where each row (column) is one position and all are shown
        row_labels, col_labels = (
            labels if len(edges) == p.seq_len + 1 else None
            for edges in (frame.similarity_row_edges, frame.similarity_col_edges)
        )
        self.similarity_view.set_data(
            frame.similarity,
            x_edges=frame.similarity_col_edges,
            y_edges=frame.similarity_row_edges,
            row_labels=row_labels,
            col_labels=col_labels,
            extent=(p.seq_len, p.seq_len),
        )
        rows, cols = self.similarity_view.cell_span()
        set_title(
            self.similarity_view.plot,
            tr("(c) Similarity {0}").format(kind) + pooled_note(rows, cols, tr("positions")),
        )
        reference = min(p.reference_position, p.seq_len - 1)
        self.offset_view.set_curves(
            [
                Curve(
                    tr("Σᵢ cos(k·ωᵢ) (closed form)"),
                    frame.closed_form_offsets,
                    frame.closed_form,
                    dashed=True,
                ),
                Curve(
                    tr("PE(p)·PE(p+k), p = {0}").format(reference), frame.offsets, frame.by_offset
                ),
            ],
            x_extent=(-(p.seq_len - 1), p.seq_len),
        )
        set_title(self.offset_view.plot, tr(OFFSET_TITLE) + distances_note(frame.offset_per_pixel))
