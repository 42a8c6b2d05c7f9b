"""Absolute sinusoidal positional encoding (Vaswani et al. 2017).

``PE[p, 2i] = sin(p · ω_i)``, ``PE[p, 2i+1] = cos(p · ω_i)`` with ``ω_i = base^(-2i/d)``
(the paper's interleaved layout). ``layout="concat"`` gives ``[sin … | cos …]`` as in
tensor2tensor's ``get_timing_signal_1d``. Everything is computed in float64 and cast last, so
each dtype gets the correctly rounded value.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from posenc_gui.encodings._checks import (
    MAX_DIM,
    check_base,
    check_choice,
    check_elements,
    check_even,
    check_int,
)
from posenc_gui.encodings.binning import mean_cos_sin, run_means, sin_extremes

LAYOUTS = ("interleaved", "concat")


def frequencies(d_model: int, base: float = 10000.0) -> torch.Tensor:
    """Angular frequencies ``ω_i = base^(-2i/d_model)``, float64, shape ``[d_model // 2]``."""
    d_model = check_even("d_model", d_model, 2, MAX_DIM)
    base = check_base("base", base)
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
        c = torch.as_tensor(channels, dtype=torch.int64).reshape(-1)
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
    pos = torch.as_tensor(positions, dtype=torch.float64, device=device).reshape(-1)
    if not torch.isfinite(pos).all():
        raise ValueError("positions must be finite")
    omega = frequencies(d_model, base).to(pos.device)
    pair, is_cos = channel_layout(d_model, layout, channels)
    used, column = torch.unique(pair, return_inverse=True)  # each frequency once: sin and cos
    angles = pos[:, None] * omega[used.to(pos.device)][None, :]
    sin_cos = torch.stack((torch.sin(angles), torch.cos(angles)), dim=-1)
    return sin_cos[:, column.to(pos.device), is_cos.long().to(pos.device)].to(dtype)


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
    positions = torch.arange(seq_len, dtype=torch.float64, device=device)
    return encode(positions, d_model, base, layout=layout, dtype=dtype, device=device)


def similarity_matrix(
    seq_len: int, d_model: int, base: float = 10000.0, *, cosine: bool = False
) -> torch.Tensor:
    """``S = PE · PEᵀ`` (``[seq_len, seq_len]``, float64); divided by ``|PE|² = d/2`` if cosine.

    Both layouts give the same matrix: they only permute channels.
    """
    check_elements("seq_len × seq_len", check_int("seq_len", seq_len, 1) ** 2)
    pe = table(seq_len, d_model, base, dtype=torch.float64)
    sim = pe @ pe.T
    return sim / (d_model / 2) if cosine else sim


def similarity_by_offset(
    offsets: torch.Tensor | Sequence[int],
    d_model: int,
    base: float = 10000.0,
    *,
    position: int = 0,
    cosine: bool = False,
    counts: torch.Tensor | None = None,
) -> torch.Tensor:
    """``PE(p) · PE(p + k)`` for each offset ``k``, from the encoded vectors (float64, ``[K]``).

    The closed form is ``Σ_i cos(k ω_i)`` (``closed_form_similarity``): it does not depend on
    ``p``, which this function lets one check rather than assume. With ``counts``, ``offsets``
    are the starts of runs of ``counts`` offsets and each value is the exact mean over its run:
    ``PE(p) · mean_k PE(p + k)``.
    """
    position = check_int("position", position, 0)
    if counts is None:
        k = torch.as_tensor(offsets, dtype=torch.float64).reshape(-1)
        ref = encode([position], d_model, base, dtype=torch.float64)
        sim = encode(position + k, d_model, base, dtype=torch.float64) @ ref[0]
    else:
        starts = torch.as_tensor(offsets)
        omega = frequencies(d_model, base).to(starts.device)
        shifted = torch.cat(mean_cos_sin(position + starts, counts, omega), 1)
        sim = shifted @ torch.cat((torch.cos(position * omega), torch.sin(position * omega)))
    return sim / (d_model / 2) if cosine else sim


def closed_form_similarity(
    offsets: torch.Tensor | Sequence[int],
    d_model: int,
    base: float = 10000.0,
    *,
    cosine: bool = False,
    counts: torch.Tensor | None = None,
) -> torch.Tensor:
    """``Σ_i cos(k ω_i)`` for each offset ``k`` (÷ ``d/2`` if cosine), float64 ``[K]``.

    With ``counts``, ``offsets`` are run starts and each value is the exact mean over its run.
    """
    starts = torch.as_tensor(offsets, dtype=torch.float64).reshape(-1)
    counts = torch.ones_like(starts) if counts is None else counts
    omega = frequencies(d_model, base).to(starts.device)
    sim = mean_cos_sin(starts, counts, omega)[0].sum(1)
    return sim / (d_model / 2) if cosine else sim


def mean_table(
    starts: torch.Tensor,
    counts: torch.Tensor,
    d_model: int,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    channels: Sequence[int] | None = None,
) -> torch.Tensor:
    """Exact mean of each table row over runs of positions (see ``binning``), float64
    ``[B, d]`` — or ``[B, len(channels)]`` holding only those channels, whose frequencies alone
    are evaluated. With runs of length 1 it equals ``table`` at those positions.
    """
    pair, is_cos = channel_layout(d_model, layout, channels)
    used, column = torch.unique(pair, return_inverse=True)  # each frequency once: sin and cos
    omega = frequencies(d_model, base)[used].to(starts.device)
    cos, sin = mean_cos_sin(starts, counts, omega)
    column, is_cos = column.to(starts.device), is_cos.to(starts.device)
    return torch.where(is_cos, cos[:, column], sin[:, column])


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
) -> torch.Tensor:
    """Exact means of the table over blocks of row runs (positions) × column runs (channels,
    consecutive), float64 ``[R, C]``: rows by closed form (``mean_table``) for the covered
    channels only, then the mean over each run of channels."""
    first, stop = int(col_starts[0]), int(col_starts[-1] + col_counts[-1])
    values = mean_table(starts, counts, d_model, base, layout=layout, channels=range(first, stop))
    return run_means(values.T, col_starts - first, col_counts).T


def mean_similarity_matrix(
    starts: torch.Tensor,
    counts: torch.Tensor,
    d_model: int,
    base: float = 10000.0,
    *,
    cosine: bool = False,
    columns: tuple[torch.Tensor, torch.Tensor] | None = None,
) -> torch.Tensor:
    """Exact block means of ``PE · PEᵀ`` over runs of positions, float64 ``[R, C]``.

    Row runs ``starts`` / ``counts``, column runs ``columns = (starts, counts)`` (default: the
    row runs). ``mean_{p∈P, q∈Q} Σ_i cos((q-p) ω_i) = Σ_i Re(A_Q(ω_i) · conj(A_P(ω_i)))`` with
    ``A`` the mean phasor of a run, so no ``seq_len × seq_len`` matrix is ever formed.
    """
    omega = frequencies(d_model, base).to(starts.device)
    rows = torch.cat(mean_cos_sin(starts, counts, omega), 1)  # one [R, 2F] @ [2F, C] product
    cols = rows if columns is None else torch.cat(mean_cos_sin(*columns, omega), 1)
    sim = rows @ cols.T
    return sim / (d_model / 2) if cosine else sim
