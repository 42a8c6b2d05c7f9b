"""Where a curves view's data lies, known from its arrays.

pyqtgraph fits a view's range to its data by asking every item for its bounds on each axis
(``ViewBox.childrenBounds``): a Python call per item and axis, each masking its data again, a
millisecond or more per frame on a view of a dozen curves. A curves view knows what it hands
its items, so ``DataBounds`` answers the same question with one numpy reduction per array,
and ``BoundedViewBox`` asks it instead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg

Range = list[float] | None  # [low, high] on one axis, None where nothing is drawn
# x, y, pixels drawn beyond each point, and the item drawing them (hidden: they bound nothing)
Points = tuple[np.ndarray, np.ndarray, float, pg.GraphicsObject | None]
Marks = tuple[Sequence[float], Sequence[float]]  # x positions, y positions
FLAT = 1e-12  # values closer than this (about 4,500 ulps) relative to their size are one value
FLAT_ROOM = 0.05  # of such a value, the range around it (0.5 at least; half a decade on log)
# a fitted range whose ends move less than this many pixels keeps its ends: nothing moves on
# screen, and the view's axes, grid and items need not follow a new range
STEADY_PX = 0.1


class DataBounds:
    """The points (x, y, and how many pixels a marker or a pen draws beyond them) and the
    reference positions (a vertical line's x, a horizontal line's y, a span's ends) of a view,
    in its view coordinates (log10 of the data on a log axis)."""

    def __init__(self) -> None:
        # [2, N] x, y (both finite: the points drawn), pixels beyond them, their item
        self._points: list[tuple[np.ndarray, float, pg.GraphicsObject | None]] = []
        self._marks: tuple[list[float], list[float]] = ([], [])  # x positions, y positions
        self._data: tuple[Sequence[Points], Marks] = ((), ((), ()))
        self._log = (False, False)

    def set(self, points: Sequence[Points], marks: Marks) -> None:
        """``points``: (x, y, padding px, item) in data units; ``marks``: (x, y) positions in
        data units."""
        self._data = (points, marks)
        self._map()

    def set_log(self, log: tuple[bool, bool]) -> None:
        """Which axes map the data to log10 (non-positive values are not drawn there, so
        they bound nothing)."""
        self._log = log
        self._map()

    def _map(self) -> None:
        (points, marks), log = self._data, self._log
        self._points = []
        for x, y, padding, item in points:
            xy = np.stack([mapped(x, log[0]), mapped(y, log[1])])
            xy = xy[:, np.isfinite(xy).all(0)]
            if xy.shape[1]:
                self._points.append((xy, padding, item))
        self._marks = tuple(  # type: ignore[assignment]
            [v for v in (float(mapped(value, on_log)) for value in values) if math.isfinite(v)]
            for values, on_log in zip(marks, log, strict=True)
        )

    def extent(self, within: Sequence[Range], lengths: tuple[float, float]) -> list[Range]:
        """``[x range, y range]`` as ``ViewBox.childrenBounds`` gives it for the points drawn
        (both coordinates finite, their item shown): each axis over the points whose other
        coordinate lies ``within`` (None: all), widened by the markers' pixels for a view
        ``lengths`` (width, height) pixels large."""
        return [self._axis(axis, within[axis], lengths[axis]) for axis in (0, 1)]

    def points_within(self, xs: tuple[float, float], ys: tuple[float, float]) -> int:
        """How many points lie in the box ``xs`` × ``ys`` (view coordinates)."""
        return sum(
            int(((x >= xs[0]) & (x <= xs[1]) & (y >= ys[0]) & (y <= ys[1])).sum())
            for (x, y), _, item in self._points
            if _shown(item)
        )

    def _axis(self, axis: int, within: Range, length: float) -> Range:
        low, high, padded = math.inf, -math.inf, []
        for xy, padding, item in self._points:
            if not _shown(item):
                continue  # hidden from its legend entry
            values = xy[axis]
            if within is not None:
                other = xy[1 - axis]
                values = values[(other >= within[0]) & (other <= within[1])]
            if values.size:
                least, most = float(values.min()), float(values.max())
                low, high = min(low, least), max(high, most)
                if padding:
                    padded.append((least, most, padding))
        for value in self._marks[axis]:
            low, high = min(low, value), max(high, value)
        if low > high:
            return None
        if length > 0:  # as pyqtgraph: pixels measured on the range found so far
            pixel = (high - low) / length
            for least, most, padding in padded:
                low, high = min(low, least - padding * pixel), max(high, most + padding * pixel)
        # log10 on a log axis: a spread in it is a relative one in the data
        size = 1.0 if self._log[axis] else max(abs(low), abs(high))
        if high - low <= FLAT * size:
            # rounding's spread, not the data's (every curve 1 at a single distance, ±1 ulp):
            # one value, given a range that reads (it was labelled 1.000000000000003 …)
            centre = (low + high) / 2
            room = 0.5 if self._log[axis] else max(abs(centre) * FLAT_ROOM, 0.5)
            return [centre - room, centre + room]
        return [low, high]


class BoundedViewBox(pg.ViewBox):
    """A ViewBox that fits its range to ``bounds`` rather than asking each of its items (all
    of the data: its auto-range never asks for a fraction, ``frac``)."""

    def __init__(self, bounds: DataBounds) -> None:
        super().__init__()
        self.bounds = bounds

    def childrenBounds(
        self,
        frac: object = None,
        orthoRange: Sequence[Range] = (None, None),
        items: object = None,
    ) -> list[Range]:
        if items is not None:  # some items only: pyqtgraph's own way
            return super().childrenBounds(frac, orthoRange, items)
        return self.bounds.extent(orthoRange, (self.width(), self.height()))

    _fitting = False  # in pyqtgraph's auto-range (``updateAutoRange``)

    def updateAutoRange(self) -> None:
        self._fitting = True
        try:
            super().updateAutoRange()
        finally:
            self._fitting = False

    def setRange(
        self,
        rect: Any = None,
        xRange: Range = None,
        yRange: Range = None,
        padding: float | None = None,
        update: bool = True,
        disableAutoRange: bool = True,
    ) -> None:
        """pyqtgraph's; a range fitted to the data (by ``updateAutoRange``: padded, then set
        with no padding and auto-range kept) whose ends moved less than STEADY_PX pixels keeps
        its ends. PE's waveforms come within a few millionths of ±1, differently at each θ:
        their view's range moved by a two-thousandth of a pixel, and its axis laid its labels
        out again and its curves followed, at every frame."""
        if self._fitting and padding == 0 and not disableAutoRange:
            lengths = (self.width(), self.height())
            xRange, yRange = (
                _steady(self.state["targetRange"][axis], fitted, lengths[axis])
                for axis, fitted in enumerate((xRange, yRange))
            )
        super().setRange(rect, xRange, yRange, padding, update, disableAutoRange)


def _steady(shown: list[float], fitted: Range, length: float) -> Range:
    """``shown`` where ``fitted`` moves neither of its ends by STEADY_PX pixels of a view
    ``length`` pixels long, else ``fitted``."""
    if fitted is None or length <= 0:
        return fitted
    near = STEADY_PX * (shown[1] - shown[0]) / length
    low, high = sorted(fitted)
    return list(shown) if abs(low - shown[0]) < near and abs(high - shown[1]) < near else fitted


def mapped(values: np.ndarray | float, on_log: bool) -> np.ndarray:
    """Data as a view places it: log10 of it on a log axis (NaN or −inf where not positive,
    which is not drawn there), in the data's own float type (as pyqtgraph maps a curve's)."""
    values = np.asarray(values)
    if not np.issubdtype(values.dtype, np.floating):
        values = values.astype(float)
    if not on_log:
        return values
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log10(values)


def _shown(item: pg.GraphicsObject | None) -> bool:
    return item is None or item.isVisible()
