"""Curves 2 px wide at the cost of hair-lines.

Qt's raster engine strokes a line wider than 1 px through its general stroker: an antialiased
2 px curve across a view takes about 0.9 ms to paint, a 1 px one (its fast path) 0.07 ms. Six
such curves made a one-view page paint in 6 ms. On a raster device (the screen, a PNG) a solid,
opaque 2 px curve is therefore painted as its 1 px line three times, shifted by one device pixel
right and down (``SHIFTS``): 2 px across a horizontal or vertical stretch, 1.7 px along a
diagonal, in a third of the time. Vector output (SVG) keeps the true pen, and the item keeps it
too: its bounds, legend sample and export read it.
"""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QPaintEngine, QPainter, QPen, QTransform

SHIFTS = ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0))  # device pixels: a 1 px line at each covers 2 px
WIDE_PX = 2.0  # the width drawn by shifted hair-lines


class WideLineCurve(pg.PlotCurveItem):
    """A curve item painting a solid, opaque, cosmetic 2 px line as shifted 1 px lines on a
    raster device; anything else as pyqtgraph does."""

    def paint(self, painter: QPainter, option: Any, widget: Any) -> None:
        pen = self.opts["pen"]
        if not _by_hair_lines(painter, pen, self.opts):
            super().paint(painter, option, widget)
            return
        hair = QPen(pen)
        hair.setWidthF(1.0)
        world = painter.transform()
        self.opts["pen"] = hair
        try:
            for dx, dy in SHIFTS:  # a translation after the world transform: device pixels
                painter.setTransform(world * QTransform.fromTranslate(dx, dy))
                super().paint(painter, option, widget)
        finally:
            painter.setTransform(world)
            self.opts["pen"] = pen


def _by_hair_lines(painter: QPainter, pen: QPen | None, opts: dict[str, Any]) -> bool:
    """Whether ``pen`` may be drawn as shifted hair-lines: 2 px, cosmetic, solid and opaque
    (overlapping shifts would darken a translucent line), on a raster device, with no fill
    or shadow (they would be painted at each shift)."""
    return (
        pen is not None
        and pen.widthF() == WIDE_PX
        and pen.isCosmetic()
        and pen.style() == Qt.PenStyle.SolidLine
        and pen.color().alpha() == 255
        and opts["fillLevel"] is None
        and opts["shadowPen"] is None
        and painter.paintEngine().type() == QPaintEngine.Type.Raster
    )


class CurveItem(pg.PlotDataItem):
    """pyqtgraph's PlotDataItem with its line drawn by a ``WideLineCurve``."""

    def __init__(self) -> None:
        super().__init__()
        plain: pg.PlotCurveItem = self.curve
        plain.setParentItem(None)
        self.curve: pg.PlotCurveItem = WideLineCurve()
        self.curve.setParentItem(self)
        self.curve.stackBefore(self.scatter)  # the line under the points, as pyqtgraph's
        self.curve.sigClicked.connect(self.sigClicked)
