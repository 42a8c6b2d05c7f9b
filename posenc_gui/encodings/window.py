"""The window of one axis a view shows: torch-free, so views can ask for one without torch.

``binning.runs(window)`` turns it into the runs of coordinates each pixel covers.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, TypeVar

from posenc_gui.encodings._checks import check_int

FULL_PIXELS = 1024  # resolution of a view that has not said how large it is


@dataclass(frozen=True)
class Window:
    """Integer coordinates ``start … stop-1`` of one axis, shown with at most ``pixels`` bins:
    equal runs, or with ``log`` runs of equal width on a log scale (``start ≥ 1``)."""

    start: int
    stop: int
    pixels: int = FULL_PIXELS
    log: bool = False

    def __post_init__(self) -> None:
        if not all(math.isfinite(end) for end in (self.start, self.stop)):
            raise ValueError(f"window ends must be finite, got {self.start} … {self.stop}")
        if self.stop <= self.start:
            raise ValueError(f"window must not be empty, got {self.start} … {self.stop - 1}")
        if self.log and self.start < 1:
            raise ValueError(f"a log window must start at 1 or more, got {self.start}")
        check_int("pixels", self.pixels, 1)


def full(window: Window | None, start: int, stop: int) -> Window:
    """``window``, or the whole ``start … stop-1`` at the default resolution."""
    return window or Window(start, stop, FULL_PIXELS)


def intersect(window: Window, start: int, stop: int) -> Window | None:
    """The part of ``window`` inside ``start … stop-1``, at the same pixel density."""
    lo, hi = max(window.start, start), min(window.stop, stop)
    if hi <= lo:
        return None
    share = (hi - lo) / (window.stop - window.start)
    return Window(lo, hi, max(1, round(window.pixels * share)))


def shifted(window: Window, offset: int) -> Window:
    """The same window moved by ``offset``."""
    return Window(window.start + offset, window.stop + offset, window.pixels)


Params = TypeVar("Params")


def coarser(window: Window, factor: int) -> Window:
    """The same window with ``1/factor`` of its pixels (at least one)."""
    return dataclasses.replace(window, pixels=max(1, window.pixels // factor))


def coarsened(params: Params, factor: int) -> Params:
    """A frame's parameters (a dataclass) with each of its windows — a field that is a Window
    or a tuple of them — at ``1/factor`` of its pixels: the same views at a coarser grain."""
    check_int("factor", factor, 1)

    def coarse(value: Any) -> Any:
        if isinstance(value, Window):
            return coarser(value, factor)
        if isinstance(value, tuple) and value and all(isinstance(v, Window) for v in value):
            return tuple(coarser(v, factor) for v in value)
        return value

    assert dataclasses.is_dataclass(params) and not isinstance(params, type)
    changes = {
        field.name: coarse(getattr(params, field.name)) for field in dataclasses.fields(params)
    }
    return dataclasses.replace(params, **changes)
