"""Absolute sinusoidal positional encoding (Vaswani et al. 2017).

``PE[p, 2i] = sin(p · ω_i)``, ``PE[p, 2i+1] = cos(p · ω_i)`` with ``ω_i = base^(-2i/d)``
(the paper's interleaved layout). ``layout="concat"`` gives ``[sin … | cos …]`` as in
tensor2tensor's ``get_timing_signal_1d``. Everything is computed in float64 and cast last, so
each dtype gets the correctly rounded value.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TypeVar

import numpy as np
import torch

from posenc_gui.encodings._checks import (
    MAX_DIM,
    check_base,
    check_choice,
    check_elements,
    check_even,
    check_float_dtype,
    check_int,
)
from posenc_gui.encodings.binning import mean_cos_sin, sin_extremes
from posenc_gui.encodings.run_sums import mean_cos_of_differences, weighted_mean_cos_sin

LAYOUTS = ("interleaved", "concat")
Array = TypeVar("Array", torch.Tensor, np.ndarray)


def frequencies(d_model: int, base: float = 10000.0) -> torch.Tensor:
    """Angular frequencies ``ω_i = base^(-2i/d_model)``, float64, shape ``[d_model // 2]``."""
    d_model = check_even("d_model", d_model, 2, MAX_DIM)
    base = check_base("base", base)
    return _frequencies(d_model, base).clone()  # the caller's own: the cache's stays as it is


@functools.lru_cache(maxsize=16)
def _frequencies(d_model: int, base: float) -> torch.Tensor:
    # kept: a frame asks for them once a view (0.05 ms each)
    # 1 / base^(2i/d): the paper's p / base^(2i/d), written as the reference implementations do.
    return 1.0 / base ** (torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)


def channel_layout(
    d_model: int, layout: str, channels: Sequence[int] | None
) -> tuple[torch.Tensor, torch.Tensor]:
    """For each output channel: its frequency index ``i`` and whether it holds the cosine."""
    layout = check_choice("layout", layout, LAYOUTS)
    if channels is None:
        c = torch.arange(d_model)
    else:
        c = torch.as_tensor(channels).reshape(-1)
        if c.numel() and (c.dtype == torch.bool or c.is_floating_point() or c.is_complex()):
            raise TypeError(f"channels must be integers, got {c.tolist()[:8]}")
        c = c.to(torch.int64)
    if c.numel() and (c.min() < 0 or c.max() >= d_model):
        raise ValueError(f"channels must be in [0, {d_model - 1}], got {c.tolist()}")
    if layout == "interleaved":
        return c // 2, c % 2 == 1
    return c % (d_model // 2), c >= d_model // 2


def encode(
    positions: torch.Tensor | Sequence[float],
    d_model: int,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    channels: Sequence[int] | None = None,
    dtype: torch.dtype = torch.float32,
    device: torch.device | str | None = None,
) -> torch.Tensor:
    """Encode arbitrary (integer or real) positions.

    Returns ``[len(positions), d_model]``, or ``[len(positions), len(channels)]`` holding only
    the given channels (cheap columns of a table too large to build).
    """
    dtype = check_float_dtype("dtype", dtype)
    pos = as_positions(positions, _device(device))
    omega = frequencies(d_model, base).to(pos.device)
    pair, is_cos = channel_layout(d_model, layout, channels)
    check_elements(f"positions × channels ({len(pos):,} × {len(pair):,})", len(pos) * len(pair))
    used, column = torch.unique(pair, return_inverse=True)  # each frequency once: sin and cos
    angles = pos[:, None] * omega[used.to(pos.device)][None, :]
    return _channels(torch.sin(angles), torch.cos(angles), column, is_cos).to(dtype)


def as_positions(
    positions: torch.Tensor | Sequence[float], device: torch.device | None = None
) -> torch.Tensor:
    """``positions`` as a float64 ``[N]`` tensor; TypeError or ValueError naming them unless
    they are a 1-D sequence of finite numbers (a ``[2, 3]`` tensor was flattened to 6 rows)."""
    try:
        pos = torch.as_tensor(positions, dtype=torch.float64, device=device)
    except (TypeError, ValueError, RuntimeError):
        raise TypeError(
            f"positions must be a 1-D sequence of numbers, got {type(positions).__name__}"
        ) from None
    if pos.ndim > 1:
        raise ValueError(f"positions must be 1-D, got shape {tuple(pos.shape)}")
    if not bool(torch.isfinite(pos).all()):
        raise ValueError("positions must be finite")
    return pos.reshape(-1)


def _channels(
    sin: torch.Tensor, cos: torch.Tensor, column: torch.Tensor, is_cos: torch.Tensor
) -> torch.Tensor:
    """The table's channels from the sines and cosines of the frequencies in use (``[N, F]``
    each): channel ``c`` is column ``column[c]`` of the cosines if ``is_cos[c]``, else of the
    sines; ``[N, C]``, contiguous. Consecutive channels of either layout are a slice of the
    interleaved or the joined columns (a copy); only scattered ones take a gather."""
    column, is_cos = column.to(sin.device), is_cos.to(sin.device)
    for at, both in (
        (2 * column + is_cos, lambda: torch.stack((sin, cos), -1).flatten(1)),  # s c s c …
        (column + is_cos * sin.shape[1], lambda: torch.cat((sin, cos), 1)),  # s s … c c …
    ):
        first = int(at[0]) if len(at) else 0
        if torch.equal(at, torch.arange(first, first + len(at), device=at.device)):
            return both()[:, first : first + len(at)].contiguous()
    return torch.cat((sin, cos), 1).index_select(1, column + is_cos * sin.shape[1])


def _device(device: torch.device | str | None) -> torch.device | None:
    """``device`` as a torch device this machine has (None: torch's default); ValueError naming
    the parameter otherwise (torch's own errors name neither it nor the choices)."""
    if device is None:
        return None
    try:
        found = torch.device(device)
    except (RuntimeError, TypeError):
        found = None
    devices = {
        "cpu": 1,
        "cuda": torch.cuda.device_count(),
        "mps": int(torch.backends.mps.is_available()),
    }
    if found is None or (found.index or 0) >= devices.get(found.type, 0):
        here = ", ".join(kind for kind, count in devices.items() if count)
        raise ValueError(f"device must be a device this machine has ({here}), got {device!r}")
    return found


def table(
    seq_len: int,
    d_model: int,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    dtype: torch.dtype = torch.float32,
    device: torch.device | str | None = None,
) -> torch.Tensor:
    """The encoding table for positions ``0 … seq_len-1``. Returns ``[seq_len, d_model]``."""
    seq_len = check_int("seq_len", seq_len, 1)
    check_elements("seq_len × d_model", seq_len * check_even("d_model", d_model, 2, MAX_DIM))
    positions = torch.arange(seq_len, dtype=torch.float64, device=_device(device))
    return encode(positions, d_model, base, layout=layout, dtype=dtype, device=device)


def as_cosine(dot: Array, d_model: int) -> Array:
    """``PE(p) · PE(q)`` → the cosine of their angle: every ``|PE(p)|² = Σ_i (sin² + cos²) =
    d/2``, so it is the dot product ÷ ``d/2`` (any shape, tensor or array)."""
    return dot / (check_even("d_model", d_model, 2, MAX_DIM) / 2)


def similarity_matrix(
    seq_len: int, d_model: int, base: float = 10000.0, *, cosine: bool = False
) -> torch.Tensor:
    """``S = PE · PEᵀ`` (``[seq_len, seq_len]``, float64); divided by ``|PE|² = d/2`` if cosine.

    Both layouts give the same matrix: they only permute channels.
    """
    check_elements("seq_len × seq_len", check_int("seq_len", seq_len, 1) ** 2)
    pe = table(seq_len, d_model, base, dtype=torch.float64)
    sim = pe @ pe.T
    return as_cosine(sim, d_model) if cosine else sim


def similarity_by_offset(
    offsets: torch.Tensor | Sequence[int],
    d_model: int,
    base: float = 10000.0,
    *,
    position: int = 0,
    cosine: bool = False,
    counts: torch.Tensor | None = None,
    dtype: torch.dtype = torch.float64,
) -> torch.Tensor:
    """``PE(p) · PE(p + k)`` for each offset ``k``, from the encoded vectors' sines and
    cosines (float64 ``[K]``).

    The closed form is ``Σ_i cos(k ω_i)`` (``closed_form_similarity``): it does not depend on
    ``p``, which this function lets one check rather than assume. With ``counts``, ``offsets``
    are the starts of runs of ``counts`` offsets and each value is the exact mean over its run:
    ``PE(p) · mean_k PE(p + k)``. ``dtype`` float32 sums float32 waves: within about
    ``1e-6·d_model`` (``run_sums.weighted_mean_cos_sin``).
    """
    position = check_int("position", position, 0)
    starts = torch.as_tensor(offsets).reshape(-1)
    counts = torch.ones_like(starts) if counts is None else counts
    omega = frequencies(d_model, base).to(starts.device)
    # PE(p) · mean_k PE(p + k): PE(p)'s cosines and sines weigh the shifted means
    cos_p, sin_p = torch.cos(position * omega), torch.sin(position * omega)
    sim = weighted_mean_cos_sin(position + starts, counts, omega, cos_p, sin_p, dtype=dtype)
    return as_cosine(sim, d_model) if cosine else sim


def closed_form_similarity(
    offsets: torch.Tensor | Sequence[int],
    d_model: int,
    base: float = 10000.0,
    *,
    cosine: bool = False,
    counts: torch.Tensor | None = None,
    dtype: torch.dtype = torch.float64,
) -> torch.Tensor:
    """``Σ_i cos(k ω_i)`` for each offset ``k`` (÷ ``d/2`` if cosine), float64 ``[K]``.

    With ``counts``, ``offsets`` are run starts and each value is the exact mean over its run.
    ``dtype`` float32 sums float32 waves: within about ``1e-6·d_model / 2``.
    """
    starts = torch.as_tensor(offsets, dtype=torch.float64).reshape(-1)
    counts = torch.ones_like(starts) if counts is None else counts
    omega = frequencies(d_model, base).to(starts.device)
    sim = weighted_mean_cos_sin(starts, counts, omega, torch.ones_like(omega), dtype=dtype)
    return as_cosine(sim, d_model) if cosine else sim


def mean_table(
    starts: torch.Tensor,
    counts: torch.Tensor,
    d_model: int,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    channels: Sequence[int] | None = None,
    dtype: torch.dtype = torch.float64,
) -> torch.Tensor:
    """Exact mean of each table row over runs of positions (see ``binning``), ``[B, d]`` —
    or ``[B, len(channels)]`` holding only those channels, whose frequencies alone are
    evaluated. With runs of length 1 it equals ``table`` at those positions. ``dtype``
    float32: within 1e-6 of float64 (``binning.mean_cos_sin``).
    """
    pair, is_cos = channel_layout(d_model, layout, channels)
    used, column = torch.unique(pair, return_inverse=True)  # each frequency once: sin and cos
    omega = frequencies(d_model, base)[used].to(starts.device)
    cos, sin = mean_cos_sin(starts, counts, omega, dtype=dtype)
    return _channels(sin, cos, column, is_cos)


def extremes_table(
    starts: torch.Tensor,
    counts: torch.Tensor,
    d_model: int,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    channels: Sequence[int] | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Least and largest value of each table channel over runs of positions (see
    ``binning.sin_extremes``: ``cos x = sin(x + π/2)``), two float64 ``[B, len(channels)]``."""
    pair, is_cos = channel_layout(d_model, layout, channels)
    omega = frequencies(d_model, base)[pair].to(starts.device)
    phase = is_cos.to(device=starts.device, dtype=torch.float64) * (torch.pi / 2)
    return sin_extremes(starts, counts, omega, phase)


def block_mean_table(
    starts: torch.Tensor,
    counts: torch.Tensor,
    col_starts: torch.Tensor,
    col_counts: torch.Tensor,
    d_model: int,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    dtype: torch.dtype = torch.float64,
) -> torch.Tensor:
    """Exact means of the table over blocks of row runs (positions) × column runs (channels,
    consecutive), ``[R, C]`` of ``dtype``.

    A run of channels holds the sines of one range of frequencies and the cosines of another
    (per layout), so each block is four differences of running sums over the frequencies of
    the rows' closed-form means (``binning.mean_cos_sin``): never an ``R × d_model`` table.
    In float32 the running sums are float32 too: within 1e-5 of float64 at 2^20 positions
    and 16,384 channels (``test_sinusoidal``); columns of one channel each read the row means
    themselves (float32's own rounding, ~1e-7).
    """
    layout = check_choice("layout", layout, LAYOUTS)
    lowest, end = int(col_starts.min()), int((col_starts + col_counts).max())
    if lowest < 0 or end > d_model:  # torch's own error names neither
        raise ValueError(
            f"column runs must lie within the d_model = {d_model} channels, got {lowest} … {end}"
        )
    if int(col_counts.max()) == 1:  # one channel per column: the row means themselves
        channels = col_starts.tolist()
        return mean_table(
            starts, counts, d_model, base, layout=layout, channels=channels, dtype=dtype
        )
    lo, hi = col_starts, col_starts + col_counts
    if layout == "interleaved":  # sin in even channels 2i, cos in odd ones 2i + 1
        sin_lo, sin_hi, cos_lo, cos_hi = (lo + 1) // 2, (hi + 1) // 2, lo // 2, hi // 2
    else:  # sin in channels i < d/2, cos in d/2 + i
        half = d_model // 2
        sin_lo, sin_hi = lo.clamp(max=half), hi.clamp(max=half)
        cos_lo, cos_hi = lo.clamp(min=half) - half, hi.clamp(min=half) - half
    first = int(torch.minimum(sin_lo, cos_lo).min())
    stop = int(torch.maximum(sin_hi, cos_hi).max())
    omega = frequencies(d_model, base)[first:stop].to(starts.device)
    cos, sin = mean_cos_sin(starts, counts, omega, dtype=dtype)

    def running(values: torch.Tensor) -> torch.Tensor:  # [R, n + 1]: sums of the first k
        return torch.nn.functional.pad(torch.cumsum(values, 1), (1, 0))

    def at(sums: torch.Tensor, frequency: torch.Tensor) -> torch.Tensor:  # [R, C]
        return sums.index_select(1, frequency - first)  # 6× faster than sums[:, frequency]

    s, c = running(sin), running(cos)
    total = at(s, sin_hi) - at(s, sin_lo) + at(c, cos_hi) - at(c, cos_lo)
    return total / col_counts.to(device=starts.device, dtype=dtype)


def mean_similarity_matrix(
    starts: torch.Tensor,
    counts: torch.Tensor,
    d_model: int,
    base: float = 10000.0,
    *,
    cosine: bool = False,
    columns: tuple[torch.Tensor, torch.Tensor] | None = None,
    dtype: torch.dtype = torch.float64,
) -> torch.Tensor:
    """Exact block means of ``PE · PEᵀ`` over runs of positions, ``[R, C]`` of ``dtype``
    (float32: each product term within 1e-6 of float64, see ``binning.mean_cos_sin``).

    Row runs ``starts`` / ``counts``, column runs ``columns = (starts, counts)`` (default: the
    row runs). ``mean_{p∈P, q∈Q} Σ_i cos((q-p) ω_i) = Σ_i Re(A_Q(ω_i) · conj(A_P(ω_i)))`` with
    ``A`` the mean phasor of a run, so no ``seq_len × seq_len`` matrix is ever formed. Where
    rows and columns are pixels of one to a few positions, each cell is read off a float64 sum
    per run-length pair and centre difference (``run_sums.mean_cos_of_differences``; Toeplitz
    where every run is one position), then rounded to ``dtype``.
    """
    columns = (starts, counts) if columns is None else columns
    omega = frequencies(d_model, base).to(starts.device)
    # Pixels of one to a few positions: a sum per run-length pair and centre difference
    # (float64, (R + C)·F work instead of R·C·F), read off for each cell
    on_grid = mean_cos_of_differences((starts, counts), columns, omega, dtype=dtype)
    if on_grid is not None:
        return as_cosine(on_grid, d_model) if cosine else on_grid
    col_starts, col_counts = columns
    rows = torch.cat(mean_cos_sin(starts, counts, omega, dtype=dtype), 1)  # [R, 2F] @ [2F, C]
    same = torch.equal(col_starts, starts) and torch.equal(col_counts, counts)  # a square view
    cols = rows if same else torch.cat(mean_cos_sin(col_starts, col_counts, omega, dtype=dtype), 1)
    sim = rows @ cols.T
    return as_cosine(sim, d_model) if cosine else sim
