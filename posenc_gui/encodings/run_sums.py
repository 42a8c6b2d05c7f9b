"""Sums over frequencies of the exact run means of ``posenc_gui.encodings.binning``:
``Σ_f c_f·mean cos(p ω_f) + s_f·mean sin(p ω_f)`` per run, and the block means of
``Σ_f cos((q − p) ω_f)`` over pairs of runs. Where the runs are many pixels of a few positions
each, their centres lie on a grid of half-integers, and the sums are taken on that grid by angle
addition (``wave_sums``); elsewhere from each run's waves, a chunk of runs at a time.
"""

from __future__ import annotations

import math

import torch

from posenc_gui.encodings._checks import check_elements, check_int
from posenc_gui.encodings.binning import (
    REAL_DTYPES,
    check_runs,
    length_ratios,
    mean_phases,
    phase_as,
)

FEW_LENGTHS = 4  # runs of at most this many lengths take the weighted path's matrix products
# Runs whose doubled centres span at most GRID_SPAN per run (pixels of one to a few positions,
# not log-spaced ones) are summed on the whole grid of half-integers they lie on
GRID_SPAN = 8
GRID_MIN_RUNS = 32  # fewer runs: the direct path costs next to nothing
# Weighted sums take the grid for at most this many weightings × run lengths: each adds the
# grid's matrix products (twice the runs' count of sums), while the direct path evaluates the
# waves once for all (64 weightings at 475 runs: 3.6 ms on the grid, 0.9 directly)
GRID_MAX_SUMS = 4
DIRECT_MAX_CELLS = 1 << 20  # runs × frequencies of waves held at once off the grid (8 MB)
GRID_MAX_CELLS = 1 << 22  # a grid of differences' float64 sums held at once (32 MB)


def wave_sums(
    first: int,
    size: int,
    inv_freq: torch.Tensor,
    cos_weights: torch.Tensor,
    sin_weights: torch.Tensor | None = None,
) -> torch.Tensor:
    """``Σ_f c[..., f]·cos(x ω_f) + s[..., f]·sin(x ω_f)`` at the half-integers
    ``x = (first + j) / 2``, ``j < size``: float64 ``[..., size]``; weights ``[..., F]``.

    By angle addition, ``x = a_q + b_r`` on a √size × √size grid
    (``cos(a + b) = cos a cos b − sin a sin b``): the waves are evaluated at ``2√size`` points
    per frequency instead of ``size``, and the sums are matrix products. Each value within a
    few float64 roundings of the direct sum (the phase ``x·ω`` is rounded either way).
    """
    first, size = check_int("first", first, -(1 << 62)), check_int("size", size, 0)
    if not isinstance(inv_freq, torch.Tensor) or inv_freq.ndim != 1:
        raise ValueError("inv_freq must be a 1-D tensor [F]")
    for name, weights in (("cos_weights", cos_weights), ("sin_weights", sin_weights)):
        if weights is not None and (
            not isinstance(weights, torch.Tensor)
            or weights.ndim == 0
            or weights.shape[-1] != len(inv_freq)
            or weights.is_complex()
        ):
            raise ValueError(
                f"{name} must be a real tensor ending in one weight per frequency "
                f"({len(inv_freq)}), got {getattr(weights, 'shape', type(weights).__name__)}"
            )
    check_elements("the sums (weights' rows × size)", cos_weights[..., 0].numel() * size)
    width = math.isqrt(max(size - 1, 0)) + 1  # r < width
    height = -(-size // width)
    half = inv_freq.to(torch.float64) / 2
    steps = torch.arange(max(width, height), dtype=torch.float64, device=half.device)[:, None]
    coarse = (first + width * steps[:height]) * half  # [Q, F]: a_q = (first + q·width)/2 · ω
    fine = steps[:width] * half  # [R, F]: b_r = r/2 · ω
    cos_a, sin_a, cos_b, sin_b = coarse.cos(), coarse.sin(), fine.cos(), fine.sin()
    c = cos_weights.to(torch.float64)[..., None, :]  # [..., 1, F]
    sums = (c * cos_a) @ cos_b.T - (c * sin_a) @ sin_b.T  # [..., Q, R]
    if sin_weights is not None:  # sin(a + b) = sin a cos b + cos a sin b
        s = sin_weights.to(torch.float64)[..., None, :]
        sums += (s * sin_a) @ cos_b.T + (s * cos_a) @ sin_b.T
    return sums.flatten(-2)[..., :size]


def _doubled_centres(starts: torch.Tensor, counts: torch.Tensor) -> torch.Tensor | None:
    """``2a + n − 1`` (twice each run's centre), int64 ``[B]``, where the runs are many, lie on
    whole numbers and their centres span at most GRID_SPAN half-integers a run; else None."""
    if len(starts) < GRID_MIN_RUNS or not all(
        not v.is_floating_point() or (bool(v.abs().max() < 2**52) and torch.equal(v, v.round()))
        for v in (starts, counts)
    ):
        return None
    doubled = 2 * starts.to(torch.int64) + counts.to(torch.int64) - 1
    span = int(doubled.max() - doubled.min()) + 1
    return doubled if span <= GRID_SPAN * len(starts) else None


def weighted_mean_cos_sin(
    starts: torch.Tensor,
    counts: torch.Tensor,
    inv_freq: torch.Tensor,
    cos_weights: torch.Tensor,
    sin_weights: torch.Tensor | None = None,
    *,
    dtype: torch.dtype = torch.float64,
) -> torch.Tensor:
    """``Σ_f c[..., f]·mean cos(p ω_f) + s[..., f]·mean sin(p ω_f)`` over each run of positions
    (the means of ``mean_cos_sin``), float64 ``[..., B]``; weights ``[..., F]``. ``dtype``
    float32: the waves and their sums in float32, each wave within 1e-6 of float64's
    (``mean_cos_sin``), so each value within about ``1e-6·Σ_f (|c_f| + |s_f|)``.

    The Dirichlet ratio depends on a run's length alone, so it joins the weights, once per
    length, and the sums over frequencies are matrix products: the ``[B, F]`` work is the phase
    and its cosine (and sine) only. Runs of many lengths (log-spaced) multiply each run's
    cosine by its own ratio instead; either way the sine is computed only when weighed. Many
    runs of a few positions each, under a few weightings, are summed on the grid of
    half-integers their centres lie on (``wave_sums``), in float64 whatever ``dtype``; others a
    chunk of runs at a time, at most ``DIRECT_MAX_CELLS`` runs × frequencies of waves at once.
    """
    for name, weights in (("cos_weights", cos_weights), ("sin_weights", sin_weights)):
        if weights is not None and (weights.ndim == 0 or weights.shape[-1] != len(inv_freq)):
            raise ValueError(
                f"{name} must end in one weight per frequency ({len(inv_freq)}), "
                f"got shape {tuple(weights.shape)}"
            )
    if dtype not in REAL_DTYPES:
        raise ValueError(f"dtype must be torch.float64 or torch.float32, got {dtype}")
    check_runs(starts, counts)
    if not len(starts):  # no runs: no sums (and no lengths to stack)
        return torch.zeros(*cos_weights.shape[:-1], 0, dtype=torch.float64)
    doubled = _doubled_centres(starts, counts)
    lead = math.prod(cos_weights.shape[:-1])
    if doubled is not None and len(torch.unique(counts)) * lead <= GRID_MAX_SUMS:
        # the sums at every half-integer the centres span, each length's ratio in its weights;
        # each run then reads its own: [..., L·size] at (its length, its centre)
        ratios, which = length_ratios(starts, counts, inv_freq)
        first = int(doubled.min())
        size = int(doubled.max()) - first + 1
        by_length = wave_sums(  # [..., L, size]
            first,
            size,
            inv_freq,
            cos_weights[..., None, :] * ratios,
            None if sin_weights is None else sin_weights[..., None, :] * ratios,
        )
        return by_length.flatten(-2).index_select(-1, which * size + (doubled - first))
    # a chunk of runs at a time: the waves of 2²⁰ positions' log-spaced pixels × 8,192
    # frequencies took 88 MB an array, three at once
    rows = max(1, DIRECT_MAX_CELLS // max(1, len(inv_freq)))
    parts = [
        _direct_sums(
            starts[i : i + rows], counts[i : i + rows], inv_freq, cos_weights, sin_weights, dtype
        )
        for i in range(0, len(starts), rows)
    ]
    return torch.cat(parts, dim=-1)


def _direct_sums(
    starts: torch.Tensor,
    counts: torch.Tensor,
    inv_freq: torch.Tensor,
    cos_weights: torch.Tensor,
    sin_weights: torch.Tensor | None,
    dtype: torch.dtype,
) -> torch.Tensor:
    """``weighted_mean_cos_sin`` from each run's waves, float64 ``[..., B]``: the ``[B, F]``
    work is the phase and its cosine (and sine) only."""
    ratios, which = length_ratios(starts, counts, inv_freq)
    phase, ratios = phase_as(mean_phases(starts, counts, inv_freq), dtype), ratios.to(dtype)
    # The waves in the phase's place where they can (it is not needed after them): a fresh
    # [B, F] array costs a page fault per page on first touch. The sine only where weighed.
    terms = [(cos_weights.to(dtype), phase.cos_() if sin_weights is None else torch.cos(phase))]
    if sin_weights is not None:
        terms.append((sin_weights.to(dtype), phase.sin_()))
    if len(ratios) > FEW_LENGTHS:  # each run its own ratio
        ratio = ratios.index_select(0, which)
        return torch.stack([w @ wave.mul_(ratio).T for w, wave in terms]).sum(0).double()
    # [lengths, ..., B]: the sums with each length's ratio; each run takes its own length's
    by_length = torch.stack([sum((w * ratio) @ wave.T for w, wave in terms) for ratio in ratios])
    return by_length.gather(0, which.expand_as(by_length[:1]))[0].double()


def _even_step(*doubled: torch.Tensor) -> int | None:
    """The one spacing of consecutive values that every tensor of ``doubled`` has, if any."""
    steps = {int(step) for values in doubled for step in torch.unique(torch.diff(values))}
    return steps.pop() if len(steps) == 1 and min(steps) > 0 else None


def mean_cos_of_differences(
    rows: tuple[torch.Tensor, torch.Tensor],
    columns: tuple[torch.Tensor, torch.Tensor],
    inv_freq: torch.Tensor,
    *,
    dtype: torch.dtype = torch.float64,
) -> torch.Tensor | None:
    """``Σ_f mean_{p∈P_i, q∈Q_j} cos((q − p) ω_f)`` for row runs ``P_i`` and column runs
    ``Q_j`` (``(starts, counts)`` each), ``[R, C]``: float64 sums rounded to ``dtype``; None
    unless both lie on a grid of half-integers (pixels of a few positions: see ``wave_sums``).

    The mean is ``ρ_i ρ_j cos((c_j − c_i) ω)`` (Dirichlet ratios ``ρ``, centres ``c``): one sum
    per pair of run lengths and doubled centre difference, read off for each cell.
    """
    row_ratios, row_length = length_ratios(*rows, inv_freq)
    col_ratios, col_length = length_ratios(*columns, inv_freq)
    row_doubled, col_doubled = _doubled_centres(*rows), _doubled_centres(*columns)
    if row_doubled is None or col_doubled is None:
        return None
    first = int(col_doubled.min() - row_doubled.max())
    size = int(col_doubled.max() - row_doubled.min()) - first + 1
    if len(row_ratios) * len(col_ratios) * size > GRID_MAX_CELLS:
        return None
    weights = row_ratios[:, None, :] * col_ratios[None, :, :]  # [Lr, Lc, F]
    sums = wave_sums(first, size, inv_freq, weights).flatten().to(dtype)  # [Lr·Lc·size]
    step = _even_step(row_doubled, col_doubled)
    if len(row_ratios) == len(col_ratios) == 1 and step is not None:
        # one run length and evenly spaced centres: a Toeplitz matrix, its diagonals read off
        # the sums by strides (with its rows reversed), with no index per cell
        shape = (len(row_doubled), len(col_doubled))
        return sums.as_strided(shape, (step, step)).flip(0)
    # cell (i, j) reads pair (length_i, length_j) at d_j − d_i: an outer sum of a row part and
    # a column part, in int32 (the grid is at most GRID_MAX_CELLS): 5× faster than int64
    row_part = row_length * (len(col_ratios) * size) - row_doubled
    col_part = col_length * size + col_doubled - first
    cell = col_part.to(torch.int32)[None, :] + row_part.to(torch.int32)[:, None]
    return sums.index_select(0, cell.flatten()).view(cell.shape)
