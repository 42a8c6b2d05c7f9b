"""Many lines as one item.

A curves view draws each curve through a pyqtgraph item of its own, and a new frame of a
curve costs its item about 0.15 ms of Python (new data, a new colour) and its paint another
0.14 ms. ALiBi's heads each have a colour of their own that every new number of heads changes:
a step from 8 heads to 128 at 512 positions drew that view in 42 ms and painted it in 30.
``LinesItem`` holds the unnamed solid lines of such a view and paints them all in one call,
each as an item of its own would (its straight runs dropped on screen, found for all lines
over the same x at once), whole, in its own pen: 13 and 6 ms.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg
from pyqtgraph.graphicsItems.PlotCurveItem import arrayToLineSegments
from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter, QPen, QTransform

from posenc_gui.views.curve_specs import Curve, Style, crowded, style_of
from posenc_gui.views.data_bounds import Points, mapped
from posenc_gui.views.style import current_look, pen
from posenc_gui.views.unchanged import same_input
from posenc_gui.views.wide_lines import SHIFTS, by_hair_lines, hair_line, straight_runs_kept

PEN_REACH = 0.7072  # of a cosmetic pen's width: how far it draws beyond a point (pyqtgraph's)
# unnamed solid lines a view draws through items of their own at most; more are drawn together
MAX_LINES_APART = 16

Styled = tuple[Curve, Style]


def apart_and_together(curves: Sequence[Curve]) -> tuple[list[Styled], list[Styled]]:
    """``curves`` with their styles: those drawn by an item each, and those drawn together by
    a ``LinesItem``: the unnamed solid lines, where there are more than ``MAX_LINES_APART``
    of them (none else: a legend entry, dashes and scatter markers need an item). A view
    drawing lines together marks no line's points (as a crowded one)."""
    plain = [
        not (curve.name or curve.dashed or curve.scatter or curve.envelope) for curve in curves
    ]
    together = sum(plain) > MAX_LINES_APART
    many = together or crowded(curves)
    styled = [(curve, style_of(curve, index, crowded=many)) for index, curve in enumerate(curves)]
    if not together:
        return styled, []
    return (
        [line for line, alone in zip(styled, plain, strict=True) if not alone],
        [line for line, alone in zip(styled, plain, strict=True) if alone],
    )


class LinesItem(pg.GraphicsObject):
    """Lines ``y(x)``, each in its own cosmetic pen, drawn as the curves view's own items
    draw a solid line: its finite points joined segment by segment (pyqtgraph's
    ``segmentedLineMode``), a 2 px opaque line on screen as shifted hair-lines
    (``wide_lines.SHIFTS``) through the points its straight runs keep; exports stroke every
    line with its pen through its every finite point."""

    def __init__(self) -> None:
        super().__init__()
        self._given: tuple[object, ...] | None = None  # what set_lines drew last
        self._data: list[tuple[np.ndarray, np.ndarray]] = []  # finite x, y in view coordinates
        self._pens: list[QPen] = []
        self._hair_pens: list[QPen] = []
        self._screen: list[Any] = []  # each line's segments painted on screen
        self._data_rect = QRectF()
        self._bounds: QRectF | None = None  # the data's rectangle and the pens' reach
        self.hide()  # shown while it draws lines

    def set_lines(self, lines: Sequence[Styled], log: tuple[bool, bool]) -> None:
        """Draw ``lines`` (solid: ``apart_and_together``) instead of those drawn, on axes
        logarithmic where ``log`` says; lines as drawn are left as they are."""
        given = (lines, log, current_look())
        if same_input(given, self._given):
            return
        self._given = given
        self.prepareGeometryChange()
        self._data = [_finite(mapped(line.x, log[0]), mapped(line.y, log[1])) for line, _ in lines]
        self._pens = [pen(colour, width=look[3]) for _, (colour, look) in lines if look]
        self._hair_pens = [hair_line(line_pen) for line_pen in self._pens]
        kept = _straight_runs_kept(self._data)
        self._screen = [_segments(x[k], y[k]) for (x, y), k in zip(self._data, kept, strict=True)]
        x = np.concatenate([x for x, _ in self._data]) if lines else np.empty(0)
        y = np.concatenate([y for _, y in self._data]) if lines else np.empty(0)
        self._data_rect = QRectF(x.min(), y.min(), np.ptp(x), np.ptp(y)) if len(x) else QRectF()
        self._bounds = None
        self.setVisible(bool(lines))  # none: nothing for a range to fit (pyqtgraph's own search)
        self.informViewBoundsChanged()  # the view fits its range anew
        self.update()

    def bounded(self, lines: Sequence[Styled]) -> list[Points]:
        """What bounds ``lines`` drawn by this item (``DataBounds``): one set of points."""
        if not lines:
            return []
        x = np.concatenate([line.x for line, _ in lines])
        y = np.concatenate([line.y for line, _ in lines])
        return [(x, y, self.pixelPadding(), self)]

    def pixelPadding(self) -> float:
        """Pixels the pens draw beyond the points, at most."""
        return max((p.widthF() * PEN_REACH for p in self._pens if p.isCosmetic()), default=0.0)

    def boundingRect(self) -> QRectF:
        if self._bounds is None:
            px, py = self.pixelVectors()
            reach = self.pixelPadding()
            dx = 0.0 if px is None else px.length() * reach
            dy = 0.0 if py is None else py.length() * reach
            self._bounds = self._data_rect.adjusted(-dx, -dy, dx, dy)
        return self._bounds

    def viewTransformChanged(self) -> None:
        """A new range: the pens' reach in view coordinates changes."""
        super().viewTransformChanged()
        self._bounds = None
        self.prepareGeometryChange()

    def paint(self, painter: QPainter, option: Any, widget: Any) -> None:
        exporting = self._exportOpts is not False
        # as pyqtgraph's curves: its configured antialiasing on screen, an export's own
        antialias = (
            self._exportOpts.get("antialias", True)
            if exporting
            else pg.getConfigOption("antialias")
        )
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, antialias)
        # the last line first: each is drawn over those after it, as items of their own are
        # stacked (the first on top: ``curve_specs.ORDER_STEP``)
        if exporting:
            for (x, y), line_pen in reversed(list(zip(self._data, self._pens, strict=True))):
                painter.setPen(line_pen)
                painter.drawLines(*_segments(x, y).drawargs())
            return
        world = painter.transform()
        for segments, line_pen, hair_pen in reversed(
            list(zip(self._screen, self._pens, self._hair_pens, strict=True))
        ):
            if not by_hair_lines(painter, line_pen):
                painter.setPen(line_pen)
                painter.drawLines(*segments.drawargs())
                continue
            # each line whole over those after it, as items of their own would be
            painter.setPen(hair_pen)
            for dx, dy in SHIFTS:  # a translation after the world transform: device pixels
                painter.setTransform(world * QTransform.fromTranslate(dx, dy))
                painter.drawLines(*segments.drawargs())
        painter.setTransform(world)


def _finite(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The points of a line drawn: both coordinates finite (not NaN, nor a non-positive
    value on a log axis); pyqtgraph's items join the points either side of a gap too."""
    finite = np.isfinite(x) & np.isfinite(y)
    return (x, y) if finite.all() else (x[finite], y[finite])


def _segments(x: np.ndarray, y: np.ndarray) -> Any:
    """A line's segments, point to point, as pyqtgraph's ``segmentedLineMode`` paints them."""
    return arrayToLineSegments(x, y, connect="all", finiteCheck=False)


def _straight_runs_kept(lines: Sequence[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """Which points of each line are painted on screen (``wide_lines.straight_runs_kept``),
    found for each run of lines over the same x at once."""
    kept: list[np.ndarray] = []
    start = 0
    while start < len(lines):
        x = lines[start][0]
        end = start + 1
        while end < len(lines) and _same(lines[end][0], x):
            end += 1
        rows = np.stack([y for _, y in lines[start:end]])
        kept += list(straight_runs_kept(x, rows))
        start = end
    return kept


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a is b or (a.shape == b.shape and bool(np.array_equal(a, b)))
