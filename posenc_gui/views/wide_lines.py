"""Curves 2 px wide at the cost of hair-lines, on screen.

Qt's raster engine strokes a line wider than 1 px through its general stroker: an antialiased
2 px curve across a view takes about 0.9 ms to paint (a dashed one 1.7 ms), a 1 px one (its
fast path) 0.07 ms. Six such curves made a one-view page paint in 6 ms. On screen an opaque
2 px curve is therefore painted as its antialiased 1 px line four times (``SHIFTS``): half a
device pixel up-left, up-right and down-left, which covers 2 px across and down centred on the
curve, and once on it, for a core nearly as opaque as the stroke's; in about 40 % of the time.
Dashes keep their length (a pen's dash pattern counts in its widths). Exports (PNG, SVG) keep
the true stroke, and the item keeps its pen: its bounds and legend sample read it. Its straight
runs are painted from their ends and a point in 64 (``straight_runs_dropped``): a path's points,
not its length, set the cost, and ALiBi's heads are straight lines of a point per pixel (128
heads repainted in 18 ms, now 10; the first paint of new data finds the runs, about as
long); the item keeps its data.

An envelope (a pixel's least to largest value as a vertical 1 px stroke, ``connect="pairs"``)
is painted on screen as the band its strokes cover, one device column at a time, each at least
as tall as the strokes in it (``bands.device_columns``): antialiased strokes 1.3 px apart left
lighter stripes between them and took 0.75 ms a waveform at 2^20 positions, the columns
0.48 ms. Exports keep the strokes.

``CurveItem``, the curves view's item, also skips pyqtgraph's re-display of its data at each new
y range where that range clips none of it (``viewRangeChanged``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QPaintEngine, QPainter, QPen, QTransform

from posenc_gui.views.bands import device_columns, paint_columns

# device pixels: three 1 px lines cover 2 px; where they overlap they cover a pixel 84 % or
# so, with the fourth on the curve over 90 %
SHIFTS = ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.0, 0.0))
WIDE_PX = 2.0  # the width drawn by shifted hair-lines
# what a PlotCurveItem paints from, and what making its path drops: its data, the path and
# line segments made of it, the fill and mouse shape made of the path
PAINTED_FROM = ("xData", "yData", "path", "_lineSegments", "_lineSegmentsRendered")
PATH_MADE_OF = ("fillPath", "_fillPathList", "_mouseShape")


class WideLineCurve(pg.PlotCurveItem):
    """A curve item painting, on a raster device outside an export, an opaque cosmetic 2 px
    line as shifted 1 px lines and an opaque envelope as device columns; anything else as
    pyqtgraph does."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the points painted for the data ``_fewer_of`` (``_straight_runs_dropped``)
        self._fewer_of: np.ndarray | None = None
        self._fewer: tuple[np.ndarray, np.ndarray] | None = None

    def paint(self, painter: QPainter, option: Any, widget: Any) -> None:
        pen = self.opts["pen"]
        if self._exportOpts is False and (columns := self._strokes_as_columns(painter)):
            paint_columns(painter, columns, pen.color())
            return
        if (
            self._exportOpts is not False
            or not _plain(self.opts)
            or not by_hair_lines(painter, pen)
        ):
            super().paint(painter, option, widget)
            return
        world = painter.transform()
        self.opts["pen"] = hair_line(pen)
        # pyqtgraph's data and what it made of it, for the points painted in their place
        kept = {name: self.__dict__[name] for name in PAINTED_FROM + PATH_MADE_OF}
        if (fewer := self._straight_runs_dropped()) is not None:
            self.__dict__.update(zip(PAINTED_FROM, (*fewer, None, None, False), strict=True))
        try:
            for dx, dy in SHIFTS:  # a translation after the world transform: device pixels
                painter.setTransform(world * QTransform.fromTranslate(dx, dy))
                super().paint(painter, option, widget)
        finally:
            painter.setTransform(world)
            self.opts["pen"] = pen
            self.__dict__.update(kept)

    def _straight_runs_dropped(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The points painted on screen where they are fewer than the data's: without those
        inside its straight runs (``straight_runs_dropped``; ALiBi's heads are straight lines
        of a point per pixel, and the points, not the length, set the cost of painting)."""
        y = self.yData
        if self._fewer_of is not y:  # new data (a new view of it, at least), or none
            self._fewer_of, self._fewer = y, None
            connect = self.opts["connect"]
            straight = isinstance(connect, str) and connect == "all" and not self.opts["stepMode"]
            if y is not None and straight:
                kept = straight_runs_dropped(self.xData, y)
                self._fewer = kept if len(kept[0]) < len(y) else None
        return self._fewer

    def _strokes_as_columns(self, painter: QPainter) -> Any:
        """An envelope (vertical strokes ``connect="pairs"`` from ``y[2k]`` to ``y[2k+1]`` at
        ``x[2k]``) in an opaque solid pen, no fill or shadow, as ``bands.device_columns``;
        None for anything else. Data clipped to the view may start or end with half a pair
        (pyqtgraph keeps a point either side): that half is left out."""
        pen, x, y = self.opts["pen"], self.xData, self.yData
        if (
            not isinstance(self.opts["connect"], str)
            or self.opts["connect"] != "pairs"
            or not _plain(self.opts)
            or not opaque_on_raster(painter, pen)
            or pen.style() != Qt.PenStyle.SolidLine
            or x is None
            or len(x) < 2
        ):
            return None
        if x[0] != x[1]:
            x, y = x[1:], y[1:]
        if len(x) % 2:
            x, y = x[:-1], y[:-1]
        if not np.array_equal(x[0::2], x[1::2]):
            return None
        low, high = np.minimum(y[0::2], y[1::2]), np.maximum(y[0::2], y[1::2])
        width = painter.device().width()
        return device_columns(painter, x[0::2], low, high, width, strokes=True)


STRAIGHT = 1e-6  # of a curve's height: the most a dropped point lies off its chord
SAME_SLOPE = 1e-3  # of the curve's height over its width: slopes of a straight run's steps
# points a straight run spans at most: Qt places an antialiased line that the view clips about
# half a pixel off where it strokes it, the longer the line (runs of 64 are as the full data)
LONGEST_RUN = 64


def straight_runs_dropped(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``x, y`` (a function of increasing x) without the points of its straight runs but their
    ends and every ``LONGEST_RUN``-th: none dropped lies farther than ``STRAIGHT`` of the
    curve's height from the chord between the points kept either side of it, a millionth of a
    view's height. Data that is not finite, increasing and at least three points long comes
    back as it is."""
    kept = straight_runs_kept(x, np.asarray(y)[None, :])[0]
    return (x, y) if kept.all() else (x[kept], y[kept])


def straight_runs_kept(x: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """``[rows, points]``: which points of each row of ``ys`` (curves over the same ``x``)
    ``straight_runs_dropped`` keeps, for all rows at once; all of a row that is not finite,
    and all where ``x`` is not increasing or shorter than three points."""
    rows, n = ys.shape
    keep = np.ones((rows, n), dtype=bool)
    finite = np.isfinite(ys).all(axis=1)
    if n < 3 or not np.isfinite(x).all() or not finite.any():
        return keep
    dx = np.diff(x)
    if not (dx > 0).all():
        return keep
    ys = np.where(finite[:, None], ys, 0.0)  # rows not finite keep all (below)
    height, width = np.ptp(ys, axis=1)[:, None].astype(float), float(x[-1] - x[0])
    slopes = np.diff(ys, axis=1) / dx
    keep[:, 1:-1] = np.abs(np.diff(slopes, axis=1)) > SAME_SLOPE * height / width
    keep[:, ::LONGEST_RUN] = True
    keep[~finite] = True
    index = np.arange(n)
    for _ in range(8):  # points too far off their chord are kept, and the chords made anew
        left = np.maximum.accumulate(np.where(keep, index, 0), axis=1)
        right = np.minimum.accumulate(np.where(keep, index, n - 1)[:, ::-1], axis=1)[:, ::-1]
        span = np.where(keep, 1.0, x[right] - x[left])  # a kept point is its own chord
        low, high = np.take_along_axis(ys, left, 1), np.take_along_axis(ys, right, 1)
        chord = low + (high - low) * (x - x[left]) / span
        off = ~keep & (np.abs(ys - chord) > STRAIGHT * height)
        if not off.any():
            return keep
        keep |= off
    keep[off.any(axis=1)] = True  # rows that did not settle keep all
    return keep


def by_hair_lines(painter: QPainter, pen: QPen | None) -> bool:
    """Whether ``pen`` may be drawn as shifted hair-lines: 2 px, cosmetic and opaque
    (overlapping shifts would darken a translucent line), on a raster device."""
    return (
        opaque_on_raster(painter, pen)
        and pen is not None
        and pen.widthF() == WIDE_PX
        and pen.style() != Qt.PenStyle.NoPen
    )


def hair_line(pen: QPen) -> QPen:
    """``pen`` 1 px wide, with the same dashes in pixels (a dash pattern counts in widths)."""
    hair = QPen(pen)
    hair.setWidthF(1.0)
    if pen.style() != Qt.PenStyle.SolidLine:
        hair.setDashPattern([length * WIDE_PX for length in pen.dashPattern()])
        hair.setDashOffset(pen.dashOffset() * WIDE_PX)
    return hair


def opaque_on_raster(painter: QPainter, pen: QPen | None) -> bool:
    """Whether a ``pen`` is cosmetic and opaque on a raster device: what both screen-only
    ways of painting a curve need."""
    engine = painter.paintEngine()  # None where the painter could not begin (no memory)
    return (
        pen is not None
        and pen.isCosmetic()
        and pen.color().alpha() == 255
        and engine is not None
        and engine.type() == QPaintEngine.Type.Raster
    )


def _plain(opts: dict[str, Any]) -> bool:
    """Whether a curve item has no fill or shadow (painted at each shift, they would
    darken)."""
    return opts["fillLevel"] is None and opts["shadowPen"] is None


class CurveItem(pg.PlotDataItem):
    """pyqtgraph's PlotDataItem with its line drawn by a ``WideLineCurve``, handing its curve
    its data again only where a new view range changes what is displayed."""

    def __init__(self) -> None:
        super().__init__()
        plain: pg.PlotCurveItem = self.curve
        plain.setParentItem(None)
        self.curve: pg.PlotCurveItem = WideLineCurve()
        self.curve.setParentItem(self)
        self.curve.stackBefore(self.scatter)  # the line under the points, as pyqtgraph's
        self.curve.sigClicked.connect(self.sigClicked)
        self._clipped = True  # whether the display may hold clipped values (not known yet)
        # set by a view about to change its axes and hand its curves their data for them
        self.map_with_next_data = False
        self.log_mode_due = False  # axes changed since the data was last mapped

    def setLogMode(self, xState: bool, yState: bool) -> None:
        """pyqtgraph's; but where the view hands the data for the new axes right after
        (``map_with_next_data``), the data is mapped then, by ``updateItems`` (``setData``
        calls it) or ``follow_log_mode``, not at once as well (Compare's log distance axis
        derived each curve twice)."""
        if not self.map_with_next_data:
            super().setLogMode(xState, yState)  # an item added to a log plot: mapped now
            return
        if self.opts["logMode"] == [xState, yState]:
            return
        self.opts["logMode"] = [xState, yState]
        self._datasetMapped = None  # what pyqtgraph's own setLogMode drops
        self._datasetDisplay = None
        self._adsLastValue = 1
        self.log_mode_due = True

    def updateItems(self, styleUpdate: bool = True) -> None:
        self.map_with_next_data = self.log_mode_due = False
        super().updateItems(styleUpdate)

    def follow_log_mode(self) -> None:
        """Map the data on to axes changed since (``setLogMode``), where no new data did."""
        if self.log_mode_due:
            self.updateItems(styleUpdate=False)
            self.informViewBoundsChanged()
        self.map_with_next_data = False

    def _getDisplayDataset(self) -> Any:
        cached = self._datasetDisplay
        display = super()._getDisplayDataset()
        if display is not cached:  # derived anew for the view as it is now
            self._clipped = self._may_clip()
        return display

    def viewRangeChanged(self, vb: Any = None, ranges: Any = None, changed: Any = None) -> None:
        """pyqtgraph derives the displayed data anew at every change of the y range, in case
        it must be clipped to ``dynamicRangeLimit`` view heights, and hands it to the curve
        again (0.1–0.2 ms a curve, its bounds and the view's auto-range anew: a third of the
        Absolute tab's curves' drawing). A y range that clips nothing, nor did before, changes
        nothing displayed (an x range does where the data is clipped to the view or
        downsampled)."""
        x_changed = changed is None or changed[0]
        y_changed = changed is None or changed[1]
        derive = (x_changed and (self.opts["clipToView"] or self.opts["autoDownsample"])) or (
            y_changed and (self._clipped or self._may_clip())
        )
        if derive and self._dataset is not None:
            super().viewRangeChanged(vb, ranges, changed)
            return
        # what pyqtgraph notes of a change, for the display derived next
        if x_changed:
            self.setProperty("xViewRangeWasChanged", True)
        if y_changed:
            self.setProperty("yViewRangeWasChanged", True)

    def _may_clip(self) -> bool:
        """Whether pyqtgraph could clip this data in the current view: data taller than
        ``2 · dynamicRangeHyst · dynamicRangeLimit`` view heights (or not known yet)."""
        limit = self.opts["dynamicRangeLimit"]
        if limit is None:
            return False
        mapped = self._datasetMapped
        data = None if mapped is None else mapped.dataRect()
        box = self.getViewBox()
        view = None if box is None else box.viewRect()  # as pyqtgraph reads it: up to date
        if data is None or view is None:
            return True
        return bool(data.height() > 2 * self.opts["dynamicRangeHyst"] * limit * view.height())
