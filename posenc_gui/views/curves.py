"""A curves view: several named y(x) lines on one plot with a legend."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg

from posenc_gui.views.style import PALETTE, pen, style_plot

MAX_MARKED_POINTS = 64


@dataclass(frozen=True)
class Curve:
    name: str
    x: np.ndarray
    y: np.ndarray
    dashed: bool = False


class CurvesView(pg.PlotWidget):
    """Draws the curves it is handed; long curves are shown as min/max envelopes per pixel."""

    def __init__(
        self, title: str, x_label: str, y_label: str, parent: pg.QtWidgets.QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.plot = self.getPlotItem()
        style_plot(self.plot, title, x_label, y_label)
        self.plot.setClipToView(True)
        self.plot.setDownsampling(auto=True, mode="peak")  # envelopes, never a strided sample
        self.legend = self.plot.addLegend(
            offset=(-10, 10), labelTextSize="10pt", brush=(255, 255, 255, 210), pen="#999"
        )
        self.items: list[pg.PlotDataItem] = []

    def set_curves(self, curves: Sequence[Curve], *, x_labels: Sequence[str] | None = None) -> None:
        """Draw ``curves`` (replacing the previous ones); ``x_labels`` label x = 0, 1, …"""
        names = [curve.name for curve in curves]
        if names != [item.name() for item in self.items]:
            for item in self.items:
                self.plot.removeItem(item)
            self.legend.clear()
            self.items = [self.plot.plot(name=name) for name in names]
        for index, (item, curve) in enumerate(zip(self.items, curves, strict=True)):
            # Markers show that positions are discrete while there are few of them.
            marked = len(curve.x) <= MAX_MARKED_POINTS and not curve.dashed
            item.setData(
                curve.x,
                curve.y,
                pen=pen(index, dashed=curve.dashed),
                symbol="o" if marked else None,
                symbolSize=6,
                symbolBrush=PALETTE[index % len(PALETTE)],
                symbolPen=None,
            )
        ticks = None if x_labels is None else [list(enumerate(x_labels))]
        self.plot.getAxis("bottom").setTicks(ticks)
        self.plot.enableAutoRange()
