"""Helpers for the windows of data the views ask for (``binning.Window``)."""

from __future__ import annotations

import numpy as np
import torch

from posenc_gui.encodings.binning import Window

FULL_PIXELS = 1024  # resolution of a view that has not said how large it is


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


def to_numpy(values: torch.Tensor) -> np.ndarray:
    """A float32 numpy copy for drawing."""
    return values.float().cpu().numpy()
