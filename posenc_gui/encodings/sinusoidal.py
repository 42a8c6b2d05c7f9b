"""Absolute sinusoidal positional encoding (Vaswani et al. 2017).

``PE[p, 2i] = sin(p · ω_i)``, ``PE[p, 2i+1] = cos(p · ω_i)`` with ``ω_i = base^(-2i/d)``
(the paper's interleaved layout). ``layout="concat"`` gives ``[sin … | cos …]`` as in
tensor2tensor's ``get_timing_signal_1d``. Everything is computed in float64 and cast last, so
each dtype gets the correctly rounded value.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from posenc_gui.encodings._checks import check_base, check_choice, check_even, check_int
from posenc_gui.encodings.binning import mean_phasor

LAYOUTS = ("interleaved", "concat")


def frequencies(d_model: int, base: float = 10000.0) -> torch.Tensor:
    """Angular frequencies ``ω_i = base^(-2i/d_model)``, float64, shape ``[d_model // 2]``."""
    d_model = check_even("d_model", d_model)
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
    positions = torch.arange(seq_len, dtype=torch.float64, device=device)
    return encode(positions, d_model, base, layout=layout, dtype=dtype, device=device)


def similarity_matrix(
    seq_len: int, d_model: int, base: float = 10000.0, *, cosine: bool = False
) -> torch.Tensor:
    """``S = PE · PEᵀ`` (``[seq_len, seq_len]``, float64); divided by ``|PE|² = d/2`` if cosine.

    Both layouts give the same matrix: they only permute channels.
    """
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
) -> torch.Tensor:
    """``PE(p) · PE(p + k)`` for each offset ``k``, from the encoded vectors (float64, ``[K]``).

    The closed form is ``Σ_i cos(k ω_i)``: it does not depend on ``p``, which this function lets
    one check rather than assume.
    """
    position = check_int("position", position, 0)
    k = torch.as_tensor(offsets, dtype=torch.float64).reshape(-1)
    ref = encode([position], d_model, base, dtype=torch.float64)
    others = encode(position + k, d_model, base, dtype=torch.float64)
    sim = others @ ref[0]
    return sim / (d_model / 2) if cosine else sim


def mean_table(
    starts: torch.Tensor,
    counts: torch.Tensor,
    d_model: int,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
) -> torch.Tensor:
    """Exact mean of each table row over runs of positions (see ``binning``), float64 ``[B, d]``.

    With runs of length 1 it equals ``table`` at those positions.
    """
    phasor = mean_phasor(starts, counts, frequencies(d_model, base).to(starts.device))
    pair, is_cos = channel_layout(d_model, layout, None)
    pair, is_cos = pair.to(starts.device), is_cos.to(starts.device)
    return torch.where(is_cos, phasor.real[:, pair], phasor.imag[:, pair])


def mean_similarity_matrix(
    starts: torch.Tensor,
    counts: torch.Tensor,
    d_model: int,
    base: float = 10000.0,
    *,
    cosine: bool = False,
) -> torch.Tensor:
    """Exact block means of ``PE · PEᵀ`` over runs of positions, float64 ``[B, B]``.

    ``mean_{p∈P, q∈Q} Σ_i cos((q-p) ω_i) = Σ_i Re(A_Q(ω_i) · conj(A_P(ω_i)))`` with ``A`` the
    mean phasor of a run, so no ``seq_len × seq_len`` matrix is ever formed.
    """
    phasor = mean_phasor(starts, counts, frequencies(d_model, base).to(starts.device))
    sim = phasor.real @ phasor.real.T + phasor.imag @ phasor.imag.T
    return sim / (d_model / 2) if cosine else sim
