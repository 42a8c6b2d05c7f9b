"""What the Compare tab draws: every registered encoding's similarity against distance,
normalised to 1 at distance 0 (runs on the worker thread). Each entry (``posenc_gui.comparison``)
computes its own curves; each pixel holds the exact mean over the distances it covers.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import torch

from posenc_gui.cancel import checkpoint
from posenc_gui.comparison import SHARED, Curve, Entry, Inputs
from posenc_gui.encodings import binning
from posenc_gui.encodings.window import Window, full


@dataclass(frozen=True)
class CompareParams:
    seq_len: int
    d_model: int
    head_dim: int
    theta: float
    entries: tuple[Entry, ...] = ()
    settings: tuple[tuple[str, int], ...] = ()  # every entry's settings, by name
    x: Window | None = None  # distances shown, within 0 … seq_len−1


@dataclass(frozen=True)
class CompareFrame:
    params: CompareParams
    distances: np.ndarray  # [X] pixel centres
    curves: tuple[Curve, ...]  # every entry's, in registry order
    per_pixel: int  # the most distances a pixel holds (its values are their means)

    def curve(self, key: str) -> Curve:
        """The curve whose key is ``key``."""
        return next(curve for curve in self.curves if curve.key == key)


def compute_compare(p: CompareParams, device: torch.device) -> CompareFrame:
    """Every entry's curves for ``p``."""
    window = full(p.x, 0, p.seq_len)
    shared = dict(zip(SHARED, (p.seq_len, p.d_model, p.head_dim, p.theta), strict=True))
    settings = dict(p.settings)
    curves: list = []
    for entry in p.entries:
        checkpoint()  # between entries: a newer request stops this one here
        read = tuple((name, shared[name]) for name in entry.reads)
        own = tuple((setting.name, settings[setting.name]) for setting in entry.settings)
        curves += _entry_curves(entry, read, own, window, device)
    per_pixel = int(binning.runs(window)[1].max())
    return CompareFrame(p, binning.centres(window).numpy(), tuple(curves), per_pixel)


# Kept by what an entry reads (the shared parameters it names, its own settings and the
# window): a setting of one entry, or θ, recomputes only the curves that depend on it.
@functools.lru_cache(maxsize=32)
def _entry_curves(
    entry: Entry,
    read: tuple[tuple[str, float], ...],
    own: tuple[tuple[str, int], ...],
    window: Window,
    device: torch.device,
) -> tuple[Curve, ...]:
    starts, counts = binning.runs(window)
    shared: dict = dict.fromkeys(SHARED, 0) | dict(read)
    return entry.curves(
        Inputs(**shared, settings=dict(own), starts=starts, counts=counts, device=device)
    )
