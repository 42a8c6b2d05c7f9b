"""What the RoPE tab draws, computed from its parameters (runs on the worker thread)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from posenc_gui.encodings import binning, rope
from posenc_gui.encodings.binning import Window
from posenc_gui.engine.windows import full, to_numpy

DTYPES = {
    "float64": torch.float64,
    "float32": torch.float32,
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
}
RANDOM_SAMPLES = 64  # q, k pairs behind the decay band
ERROR_FLOOR = 1e-18  # log10 of an exact (zero) error is drawn as −18
# Rounding errors have no closed form: up to this many positions they are averaged exactly over
# each pixel; a wider window is evaluated at the first position of each pixel (and says so).
EXACT_ERROR_POSITIONS = 1 << 16
TRAIL_POINTS = 4096  # a rotation trail needs at most one turn, and this many points of it


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
    table_windows: tuple[Window, Window] | None = None  # (pairs, positions)
    invariance_x: Window | None = None  # shifts t
    decay_x: Window | None = None  # distances
    error_windows: tuple[Window, Window] | None = None  # (pairs, positions)
    error_x: Window | None = None  # positions


@dataclass(frozen=True)
class RopeFrame:
    params: RopeParams
    table_col_edges: np.ndarray  # pair edges
    table_row_edges: np.ndarray  # position edges
    table: np.ndarray  # angle mod 2π (circular mean), cos or sin: exact means over each pixel
    wavelengths: np.ndarray  # [r/2] positions per turn, 2π/θ_i
    distances: np.ndarray  # centre distance of each pixel
    decay_ones: np.ndarray  # q = k = 1: mean of 2·Σ_i cos(d·θ_i) over each pixel
    decay_mean: np.ndarray  # over random q, k: mean of the pixel means
    decay_std: np.ndarray
    shifts: np.ndarray  # the shift t of each pixel (its first)
    rotated_scores: np.ndarray  # (R_{m+t} q)·(R_{n+t} k), by actually rotating
    score_at_shift: float  # the same at params.shift exactly
    unrotated_score: float  # q·k
    layout_pairs: np.ndarray  # [2, r] pair index of each channel: interleaved, half
    permutation: np.ndarray  # [r] P: half-layout channel j holds interleaved channel P[j]
    error_col_edges: np.ndarray
    error_row_edges: np.ndarray
    error_table: np.ndarray  # log10 of the mean |cos error| in params.dtype over each pixel
    error_x: np.ndarray  # position of each value of error_by_position
    error_by_position: np.ndarray  # worst |cos error| over pairs (and the pixel's positions)
    error_sampled: bool  # True when the window was too wide to average every position
    unrepresentable: int  # positions of the window params.dtype cannot hold (NaN/inf errors)


def _table(
    p: RopeParams, theta: torch.Tensor, pairs: Window, rows: Window, device: torch.device
) -> torch.Tensor:
    """Angle (circular mean), cos or sin, exactly averaged over each pixel block."""
    row_starts, row_counts = (t.to(device) for t in rows.bins())
    cos, sin = binning.mean_cos_sin(row_starts, row_counts, theta[pairs.start : pairs.stop])
    pair_starts, pair_counts = (t.to(device) for t in pairs.bins())
    cos = binning.run_means(cos.T, pair_starts - pairs.start, pair_counts).T
    sin = binning.run_means(sin.T, pair_starts - pairs.start, pair_counts).T
    if p.table == "angle":
        return torch.remainder(torch.atan2(sin, cos), 2 * torch.pi)
    return cos if p.table == "cos" else sin


@dataclass(frozen=True)
class _Errors:
    block: torch.Tensor  # [R, C] mean |cos error| over each pixel block (non-finite as 0)
    worst: torch.Tensor  # [R] largest |cos error| over the pixel's positions and pairs (inf)
    x: torch.Tensor  # [R] the position each row stands for: run centre, or run start if sampled
    sampled: bool
    unrepresentable: int  # positions whose error is not finite (the dtype cannot hold them)


def _errors(theta: torch.Tensor, pairs: Window, rows: Window, dtype: torch.dtype) -> _Errors:
    """|cos − cos₆₄| in ``dtype`` over a window of positions × pairs (see EXACT_ERROR_POSITIONS)."""
    starts, counts = rows.bins()
    sampled = rows.stop - rows.start > EXACT_ERROR_POSITIONS
    if sampled:
        positions, local_starts, counts = starts, torch.arange(len(starts)), torch.ones_like(starts)
    else:
        positions, local_starts = torch.arange(rows.start, rows.stop), starts - rows.start
    error, _ = rope.precision_error(positions, theta[pairs.start : pairs.stop], dtype)
    finite = torch.isfinite(error)
    block = binning.run_means(torch.where(finite, error, 0.0), local_starts, counts)
    pair_starts, pair_counts = pairs.bins()
    block = binning.run_means(block.T, pair_starts - pairs.start, pair_counts).T
    per_position = torch.where(finite.all(1), error.amax(1), torch.inf)
    run = torch.repeat_interleave(torch.arange(len(counts)), counts)
    worst = torch.zeros(len(counts), dtype=torch.float64).scatter_reduce_(
        0, run, per_position, reduce="amax", include_self=False
    )
    return _Errors(
        block,
        worst,
        starts.double() if sampled else rows.centres(),
        sampled,
        int((~finite.all(1)).sum()),
    )


def compute_rope(params: RopeParams, device: torch.device) -> RopeFrame:
    """All RoPE views but the rotation panels, for ``params``."""
    p, seq_len, head_dim = params, params.seq_len, params.head_dim
    theta = rope.inv_freq(head_dim, p.theta).to(device)
    n_pairs = theta.numel()
    pairs, rows = p.table_windows or (full(None, 0, n_pairs), full(None, 0, seq_len))
    table = _table(p, theta, pairs, rows, device)

    decay = full(p.decay_x, 0, seq_len)
    d_starts, d_counts = decay.bins()
    ones = torch.ones(head_dim, dtype=torch.float64, device=device)
    decay_ones = rope.relative_scores(ones, ones, d_starts, theta, layout=p.layout, counts=d_counts)
    query = p.query or QueryKey(head_dim)
    sample = QueryKey(head_dim, "random", query.seed)
    q_many, k_many = (v.to(device) for v in sample.vectors(RANDOM_SAMPLES))
    random_scores = rope.relative_scores(
        q_many, k_many, d_starts, theta, layout=p.layout, counts=d_counts
    )

    q, k = (v.to(device) for v in query.vectors())
    shifts = full(p.invariance_x, 0, seq_len).bins()[0].to(device)
    shifts = torch.cat((shifts, torch.tensor([p.shift], device=device)))
    q_rot = rope.apply(q.expand(len(shifts), -1), p.query_position + shifts, theta, layout=p.layout)
    k_rot = rope.apply(k.expand(len(shifts), -1), p.key_position + shifts, theta, layout=p.layout)
    scores = (q_rot * k_rot).sum(-1)

    rotary_dim = 2 * n_pairs
    layout_pairs = torch.stack(
        [
            torch.empty(rotary_dim, dtype=torch.int64).index_put_(
                (rope.pair_channels(rotary_dim, layout).reshape(-1),),
                torch.arange(rotary_dim // 2).repeat_interleave(2),
            )
            for layout in rope.LAYOUTS
        ]
    )

    error_pairs, error_rows = p.error_windows or (full(None, 0, n_pairs), full(None, 0, seq_len))
    errors = _errors(theta.cpu(), error_pairs, error_rows, DTYPES[p.dtype])
    curve = _errors(
        theta.cpu(), Window(0, n_pairs, n_pairs), full(p.error_x, 0, seq_len), DTYPES[p.dtype]
    )
    return RopeFrame(
        params=p,
        table_col_edges=pairs.edges().numpy(),
        table_row_edges=rows.edges().numpy(),
        table=to_numpy(table),
        wavelengths=rope.wavelengths(theta).cpu().numpy(),
        distances=decay.centres().numpy(),
        decay_ones=decay_ones.cpu().numpy(),
        decay_mean=random_scores.mean(0).cpu().numpy(),
        decay_std=random_scores.std(0).cpu().numpy(),
        shifts=shifts[:-1].double().cpu().numpy(),
        rotated_scores=scores[:-1].cpu().numpy(),
        score_at_shift=float(scores[-1]),
        unrotated_score=float((q * k).sum()),
        layout_pairs=layout_pairs.numpy(),
        permutation=rope.permutation(rotary_dim).numpy(),
        error_col_edges=error_pairs.edges().numpy(),
        error_row_edges=error_rows.edges().numpy(),
        error_table=to_numpy(torch.log10(errors.block.clamp_min(ERROR_FLOOR))),
        error_x=curve.x.numpy(),
        error_by_position=curve.worst.numpy(),
        error_sampled=errors.sampled or curve.sampled,
        unrepresentable=curve.unrepresentable,
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
    trails: tuple[np.ndarray, ...]  # per pair: [n, 2], the pair's vector up to position m


def compute_rotation(params: RotationParams, device: torch.device) -> RotationFrame:
    """The 2D vector of each chosen pair of q at positions up to m (the last is the arrow).

    A trail longer than one turn retraces the circle, so it keeps the last turn only, and at
    most ``TRAIL_POINTS`` evenly spread positions of it (a smooth arc, not a sampled wave).
    """
    theta = rope.inv_freq(params.head_dim, params.theta)
    pairs = tuple(i for i in params.pairs if 0 <= i < theta.numel())
    channels = rope.pair_channels(params.head_dim, params.layout)[list(pairs)]
    q, _ = params.query.vectors()
    m = params.position
    trails = []
    for index, pair in enumerate(pairs):
        turn = int(np.ceil(2 * np.pi / theta[pair].item()))
        first = max(0, m - turn)
        positions = torch.unique(
            torch.linspace(first, m, min(m - first + 1, TRAIL_POINTS)).round().long()
        )
        angle = positions.double() * theta[pair]
        a, b = q[0, channels[index, 0]], q[0, channels[index, 1]]
        trails.append(
            torch.stack(
                (
                    a * torch.cos(angle) - b * torch.sin(angle),
                    a * torch.sin(angle) + b * torch.cos(angle),
                ),
                1,
            ).numpy()
        )
    return RotationFrame(params, pairs, theta[list(pairs)].numpy(), tuple(trails))
