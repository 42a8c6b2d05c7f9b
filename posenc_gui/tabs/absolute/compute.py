"""What the Absolute tab draws, computed from its parameters (runs on the worker thread).

Every view gets the window of the data it shows, at its pixel resolution: each pixel holds
the exact mean of what it covers (``posenc_gui.encodings.binning``), so the cost follows the
screen, not ``seq_len × d_model``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import torch

from posenc_gui.cancel import checkpoint, part
from posenc_gui.comparison import Curve, Entry, Inputs
from posenc_gui.encodings import binning, sinusoidal
from posenc_gui.encodings.window import Window, full
from posenc_gui.frames import VIEW_DTYPE, by_row_chunks, runs_on, to_numpy
from posenc_gui.translatable import N_


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
    waveform_low: np.ndarray  # [len(dimensions), W] its least value over each pixel
    waveform_high: np.ndarray  # [len(dimensions), W] and its largest
    wave_per_pixel: int  # the most positions a pixel of the waveforms holds
    similarity_col_edges: np.ndarray
    similarity_row_edges: np.ndarray
    similarity: np.ndarray  # [R, C] float32 block means of PE·PEᵀ (or cosine)
    offsets: np.ndarray  # [K] centre k of each pixel with p + k inside the sequence
    by_offset: np.ndarray  # mean of PE(p)·PE(p+k) over each pixel, from the vectors
    closed_form_offsets: np.ndarray  # [J] centre k of each pixel of the view
    closed_form: np.ndarray  # mean of Σ_i cos(k ω_i) (÷ d/2 for cosine)
    offset_per_pixel: int  # the most distances a pixel of view (d) holds


# Each view's arrays are kept by the parameters that view depends on: moving the reference
# position recomputes only the measured curve of (d), changing the waveform dimensions only
# view (b) (PE·PEᵀ does not depend on the channel layout either: a permutation of the
# channels; nor on the cosine: a scale of it).
@functools.lru_cache(maxsize=4)
def _table(
    rows: Window, cols: Window, d_model: int, theta: float, layout: str, device: torch.device
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    columns = runs_on(cols, device)
    table = by_row_chunks(
        runs_on(rows, device),
        d_model // 2,  # frequencies
        lambda starts, counts: sinusoidal.block_mean_table(
            starts, counts, *columns, d_model, theta, layout=layout, dtype=VIEW_DTYPE
        ),
    )
    return binning.edges(cols).numpy(), binning.edges(rows).numpy(), to_numpy(table)


@functools.lru_cache(maxsize=4)
def _waveforms(
    wave: Window,
    dims: tuple[int, ...],
    d_model: int,
    theta: float,
    layout: str,
    device: torch.device,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean, least and largest value of each chosen channel over each pixel, ``[D, W]``."""
    runs = runs_on(wave, device)
    mean = sinusoidal.mean_table(*runs, d_model, theta, layout=layout, channels=list(dims))
    low, high = sinusoidal.extremes_table(*runs, d_model, theta, layout=layout, channels=list(dims))
    return to_numpy(mean.T), to_numpy(low.T), to_numpy(high.T)


@functools.lru_cache(maxsize=4)
def _similarity(
    rows: Window, cols: Window, d_model: int, theta: float, device: torch.device
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Block means of ``PE·PEᵀ`` (the cosine is a scale of it: ``sinusoidal.as_cosine``)."""
    similarity = sinusoidal.mean_similarity_matrix(
        *runs_on(rows, device), d_model, theta, columns=runs_on(cols, device), dtype=VIEW_DTYPE
    )
    return binning.edges(cols).numpy(), binning.edges(rows).numpy(), to_numpy(similarity)


@functools.lru_cache(maxsize=4)
def _closed_form(view: Window, d_model: int, theta: float, device: torch.device) -> np.ndarray:
    """``Σ_i cos(k ω_i)`` over the whole view (it does not depend on the reference position):
    sums of float32 waves, within 1e-6·d_model of float64's, a millionth of the curves' scale."""
    starts, counts = runs_on(view, device)
    closed = sinusoidal.closed_form_similarity(
        starts, d_model, theta, counts=counts, dtype=VIEW_DTYPE
    )
    return closed.cpu().numpy()


@functools.lru_cache(maxsize=4)
def _offsets(
    view: Window,
    p: int,
    seq_len: int,
    d_model: int,
    theta: float,
    device: torch.device,
) -> tuple[np.ndarray, np.ndarray]:
    """The k inside the sequence from p and ``PE(p)·PE(p+k)`` there, on the closed form's
    pixels (only the pixels at the sequence's ends clipped to the k that exist), so the two
    agree pixel for pixel."""
    starts, counts = runs_on(view, device)
    first = torch.clamp(starts, min=-p)
    last = torch.clamp(starts + counts, max=seq_len - p)
    inside = last > first
    k_starts, k_counts = first[inside], (last - first)[inside]
    if not bool(inside.any()):
        return np.zeros(0), np.zeros(0)
    by_offset = sinusoidal.similarity_by_offset(
        k_starts, d_model, theta, position=p, counts=k_counts, dtype=VIEW_DTYPE
    )
    centres = (k_starts + (k_counts - 1) / 2).cpu().numpy()
    return centres, by_offset.cpu().numpy()


def compute_absolute(params: AbsoluteParams, device: torch.device) -> AbsoluteFrame:
    """All four Absolute views' arrays for ``params``."""
    seq_len, d_model, theta = params.seq_len, params.d_model, params.theta
    rows, cols = full(params.table_rows, 0, seq_len), full(params.table_cols, 0, d_model)
    with part(0.0, 0.45):  # the shares of a heavy frame's time each view takes, about
        col_edges, row_edges, table = _table(rows, cols, d_model, theta, params.layout, device)
    checkpoint(0.45)  # between views: a newer request stops this one here
    wave = full(params.wave_x, 0, seq_len)
    dims = tuple(i for i in params.dimensions if 0 <= i < d_model)
    waveforms, waveform_low, waveform_high = _waveforms(
        wave, dims, d_model, theta, params.layout, device
    )
    checkpoint(0.5)
    sim_rows = full(params.similarity_rows, 0, seq_len)
    sim_cols = full(params.similarity_cols, 0, seq_len)
    sim_col_edges, sim_row_edges, similarity = _similarity(
        sim_rows, sim_cols, d_model, theta, device
    )
    checkpoint(0.95)
    view = full(params.offset_x, -(seq_len - 1), seq_len)
    p = min(params.reference_position, seq_len - 1)
    offsets, by_offset = _offsets(view, p, seq_len, d_model, theta, device)
    closed = _closed_form(view, d_model, theta, device)
    if params.cosine:  # a scale of the dot products: they stay cached for both
        similarity, by_offset, closed = (
            sinusoidal.as_cosine(dots, d_model) for dots in (similarity, by_offset, closed)
        )
    return AbsoluteFrame(
        params=params,
        table_col_edges=col_edges,
        table_row_edges=row_edges,
        table=table,
        wave_x=binning.centres(wave).numpy(),
        dimensions=dims,
        waveforms=waveforms,
        waveform_low=waveform_low,
        waveform_high=waveform_high,
        wave_per_pixel=int(binning.runs(wave)[1].max()),
        similarity_col_edges=sim_col_edges,
        similarity_row_edges=sim_row_edges,
        similarity=similarity,
        offsets=offsets,
        by_offset=by_offset,
        closed_form_offsets=binning.centres(view).numpy(),
        closed_form=closed,
        offset_per_pixel=int(binning.runs(view)[1].max()),
    )


def compare_curves(inputs: Inputs) -> tuple[Curve, ...]:
    """``PE(p)·PE(p+k) / |PE|² = mean_i cos(k ω_i)`` at d_model."""
    values = sinusoidal.closed_form_similarity(
        inputs.starts, inputs.d_model, inputs.theta, cosine=True, counts=inputs.counts
    )
    label = N_("sinusoidal, d_model {d}")
    return (Curve("sinusoidal", label, values.cpu().numpy(), {"d": inputs.d_model}),)


COMPARE = (
    Entry(
        N_("Sinusoidal"),
        (
            N_("Fixed sin/cos waves of the position added to the token embedding"),
            N_("Poor: defined at every position, but unseen positions degrade quality"),
            N_("Lowest: one table added once, at the input"),
            N_("Original Transformer, encoder models"),
            N_("Easy"),
        ),
        compare_curves,
        reads=("d_model", "theta"),
    ),
)
