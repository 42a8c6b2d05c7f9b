"""What the Absolute tab draws, computed from its parameters (runs on the worker thread)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from posenc_gui.encodings import binning, sinusoidal

# Heatmaps never get more rows than this: a screen shows no more, and beyond it each row is
# the exact mean of the positions it covers (posenc_gui.encodings.binning).
MAX_DISPLAY_ROWS = 1024


@dataclass(frozen=True)
class AbsoluteParams:
    seq_len: int
    d_model: int
    theta: float
    layout: str = "interleaved"
    cosine: bool = False
    reference_position: int = 0
    dimensions: tuple[int, ...] = (0, 2, 4, 8)


@dataclass(frozen=True)
class AbsoluteFrame:
    params: AbsoluteParams
    row_edges: np.ndarray  # [B+1] position edges of the heatmap rows (and matrix columns)
    table: np.ndarray  # [B, d_model] float32: PE, or its mean over each row's positions
    positions: np.ndarray  # [seq_len] for the waveforms
    dimensions: tuple[int, ...]  # the chosen dimensions that exist at this d_model
    waveforms: np.ndarray  # [len(dimensions), seq_len] PE[:, i] for each of them
    similarity: np.ndarray  # [B, B] float32: PE·PEᵀ (or cosine), block means when binned
    offsets: np.ndarray  # [seq_len] k = -p … seq_len-1-p
    by_offset: np.ndarray  # PE(p)·PE(p+k) from the vectors
    closed_form_offsets: np.ndarray  # k = -(seq_len-1) … seq_len-1
    closed_form: np.ndarray  # Σ_i cos(k ω_i) (÷ d/2 for cosine)


def compute_absolute(params: AbsoluteParams, device: torch.device) -> AbsoluteFrame:
    """All four Absolute views' arrays for ``params`` (float64 math, float32 for drawing)."""
    seq_len, d_model, theta = params.seq_len, params.d_model, params.theta
    starts, counts = binning.bins(seq_len, MAX_DISPLAY_ROWS)
    table = sinusoidal.mean_table(
        starts.to(device), counts.to(device), d_model, theta, layout=params.layout
    )
    similarity = sinusoidal.mean_similarity_matrix(
        starts.to(device), counts.to(device), d_model, theta, cosine=params.cosine
    )
    positions = torch.arange(seq_len, dtype=torch.float64, device=device)
    dims = [i for i in params.dimensions if 0 <= i < d_model]
    waveforms = sinusoidal.encode(
        positions,
        d_model,
        theta,
        layout=params.layout,
        channels=dims,
        dtype=torch.float32,
        device=device,
    ).T
    p = min(params.reference_position, seq_len - 1)
    offsets = torch.arange(-p, seq_len - p, dtype=torch.float64)
    by_offset = sinusoidal.similarity_by_offset(
        offsets, d_model, theta, position=p, cosine=params.cosine
    )
    all_offsets = torch.arange(-(seq_len - 1), seq_len, dtype=torch.float64)
    closed = torch.cos(all_offsets[:, None] * sinusoidal.frequencies(d_model, theta)).sum(1)
    return AbsoluteFrame(
        params=params,
        row_edges=torch.cat((starts, starts[-1:] + counts[-1:])).numpy(),
        table=table.float().cpu().numpy(),
        positions=positions.cpu().numpy(),
        dimensions=tuple(dims),
        waveforms=waveforms.cpu().numpy(),
        similarity=similarity.float().cpu().numpy(),
        offsets=offsets.numpy(),
        by_offset=by_offset.numpy(),
        closed_form_offsets=all_offsets.numpy(),
        closed_form=(closed / (d_model / 2) if params.cosine else closed).numpy(),
    )
