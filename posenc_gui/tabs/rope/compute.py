"""What the RoPE tab draws, computed from its parameters (runs on the worker thread)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import torch

from posenc_gui.cancel import checkpoint
from posenc_gui.comparison import Curve, Entry, Inputs, Setting
from posenc_gui.encodings import binning, rope
from posenc_gui.encodings.rope import QueryKey
from posenc_gui.encodings.window import Window, full
from posenc_gui.frames import asks_for, check_pages, runs_on, to_numpy
from posenc_gui.translatable import N_

DTYPES = {
    "float64": torch.float64,
    "float32": torch.float32,
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
}
ERROR_FLOOR = 1e-18  # log10 of an exact (zero) error is drawn as −18
# Rounding errors have no closed form: up to this many positions they are averaged exactly over
# each pixel; a wider window is evaluated at the first position of each pixel (and says so).
EXACT_ERROR_POSITIONS = 1 << 16
# A rotation trail needs at most one turn, and this many points of it: a 256-gon strays from
# its circle by r·(2π/256)²/8, 0.04 px at a radius of 500 px. Painting a trail costs by its
# points: 4096 of them took 1 ms a panel (16 panels: 17 ms), 256 take 0.1.
TRAIL_POINTS = 256
# The tab's pages; the rotation panels are computed apart (``compute_rotation``).
PAGES = ("tables", "rotation", "invariance", "layouts", "precision")


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
    pages: tuple[str, ...] | None = None  # the pages to compute (None: every page)

    def __post_init__(self) -> None:
        check_pages(self.pages, PAGES)


@dataclass(frozen=True)
class TablesPage:
    table_col_edges: np.ndarray  # pair edges
    table_row_edges: np.ndarray  # position edges
    table: np.ndarray  # angle mod 2π (circular mean), cos or sin: exact means over each pixel


@dataclass(frozen=True)
class InvariancePage:
    distances: np.ndarray  # centre distance of each pixel
    decay_ones: np.ndarray  # q = k = 1: mean of 2·Σ_i cos(d·θ_i) over each pixel
    decay_mean: np.ndarray  # over random q, k: mean of the pixel means
    decay_std: np.ndarray
    decay_per_pixel: int  # the most distances a pixel of (d) holds
    shifts: np.ndarray  # the shift t of each pixel (its first)
    rotated_scores: np.ndarray  # (R_{m+t} q)·(R_{n+t} k), by actually rotating
    score_at_shift: float  # the same at params.shift exactly
    unrotated_score: float  # q·k


@dataclass(frozen=True)
class LayoutsPage:
    layout_pairs: np.ndarray  # [2, r] pair index of each channel: interleaved, half
    permutation: np.ndarray  # [r] P: half-layout channel j holds interleaved channel P[j]


@dataclass(frozen=True)
class PrecisionPage:
    error_col_edges: np.ndarray
    error_row_edges: np.ndarray
    error_table: np.ndarray  # log10 of the mean |cos error| in params.dtype over each pixel
    error_x: np.ndarray  # position of each value of error_by_position
    error_by_position: np.ndarray  # worst |cos error| over pairs (and the pixel's positions)
    error_sampled: bool  # True when the window was too wide to average every position
    unrepresentable: int  # positions of the window params.dtype cannot hold (NaN/inf errors)


@dataclass(frozen=True)
class RopeFrame:
    """The arrays of the pages asked for (``params.pages``); None for the others."""

    params: RopeParams
    wavelengths: np.ndarray  # [r/2] positions per turn, 2π/θ_i
    tables: TablesPage | None
    invariance: InvariancePage | None
    layouts: LayoutsPage | None
    precision: PrecisionPage | None


@dataclass(frozen=True)
class _Errors:
    block: torch.Tensor  # [R, C] mean |cos error| over each pixel block (non-finite as 0)
    worst: torch.Tensor  # [R] largest |cos error| over the pixel's positions and pairs (inf)
    x: torch.Tensor  # [R] the position each row stands for: run centre, or run start if sampled
    sampled: bool
    unrepresentable: int  # positions whose error is not finite (the dtype cannot hold them)


def _errors(theta: torch.Tensor, pairs: Window, rows: Window, dtype: torch.dtype) -> _Errors:
    """|cos − cos₆₄| in ``dtype`` over a window of positions × pairs (see EXACT_ERROR_POSITIONS)."""
    starts, counts = binning.runs(rows)
    sampled = rows.stop - rows.start > EXACT_ERROR_POSITIONS
    if sampled:
        positions, local_starts, counts = starts, torch.arange(len(starts)), torch.ones_like(starts)
    else:
        positions, local_starts = torch.arange(rows.start, rows.stop), starts - rows.start
    error, _ = rope.precision_error(positions, theta[pairs.start : pairs.stop], dtype)
    finite = torch.isfinite(error)
    block = binning.run_means(torch.where(finite, error, 0.0), local_starts, counts)
    pair_starts, pair_counts = binning.runs(pairs)
    block = binning.run_means(block.T, pair_starts - pairs.start, pair_counts).T
    per_position = torch.where(finite.all(1), error.amax(1), torch.inf)
    run = torch.repeat_interleave(torch.arange(len(counts)), counts)
    worst = torch.zeros(len(counts), dtype=torch.float64).scatter_reduce_(
        0, run, per_position, reduce="amax", include_self=False
    )
    return _Errors(
        block,
        worst,
        starts.double() if sampled else binning.centres(rows),
        sampled,
        int((~finite.all(1)).sum()),
    )


# Each group of views keeps its arrays by the parameters it depends on: a control of one page
# (the dtype, say) recomputes that page's arrays only.
@functools.lru_cache(maxsize=2)
def _tables(
    head_dim: int, theta: float, kind: str, windows: tuple[Window, Window], device: torch.device
) -> TablesPage:
    """Pair edges, position edges and the table (angle, cos or sin) over each pixel."""
    pairs, rows = windows
    inv_freq = rope.inv_freq(head_dim, theta).to(device)
    table = rope.block_mean_table(
        *runs_on(rows, device), *runs_on(pairs, device), inv_freq, kind=kind
    )
    return TablesPage(binning.edges(pairs).numpy(), binning.edges(rows).numpy(), to_numpy(table))


@functools.lru_cache(maxsize=2)
def _decay(
    head_dim: int, theta: float, layout: str, seed: int, window: Window, device: torch.device
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Distances, the q = k = 1 decay, and the mean and std over random q, k per pixel."""
    inv_freq = rope.inv_freq(head_dim, theta).to(device)
    starts, counts = binning.runs(window)
    ones = rope.decay(starts, inv_freq, counts=counts)
    sample = QueryKey(head_dim, "random", seed)
    q_many, k_many = (v.to(device) for v in sample.vectors(rope.RANDOM_SAMPLES))
    scores = rope.relative_scores(q_many, k_many, starts, inv_freq, layout=layout, counts=counts)
    return (
        binning.centres(window).numpy(),
        ones.cpu().numpy(),
        scores.mean(0).cpu().numpy(),
        scores.std(0).cpu().numpy(),
    )


@functools.lru_cache(maxsize=2)
def _invariance(
    p: RopeParams, query: QueryKey, window: Window, device: torch.device
) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Shifts t, (R_{m+t} q)·(R_{n+t} k) at each, the same at ``p.shift``, and q·k (``p``:
    what these views depend on, ``_invariance_key``)."""
    inv_freq = rope.inv_freq(p.head_dim, p.theta).to(device)
    q, k = (v.to(device) for v in query.vectors())
    shifts = binning.runs(window)[0].to(device)
    shifts = torch.cat((shifts, torch.tensor([p.shift], device=device)))
    q_rot = rope.apply(
        q.expand(len(shifts), -1), p.query_position + shifts, inv_freq, layout=p.layout
    )
    k_rot = rope.apply(
        k.expand(len(shifts), -1), p.key_position + shifts, inv_freq, layout=p.layout
    )
    scores = (q_rot * k_rot).sum(-1)
    return (
        shifts[:-1].double().cpu().numpy(),
        scores[:-1].cpu().numpy(),
        float(scores[-1]),
        float((q * k).sum()),
    )


@functools.lru_cache(maxsize=2)
def _precision(
    head_dim: int, theta: float, dtype: str, windows: tuple[Window, Window], curve_x: Window
) -> PrecisionPage:
    """The error table (log10 of each block's mean) and the worst error by position
    (computed on the CPU: the dtype's rounding is what is shown)."""
    inv_freq = rope.inv_freq(head_dim, theta)
    n_pairs = inv_freq.numel()
    table = _errors(inv_freq, *windows, DTYPES[dtype])
    curve = _errors(inv_freq, Window(0, n_pairs, n_pairs), curve_x, DTYPES[dtype])
    return PrecisionPage(
        error_col_edges=binning.edges(windows[0]).numpy(),
        error_row_edges=binning.edges(windows[1]).numpy(),
        error_table=to_numpy(torch.log10(table.block.clamp_min(ERROR_FLOOR))),
        error_x=curve.x.numpy(),
        error_by_position=curve.worst.numpy(),
        error_sampled=table.sampled or curve.sampled,
        unrepresentable=curve.unrepresentable,
    )


def _invariance_key(p: RopeParams) -> RopeParams:
    """``p`` with only the fields the invariance views read (the others at their defaults):
    a control of another page finds the invariance arrays in the cache."""
    return RopeParams(
        p.seq_len,
        p.head_dim,
        p.theta,
        p.layout,
        query_position=p.query_position,
        key_position=p.key_position,
        shift=p.shift,
    )


def compute_rope(params: RopeParams, device: torch.device) -> RopeFrame:
    """The arrays of the RoPE views on the pages ``params.pages`` (default: every page; the
    rotation panels are ``compute_rotation``'s)."""
    p, seq_len, head_dim = params, params.seq_len, params.head_dim
    inv_freq = rope.inv_freq(head_dim, p.theta)
    n_pairs = inv_freq.numel()
    whole = (full(None, 0, n_pairs), full(None, 0, seq_len))

    def wanted(page: str) -> bool:
        checkpoint()  # between pages: a newer request stops this one here
        return asks_for(p.pages, page)

    tables = (
        _tables(head_dim, p.theta, p.table, p.table_windows or whole, device)
        if wanted("tables")
        else None
    )
    invariance = _invariance_page(p, device) if wanted("invariance") else None
    layouts = None
    if wanted("layouts"):
        rotary_dim = 2 * n_pairs
        layouts = LayoutsPage(
            torch.stack([rope.channel_pairs(rotary_dim, name) for name in rope.LAYOUTS]).numpy(),
            rope.permutation(rotary_dim).numpy(),
        )
    precision = (
        _precision(
            head_dim, p.theta, p.dtype, p.error_windows or whole, full(p.error_x, 0, seq_len)
        )
        if wanted("precision")
        else None
    )
    return RopeFrame(
        params=p,
        wavelengths=rope.wavelengths(inv_freq).numpy(),
        tables=tables,
        invariance=invariance,
        layouts=layouts,
        precision=precision,
    )


def _invariance_page(p: RopeParams, device: torch.device) -> InvariancePage:
    """The decay and invariance curves (each kept by what it reads)."""
    query = p.query or QueryKey(p.head_dim)
    decay_x = full(p.decay_x, 0, p.seq_len)
    distances, ones, mean, std = _decay(p.head_dim, p.theta, p.layout, query.seed, decay_x, device)
    checkpoint()
    shifts, scores, score_at_shift, unrotated = _invariance(
        _invariance_key(p), query, full(p.invariance_x, 0, p.seq_len), device
    )
    per_pixel = int(binning.runs(decay_x)[1].max())
    return InvariancePage(
        distances, ones, mean, std, per_pixel, shifts, scores, score_at_shift, unrotated
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
        vector = q[:, channels[index]].expand(len(positions), 2)  # the pair as a 2-D vector
        trails.append(rope.apply(vector, positions, theta[pair : pair + 1]).numpy())
    return RotationFrame(params, pairs, theta[list(pairs)].numpy(), tuple(trails))


def compare_curves(inputs: Inputs) -> tuple[Curve, ...]:
    """``(R_p q)·(R_{p+k} q) / |q|²`` at head_dim, for q = 1 and for random q (the same
    vector at both positions, so 1 at k = 0)."""
    head_dim, device = inputs.head_dim, inputs.device
    theta = rope.inv_freq(head_dim, inputs.theta).to(device)
    ones = rope.decay(inputs.starts, theta, counts=inputs.counts) / head_dim
    sample = QueryKey(head_dim, "random", inputs.settings["seed"])
    q = sample.vectors(rope.RANDOM_SAMPLES)[0].to(device)
    scores = rope.relative_scores(q, q, inputs.starts, theta, counts=inputs.counts)
    random = scores / (q * q).sum(-1, True)
    return (
        Curve(
            "rope_ones",
            N_("RoPE q = 1, head_dim {d}"),
            ones.cpu().numpy(),
            {"d": head_dim},
            dashed=True,
            color=1,
        ),
        Curve(
            "rope_random",
            N_("RoPE random q: mean"),
            random.mean(0).cpu().numpy(),
            std=random.std(0).cpu().numpy(),
            band_label=N_("RoPE random q: mean ± std"),
            color=6,
        ),
    )


COMPARE = (
    Entry(
        N_("RoPE"),
        (
            N_("Rotates each channel pair of q and k by m·θᵢ; q·k depends on j − i only"),
            N_("Fair; extended by interpolation, NTK, YaRN, Llama 3 scaling, LongRoPE"),
            N_("Low: an element-wise rotation of q and k in every layer"),
            N_("LLaMA, Qwen, Mistral, DeepSeek, Gemma"),
            N_("Medium"),
        ),
        compare_curves,
        (Setting("seed", N_("seed (random q)"), 0, 2**31 - 1, 0, slider=False),),
        reads=("head_dim", "theta"),
        most_lines=2,  # q = 1 and random q
    ),
)
