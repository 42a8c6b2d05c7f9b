"""What the Relative tab draws, computed from its parameters (runs on the worker thread)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from posenc_gui.encodings import binning, relative, sinusoidal
from posenc_gui.engine.absolute import MAX_DISPLAY_ROWS

SCHEMES = ("sinusoidal", "shaw", "t5", "alibi")
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


@dataclass(frozen=True)
class RelativeFrame:
    params: RelativeParams
    row_edges: np.ndarray  # [B+1] position edges of every L × L heatmap's rows and columns
    distances: np.ndarray  # [B, B] j − i, clipped to ±k for Shaw (block means)
    relative_table: np.ndarray  # [B, d_model] PE(j − i) for the chosen query i (run means)
    buckets: np.ndarray  # [B, B] T5 bucket of j − i (block means)
    signed_distances: np.ndarray  # [2L−1] k = −(L−1) … L−1
    bucket_by_distance: np.ndarray  # [2L−1]
    slopes: np.ndarray  # [n_heads]
    alibi_matrix: np.ndarray  # [B, B] bias of the chosen head; NaN where masked (future)
    alibi_curves: np.ndarray  # [n_heads, L] bias against distance i − j = 0 … L−1
    window: int  # the score-formula view covers positions 0 … window−1
    content: np.ndarray  # [W, W] q_i·k_j / √d
    bias: np.ndarray  # [W, W] b_{r(i,j)} of the chosen scheme (−inf masked → NaN)
    total: np.ndarray  # [W, W] content + bias
    attention: np.ndarray  # [W, W] softmax over j of the total


def _scheme_bias(p: RelativeParams, q: torch.Tensor, window: int) -> torch.Tensor:
    """The bias term ``b_{r(i,j)}`` over the score window, float64 ``[W, W]``."""
    generator = torch.Generator().manual_seed(p.seed + 1)
    r = relative.relative_positions(window)
    if p.scheme == "t5":  # a seeded random scalar per bucket stands in for the learned table
        table = torch.randn(p.num_buckets, dtype=torch.float64, generator=generator)
        return table[
            relative.t5_bucket(
                r,
                bidirectional=p.bidirectional,
                num_buckets=p.num_buckets,
                max_distance=p.max_distance,
            )
        ]
    if p.scheme == "alibi":
        return relative.alibi_bias(p.n_heads, window, causal=p.causal)[p.head - 1]
    if p.scheme == "shaw":  # q_i·a_ij with 2k+1 seeded random vectors a
        vectors = torch.randn(
            2 * p.max_relative_position + 1, p.d_model, dtype=torch.float64, generator=generator
        )
        index = relative.shaw_index(window, window, p.max_relative_position)
    else:  # q_i·PE(j − i): the sinusoidal relative table, one vector per distance
        vectors = sinusoidal.encode(
            torch.arange(-(window - 1), window), p.d_model, p.theta, dtype=torch.float64
        )
        index = r + window - 1
    # q_i·v for every vector once, then picked per (i, j): never a [W, W, d] tensor.
    per_vector = q @ vectors.T / p.d_model**0.5
    return per_vector.gather(1, index)


def compute_relative(p: RelativeParams, device: torch.device) -> RelativeFrame:
    """Every Relative view's arrays for ``p``; matrices are exact block means when binned."""
    seq_len = p.seq_len
    starts, counts = binning.bins(seq_len, MAX_DISPLAY_ROWS)
    k = torch.arange(-(seq_len - 1), seq_len)
    shown = k.clamp(-p.max_relative_position, p.max_relative_position) if p.scheme == "shaw" else k
    buckets = relative.t5_bucket(
        k, bidirectional=p.bidirectional, num_buckets=p.num_buckets, max_distance=p.max_distance
    )
    slopes = alibi_slopes = relative.alibi_slopes(p.n_heads)
    alibi_by_distance = (
        torch.where(k <= 0, alibi_slopes[p.head - 1] * k, -torch.inf)
        if p.causal
        else -alibi_slopes[p.head - 1] * k.abs()
    )
    table = sinusoidal.mean_table(
        starts - min(p.query_position, seq_len - 1), counts, p.d_model, p.theta
    )

    window = min(seq_len, SCORE_WINDOW)
    generator = torch.Generator().manual_seed(p.seed)
    q, key = torch.randn(2, window, p.d_model, dtype=torch.float64, generator=generator)
    content = q @ key.T / p.d_model**0.5
    bias = _scheme_bias(p, q, window)
    total = content + bias
    attention = torch.softmax(total, dim=-1)

    def block(values: torch.Tensor) -> np.ndarray:
        return relative.distance_block_means(values, starts, counts).float().numpy()

    def shown_array(values: torch.Tensor) -> np.ndarray:  # masked −inf is drawn as NaN
        return torch.where(torch.isfinite(values), values, torch.nan).float().numpy()

    return RelativeFrame(
        params=p,
        row_edges=torch.cat((starts, starts[-1:] + counts[-1:])).numpy(),
        distances=block(shown),
        relative_table=table.float().numpy(),
        buckets=block(buckets),
        signed_distances=k.numpy(),
        bucket_by_distance=buckets.numpy(),
        slopes=slopes.numpy(),
        alibi_matrix=block(alibi_by_distance),
        alibi_curves=(-slopes[:, None] * torch.arange(seq_len, dtype=torch.float64)).numpy(),
        window=window,
        content=content.float().numpy(),
        bias=shown_array(bias),
        total=shown_array(total),
        attention=attention.float().numpy(),
    )
