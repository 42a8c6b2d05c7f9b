"""What the RoPE tab draws, computed from its parameters (runs on the worker thread)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from posenc_gui.encodings import binning, rope
from posenc_gui.engine.absolute import MAX_DISPLAY_ROWS

DTYPES = {
    "float64": torch.float64,
    "float32": torch.float32,
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
}
RANDOM_SAMPLES = 64  # q, k pairs behind the decay band
ERROR_FLOOR = 1e-18  # log10 of an exact (zero) error is drawn as −18


@dataclass(frozen=True)
class QueryKey:
    """Which q and k the views rotate: all ones, or standard normal from a seed."""

    head_dim: int
    mode: str = "ones"
    seed: int = 0

    def vectors(self, count: int = 1) -> tuple[torch.Tensor, torch.Tensor]:
        """``count`` (q, k) pairs, float64 ``[count, head_dim]`` each."""
        if self.mode == "ones":
            ones = torch.ones(count, self.head_dim, dtype=torch.float64)
            return ones, ones.clone()
        generator = torch.Generator().manual_seed(self.seed)
        q, k = torch.randn(2, count, self.head_dim, dtype=torch.float64, generator=generator)
        return q, k


@dataclass(frozen=True)
class RopeParams:
    seq_len: int
    head_dim: int
    theta: float
    layout: str = "interleaved"
    query: QueryKey | None = None
    table: str = "angle"  # angle (mod 2π), cos or sin
    query_position: int = 0
    key_position: int = 0
    shift: int = 0
    dtype: str = "bfloat16"


@dataclass(frozen=True)
class RopeFrame:
    params: RopeParams
    row_edges: np.ndarray  # [B+1] position edges of the heatmap rows
    table: np.ndarray  # [B, r/2] angle mod 2π (circular mean), cos or sin (exact run means)
    wavelengths: np.ndarray  # [r/2] positions per turn, 2π/θ_i
    distances: np.ndarray  # [seq_len] 0 … seq_len-1
    decay_ones: np.ndarray  # q = k = 1: 2·Σ_i cos(d·θ_i)
    decay_mean: np.ndarray  # mean over random q, k
    decay_std: np.ndarray
    shifts: np.ndarray  # [seq_len] t = 0 … seq_len-1
    rotated_scores: np.ndarray  # (R_{m+t} q)·(R_{n+t} k), by actually rotating
    unrotated_score: float  # q·k
    layout_pairs: np.ndarray  # [2, r] pair index of each channel: interleaved, half
    permutation: np.ndarray  # [r] P: half-layout channel j holds interleaved channel P[j]
    error_table: np.ndarray  # [B, r/2] log10 of the mean |cos error| in params.dtype
    error_by_position: np.ndarray  # [seq_len] max over pairs of |cos error|
    unrepresentable: int  # positions params.dtype cannot hold (NaN/inf errors)


def compute_rope(params: RopeParams, device: torch.device) -> RopeFrame:
    """All RoPE views but the rotation panels, for ``params``."""
    seq_len, head_dim = params.seq_len, params.head_dim
    theta = rope.inv_freq(head_dim, params.theta).to(device)
    starts, counts = binning.bins(seq_len, MAX_DISPLAY_ROWS)
    phasor = binning.mean_phasor(starts.to(device), counts.to(device), theta)
    if params.table == "angle":
        table = torch.remainder(torch.angle(phasor), 2 * torch.pi)
    else:
        table = phasor.real if params.table == "cos" else phasor.imag

    distances = torch.arange(seq_len, dtype=torch.float64, device=device)
    ones = torch.ones(head_dim, dtype=torch.float64, device=device)
    decay_ones = rope.relative_scores(ones, ones, distances, theta, layout=params.layout)
    sample = QueryKey(head_dim, "random", (params.query or QueryKey(head_dim)).seed)
    q_many, k_many = (v.to(device) for v in sample.vectors(RANDOM_SAMPLES))
    random_scores = rope.relative_scores(q_many, k_many, distances, theta, layout=params.layout)

    q, k = (v.to(device) for v in (params.query or QueryKey(head_dim)).vectors())
    shifts = torch.arange(seq_len, dtype=torch.float64, device=device)
    q_rot = rope.apply(
        q.expand(seq_len, -1), params.query_position + shifts, theta, layout=params.layout
    )
    k_rot = rope.apply(
        k.expand(seq_len, -1), params.key_position + shifts, theta, layout=params.layout
    )

    rotary_dim = 2 * theta.numel()
    pairs = torch.stack(
        [
            torch.empty(rotary_dim, dtype=torch.int64).index_put_(
                (rope.pair_channels(rotary_dim, layout).reshape(-1),),
                torch.arange(rotary_dim // 2).repeat_interleave(2),
            )
            for layout in rope.LAYOUTS
        ]
    )

    cos_err, _ = rope.precision_error(distances.cpu(), theta.cpu(), DTYPES[params.dtype])
    finite = torch.isfinite(cos_err)
    error = torch.where(finite, cos_err, torch.nan)
    error_means = binning.run_means(torch.where(finite, cos_err, 0.0), starts, counts)
    return RopeFrame(
        params=params,
        row_edges=torch.cat((starts, starts[-1:] + counts[-1:])).numpy(),
        table=table.float().cpu().numpy(),
        wavelengths=rope.wavelengths(theta).cpu().numpy(),
        distances=distances.cpu().numpy(),
        decay_ones=decay_ones.cpu().numpy(),
        decay_mean=random_scores.mean(0).cpu().numpy(),
        decay_std=random_scores.std(0).cpu().numpy(),
        shifts=shifts.cpu().numpy(),
        rotated_scores=(q_rot * k_rot).sum(-1).cpu().numpy(),
        unrotated_score=float((q * k).sum()),
        layout_pairs=pairs.numpy(),
        permutation=rope.permutation(rotary_dim).numpy(),
        error_table=torch.log10(error_means.clamp_min(ERROR_FLOOR)).float().numpy(),
        error_by_position=torch.nan_to_num(error.amax(1), nan=np.inf).numpy(),
        unrepresentable=int((~finite).any(1).sum()),
    )


@dataclass(frozen=True)
class RotationParams:
    head_dim: int
    theta: float
    layout: str
    query: QueryKey
    pairs: tuple[int, ...]
    position: int


@dataclass(frozen=True)
class RotationFrame:
    params: RotationParams
    pairs: tuple[int, ...]
    inv_freq: np.ndarray  # θ_i of each shown pair
    trails: tuple[np.ndarray, ...]  # per pair: [position+1, 2], the pair's vector at 0 … m


def compute_rotation(params: RotationParams, device: torch.device) -> RotationFrame:
    """The 2D vector of each chosen pair of q at positions 0 … m (the last is the arrow)."""
    theta = rope.inv_freq(params.head_dim, params.theta)
    pairs = tuple(i for i in params.pairs if 0 <= i < theta.numel())
    channels = rope.pair_channels(params.head_dim, params.layout)[list(pairs)]
    q, _ = params.query.vectors()
    ang = rope.angles(torch.arange(params.position + 1), theta[list(pairs)])  # [m+1, P]
    a, b = q[0, channels[:, 0]], q[0, channels[:, 1]]
    x = a * torch.cos(ang) - b * torch.sin(ang)
    y = a * torch.sin(ang) + b * torch.cos(ang)
    trails = tuple(torch.stack((x[:, j], y[:, j]), dim=1).numpy() for j in range(len(pairs)))
    return RotationFrame(params, pairs, theta[list(pairs)].numpy(), trails)
