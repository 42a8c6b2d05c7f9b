"""What an encoding brings to the Compare tab (Qt-free): its column of the comparison table,
the settings it adds, and its curves of similarity against distance, normalised to 1 at
distance 0. Each tab declares its encodings' entries; the Compare tab draws whatever the
registry hands it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import torch

from posenc_gui.translatable import N_

# The rows of the comparison table: each entry has one text per criterion, in this order.
CRITERIA = (
    N_("Principle"),
    N_("Length generalisation"),
    N_("Compute cost"),
    N_("Typical use"),
    N_("Implementation difficulty"),
)


@dataclass(frozen=True)
class Setting:
    """An integer control of the Compare tab; ``name`` is its objectName and its key in
    ``Inputs.settings``. ``minimum`` may depend on the other settings (T5's exact range)."""

    name: str
    label: str
    low: int
    high: int
    default: int
    step: int = 1
    slider: bool = True  # False: a plain number box (seeds)
    minimum: Callable[[Mapping[str, int]], int] | None = None


# The parameters every entry is handed, as ``Inputs`` names them.
SHARED = ("seq_len", "d_model", "head_dim", "theta")


@dataclass(frozen=True)
class Inputs:
    """The shared parameters, every entry's settings, and the runs of distances ``k ≥ 0``
    (one per pixel) each curve is averaged over exactly."""

    seq_len: int
    d_model: int
    head_dim: int
    theta: float
    settings: Mapping[str, int]
    starts: torch.Tensor
    counts: torch.Tensor
    device: torch.device


@dataclass(frozen=True)
class Curve:
    """One legend entry: ``values`` ``[X]``, or ``[H, X]`` for a family drawn in one colour;
    with ``std`` a band mean ± std. ``label`` is an untranslated template for ``args``."""

    key: str
    label: str
    values: np.ndarray
    args: Mapping[str, object] | None = None
    std: np.ndarray | None = None
    band_label: str = ""
    dashed: bool = False
    color: int = 0


@dataclass(frozen=True)
class Entry:
    """One encoding on the Compare tab: ``name``, one text per ``CRITERIA`` (untranslated),
    its settings, ``curves(inputs)`` and the ``SHARED`` parameters those read (the others are
    0 in its inputs: a change of them leaves its curves as they are); ``most_lines``: the
    most lines its curves draw (a row of a 2-D ``values`` each), which the tab's view makes
    ahead."""

    name: str
    criteria: tuple[str, str, str, str, str]
    curves: Callable[[Inputs], tuple[Curve, ...]]
    settings: tuple[Setting, ...] = ()
    reads: tuple[str, ...] = SHARED
    most_lines: int = 1
