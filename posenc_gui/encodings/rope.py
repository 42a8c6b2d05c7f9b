"""Rotary position embedding (RoPE; Su et al., RoFormer).

Each channel pair ``(a, b)`` of a query or key at position ``m`` is rotated by the angle
``m·θ_i`` with ``θ_i = base^(-2i/r)`` (``r`` the rotary dimension):
``(a, b) → (a·cos − b·sin, a·sin + b·cos)``. Then ``(R_m q)·(R_n k) = q·R_(n−m) k`` depends on
``n − m`` only.

Two channel layouts exist for the same rotation:

- ``"interleaved"``: pairs ``(2i, 2i+1)`` — Meta's original LLaMA, GPT-J, RoFormer;
- ``"half"``: pairs ``(i, i + r/2)`` — GPT-NeoX, Hugging Face ``rotate_half``.

They differ by the channel permutation ``P = [0, 2, 4, …, 1, 3, 5, …]``:
``apply(x, layout="interleaved")[..., P] == apply(x[..., P], layout="half")``.
Channels beyond the rotary dimension (partial rotary, GPT-NeoX ``rotary_pct``) pass through.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch

from posenc_gui.encodings import sinusoidal
from posenc_gui.encodings._checks import (
    MAX_DIM,
    check_base,
    check_choice,
    check_elements,
    check_even,
    check_float_dtype,
)
from posenc_gui.encodings.binning import mean_cos_sin, run_means
from posenc_gui.encodings.run_sums import weighted_mean_cos_sin

__all__ = [
    "LAYOUTS",
    "RANDOM_SAMPLES",
    "TABLE_KINDS",
    "QueryKey",
    "angles",
    "apply",
    "block_mean_table",
    "channel_pairs",
    "cos_sin",
    "decay",
    "inv_freq",
    "pair_channels",
    "permutation",
    "precision_error",
    "relative_scores",
    "wavelengths",
]

LAYOUTS = ("interleaved", "half")
RANDOM_SAMPLES = 64  # seeded random q, k pairs behind a band of scores
Positions = torch.Tensor | Sequence[float]


@dataclass(frozen=True)
class QueryKey:
    """Which q and k to rotate: all ones, or standard normal from a seed."""

    head_dim: int
    mode: str = "ones"  # "ones" or "random"
    seed: int = 0

    def vectors(self, count: int = 1) -> tuple[torch.Tensor, torch.Tensor]:
        """``count`` (q, k) pairs, float64 ``[count, head_dim]`` each."""
        if self.mode == "ones":
            ones = torch.ones(count, self.head_dim, dtype=torch.float64)
            return ones, ones.clone()
        generator = torch.Generator().manual_seed(self.seed)
        q, k = torch.randn(2, count, self.head_dim, dtype=torch.float64, generator=generator)
        return q, k


def inv_freq(
    head_dim: int, base: float = 10000.0, *, rotary_dim: int | None = None
) -> torch.Tensor:
    """``θ_i = 1 / base^(2i/rotary_dim)``, float64, shape ``[rotary_dim // 2]``.

    ``rotary_dim`` (even, ≤ head_dim) defaults to ``head_dim``.
    """
    head_dim = check_even("head_dim", head_dim, 2, MAX_DIM)
    rotary_dim = (
        head_dim if rotary_dim is None else check_even("rotary_dim", rotary_dim, 2, head_dim)
    )
    return sinusoidal.frequencies(rotary_dim, check_base("base", base))


def _check_inv_freq(inv_freq: torch.Tensor) -> torch.Tensor:
    if not isinstance(inv_freq, torch.Tensor):
        raise TypeError(f"inv_freq must be a torch.Tensor, got {type(inv_freq).__name__}")
    if inv_freq.ndim != 1 or inv_freq.numel() == 0:
        raise ValueError(
            f"inv_freq must be a non-empty 1-D tensor, got shape {tuple(inv_freq.shape)}"
        )
    theta = inv_freq.to(torch.float64)
    # 0 is a pair that never turns (Gemma 4's proportional RoPE); NaN, ±inf or < 0 is no RoPE
    wrong = theta[~(torch.isfinite(theta) & (theta >= 0))]
    if wrong.numel():
        raise ValueError(
            f"inv_freq must hold finite numbers ≥ 0 (radians per position), got {wrong[0].item()}"
        )
    return theta


def check_query_key(q: torch.Tensor, k: torch.Tensor, pairs: int) -> None:
    """Raise unless ``q`` and ``k`` are tensors of ``2·pairs`` channels (two per frequency)
    whose other dimensions broadcast together."""
    for name, vector in (("q", q), ("k", k)):
        if not isinstance(vector, torch.Tensor):
            raise TypeError(f"{name} must be a torch.Tensor, got {type(vector).__name__}")
        if vector.ndim == 0 or vector.shape[-1] != 2 * pairs:
            raise ValueError(
                f"{name} must end in {2 * pairs} channels (two per frequency), "
                f"got shape {tuple(vector.shape)}"
            )
    # each dimension, counted from the last, equal or 1 in one of them (torch.broadcast_shapes
    # says the same, but its first call imports sympy: 0.3–0.4 s, and 60 MB)
    trailing = zip(q.shape[::-1], k.shape[::-1], strict=False)  # the longer's leading ones: free
    if not all(a == b or 1 in (a, b) for a, b in trailing):
        raise ValueError(
            f"q and k must broadcast together, got shapes {tuple(q.shape)} and {tuple(k.shape)}"
        )


def angles(positions: Positions, inv_freq: torch.Tensor) -> torch.Tensor:
    """Rotation angles ``m·θ_i`` (radians, not reduced), float64 ``[len(positions), r/2]``."""
    theta = _check_inv_freq(inv_freq)
    pos = sinusoidal.as_positions(positions, theta.device)
    check_elements(f"positions × pairs ({len(pos):,} × {len(theta):,})", len(pos) * len(theta))
    return pos[:, None] * theta[None, :]


def pair_channels(rotary_dim: int, layout: str = "interleaved") -> torch.Tensor:
    """The two physical channels of each pair, int64 ``[rotary_dim // 2, 2]``."""
    rotary_dim = check_even("rotary_dim", rotary_dim, 2, MAX_DIM)
    layout = check_choice("layout", layout, LAYOUTS)
    i = torch.arange(rotary_dim // 2)
    if layout == "interleaved":
        return torch.stack((2 * i, 2 * i + 1), dim=1)
    return torch.stack((i, i + rotary_dim // 2), dim=1)


def channel_pairs(rotary_dim: int, layout: str = "interleaved") -> torch.Tensor:
    """The pair index of each physical channel, int64 ``[rotary_dim]`` (``pair_channels``
    inverted): ``0 0 1 1 …`` interleaved, ``0 1 … 0 1 …`` half."""
    channels = pair_channels(rotary_dim, layout)
    pairs = torch.arange(rotary_dim // 2).repeat_interleave(2)
    return torch.empty(rotary_dim, dtype=torch.int64).index_put_((channels.reshape(-1),), pairs)


def permutation(rotary_dim: int) -> torch.Tensor:
    """``P = [0, 2, 4, …, 1, 3, 5, …]``: ``interleaved(x)[..., P] == half(x[..., P])``."""
    return pair_channels(rotary_dim, "interleaved").T.reshape(-1)


def cos_sin(
    positions: Positions,
    inv_freq: torch.Tensor,
    *,
    layout: str = "interleaved",
    dtype: torch.dtype = torch.float32,
) -> tuple[torch.Tensor, torch.Tensor]:
    """cos and sin of the angles in the layout's channel order, each ``[len(positions), r]``.

    Interleaved repeats each angle twice in a row (``θ0 θ0 θ1 θ1 …``); half concatenates
    (``θ0 θ1 … θ0 θ1 …``), as Hugging Face's ``cat((freqs, freqs), dim=-1)``. Computed in
    float64, cast to ``dtype`` last.
    """
    layout = check_choice("layout", layout, LAYOUTS)
    pos, theta = sinusoidal.as_positions(positions), _check_inv_freq(inv_freq)
    channels = 2 * len(theta)
    check_elements(
        f"positions × rotary channels ({len(pos):,} × {channels:,})", len(pos) * channels
    )
    ang = angles(pos, theta)
    ang = ang.repeat_interleave(2, dim=-1) if layout == "interleaved" else torch.cat((ang, ang), -1)
    return torch.cos(ang).to(dtype), torch.sin(ang).to(dtype)


def apply(
    x: torch.Tensor, positions: Positions, inv_freq: torch.Tensor, *, layout: str = "interleaved"
) -> torch.Tensor:
    """Rotate the last dimension of ``x`` (``[..., seq, head_dim]``) at ``positions`` (``[seq]``).

    Only the first ``2·len(inv_freq)`` channels rotate; the rest pass through unchanged.
    Returns a tensor of ``x``'s shape and dtype.
    """
    pos = sinusoidal.as_positions(positions, x.device if isinstance(x, torch.Tensor) else None)
    if isinstance(x, torch.Tensor) and x.ndim >= 2 and pos.numel() != x.shape[-2]:
        raise ValueError(
            f"positions must have one entry per row of x ({x.shape[-2]}), got {pos.numel()}"
        )
    return rotate(x, angles(pos, _check_inv_freq(inv_freq).to(pos.device)), layout=layout)


def rotate(x: torch.Tensor, angles: torch.Tensor, *, layout: str = "interleaved") -> torch.Tensor:
    """Rotate each pair of ``x``'s first ``2P`` channels by its angle: ``angles`` float64
    ``[seq, P]`` (``angles(positions, inv_freq)``, or one axis per pair: ``multimodal``).

    cos and sin are taken in float64 and cast to ``x``'s dtype; the rest of the channels pass
    through unchanged.
    """
    layout = check_choice("layout", layout, LAYOUTS)
    if not isinstance(x, torch.Tensor) or not x.is_floating_point():
        raise TypeError(
            f"x must be a floating-point torch.Tensor, got {type(x).__name__}"
            + (f" of {x.dtype}" if isinstance(x, torch.Tensor) else "")
        )
    rotary_dim = 2 * angles.shape[-1]
    if x.ndim < 2 or x.shape[-1] < rotary_dim or angles.shape[0] != x.shape[-2]:
        raise ValueError(
            f"x must be [..., seq, head_dim] with seq {angles.shape[0]} and head_dim ≥ "
            f"{rotary_dim}, got shape {tuple(x.shape)}"
        )
    ang = angles.to(x.device, torch.float64)
    ang = ang.repeat_interleave(2, dim=-1) if layout == "interleaved" else torch.cat((ang, ang), -1)
    cos, sin = torch.cos(ang).to(x.dtype), torch.sin(ang).to(x.dtype)
    rot, rest = x[..., :rotary_dim], x[..., rotary_dim:]
    if layout == "interleaved":
        a, b = rot[..., 0::2], rot[..., 1::2]
        partner = torch.stack((-b, a), dim=-1).flatten(-2)  # (a, b) → (−b, a) per pair
    else:
        a, b = rot.chunk(2, dim=-1)
        partner = torch.cat((-b, a), dim=-1)  # Hugging Face's rotate_half
    return torch.cat((rot * cos + partner * sin, rest), dim=-1)


def relative_scores(
    q: torch.Tensor,
    k: torch.Tensor,
    distances: Positions,
    inv_freq: torch.Tensor,
    *,
    layout: str = "interleaved",
    counts: torch.Tensor | None = None,
) -> torch.Tensor:
    """``(R_m q)·(R_{m+d} k)`` for each distance ``d``, without rotating anything.

    Per pair, ``q·R_d k = (q_a k_a + q_b k_b)·cos(dθ) + (q_b k_a − q_a k_b)·sin(dθ)``.
    ``q``, ``k``: ``[..., rotary_dim]`` (broadcast together); returns float64 ``[..., D]``.
    With ``counts``, ``distances`` are the starts of runs of ``counts`` distances and each
    value is the exact mean over its run (``run_sums.weighted_mean_cos_sin``).
    """
    theta = _check_inv_freq(inv_freq)
    check_query_key(q, k, theta.numel())
    theta = theta.to(q.device)
    channels = pair_channels(2 * theta.numel(), layout).to(q.device)
    qa, qb = q[..., channels[:, 0]].double(), q[..., channels[:, 1]].double()
    ka, kb = k[..., channels[:, 0]].double(), k[..., channels[:, 1]].double()
    if counts is None:
        ang = angles(distances, theta)  # [D, r/2]
        return (qa * ka + qb * kb) @ torch.cos(ang).T + (qb * ka - qa * kb) @ torch.sin(ang).T
    starts = torch.as_tensor(distances).to(q.device)
    return weighted_mean_cos_sin(
        starts, counts.to(q.device), theta, qa * ka + qb * kb, qb * ka - qa * kb
    )


def decay(
    distances: Positions, inv_freq: torch.Tensor, *, counts: torch.Tensor | None = None
) -> torch.Tensor:
    """RoFormer's long-term decay: ``q·R_d k = 2·Σ_i cos(d·θ_i)`` for ``q = k = 1``, float64
    ``[D]`` (exact means over runs with ``counts``, as ``relative_scores``)."""
    theta = _check_inv_freq(inv_freq)
    ones = torch.ones(2 * theta.numel(), dtype=torch.float64, device=theta.device)
    return relative_scores(ones, ones, distances, theta, counts=counts)


TABLE_KINDS = ("angle", "cos", "sin")


def block_mean_table(
    starts: torch.Tensor,
    counts: torch.Tensor,
    pair_starts: torch.Tensor,
    pair_counts: torch.Tensor,
    inv_freq: torch.Tensor,
    *,
    kind: str = "angle",
) -> torch.Tensor:
    """Exact means over blocks of position runs × runs of consecutive pairs, float64 ``[R, C]``:
    of ``cos(m·θ_i)`` or ``sin(m·θ_i)``, or for ``"angle"`` the circular mean
    ``atan2(mean sin, mean cos) mod 2π`` (the angle itself where a block is one cell)."""
    kind = check_choice("kind", kind, TABLE_KINDS)
    first, stop = int(pair_starts[0]), int(pair_starts[-1] + pair_counts[-1])
    cos, sin = mean_cos_sin(starts, counts, _check_inv_freq(inv_freq)[first:stop])
    cos = run_means(cos.T, pair_starts - first, pair_counts).T
    sin = run_means(sin.T, pair_starts - first, pair_counts).T
    if kind == "angle":
        return torch.remainder(torch.atan2(sin, cos), 2 * torch.pi)
    return cos if kind == "cos" else sin


def wavelengths(inv_freq: torch.Tensor) -> torch.Tensor:
    """Positions per full turn of each pair, ``2π / θ_i`` (float64)."""
    return 2 * torch.pi / _check_inv_freq(inv_freq)


def precision_error(
    positions: Positions, inv_freq: torch.Tensor, dtype: torch.dtype
) -> tuple[torch.Tensor, torch.Tensor]:
    """``|cos − cos₆₄|`` and ``|sin − sin₆₄|`` when the angles are formed in ``dtype``.

    Positions and frequencies are rounded to ``dtype``, multiplied and passed to cos/sin in
    ``dtype`` (as when a model's buffers are cast to bf16), then compared with float64.
    Returns two float64 ``[len(positions), r/2]`` tensors; entries are NaN or inf where
    ``dtype`` cannot hold the position (float16 above 65504).
    """
    dtype = check_float_dtype("dtype", dtype)
    pos = sinusoidal.as_positions(positions)
    theta = _check_inv_freq(inv_freq)
    check_elements(f"positions × pairs ({len(pos):,} × {len(theta):,})", len(pos) * len(theta))
    exact = pos[:, None] * theta[None, :]
    low = pos.to(dtype)[:, None] * theta.to(dtype)[None, :]
    cos_err = (torch.cos(low).double() - torch.cos(exact)).abs()
    sin_err = (torch.sin(low).double() - torch.sin(exact)).abs()
    return cos_err, sin_err
