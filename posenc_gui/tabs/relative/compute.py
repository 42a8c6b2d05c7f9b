"""What the Relative tab draws, computed from its parameters (runs on the worker thread).

The L × L matrices depend on j − i only: each is built from one curve over the 2L − 1
distances and averaged exactly over the pixel blocks the view shows.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import torch

from posenc_gui.cancel import checkpoint, part
from posenc_gui.encodings import binning, relative, sinusoidal
from posenc_gui.encodings.window import Window, full, shifted
from posenc_gui.frames import (
    VIEW_DTYPE,
    asks_for,
    by_row_chunks,
    check_pages,
    runs_on,
    to_numpy,
)
from posenc_gui.translatable import N_

SCHEMES = ("sinusoidal", "shaw", "t5", "alibi")
PAGES = ("distances", "t5", "alibi", "scores")
SCHEME_LABELS = {
    "sinusoidal": N_("sinusoidal relative (source article)"),
    "shaw": N_("Shaw et al. 2018 (clipped)"),
    "t5": N_("T5 buckets"),
    "alibi": "ALiBi",
}
# The bias's title names the scheme briefly: on one line, as its neighbours' titles are, its
# image is drawn as large as theirs.
SCHEME_SHORT = {
    "sinusoidal": N_("sinusoidal relative"),
    "shaw": N_("Shaw, clipped"),
    "t5": N_("T5 buckets"),
    "alibi": "ALiBi",
}
SCHEME_PAGES = {"sinusoidal": "distances", "shaw": "distances", "t5": "t5", "alibi": "alibi"}
SCORE_WINDOW = 256  # the score-formula view shows positions 0 … 255 exactly


@dataclass(frozen=True)
class RelativeParams:
    seq_len: int
    d_model: int
    theta: float
    scheme: str = "t5"
    max_relative_position: int = 4  # Shaw's clipping distance k
    query_position: int = 0  # the query row i of the sinusoidal relative table
    num_buckets: int = 32
    max_distance: int = 128
    bidirectional: bool = True
    n_heads: int = 8
    head: int = 1  # 1 … n_heads, as in m_h
    causal: bool = True
    seed: int = 0
    # (columns, rows) windows of the heatmaps and x windows of the curves; None: everything
    distance_windows: tuple[Window, Window] | None = None
    table_windows: tuple[Window, Window] | None = None  # (channels, keys j)
    bucket_windows: tuple[Window, Window] | None = None
    bucket_x: Window | None = None  # distances j − i
    alibi_windows: tuple[Window, Window] | None = None
    alibi_x: Window | None = None  # distances i − j ≥ 0
    pages: tuple[str, ...] | None = None  # the pages to compute (None: every page)

    def __post_init__(self) -> None:
        check_pages(self.pages, PAGES)


@dataclass(frozen=True)
class Matrix:
    """A heatmap's values over a window: ``values[r, c]`` covers the given edges."""

    col_edges: np.ndarray
    row_edges: np.ndarray
    values: np.ndarray


@dataclass(frozen=True)
class DistancesPage:
    distances: Matrix  # j − i, clipped to ±k for Shaw (block means)
    relative_table: Matrix  # PE(j − i) for the chosen query i, keys × channels (exact means)


@dataclass(frozen=True)
class T5Page:
    buckets: Matrix  # T5 bucket of j − i (block means)
    bucket_x: np.ndarray  # each distance, or the corners of the bucket staircase
    bucket_by_distance: np.ndarray  # mean bucket over each pixel


@dataclass(frozen=True)
class AlibiPage:
    slopes: np.ndarray  # [n_heads]
    alibi_matrix: Matrix  # bias of the chosen head; NaN where masked (future)
    alibi_x: np.ndarray  # centre distance i − j of each pixel
    alibi_curves: np.ndarray  # [n_heads, X] bias against distance (exact: linear in it)


@dataclass(frozen=True)
class ScoresPage:
    window: int  # the score-formula view covers positions 0 … window−1
    content: np.ndarray  # [W, W] q_i·k_j / √d
    bias: np.ndarray  # [W, W] b_{r(i,j)} of the chosen scheme (−inf masked → NaN)
    total: np.ndarray  # [W, W] content + bias
    attention: np.ndarray  # [W, W] softmax over j of the total


@dataclass(frozen=True)
class RelativeFrame:
    """The arrays of the pages asked for (``params.pages``); None for the others."""

    params: RelativeParams
    distances: DistancesPage | None
    t5: T5Page | None
    alibi: AlibiPage | None
    scores: ScoresPage | None


# k's generator is seeded seed + KEY_SEED, apart from every q's (seed < 2³¹) within the 32 bits
# of a seed that torch's CPU generator keeps (seed + 2³² would draw k = q)
KEY_SEED = 1 << 31


def _standard_normal(seed: int, window: int, d_model: int) -> torch.Tensor:
    """``[window, d_model]`` float32 standard normals from a generator seeded ``seed``."""
    return torch.randn(window, d_model, generator=torch.Generator().manual_seed(seed))


@functools.lru_cache(maxsize=2)
def _random_queries_keys(seed: int, window: int, d_model: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Seeded standard-normal q and k, float32 ``[window, d_model]`` each (kept: a slider move
    of another parameter redraws with the same ones, without drawing millions of numbers
    again). Illustrative inputs in float32, as a model holds them: the scores built from them
    are float32 too (up to 16,384 channels: within 1e-5 of float64 products). q comes from a
    generator seeded ``seed``, k from one seeded ``seed + KEY_SEED``, drawn side by side: a
    generator draws on one core (256 × 16,384 of each: 45 ms one after the other, 23 ms so)."""
    with ThreadPoolExecutor(max_workers=1) as beside:
        keys = beside.submit(_standard_normal, seed + KEY_SEED, window, d_model)
        return _standard_normal(seed, window, d_model), keys.result()


@functools.lru_cache(maxsize=2)
def _distance_table(window: int, d_model: int, theta: float) -> torch.Tensor:
    """``PE(0 … W−1)``, float32 ``[W, d_model]`` (kept: a new seed draws new q only): runs of
    one position, phases reduced mod 2π in float64 before float32's sine and cosine (within
    1e-6 of float64; half the time of float64 ones)."""
    distances = torch.arange(window)
    return sinusoidal.mean_table(
        distances, torch.ones_like(distances), d_model, theta, dtype=torch.float32
    )


def _scheme_bias(p: RelativeParams, q: torch.Tensor, window: int) -> torch.Tensor:
    """The bias term ``b_{r(i,j)}`` over the score window, ``[W, W]``."""
    generator = torch.Generator().manual_seed(p.seed + 1)
    if p.scheme == "t5":  # a seeded random scalar per bucket stands in for the learned table
        table = torch.randn(p.num_buckets, dtype=torch.float64, generator=generator)
        return table[
            relative.t5_bucket(
                relative.relative_positions(window),
                bidirectional=p.bidirectional,
                num_buckets=p.num_buckets,
                max_distance=p.max_distance,
            )
        ]
    if p.scheme == "alibi":
        return relative.alibi_bias(p.n_heads, window, causal=p.causal)[p.head - 1]
    if p.scheme == "sinusoidal":  # q_i·PE(j − i): the sinusoidal relative table
        table = _distance_table(window, p.d_model, p.theta)
        return relative.sinusoidal_relative_scores(q, table) / p.d_model**0.5
    # Shaw: q_i·a_ij with 2k+1 seeded random vectors a, each met once, then picked per (i, j):
    # never a [W, W, d] tensor
    vectors = torch.randn(2 * p.max_relative_position + 1, p.d_model, generator=generator)
    index = relative.shaw_index(window, window, p.max_relative_position)
    return (q @ vectors.T / p.d_model**0.5).gather(1, index)


def _category_matrix(
    category: Callable[[torch.Tensor], torch.Tensor],
    windows: tuple[Window, Window] | None,
    seq_len: int,
) -> Matrix:
    """Categories of distance ``j − i`` (T5 buckets, Shaw's clipped indices) over the view's
    blocks: each block shows the category at its centre, never a mean of categories (a bucket
    between two buckets); unit blocks are exact. Only the blocks' distances are evaluated,
    each once: a category depends on ``j − i`` alone, so where the blocks hold fewer distinct
    distances than blocks (a 440 × 440 view of 512 positions: 1023 against 193,600; T5's
    buckets of every block took 5–8 ms) those are evaluated and looked up."""
    cols, rows = windows or (full(None, 0, seq_len), full(None, 0, seq_len))
    (row_starts, row_counts), (col_starts, col_counts) = binning.runs(rows), binning.runs(cols)
    row_centres = row_starts + (row_counts - 1) // 2
    col_centres = col_starts + (col_counts - 1) // 2
    distances = col_centres[None, :] - row_centres[:, None]
    low = int(col_centres[0] - row_centres[-1])  # both ascend: the least and largest j − i
    span = int(col_centres[-1] - row_centres[0]) - low + 1
    if span < distances.numel():
        values = category(torch.arange(low, low + span))[distances - low]
    else:
        values = category(distances)
    return Matrix(binning.edges(cols).numpy(), binning.edges(rows).numpy(), to_numpy(values))


# Each view's arrays are kept by the parameters that view depends on: moving a control of one
# page (a T5 bucket count, say) recomputes only that page's arrays.
@functools.lru_cache(maxsize=4)
def _distance_matrix(
    seq_len: int, clip: int | None, windows: tuple[Window, Window] | None
) -> Matrix:
    """``j − i`` (clipped to ±``clip`` for Shaw) over the view's blocks."""
    cols, rows = windows or (full(None, 0, seq_len), full(None, 0, seq_len))
    if clip is None:  # a block's mean j − i is its centre's: exact without summing 2L values
        values = binning.centres(cols)[None, :] - binning.centres(rows)[:, None]
        return Matrix(binning.edges(cols).numpy(), binning.edges(rows).numpy(), to_numpy(values))
    return _category_matrix(lambda k: relative.shaw_clip(k, clip), windows, seq_len)


@functools.lru_cache(maxsize=4)
def _relative_table(
    channels: Window, keys: Window, i: int, d_model: int, theta: float, device: torch.device
) -> Matrix:
    """Row j of ``R[i]`` is ``PE(j − i)``: the absolute table's rows shifted by −i."""
    columns = runs_on(channels, device)
    table = by_row_chunks(
        runs_on(shifted(keys, -i), device),
        d_model // 2,  # frequencies
        lambda starts, counts: sinusoidal.block_mean_table(
            starts, counts, *columns, d_model, theta, dtype=VIEW_DTYPE
        ),
    )
    return Matrix(binning.edges(channels).numpy(), binning.edges(keys).numpy(), to_numpy(table))


@functools.lru_cache(maxsize=4)
def _t5_views(
    seq_len: int,
    bidirectional: bool,
    num_buckets: int,
    max_distance: int,
    windows: tuple[Window, Window] | None,
    x: Window,
) -> tuple[Matrix, np.ndarray, np.ndarray]:
    """The bucket matrix, and the bucket against the distances ``x``: one point per distance,
    or where a pixel holds several, the exact staircase (the corners of each bucket's run).

    Distances from ``max_distance`` on share their side's last bucket, so only those within
    ``±reach`` are evaluated: the work follows the pixels and ``max_distance``, never L."""
    reach = min(seq_len - 1, max_distance)

    def bucket(k: torch.Tensor) -> torch.Tensor:
        return relative.t5_bucket(
            k.clamp(-reach, reach),
            bidirectional=bidirectional,
            num_buckets=num_buckets,
            max_distance=max_distance,
        )

    matrix = _category_matrix(bucket, windows, seq_len)
    if int(binning.runs(x)[1].max()) == 1:
        shown = bucket(torch.arange(x.start, x.stop))
        return matrix, binning.centres(x).numpy(), shown.double().numpy()
    # the runs inside ±reach; the first and last extend over the constant tails beyond it
    first, last = (min(max(k, -reach), reach) for k in (x.start, x.stop - 1))
    corners_x, corners_y = binning.step_corners(bucket(torch.arange(first, last + 1)), first)
    corners_x[0], corners_x[-1] = x.start, x.stop - 1
    return matrix, corners_x.double().numpy(), corners_y.double().numpy()


@functools.lru_cache(maxsize=4)
def _alibi_views(
    seq_len: int,
    n_heads: int,
    head: int,
    causal: bool,
    windows: tuple[Window, Window] | None,
    x: Window,
) -> tuple[np.ndarray, Matrix, np.ndarray, np.ndarray]:
    """Every head's slope, the chosen head's bias matrix, and every head's bias against the
    distances ``x``."""
    slopes = relative.alibi_slopes(n_heads)
    cols, rows = windows or (full(None, 0, seq_len), full(None, 0, seq_len))
    bias = relative.alibi_block_means(
        float(slopes[head - 1]), *binning.runs(rows), *binning.runs(cols), causal=causal
    )
    matrix = Matrix(binning.edges(cols).numpy(), binning.edges(rows).numpy(), to_numpy(bias))
    centres = binning.centres(x)
    curves = relative.alibi_by_distance(slopes[:, None], -centres[None, :])
    return slopes.numpy(), matrix, centres.numpy(), curves.numpy()


def _distances_page(p: RelativeParams, device: torch.device) -> DistancesPage:
    clip = p.max_relative_position if p.scheme == "shaw" else None
    channels, keys = p.table_windows or (full(None, 0, p.d_model), full(None, 0, p.seq_len))
    i = min(p.query_position, p.seq_len - 1)
    distances = _distance_matrix(p.seq_len, clip, p.distance_windows)
    checkpoint(0.1)  # between views: a newer request stops this one here
    with part(0.1, 1.0):
        table = _relative_table(channels, keys, i, p.d_model, p.theta, device)
    return DistancesPage(distances, table)


def _t5_page(p: RelativeParams, device: torch.device) -> T5Page:
    x = full(p.bucket_x, -(p.seq_len - 1), p.seq_len)
    views = _t5_views(
        p.seq_len, p.bidirectional, p.num_buckets, p.max_distance, p.bucket_windows, x
    )
    return T5Page(*views)


def _alibi_page(p: RelativeParams, device: torch.device) -> AlibiPage:
    x = full(p.alibi_x, 0, p.seq_len)
    return AlibiPage(*_alibi_views(p.seq_len, p.n_heads, p.head, p.causal, p.alibi_windows, x))


# What the score formula depends on, by scheme (the rest is left at its default, so that a
# control of another page or scheme finds the arrays already computed).
SCORE_SETTINGS = {
    "sinusoidal": ("theta",),
    "shaw": ("max_relative_position",),
    "t5": ("num_buckets", "max_distance", "bidirectional"),
    "alibi": ("n_heads", "head", "causal"),
}


@functools.lru_cache(maxsize=2)
def _content(seed: int, window: int, d_model: int) -> torch.Tensor:
    """``q_i·k_j / √d`` over the score window, float32 ``[W, W]``."""
    q, key = _random_queries_keys(seed, window, d_model)
    return q @ key.T / d_model**0.5


def _scores_page(p: RelativeParams, device: torch.device) -> ScoresPage:
    window = min(p.seq_len, SCORE_WINDOW)
    settings = {"theta": 1e4} | {name: getattr(p, name) for name in SCORE_SETTINGS[p.scheme]}
    return _scores(
        RelativeParams(seq_len=window, d_model=p.d_model, scheme=p.scheme, seed=p.seed, **settings)
    )


@functools.lru_cache(maxsize=4)
def _scores(p: RelativeParams) -> ScoresPage:
    """The score-formula arrays of ``p``, whose seq_len is the score window."""
    window = p.seq_len
    q, _ = _random_queries_keys(p.seed, window, p.d_model)
    content = _content(p.seed, window, p.d_model)
    bias = _scheme_bias(p, q, window)
    total = content + bias

    def shown_array(values: torch.Tensor) -> np.ndarray:  # masked −inf is drawn as NaN
        return to_numpy(torch.where(torch.isfinite(values), values, torch.nan))

    return ScoresPage(
        window=window,
        content=to_numpy(content),
        bias=shown_array(bias),
        total=shown_array(total),
        attention=to_numpy(torch.softmax(total, dim=-1)),
    )


Page = TypeVar("Page")


def compute_relative(p: RelativeParams, device: torch.device) -> RelativeFrame:
    """The arrays of the Relative views on the pages ``p.pages`` (default: every page)."""

    def page(name: str, compute: Callable[[RelativeParams, torch.device], Page]) -> Page | None:
        if not asks_for(p.pages, name):
            return None
        arrays = compute(p, device)
        checkpoint()  # between pages: a newer request stops this one here
        return arrays

    return RelativeFrame(
        params=p,
        distances=page("distances", _distances_page),
        t5=page("t5", _t5_page),
        alibi=page("alibi", _alibi_page),
        scores=page("scores", _scores_page),
    )
