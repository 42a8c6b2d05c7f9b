"""Shaded bands (mean ± std) that paint in about a millisecond however jagged they are.

Qt's raster engine fills a polygon by its crossings with each scanline: a band of a thousand
points whose edges zig-zag (a standard deviation over a million distances, a pixel each) took
17-67 ms to fill, most of a Compare frame. On a raster device (the screen, a PNG) ``BandFill``
paints the same area column by column instead: at the centre of each device pixel column it
spans, a 1 px line from the low edge to the high one, both interpolated linearly between the
points as the outline joins them. Each column is drawn once, so the translucent colour is
blended once, as the fill blends it. Vector output (SVG) and any transform other than scaling
and moving keep the filled outline. Envelopes paint their strokes' band the same way
(``device_columns``, ``views.wide_lines``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyqtgraph as pg
from pyqtgraph.graphicsItems.PlotCurveItem import arrayToLineSegments
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPaintEngine, QPainter, QPainterPath, QPen, QTransform

from posenc_gui.views.curve_specs import Band
from posenc_gui.views.data_bounds import mapped
from posenc_gui.views.style import current_look
from posenc_gui.views.unchanged import same_input

_SCALING = (  # transforms that keep device columns vertical
    QTransform.TransformationType.TxNone,
    QTransform.TransformationType.TxTranslate,
    QTransform.TransformationType.TxScale,
)


class BandFill(pg.FillBetweenItem):
    """A fill between two curves (``x`` increasing, the same for both) painted as device pixel
    columns on a raster device. Its filled outline (pyqtgraph's, which it made anew at each
    change of either curve: 1.1 ms for 512 points, 4.5 for 2,000, every frame of a page with a
    band) is made only for a paint that fills it: an SVG's, or where the columns cannot be
    drawn (an edge not finite). Its bounds are its data's, and so is its shape: nothing
    hit-tests a band, and an outline made at the first mouse move after each change would cost
    what the columns save."""

    _bounds = QRectF()  # the curves' finite points' (replaced, never changed in place)
    _outline: QPainterPath | None = None  # made at the first paint that fills it

    def updatePath(self) -> None:
        """At each change of either curve (pyqtgraph's name): new bounds, the outline due."""
        self.prepareGeometryChange()  # before the bounds change
        self._bounds = _data_rect(self.curves)
        self._outline = None
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(self._bounds)

    def shape(self) -> QPainterPath:
        shape = QPainterPath()
        shape.addRect(self._bounds)
        return shape

    def paint(self, painter: QPainter, option: Any, widget: Any = None) -> None:
        columns = None
        if painter.paintEngine().type() == QPaintEngine.Type.Raster and self.curves is not None:
            low, high = self.curves
            if low.xData is not None and np.array_equal(low.xData, high.xData):
                columns = device_columns(
                    painter, low.xData, low.yData, high.yData, painter.device().width()
                )
        if columns is not None:
            paint_columns(painter, columns, self.brush().color())
            return
        if self._outline is None:
            self._outline = _filled_outline(self.curves, self.fillRule())
        painter.setPen(self.pen())  # as QGraphicsPathItem paints its path
        painter.setBrush(self.brush())
        painter.drawPath(self._outline)


def _filled_outline(curves: list[pg.PlotCurveItem] | None, rule: Qt.FillRule) -> QPainterPath:
    """pyqtgraph's ``FillBetweenItem.updatePath``: each stretch of the first curve joined to
    the same stretch of the second, reversed; empty where either has none."""
    outline = QPainterPath()
    outline.setFillRule(rule)
    if curves is None:
        return outline
    first = curves[0].getPath().toSubpathPolygons()
    second = curves[1].getPath().toReversed().toSubpathPolygons()
    second.reverse()
    for there, back in zip(first, second, strict=False):
        outline.addPolygon(there + back)
    return outline


def _data_rect(curves: list[pg.PlotCurveItem] | None) -> QRectF:
    """The least rectangle holding both curves' finite points (empty where there are none)."""
    if curves is None or any(curve.xData is None for curve in curves):
        return QRectF()
    xs = np.concatenate([curve.xData for curve in curves])
    ys = np.concatenate([curve.yData for curve in curves])
    finite = np.isfinite(xs) & np.isfinite(ys)
    if not finite.any():
        return QRectF()
    (left, right), (top, bottom) = (
        (float(values[finite].min()), float(values[finite].max())) for values in (xs, ys)
    )
    return QRectF(left, top, right - left, bottom - top)


def band_fill(band: Band, log: tuple[bool, bool]) -> BandFill:
    """A fill drawing ``band`` (under the curves) on axes logarithmic where ``log`` says."""
    x, low_y, high_y = _band_data(band, log)
    colour = pg.mkColor(current_look().colour(band.color))
    colour.setAlpha(60)
    fill = BandFill(pg.PlotCurveItem(x, low_y), pg.PlotCurveItem(x, high_y), brush=colour)
    fill.setZValue(0)
    return fill


def update_band_fill(fill: BandFill, band: Band, log: tuple[bool, bool]) -> None:
    """``fill`` drawing ``band`` instead; its curves set again only if it moved."""
    x, low_y, high_y = _band_data(band, log)
    low, high = fill.curves
    if same_input((x, low_y, high_y), (low.xData, low.yData, high.yData)):
        return
    low.blockSignals(True)  # the fill follows once, when the second one changes
    low.setData(x, low_y)
    low.blockSignals(False)
    high.setData(x, high_y)


def _band_data(band: Band, log: tuple[bool, bool]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x, low, high of a band in view coordinates: a fill's curves do not follow the plot's
    log mode (its data items do), so they are mapped here."""
    x = mapped(band.x, log[0])
    low, high = (mapped(y, log[1]) for y in (band.low, band.high))
    return x, low, high


def paint_columns(painter: QPainter, columns: Any, colour: QColor) -> None:
    """Draw ``device_columns`` in ``colour``, each device pixel once."""
    pen = QPen(colour)
    pen.setWidth(1)
    painter.save()
    try:
        painter.resetTransform()  # the columns are in device pixels
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)  # each column once
        painter.setPen(pen)
        painter.drawLines(*columns.drawargs())
    finally:
        painter.restore()


def device_columns(
    painter: QPainter,
    x: np.ndarray,
    low_y: np.ndarray,
    high_y: np.ndarray,
    device_width: int,
    *,
    strokes: bool = False,
) -> Any:
    """The area between ``low_y`` and ``high_y`` over ``x`` (data coordinates, as the
    outline joins the points) as vertical 1 px lines at the centres of the device columns it
    spans within ``0 … device_width``, as pyqtgraph's line segments; None where it cannot be
    drawn so (a rotation, edges not finite, x not increasing, fewer than two points). With
    ``strokes`` each point is a stroke from its low to its high value, which the column it
    falls in covers whole (a lone tall pixel keeps its height between its neighbours)."""
    world = painter.transform()
    if world.type() not in _SCALING or len(x) < 2:
        return None
    if not (np.isfinite(low_y).all() and np.isfinite(high_y).all()):
        return None
    px = x * world.m11() + world.dx()
    steps = np.diff(px)
    if (steps <= 0).all():  # a mirrored x axis
        px, low_y, high_y, steps = px[::-1], low_y[::-1], high_y[::-1], -steps[::-1]
    if not (steps > 0).all():
        return None
    first = max(math.ceil(px[0] - 0.5), 0)
    last = min(math.floor(px[-1] - 0.5), device_width - 1)
    centres = np.arange(first, last + 1) + 0.5
    low_px, high_px = (y * world.m22() + world.dy() for y in (low_y, high_y))
    edges = [np.interp(centres, px, y) for y in (low_px, high_px)]
    if strokes:  # device y grows downwards or upwards (an inverted axis): by least and most
        edges = [np.minimum(*edges), np.maximum(*edges)]
        column = np.floor(px).astype(np.int64) - first
        inside = (column >= 0) & (column < len(centres))
        np.minimum.at(edges[0], column[inside], np.minimum(low_px, high_px)[inside])
        np.maximum.at(edges[1], column[inside], np.maximum(low_px, high_px)[inside])
    ends = np.stack(edges, 1).ravel()
    return arrayToLineSegments(np.repeat(centres, 2), ends, connect="pairs", finiteCheck=False)
