"""What a curves view draws: curves, bands, reference lines and spans, and how a curve item
is styled (its pens and symbols)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg

from posenc_gui.views.style import current_look, light, pen

MAX_MARKED_POINTS = 64  # a line's points are marked while it has at most this many
MAX_MARKS = 16 * MAX_MARKED_POINTS  # and its view's lines at most this many together
# over bands (0); many unnamed lines (views.many_lines) under the others; line labels over all (3)
ENVELOPE_Z, MANY_LINES_Z, CURVE_Z, DASHED_Z = 1.5, 1.75, 2, 2.5
ORDER_STEP = 1e-4  # each curve of a kind over the next: 1,500 of them stay above MANY_LINES_Z
UNNAMED_BELOW = 0.1  # unnamed lines under the named ones of their kind


@dataclass(frozen=True)
class Curve:
    """A line (``dashed`` or solid) or, with ``scatter``, markers only; with ``envelope``,
    vertical strokes from ``y[2k]`` to ``y[2k+1]`` at ``x[2k]`` in the colour made light (the
    min–max of each pixel, drawn opaque: translucent fills paint many times slower). ``color``
    is a palette index (default: the curve's place in the list) or a colour name; an empty
    ``name`` keeps the curve out of the legend."""

    name: str
    x: np.ndarray
    y: np.ndarray
    dashed: bool = False
    scatter: bool = False
    color: int | str | None = None
    envelope: bool = False  # x, y pairs: a pixel's least and largest value, a light stroke

    @classmethod
    def min_max(cls, x: np.ndarray, low: np.ndarray, high: np.ndarray, color: int) -> Curve:
        """The envelope of a curve whose pixels hold many points: at each ``x`` (``[W]``) a
        stroke from ``low`` to ``high`` (``[W]``, the pixel's least and largest value),
        unnamed, drawn behind the curves named before it."""
        return cls("", np.repeat(x, 2), np.ravel([low, high], "F"), envelope=True, color=color)


@dataclass(frozen=True)
class Band:
    """A shaded region between ``low`` and ``high`` (e.g. mean ± standard deviation); one
    without a ``name`` has no legend entry of its own."""

    name: str
    x: np.ndarray
    low: np.ndarray
    high: np.ndarray
    color: int = 1


@dataclass(frozen=True)
class Line:
    """A labelled reference line at ``value`` (in data units, also on log axes)."""

    value: float
    label: str
    vertical: bool = True
    color: int = 2


@dataclass(frozen=True)
class Span:
    """A shaded range of x (e.g. the pairs a method keeps), named in the legend."""

    start: float
    end: float
    label: str
    color: int | str = 3


def _line_width(y: np.ndarray) -> float:
    """2 px, or 1 px for long jagged curves: Qt's antialiased wide strokes of a zig-zag take
    hundreds of milliseconds, a hair-line a millisecond."""
    finite = y[np.isfinite(y)]
    if len(finite) <= 256:
        return 2.0
    spread = float(finite.max() - finite.min()) or 1.0
    return 1.0 if float(np.abs(np.diff(finite)).sum()) > 8 * spread else 2.0


# A curve item's look: its colour, then (dashed, scatter, marked, line width), None for an
# envelope.
Style = tuple[str, tuple[bool, bool, bool, float] | None]


def may_be_marked(curve: Curve) -> bool:
    """Whether ``curve``'s points are marked on its line (where its view is not crowded)."""
    return not (curve.dashed or curve.envelope or curve.scatter) and (
        len(curve.x) <= MAX_MARKED_POINTS
    )


def crowded(curves: Sequence[Curve]) -> bool:
    """Whether ``curves`` would mark more than ``MAX_MARKS`` points on their lines: ALiBi's
    128 heads at 64 positions would hide their lines under 8,192 markers, and styling each
    line's markers took most of a frame (130 ms)."""
    return sum(len(curve.x) for curve in curves if may_be_marked(curve)) > MAX_MARKS


def style_of(curve: Curve, index: int, *, crowded: bool = False) -> Style:
    """How ``curve``, the ``index``-th of its view, is drawn; in a ``crowded`` view its line
    is not marked."""
    color = (
        curve.color
        if isinstance(curve.color, str)
        else current_look().colour(index if curve.color is None else curve.color)
    )
    if curve.envelope:
        return color, None
    # Markers show that positions are discrete while there are few of them; a curve of one
    # point has no line to show it (a head of one pair): its marker does.
    marked = curve.scatter or (may_be_marked(curve) and not crowded) or len(curve.x) == 1
    return color, (curve.dashed, curve.scatter, marked, _line_width(curve.y))


def stacking(curve: Curve, style: Style, order: int) -> float:
    """The z value of ``curve`` drawn in ``style``, the ``order``-th curve of its view.

    Envelopes under the lines; a dashed curve over the solid ones (where two coincide, RoPE
    with q = 1 and the sinusoidal similarity, its dashes show both); unnamed lines (the rest
    of a family: ALiBi's heads) under the named ones, as ``many_lines`` draws them when they
    are many; and where curves coincide (Compare: sinusoidal, RoPE's random-q mean) the one
    named first on top, whatever order their items were made in."""
    _, look = style
    if look is None:
        return ENVELOPE_Z
    unnamed = 0.0 if curve.name else UNNAMED_BELOW
    return (DASHED_Z if look[0] else CURVE_Z) - unnamed - order * ORDER_STEP


def draw_styled(item: pg.PlotDataItem, curve: Curve, style: Style) -> None:
    """Hand ``curve`` to ``item`` with the pens and symbols of ``style``."""
    color, look = style
    if look is None:
        item.setData(curve.x, curve.y, pen=pen(light(color), width=1), connect="pairs", symbol=None)
        return
    dashed, scatter, marked, width = look
    # a dashed curve's lone point is a ring: drawn over a solid curve's point, both show
    ring = dashed and marked
    item.setData(
        curve.x,
        curve.y,
        pen=None if scatter else pen(color, dashed=dashed, width=width),
        connect="all",
        symbol="o" if marked else None,
        symbolSize=11 if ring else 7,
        symbolBrush=NO_BRUSH if ring else _symbol_brush(color),
        symbolPen=_ring_pen(color) if ring else NO_PEN,
    )
    # Solid lines as separate segments: Qt strokes a long antialiased polyline wider than 1 px
    # several times slower (its joins), and opaque segments look the same. Dashes need the
    # one polyline to keep their pattern.
    mode = "off" if dashed else "on"
    if item.curve.opts["segmentedLineMode"] != mode:
        item.curve.setSegmentedLineMode(mode)


# The same QPen and QBrush objects frame after frame: a scatter's symbol atlas keys its
# rendered symbols by their identity, so a new brush per frame renders the symbol again and
# grows the atlas by one for every frame drawn.
NO_PEN = pg.mkPen(None)
NO_BRUSH = pg.mkBrush(None)


@functools.cache
def _symbol_brush(color: str) -> pg.QtGui.QBrush:
    return pg.mkBrush(color)


@functools.cache
def _ring_pen(color: str) -> pg.QtGui.QPen:
    return pg.mkPen(color, width=2)
