"""Helpers the tabs' compute modules share: the pages a frame is asked for, windows turned
into tensors and tensors into arrays for drawing (Qt-free; no formulas: those live in
``posenc_gui.encodings``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from posenc_gui.cancel import checkpoint
from posenc_gui.encodings import binning
from posenc_gui.encodings.window import Window


def check_pages(pages: tuple[str, ...] | None, known: tuple[str, ...]) -> None:
    """A frame's ``pages`` to compute (None: every page) must be among the tab's ``known``
    pages: ValueError naming them otherwise."""
    unknown = set(pages or ()) - set(known)
    if unknown:
        raise ValueError(f"pages must be among {', '.join(known)}, got {sorted(unknown)}")


def asks_for(pages: tuple[str, ...] | None, page: str) -> bool:
    """Whether a frame asked for ``pages`` (None: every page) computes ``page``."""
    return pages is None or page in pages


# What the heavy views (the sinusoidal tables and their similarity) are computed in: float32,
# whose closed forms stay within 1e-5 of float64 (the library's default, and its tests') at
# any size up to 2^20 positions and 16,384 channels, far below a colormap's 1/256 steps.
VIEW_DTYPE = torch.float32


def runs_on(window: Window, device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    """``binning.runs(window)`` on ``device``."""
    starts, counts = binning.runs(window)
    return starts.to(device), counts.to(device)


CHUNK_CELLS = 2**20  # a heavy view's work between two checkpoints: ~15 ms (at 2^20 × 16,384,
# 128 rows of 8,192 frequencies); a small view is one chunk, as each costs ~0.3 ms of calls


def by_row_chunks(
    rows: tuple[torch.Tensor, torch.Tensor],
    width: int,
    compute: Callable[[torch.Tensor, torch.Tensor], torch.Tensor],
) -> torch.Tensor:
    """``compute(starts, counts)`` of the row runs ``rows`` (each ``width`` cells of work),
    ``CHUNK_CELLS`` cells at a time and concatenated: a checkpoint after each chunk stops a
    superseded request and reports the share of rows done."""
    starts, counts = rows
    chunk_rows = max(1, CHUNK_CELLS // width)
    parts = []
    for first in range(0, len(starts), chunk_rows):
        chunk = slice(first, first + chunk_rows)
        parts.append(compute(starts[chunk], counts[chunk]))
        checkpoint(min(1.0, (first + chunk_rows) / len(starts)))
    return torch.cat(parts)


def to_numpy(values: torch.Tensor) -> np.ndarray:
    """A float32 numpy copy for drawing."""
    return values.float().cpu().numpy()
