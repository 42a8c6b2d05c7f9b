"""The Compare tab: every registered encoding's similarity against distance on one plot, and a
table of how the encodings differ. It knows no encoding: each brings its entry
(``posenc_gui.comparison.Entry``) through the registry."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QLabel,
    QSpinBox,
    QSplitter,
    QWidget,
)

from posenc_gui.choices import format_number
from posenc_gui.comparison import CRITERIA, Setting
from posenc_gui.controls import IntControl
from posenc_gui.i18n import N_, tr
from posenc_gui.pooled import distances_note
from posenc_gui.tab import Tab, TabContext
from posenc_gui.tabs.compare import SPEC
from posenc_gui.tabs.compare.compute import CompareFrame, CompareParams, compute_compare
from posenc_gui.tabs.compare.table import ComparisonTable
from posenc_gui.views import MAX_LINES_APART, Band, Curve, CurvesView
from posenc_gui.views.style import set_title

NOTE = N_(
    "Every curve is 1 at distance 0. Sinusoidal and RoPE: cosine similarity of one vector "
    "at positions p and p + k. ALiBi: e<sup>−m<sub>h</sub>k</sup>, the factor its bias "
    "multiplies attention by. T5 and Shaw: 1 − bucket (or clipped index) / the last one; flat "
    "where distances share a bucket or a vector and cannot be told apart."
)
TITLE = N_("Similarity against distance, normalised")
FIGURE_SHARE, TABLE_SHARE = 3, 2  # the page's height: the live figure first, the table scrolls
PLOT_HEIGHT = 120  # px of data at least (times the look's scale): the table gives way first


def _control(setting: Setting) -> IntControl | QSpinBox:
    if setting.slider:
        return IntControl(
            setting.name, setting.low, setting.high, setting.default, step=setting.step
        )
    box = QSpinBox(objectName=setting.name, minimum=setting.low, maximum=setting.high)
    box.setValue(setting.default)
    return box


class CompareTab(Tab):
    spec = SPEC
    compute = staticmethod(compute_compare)

    def __init__(self, context: TabContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.entries = context.compare_entries()
        self.settings = [setting for entry in self.entries for setting in entry.settings]
        self.setting_controls = {setting.name: _control(setting) for setting in self.settings}
        self.log_distance = QCheckBox(tr("logarithmic distance axis"), objectName="log_distance")
        for setting in self.settings:
            self.controls.addRow(tr(setting.label), self.setting_controls[setting.name])
        self.controls.addRow("", self.log_distance)
        for widget in (self.message, QLabel(tr(NOTE), wordWrap=True)):
            self.controls.addRow(widget)

        self.similarity_view = CurvesView(
            tr(TITLE),
            tr("relative distance k"),
            tr("similarity (1 at k = 0)"),
            min_plot_height=PLOT_HEIGHT,
            # a step to more ALiBi heads makes no item (a family's first line is named; more
            # than MAX_LINES_APART unnamed ones are one item)
            ahead=sum(min(entry.most_lines, MAX_LINES_APART + 1) for entry in self.entries),
        )
        self.table = ComparisonTable(
            [tr(c) for c in CRITERIA],
            [tr(entry.name) for entry in self.entries],
            [[tr(text) for text in entry.criteria] for entry in self.entries],
        )
        # The table can be dragged smaller, or away, to give the figure the whole page.
        figure_and_table = QSplitter(Qt.Orientation.Vertical, objectName="figure_and_table")
        figure_and_table.addWidget(self.similarity_view)
        figure_and_table.addWidget(self.table)
        figure_and_table.setCollapsible(0, False)
        figure_and_table.setStretchFactor(0, FIGURE_SHARE)
        figure_and_table.setStretchFactor(1, TABLE_SHARE)
        self.add_view("similarity", self.similarity_view, 0, 0, shown_in=figure_and_table)

        for control in self.setting_controls.values():
            control.valueChanged.connect(self._fit_minimums)
            control.valueChanged.connect(self.refresh)
        self.follow_views((self.similarity_view,))
        self.log_distance.toggled.connect(self.refresh)

    def setting_values(self) -> dict[str, int]:
        """Every entry's setting by name."""
        return {name: int(control.value()) for name, control in self.setting_controls.items()}

    def _fit_minimums(self) -> None:
        """Settings whose lower bound depends on others (T5's max_distance above its exact
        range) follow them."""
        for setting in self.settings:
            if setting.minimum is not None:
                low = setting.minimum(self.setting_values())
                self.setting_controls[setting.name].setRange(low, setting.high)

    def refresh(self) -> None:
        self.similarity_view.set_log(x=self.log_distance.isChecked())
        super().refresh()

    def _first_distance(self, seq_len: int) -> int:
        return 1 if self.log_distance.isChecked() and seq_len > 1 else 0

    def request(self, page: str | None = None) -> CompareParams:
        seq_len = self.parameters.seq_len.value()
        return CompareParams(
            seq_len=seq_len,
            d_model=self.parameters.d_model.value(),
            head_dim=self.parameters.head_dim.value(),
            theta=self.parameters.theta.value(),
            entries=self.entries,
            settings=tuple(self.setting_values().items()),
            x=self.similarity_view.x_window(self._first_distance(seq_len), seq_len),
        )

    def draw(self, frame: CompareFrame) -> None:
        p, k = frame.params, frame.distances
        keep = k > 0 if self._first_distance(p.seq_len) else np.ones_like(k, dtype=bool)
        k = k[keep]
        curves, bands = [], []
        for curve in frame.curves:
            label = tr(curve.label).format(**(curve.args or {}))
            rows = curve.values if curve.values.ndim == 2 else curve.values[None, :]
            # A family (ALiBi's heads) is one colour and one legend entry.
            curves += [
                Curve(label if i == 0 else "", k, row[keep], dashed=curve.dashed, color=curve.color)
                for i, row in enumerate(rows)
            ]
            if curve.std is not None:
                low, high = (curve.values - curve.std)[keep], (curve.values + curve.std)[keep]
                bands.append(Band(tr(curve.band_label), k, low, high, color=curve.color))
        self.similarity_view.set_curves(
            curves, bands=bands, x_extent=(self._first_distance(p.seq_len), p.seq_len)
        )
        title = tr(TITLE)
        # a linear axis's first pixel is then a mean (below 1); a log axis's first ones hold a
        # distance each
        if not self._first_distance(p.seq_len):
            title += distances_note(frame.per_pixel)
        set_title(self.similarity_view.plot, title)

    def caption_parameters(self) -> str:
        p = self.parameters
        settings = ", ".join(f"{name} {value}" for name, value in self.setting_values().items())
        return (
            f"d_model {p.d_model.value()}, head_dim {p.head_dim.value()}, "
            f"θ {format_number(p.theta.value())}, {settings}"
        )
