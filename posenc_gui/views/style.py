"""Look shared by every view: light background for projectors, large fonts, safe colours."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QFont

# Okabe & Ito's colour-blind-safe palette (black first for the most important curve).
PALETTE = ("#000000", "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442")
DIVERGING = "CET-D1"  # blue–white–red, perceptually uniform, colour-blind friendly
SEQUENTIAL = "viridis"
CYCLIC = "CET-CBC1"  # colour-blind-safe cyclic map for angles
TICK_FONT = QFont()
TICK_FONT.setPointSize(10)


def configure_pyqtgraph() -> None:
    """Global pyqtgraph options; call once before the first view exists."""
    pg.setConfigOptions(imageAxisOrder="row-major", background="w", foreground="k", antialias=True)


class CompactAxis(pg.AxisItem):
    """Tick labels that stay short at a million positions: 250k, 1.05M."""

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        if max((abs(v) for v in values), default=0) < 10_000:
            return super().tickStrings(values, scale, spacing)
        return [_compact(v * scale) for v in values]


def _compact(value: float) -> str:
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= limit:
            return f"{value / limit:.3g}{suffix}"
    return f"{value:g}"


def style_plot(plot: pg.PlotItem, title: str, x_label: str, y_label: str) -> None:
    """Title, axis labels and readable tick fonts for one plot."""
    plot.setTitle(title, size="12pt")
    plot.setAxisItems({"bottom": CompactAxis("bottom"), "left": CompactAxis("left")})
    for side, label in (("bottom", x_label), ("left", y_label)):
        axis = plot.getAxis(side)
        axis.setLabel(label, **{"font-size": "11pt"})
        axis.setTickFont(TICK_FONT)
        axis.enableAutoSIPrefix(False)  # "×0.001" scaling confuses more than it helps
    plot.showGrid(x=True, y=True, alpha=0.15)


def pen(color: int | str, *, dashed: bool = False, width: float = 2.0) -> pg.QtGui.QPen:
    """A curve pen: ``color`` is a palette index or a colour name."""
    style = pg.QtCore.Qt.PenStyle.DashLine if dashed else pg.QtCore.Qt.PenStyle.SolidLine
    if isinstance(color, int):
        color = PALETTE[color % len(PALETTE)]
    return pg.mkPen(color, width=width, style=style)
