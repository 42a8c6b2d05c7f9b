"""What the Compare tab draws: every encoding's similarity against distance, normalised to 1 at
distance 0 (runs on the worker thread). Each pixel holds the exact mean over the distances it
covers (``posenc_gui.encodings.binning``).

- sinusoidal: ``PE(p)·PE(p+k) / |PE|² = mean_i cos(k ω_i)`` (d_model);
- RoPE: ``(R_p q)·(R_{p+k} q) / |q|²`` for q = 1 and for random q: the same vector at two
  positions (head_dim);
- ALiBi: ``e^{−m_h k}``, the factor head h's bias multiplies an attention weight by;
- T5: ``1 − b(k) / (n − 1)`` with ``b`` the bucket among the ``n`` of one direction;
- Shaw: ``1 − min(k, K) / K``.
T5 and Shaw are flat where distances share a bucket or a clipped vector: the model cannot tell
those distances apart.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from posenc_gui.encodings import binning, relative, rope, sinusoidal
from posenc_gui.encodings.binning import Window
from posenc_gui.engine.rope import RANDOM_SAMPLES, QueryKey
from posenc_gui.engine.windows import full


@dataclass(frozen=True)
class CompareParams:
    seq_len: int
    d_model: int
    head_dim: int
    theta: float
    max_relative_position: int = 16  # Shaw's K
    num_buckets: int = 32  # T5, both directions together
    max_distance: int = 128
    n_heads: int = 8  # ALiBi
    seed: int = 0  # the random q of the RoPE band
    x: Window | None = None  # distances shown, within 0 … seq_len−1


@dataclass(frozen=True)
class CompareFrame:
    params: CompareParams
    distances: np.ndarray  # [X] pixel centres
    sinusoidal: np.ndarray  # [X]
    rope_ones: np.ndarray  # [X]
    rope_mean: np.ndarray  # [X] over random q
    rope_std: np.ndarray  # [X]
    alibi: np.ndarray  # [n_heads, X]
    t5: np.ndarray  # [X]
    shaw: np.ndarray  # [X]


def compute_compare(p: CompareParams, device: torch.device) -> CompareFrame:
    """Every curve of the Compare tab for ``p``."""
    window = full(p.x, 0, p.seq_len)
    starts, counts = window.bins()
    freqs = sinusoidal.frequencies(p.d_model, p.theta)
    sinusoidal_curve = binning.mean_cos_sin(starts, counts, freqs)[0].mean(-1)

    theta = rope.inv_freq(p.head_dim, p.theta).to(device)
    ones = torch.ones(p.head_dim, dtype=torch.float64, device=device)
    rope_ones = rope.relative_scores(ones, ones, starts, theta, counts=counts) / p.head_dim
    q = QueryKey(p.head_dim, "random", p.seed).vectors(RANDOM_SAMPLES)[0].to(device)
    random = rope.relative_scores(q, q, starts, theta, counts=counts) / (q * q).sum(-1, True)

    alibi = binning.mean_decay(starts, counts, relative.alibi_slopes(p.n_heads)).T

    stop = window.stop
    distance = torch.arange(stop)
    side = p.num_buckets // 2  # buckets of one direction (bidirectional T5, keys after queries)
    buckets = relative.t5_bucket(
        distance, bidirectional=True, num_buckets=p.num_buckets, max_distance=p.max_distance
    )
    t5 = 1.0 - (buckets % side).double() / max(side - 1, 1)
    clip = p.max_relative_position
    shaw = 1.0 - distance.clamp(max=clip).double() / clip if clip else torch.ones(stop)
    t5_means, shaw_means = (binning.run_means(c, starts, counts) for c in (t5, shaw))

    def numpy(values: torch.Tensor) -> np.ndarray:
        return values.cpu().numpy()

    return CompareFrame(
        params=p,
        distances=numpy(window.centres()),
        sinusoidal=numpy(sinusoidal_curve),
        rope_ones=numpy(rope_ones),
        rope_mean=numpy(random.mean(0)),
        rope_std=numpy(random.std(0)),
        alibi=numpy(alibi),
        t5=numpy(t5_means),
        shaw=numpy(shaw_means),
    )
