"""What the Absolute tab draws, computed from its parameters (runs on the worker thread).

Every view gets the window of the data it shows, at its pixel resolution: each pixel holds
the exact mean of what it covers (``posenc_gui.encodings.binning``), so the cost follows the
screen, not ``seq_len × d_model``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from posenc_gui.encodings import binning, sinusoidal
from posenc_gui.encodings.binning import Window
from posenc_gui.engine.windows import full, intersect, to_numpy


@dataclass(frozen=True)
class AbsoluteParams:
    seq_len: int
    d_model: int
    theta: float
    layout: str = "interleaved"
    cosine: bool = False
    reference_position: int = 0
    dimensions: tuple[int, ...] = (0, 2, 4, 8)
    table_cols: Window | None = None  # channels shown by (a); None: all
    table_rows: Window | None = None  # positions shown by (a)
    wave_x: Window | None = None  # positions shown by (b)
    similarity_cols: Window | None = None  # key positions shown by (c)
    similarity_rows: Window | None = None  # query positions shown by (c)
    offset_x: Window | None = None  # distances k shown by (d), within −(L−1) … L−1


@dataclass(frozen=True)
class AbsoluteFrame:
    params: AbsoluteParams
    table_col_edges: np.ndarray  # [C+1]
    table_row_edges: np.ndarray  # [R+1]
    table: np.ndarray  # [R, C] float32: PE, or its exact mean over each pixel
    wave_x: np.ndarray  # [W] centre position of each pixel
    dimensions: tuple[int, ...]  # the chosen dimensions that exist at this d_model
    waveforms: np.ndarray  # [len(dimensions), W] mean of PE[:, i] over each pixel
    similarity_col_edges: np.ndarray
    similarity_row_edges: np.ndarray
    similarity: np.ndarray  # [R, C] float32 block means of PE·PEᵀ (or cosine)
    offsets: np.ndarray  # [K] centre k of each pixel with p + k inside the sequence
    by_offset: np.ndarray  # mean of PE(p)·PE(p+k) over each pixel, from the vectors
    closed_form_offsets: np.ndarray  # [J] centre k of each pixel of the view
    closed_form: np.ndarray  # mean of Σ_i cos(k ω_i) (÷ d/2 for cosine)


def _cos_sin_products(
    a: tuple[torch.Tensor, torch.Tensor], b: tuple[torch.Tensor, torch.Tensor]
) -> torch.Tensor:
    """``Σ_i a_cos·b_cos + a_sin·b_sin`` for each pair of rows: ``[M, N]`` from ``[M|N, F]``."""
    # One contiguous [M, 2F] @ [2F, N] product is faster than two.
    return torch.cat(a, 1) @ torch.cat(b, 1).T


def table_window(
    seq_len: int,
    d_model: int,
    base: float,
    layout: str,
    rows: Window,
    cols: Window,
    device: torch.device,
) -> torch.Tensor:
    """Exact means of the sinusoidal table over pixel blocks, float64 ``[R, C]``.

    Rows by closed form (mean phasor over runs of positions), then columns by averaging the
    channels each pixel covers; only the frequencies of the shown channels are evaluated.
    """
    row_starts, row_counts = rows.bins()
    channels = torch.arange(cols.start, cols.stop)
    pair, is_cos = sinusoidal.channel_layout(d_model, layout, channels)
    used, column = torch.unique(pair, return_inverse=True)
    omega = sinusoidal.frequencies(d_model, base)[used].to(device)
    cos, sin = binning.mean_cos_sin(row_starts.to(device), row_counts.to(device), omega)
    column, is_cos = column.to(device), is_cos.to(device)
    values = torch.where(is_cos, cos[:, column], sin[:, column])  # [R, Cw]
    col_starts, col_counts = cols.bins()
    return binning.run_means(
        values.T, (col_starts - cols.start).to(device), col_counts.to(device)
    ).T


def compute_absolute(params: AbsoluteParams, device: torch.device) -> AbsoluteFrame:
    """All four Absolute views' arrays for ``params``."""
    seq_len, d_model, theta = params.seq_len, params.d_model, params.theta
    omega = sinusoidal.frequencies(d_model, theta).to(device)
    norm = d_model / 2 if params.cosine else 1.0  # |PE|² = d/2 for every position

    rows, cols = full(params.table_rows, 0, seq_len), full(params.table_cols, 0, d_model)
    table = table_window(seq_len, d_model, theta, params.layout, rows, cols, device)

    wave = full(params.wave_x, 0, seq_len)
    dims = [i for i in params.dimensions if 0 <= i < d_model]
    wave_starts, wave_counts = (t.to(device) for t in wave.bins())
    pair, is_cos = sinusoidal.channel_layout(d_model, params.layout, dims)
    wave_cos, wave_sin = binning.mean_cos_sin(wave_starts, wave_counts, omega[pair.to(device)])
    waveforms = torch.where(is_cos.to(device), wave_cos, wave_sin).T

    # Block means of PE·PEᵀ: mean_{p∈P, q∈Q} Σ_i cos((q−p)ω_i) = Σ_i Re(A_Q(ω_i) conj(A_P(ω_i))).
    sim_rows = full(params.similarity_rows, 0, seq_len)
    sim_cols = full(params.similarity_cols, 0, seq_len)
    similarity = _cos_sin_products(
        binning.mean_cos_sin(*(t.to(device) for t in sim_rows.bins()), omega),
        binning.mean_cos_sin(*(t.to(device) for t in sim_cols.bins()), omega),
    )

    p = min(params.reference_position, seq_len - 1)
    view = full(params.offset_x, -(seq_len - 1), seq_len)
    closed = binning.mean_cos_sin(*(t.to(device) for t in view.bins()), omega)[0].sum(1)
    inside = intersect(view, -p, seq_len - p)
    if inside is None:
        offsets, by_offset = torch.zeros(0), torch.zeros(0)
    else:
        # PE(p)·mean_k PE(p+k): the mean of the vectors over each run of k, then the product.
        k_starts, k_counts = inside.bins()
        shifted = binning.mean_cos_sin((p + k_starts).to(device), k_counts.to(device), omega)
        reference = (torch.cos(p * omega)[None, :], torch.sin(p * omega)[None, :])
        by_offset = _cos_sin_products(shifted, reference)[:, 0]
        offsets = inside.centres()

    return AbsoluteFrame(
        params=params,
        table_col_edges=cols.edges().numpy(),
        table_row_edges=rows.edges().numpy(),
        table=to_numpy(table),
        wave_x=wave.centres().numpy(),
        dimensions=tuple(dims),
        waveforms=to_numpy(waveforms),
        similarity_col_edges=sim_cols.edges().numpy(),
        similarity_row_edges=sim_rows.edges().numpy(),
        similarity=to_numpy(similarity / norm),
        offsets=offsets.numpy(),
        by_offset=(by_offset / norm).cpu().numpy(),
        closed_form_offsets=view.centres().numpy(),
        closed_form=(closed / norm).cpu().numpy(),
    )
