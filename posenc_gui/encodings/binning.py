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


def check_runs(starts: torch.Tensor, counts: torch.Tensor) -> None:
    """Raise ValueError unless ``starts`` and ``counts`` are two ``[B]`` tensors of runs of one
    position or more."""
    if starts.shape != counts.shape or starts.dim() != 1:
        raise ValueError(
            f"starts and counts must be two [B] tensors, got {tuple(starts.shape)} and "
            f"{tuple(counts.shape)}"
        )
    if counts.is_floating_point() and not torch.equal(counts, counts.round()):
        raise ValueError(f"counts must be whole numbers of positions, got {counts.tolist()[:8]}")
    if counts.numel() and int(counts.min()) < 1:  # a run of no position has no mean
        raise ValueError(f"counts must be 1 or more, got {int(counts.min())}")
    if starts.is_floating_point() and not bool(torch.isfinite(starts).all()):
        raise ValueError("starts must be finite")


def length_ratios(
    starts: torch.Tensor, counts: torch.Tensor, inv_freq: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """The Dirichlet ratio ``sin(nω/2) / (n·sin(ω/2))`` of each distinct run length, float64
    ``[L, F]``, and the index of each run's length, ``[B]``."""
    check_runs(starts, counts)
    omega = inv_freq.to(torch.float64)[None, :]
    if not bool(((omega > 0) & (omega < torch.pi)).all()):  # see below: ω in (0, π)
        raise ValueError("inv_freq must lie in (0, π) radians per position")
    lengths, which = torch.unique(counts, return_inverse=True)  # equal runs: one or two lengths
    n = lengths.to(torch.float64)[:, None]
    # ω < π, so sin(ω/2) > 0 and the Dirichlet ratio is well conditioned in float64; for n = 1
    # it is exactly 1 and the phase exactly a·ω, so single positions match the full table.
    return torch.sin(n * omega / 2) / (n * torch.sin(omega / 2)), which


def mean_phases(starts: torch.Tensor, counts: torch.Tensor, inv_freq: torch.Tensor) -> torch.Tensor:
    """Each run's mean phase ``(a + (n-1)/2)·ω``, float64 ``[B, F]`` (runs checked by
    ``length_ratios``)."""
    centre = starts.to(torch.float64) + (counts.to(torch.float64) - 1.0) / 2.0
    return centre[:, None] * inv_freq.to(torch.float64)[None, :]


def phase_as(phase: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
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
    ratios, which = length_ratios(starts, counts, inv_freq)
    phase = phase_as(mean_phases(starts, counts, inv_freq), dtype)
    # runs of one length (pixels of one position each): the ratio broadcasts, no gather
    ratio = ratios.to(dtype) if len(ratios) == 1 else ratios.to(dtype).index_select(0, which)
    # in place where it can: a fresh [B, F] array costs a page fault per page on first touch
    return torch.cos(phase).mul_(ratio), phase.sin_().mul_(ratio)


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
