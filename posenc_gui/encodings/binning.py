"""Exact display-resolution means of sinusoids over runs of consecutive positions.

When a view has fewer pixels than positions, each pixel shows the mean of the positions it
covers, never a strided sample (which aliases fast sinusoids into slow waves that are not there).
The mean of ``e^{i p ω}`` over ``p = a … a+n-1`` is a geometric series with a closed form:

    (1/n) Σ e^{i p ω} = e^{i (a + (n-1)/2) ω} · sin(n ω / 2) / (n · sin(ω / 2))
"""

from __future__ import annotations

import functools
import math

import torch

from posenc_gui.encodings._checks import check_int
from posenc_gui.encodings.window import Window


def bins(length: int, max_bins: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Split ``range(length)`` into at most ``max_bins`` runs of near-equal size.

    Returns ``(starts, counts)``, int64 tensors of shape ``[min(length, max_bins)]``; each run is
    ``starts[b] … starts[b] + counts[b] - 1``. With ``length <= max_bins`` every run is one
    position, so binned values equal the full-resolution ones.
    """
    length = check_int("length", length, 1)
    n_bins = min(length, check_int("max_bins", max_bins, 1))
    edges = torch.div(
        torch.arange(n_bins + 1, dtype=torch.int64) * length, n_bins, rounding_mode="floor"
    )
    return edges[:-1], edges[1:] - edges[:-1]


REAL_DTYPES = (torch.float64, torch.float32)


def _run_lengths(
    starts: torch.Tensor, counts: torch.Tensor, inv_freq: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """The Dirichlet ratio ``sin(nω/2) / (n·sin(ω/2))`` of each distinct run length, float64
    ``[L, F]``, and the index of each run's length, ``[B]``."""
    if starts.shape != counts.shape or starts.dim() != 1:
        raise ValueError(
            f"starts and counts must be two [B] tensors, got {tuple(starts.shape)} and "
            f"{tuple(counts.shape)}"
        )
    if counts.numel() and int(counts.min()) < 1:  # a run of no position has no mean
        raise ValueError(f"counts must be 1 or more, got {int(counts.min())}")
    omega = inv_freq.to(torch.float64)[None, :]
    lengths, which = torch.unique(counts, return_inverse=True)  # equal runs: one or two lengths
    n = lengths.to(torch.float64)[:, None]
    # ω < π, so sin(ω/2) > 0 and the Dirichlet ratio is well conditioned in float64; for n = 1
    # it is exactly 1 and the phase exactly a·ω, so single positions match the full table.
    return torch.sin(n * omega / 2) / (n * torch.sin(omega / 2)), which


def _mean_phases(
    starts: torch.Tensor, counts: torch.Tensor, inv_freq: torch.Tensor
) -> torch.Tensor:
    """Each run's mean phase ``(a + (n-1)/2)·ω``, float64 ``[B, F]`` (runs checked by
    ``_run_lengths``)."""
    centre = starts.to(torch.float64) + (counts.to(torch.float64) - 1.0) / 2.0
    return centre[:, None] * inv_freq.to(torch.float64)[None, :]


def _phase_as(phase: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """A float64 phase in ``dtype`` for its sine and cosine: float32 gets it reduced mod 2π to
    ``[-π, π]`` in float64 first (in place), so that the waves stay within 1e-6 of float64's at
    any position (float32's own sine and cosine of an angle within ±π)."""
    if dtype not in REAL_DTYPES:
        raise ValueError(f"dtype must be torch.float64 or torch.float32, got {dtype}")
    if dtype == torch.float64:
        return phase
    # the nearest whole turns taken off: half the time of ``remainder_``'s floored division
    turns = (phase * (1 / (2 * torch.pi))).round_()
    return phase.sub_(turns.mul_(2 * torch.pi)).to(dtype)


def mean_cos_sin(
    starts: torch.Tensor,
    counts: torch.Tensor,
    inv_freq: torch.Tensor,
    *,
    dtype: torch.dtype = torch.float64,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Mean of ``cos(p ω)`` and of ``sin(p ω)`` over each run of positions, for each frequency.

    ``starts``, ``counts``: ``[B]``; ``inv_freq``: ``[F]`` (rad / position, in (0, π)).
    Returns two ``[B, F]`` tensors of ``dtype``. Exact for runs of length 1. In float32 the
    phase is formed and reduced mod 2π in float64 first, so each value stays within 1e-6 of
    the float64 one at any position (float32's own sin and cos of an angle within ±π).
    """
    ratios, which = _run_lengths(starts, counts, inv_freq)
    phase = _phase_as(_mean_phases(starts, counts, inv_freq), dtype)
    # runs of one length (pixels of one position each): the ratio broadcasts, no gather
    ratio = ratios.to(dtype) if len(ratios) == 1 else ratios.to(dtype).index_select(0, which)
    # in place where it can: a fresh [B, F] array costs a page fault per page on first touch
    return torch.cos(phase).mul_(ratio), phase.sin_().mul_(ratio)


FEW_LENGTHS = 4  # runs of at most this many lengths take the weighted path's matrix products
# Runs whose doubled centres span at most GRID_SPAN per run (pixels of one to a few positions,
# not log-spaced ones) are summed on the whole grid of half-integers they lie on
GRID_SPAN = 8
GRID_MIN_RUNS = 32  # fewer runs: the direct path costs next to nothing
# Weighted sums take the grid for at most this many weightings × run lengths: each adds the
# grid's matrix products (twice the runs' count of sums), while the direct path evaluates the
# waves once for all (64 weightings at 475 runs: 3.6 ms on the grid, 0.9 directly)
GRID_MAX_SUMS = 4
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
    half-integers their centres lie on (``wave_sums``), in float64 whatever ``dtype``.
    """
    for name, weights in (("cos_weights", cos_weights), ("sin_weights", sin_weights)):
        if weights is not None and (weights.ndim == 0 or weights.shape[-1] != len(inv_freq)):
            raise ValueError(
                f"{name} must end in one weight per frequency ({len(inv_freq)}), "
                f"got shape {tuple(weights.shape)}"
            )
    if dtype not in REAL_DTYPES:
        raise ValueError(f"dtype must be torch.float64 or torch.float32, got {dtype}")
    ratios, which = _run_lengths(starts, counts, inv_freq)
    if not len(starts):  # no runs: no sums (and no lengths to stack)
        return torch.zeros(*cos_weights.shape[:-1], 0, dtype=torch.float64)
    doubled = _doubled_centres(starts, counts)
    lead = math.prod(cos_weights.shape[:-1])
    if doubled is not None and len(ratios) * lead <= GRID_MAX_SUMS:
        # the sums at every half-integer the centres span, each length's ratio in its weights;
        # each run then reads its own: [..., L·size] at (its length, its centre)
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
    phase, ratios = _phase_as(_mean_phases(starts, counts, inv_freq), dtype), ratios.to(dtype)
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
    row_ratios, row_length = _run_lengths(*rows, inv_freq)
    col_ratios, col_length = _run_lengths(*columns, inv_freq)
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


EXTREME_PERIODS = 8  # periods of a run searched for the integers nearest its crests


def sin_extremes(
    starts: torch.Tensor, counts: torch.Tensor, omega: torch.Tensor, phase: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Least and largest ``sin(p ω + φ)`` over each run of integer positions ``p``: the
    envelope a pixel draws around the mean, so a fast oscillation keeps its amplitude.

    ``starts``, ``counts``: ``[B]``; ``omega``, ``phase``: ``[F]``. Returns two float64
    ``[B, F]``. The candidates are the run's ends and the integers either side of each crest
    (``p ω + φ = π/2 mod 2π``) and trough of its first EXTREME_PERIODS periods: exact for a run
    shorter than that, and otherwise within ``1 − cos(ω/2)`` of the exact extremes (a period
    holds an integer within ``ω/2`` of its crest), in practice far closer (the best of eight).
    """
    omega = omega.to(torch.float64)[None, :]
    phase = phase.to(torch.float64)[None, :]
    first = starts.to(torch.float64)[:, None]
    last = first + counts.to(torch.float64)[:, None] - 1
    start_angle = first * omega + phase
    peaks = torch.tensor([torch.pi / 2, 3 * torch.pi / 2], dtype=torch.float64, device=first.device)
    ahead = torch.remainder(peaks[:, None, None] - start_angle, 2 * torch.pi) / omega  # [2, B, F]
    # The k-th crest lies at least k periods 2π/ω past the run's start: once that is past its
    # end (k ≥ (n − 1) ω / 2π), both integers beside it clamp to the end, a candidate already.
    # Runs shorter than EXTREME_PERIODS periods (pixels of a few positions) search only those.
    empty = not (counts.numel() and omega.numel())
    reach = 0.0 if empty else float((counts.max() - 1) * omega.max()) / (2 * math.pi)
    held = min(EXTREME_PERIODS, math.ceil(reach) + 1)
    periods = torch.arange(held, dtype=torch.float64, device=first.device)
    crest = first + ahead + (periods[:, None, None, None] * (2 * torch.pi)) / omega  # [P, 2, B, F]
    shape = start_angle.shape
    ends = (first.expand(shape), last.expand(shape))
    p = torch.cat((torch.stack(ends), crest.floor().flatten(0, 1), crest.ceil().flatten(0, 1)))
    p = torch.minimum(torch.maximum(p, first), last)  # a crest past the run's end: its end
    values = torch.sin(p * omega + phase)
    return values.amin(dim=0), values.amax(dim=0)


def mean_phasor(starts: torch.Tensor, counts: torch.Tensor, inv_freq: torch.Tensor) -> torch.Tensor:
    """Mean of ``exp(i p ω)`` over each run of positions: complex128 ``[B, F]`` whose real part
    is the mean cosine and imaginary part the mean sine (see ``mean_cos_sin``)."""
    return torch.complex(*mean_cos_sin(starts, counts, inv_freq))


def run_means(
    values: torch.Tensor, starts: torch.Tensor, counts: torch.Tensor, *, held: bool = False
) -> torch.Tensor:
    """Mean of ``values`` (``[N, ...]``) over each run of rows, float64 ``[B, ...]``.

    For quantities with no closed form (rounding errors, say); uses a running sum. With
    ``held`` the rows past the last one equal it (a quantity constant from some row on, such
    as a clipped distance): runs may reach beyond ``N``, and only the rows up to there are
    summed.
    """
    if len(counts) and int(counts.max()) == 1:  # a row a run: the rows themselves, exactly
        return values.double()[starts.clamp(max=len(values) - 1) if held else starts]
    total = torch.cumsum(values.double(), dim=0)
    total = torch.cat((torch.zeros_like(total[:1]), total))
    shape = (-1,) + (1,) * (values.ndim - 1)

    def sums_before(row: torch.Tensor) -> torch.Tensor:  # Σ of the rows before ``row``
        if not held:
            return total[row]
        inside = row.clamp(max=len(values))
        return total[inside] + (row - inside).double().reshape(shape) * values[-1].double()

    return (sums_before(starts + counts) - sums_before(starts)) / counts.double().reshape(shape)


def step_corners(values: torch.Tensor, start: int) -> tuple[torch.Tensor, torch.Tensor]:
    """A step function's corners: ``values`` at ``x = start, start+1, …`` as the first and
    last x of each run of equal values, with that value, ``[2S]`` each (S runs). Drawn as a
    line it is the exact staircase at any zoom: categories (bucket ids) are never averaged."""
    if values.ndim != 1 or not len(values):
        raise ValueError(
            f"values must be a 1-D tensor of one or more, got shape {tuple(values.shape)}"
        )
    change = torch.nonzero(values[1:] != values[:-1]).flatten() + 1
    begins = torch.cat((torch.zeros(1, dtype=torch.int64), change))
    ends = torch.cat((change, torch.tensor([len(values)]))) - 1
    x = torch.stack((begins, ends), dim=1).flatten() + start
    return x, values[begins].repeat_interleave(2)


def log_bins(start: int, stop: int, max_bins: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Split ``range(start, stop)`` (``start ≥ 1``) into at most ``max_bins`` runs of equal
    width on a log scale: single positions where the scale is finer than one position.

    Returns ``(starts, counts)`` as ``bins`` does.
    """
    start = check_int("start", start, 1)
    stop = check_int("stop", stop, start + 1)
    n_bins = check_int("max_bins", max_bins, 1)
    ratio = torch.linspace(0.0, 1.0, n_bins + 1, dtype=torch.float64)
    edges = torch.floor(start * (stop / start) ** ratio).to(torch.int64)
    edges[0], edges[-1] = start, stop  # exact ends despite rounding
    edges = torch.unique(edges)  # sorted; runs shorter than one position merge
    return edges[:-1], edges[1:] - edges[:-1]


def runs(window: Window) -> tuple[torch.Tensor, torch.Tensor]:
    """``(starts, counts)`` of the runs each pixel of ``window`` covers (``bins``, ``log_bins``)."""
    starts, counts = _runs(window)
    return starts.clone(), counts.clone()  # the caller's own: the cache's stay as they are


@functools.lru_cache(maxsize=64)
def _runs(window: Window) -> tuple[torch.Tensor, torch.Tensor]:
    # kept: a frame asks for the runs of its views' few windows a dozen times (0.04 ms each)
    if window.log:
        return log_bins(window.start, window.stop, window.pixels)
    starts, counts = bins(window.stop - window.start, window.pixels)
    return starts + window.start, counts


def edges(window: Window) -> torch.Tensor:
    """The ``B + 1`` run boundaries of ``window``, int64."""
    starts, counts = runs(window)
    return torch.cat((starts, starts[-1:] + counts[-1:]))


def centres(window: Window) -> torch.Tensor:
    """The mean coordinate of each run of ``window``, float64."""
    starts, counts = runs(window)
    return starts + (counts - 1) / 2


def mean_decay(starts: torch.Tensor, counts: torch.Tensor, rates: torch.Tensor) -> torch.Tensor:
    """Mean of ``exp(−r p)`` over each run of positions ``p``, for each rate ``r ≥ 0``.

    A geometric series: ``e^{−r s} (1 − e^{−r n}) / (n (1 − e^{−r}))`` for a run of ``n`` from
    ``s`` (``expm1`` keeps small rates exact). Returns float64 ``[B, R]``.
    """
    rate = rates.to(torch.float64)[None, :]
    start = starts.to(torch.float64)[:, None]
    n = counts.to(torch.float64)[:, None]
    ratio = torch.where(rate > 0, torch.expm1(-rate * n) / (n * torch.expm1(-rate)), 1.0)
    return torch.exp(-rate * start) * ratio
