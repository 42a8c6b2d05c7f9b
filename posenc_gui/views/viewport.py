"""Which part of an axis a view shows, and at how many pixels: what it asks to be computed.

Views compute nothing: they report the visible window of each axis (``encodings.window.Window``) so
the tab can ask for exactly that at display resolution, and they announce when the user zooms
or pans (``changed``), so the visible window is computed again at its new resolution.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pyqtgraph as pg
from PySide6.QtCore import QObject, Signal

from posenc_gui.encodings.window import Window

MIN_PIXELS, MAX_PIXELS = 64, 2048
HIDDEN_PIXELS = 512  # a view not laid out yet (a hidden page) asks for this many
SAME_RANGE = 1e-9  # ranges whose ends differ by less than this share of the range are one
ROOM_AT_MOST = 16  # the room past each end is at most a sixteenth of the plot's width

Extent = tuple[int, int]  # integer coordinates lo … hi-1
# The screen pixels across and down that show the data of these extents
Lengths = Callable[[Extent, Extent | None], tuple[float, float]]


def pixel_budget(length: float) -> int:
    """Bins for an axis ``length`` screen pixels long."""
    if length < MIN_PIXELS / 4:
        return HIDDEN_PIXELS
    return int(min(MAX_PIXELS, max(MIN_PIXELS, length)))


def clip_window(
    view_range: tuple[float, float], extent: Extent, pixels: int, *, log: bool = False
) -> Window:
    """The integer window of ``extent`` that ``view_range`` shows (at least one cell)."""
    lo, hi = extent
    start = min(max(math.floor(view_range[0]), lo), hi - 1)
    stop = max(min(math.ceil(view_range[1]), hi), start + 1)
    return Window(start, stop, pixels, log)


class Viewport(QObject):
    """Tracks a ViewBox's data extent; ``changed`` fires when what it shows changes.

    That is a zoom or pan by the user, or a resize large enough to matter (a fifth of the
    pixels): a tick label growing by a few pixels must not ask for a new frame, which would
    redraw the labels, and so on.
    """

    changed = Signal()

    def __init__(
        self,
        view_box: pg.ViewBox,
        *,
        points: bool,
        bounded: bool = True,
        lengths: Lengths | None = None,
    ) -> None:
        """``bounded``: the user cannot pan or zoom out past the data (an aspect-locked view
        must be free to show more than the data on one axis). ``lengths``: the pixels that show
        the data of given extents (default: the view box's size)."""
        super().__init__(view_box)
        self.bounded = bounded
        self.view_box = view_box
        self._lengths = lengths or (lambda _x, _y: (view_box.width(), view_box.height()))
        # Curves draw points at integer x (shown from lo − ½ to hi − ½); heatmaps draw cells
        # [i, i + 1) (shown from lo to hi).
        self.margin = 0.5 if points else 0.0
        self.room_px = 0.0  # pixels shown past the x extent's ends (``show_extent``)
        self._shown_x: tuple[float, float] | None = None  # the x range show_extent set
        self.extent: tuple[Extent, Extent | None] | None = None
        self.log_x = False  # the x axis shows log10 of the data (pyqtgraph's log mode)
        self._last: tuple[Window, Window | None] | None = None
        self._asked: tuple[Extent, Extent | None] | None = None  # the extents ``windows`` had
        self._showing = False  # inside ``show_extent``: its states on the way are no change
        view_box.sigRangeChanged.connect(self._on_change)
        view_box.sigResized.connect(self._keep_room)
        view_box.sigResized.connect(self._on_change)

    def _on_change(self, *_: object) -> None:
        # Before anything is drawn (a view behind another page draws when shown), the extents
        # last asked for: their frame was computed for this view's size then.
        extent = self.extent or self._asked
        if extent is None or self._last is None or self._showing:
            return  # never asked (the first frame is on its way), or a new extent being shown
        before = self._last
        if self.windows(*extent) != before:
            self.changed.emit()

    def windows(
        self, x_extent: Extent, y_extent: Extent | None = None
    ) -> tuple[Window, Window | None]:
        """The visible windows of the given extents; the whole extents if they are new."""
        self._asked = (x_extent, y_extent)
        log = self.log_x and x_extent[0] >= 1  # log-spaced pixels on a log axis
        width, height = (pixel_budget(pixels) for pixels in self._lengths(x_extent, y_extent))
        if self.extent != (x_extent, y_extent):
            x = Window(*x_extent, width, log)
            y = None if y_extent is None else Window(*y_extent, height)
        else:
            (x_lo, x_hi), y_range = self.view_box.viewRange()
            if self.log_x:
                x_lo, x_hi = 10.0**x_lo, 10.0**x_hi
            x_range = (x_lo + self.margin, x_hi + self.margin)
            x = clip_window(x_range, x_extent, width, log=log)
            y = None if y_extent is None else clip_window(y_range, y_extent, height)
        steady_x = _steady(x, self._last[0] if self._last else None)
        assert steady_x is not None  # _steady keeps a window a window
        self._last = (steady_x, _steady(y, self._last[1] if self._last else None))
        return self._last

    def _keep_room(self, *_: object) -> None:
        """After a resize: the room past the ends in pixels as the view is now."""
        if self.room_px:
            self._show_whole_again()

    def _show_whole_again(self) -> None:
        """The whole extent shown anew (its room past the ends for the view's size now),
        unless the user zoomed or panned away from it."""
        if self.extent is None or self._shown_x is None:
            return
        (low, high), (shown_low, shown_high) = self.view_box.viewRange()[0], self._shown_x
        # zoomed back out the range comes back within rounding (1.8e-15 off), not exactly
        if max(abs(low - shown_low), abs(high - shown_high)) <= SAME_RANGE * (high - low):
            extent, self.extent = self.extent, None
            self.show_extent(*extent, room_px=self.room_px)

    def show_extent(
        self, x_extent: Extent, y_extent: Extent | None = None, *, room_px: float = 0.0
    ) -> None:
        """Make the extents the data's bounds; a new extent is shown whole, with ``room_px``
        pixels past each end of x (the markers' reach: one at the first or last point is
        drawn whole, not cut in half by the plot's edge)."""
        if self.extent == (x_extent, y_extent):
            if room_px != self.room_px:  # the same extent: a new room where it is shown whole
                self.room_px = room_px
                self._show_whole_again()
            return
        self.extent, self.room_px = (x_extent, y_extent), room_px
        x_shown = (x_extent[0] - self.margin, x_extent[1] - self.margin)
        if self.log_x:  # pyqtgraph's view coordinates are log10 of the data then
            x_shown = (math.log10(max(x_shown[0], 1)), math.log10(x_shown[1]))
        width = self.view_box.width()
        # no room where it would take much of a tiny plot (its range would show positions
        # that do not exist, ticked)
        if self.room_px and width > ROOM_AT_MOST * self.room_px:
            room = self.room_px * (x_shown[1] - x_shown[0]) / (width - 2 * self.room_px)
            x_shown = (x_shown[0] - room, x_shown[1] + room)
        limits = {"xMin": x_shown[0], "xMax": x_shown[1]}
        if y_extent is not None:
            limits |= {"yMin": y_extent[0], "yMax": y_extent[1]}
        # The limits move the old range first (clamped into the new extent): a window of
        # neither, which asked for a frame of its own; only where the range ends up counts.
        self._showing = True
        try:
            if self.bounded:
                self.view_box.setLimits(**limits)
            self.view_box.setRange(xRange=x_shown, yRange=y_extent, padding=0)
            self._shown_x = tuple(self.view_box.viewRange()[0])
        finally:
            self._showing = False
        self._on_change()


def _steady(new: Window | None, old: Window | None) -> Window | None:
    """``new``, but keeping ``old``'s pixel count when it shows the same cells and the pixels
    differ by less than a fifth (so small layout changes do not ask for new frames)."""
    if new is None or old is None or (new.start, new.stop) != (old.start, old.stop):
        return new
    return old if abs(new.pixels - old.pixels) < 0.2 * old.pixels else new
