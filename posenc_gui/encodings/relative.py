"""Relative position schemes: distances, the sinusoidal relative table, Shaw, T5 and ALiBi.

Distances are key minus query, ``r[i, j] = j − i`` (Hugging Face T5 ``compute_bias``).
Every matrix here is Toeplitz (it depends on ``j − i`` only), so each is built from one curve
over distances; ``distance_block_means`` gives their exact display-resolution means.
"""

from __future__ import annotations

import math
import numbers

import torch

from posenc_gui.encodings import sinusoidal
from posenc_gui.encodings._checks import MAX_DIM, check_elements, check_even, check_int


def relative_positions(q_len: int, k_len: int | None = None) -> torch.Tensor:
    """``r[i, j] = j − i``, int64 ``[q_len, k_len]`` (``k_len`` defaults to ``q_len``)."""
    q_len = check_int("q_len", q_len, 1)
    k_len = q_len if k_len is None else check_int("k_len", k_len, 1)
    check_elements("q_len × k_len", q_len * k_len)
    return torch.arange(k_len)[None, :] - torch.arange(q_len)[:, None]


def sinusoidal_relative_table(
    seq_len: int, d_model: int, base: float = 10000.0, *, dtype: torch.dtype = torch.float32
) -> torch.Tensor:
    """``R[i, j, :] = PE(j − i)``, the absolute table's sinusoid at the (signed) distance.

    Same frequencies as ``sinusoidal.table``; negative distances included (sin is odd, cos
    even), so no embedding lookup with negative indices. Returns ``[seq_len, seq_len, d_model]``.
    """
    seq_len = check_int("seq_len", seq_len, 1)
    d_model = check_even("d_model", d_model, 2, MAX_DIM)
    check_elements("seq_len × seq_len × d_model", seq_len**2 * d_model)
    distances = torch.arange(-(seq_len - 1), seq_len)
    by_distance = sinusoidal.encode(distances, d_model, base, dtype=dtype)  # [2L-1, d]
    return by_distance[relative_positions(seq_len) + seq_len - 1]


def sinusoidal_relative_scores(queries: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
    """``S[i, j] = q_i · PE(j − i)`` for queries ``[W, d_model]`` at positions 0 … W−1, from
    ``table`` = ``PE(0 … W−1)`` in the interleaved layout (``sinusoidal.table(W, d_model,
    base)``); ``[W, W]`` (the product of ``queries`` with ``sinusoidal_relative_table``).

    ``PE(−r)`` is ``PE(r)`` with its sines negated (sin odd, cos even), so the queries meet the
    waves of the W distances 0 … W−1 only: ``S[i, j] = C[i, |r|] + sign(r)·S_sin[i, |r|]`` with
    ``C = q_cos · cos(rω)ᵀ`` and ``S_sin = q_sin · sin(rω)ᵀ``, ``r = j − i``: half the waves and
    half the products of ``q · PE(r)`` over all 2W − 1 distances.
    """
    if queries.ndim != 2 or not len(queries) or queries.shape != table.shape:
        raise ValueError(
            "queries and table must both be [W, d_model] with W ≥ 1, got "
            f"{list(queries.shape)} and {list(table.shape)}"
        )
    window, d_model = queries.shape
    check_even("d_model", d_model, 2, MAX_DIM)
    by_distance = relative_positions(window).to(queries.device)
    apart = by_distance.abs()
    # each frequency's sin and cos channels, each copied contiguous: a product of strided
    # columns takes twice as long as the copy and the product
    (q_sin, q_cos), (sin, cos) = (
        (pairs[..., 0].contiguous(), pairs[..., 1].contiguous())
        for pairs in (x.reshape(window, -1, 2) for x in (queries, table))
    )
    by_sin = (q_sin @ sin.T).gather(1, apart)
    by_cos = (q_cos @ cos.T).gather(1, apart)
    return by_cos + torch.where(by_distance < 0, -by_sin, by_sin)


def shaw_index(q_len: int, k_len: int, max_relative_position: int) -> torch.Tensor:
    """Shaw et al. (2018): ``clip(j − i, −k, k) + k ∈ [0, 2k]``, int64 ``[q_len, k_len]``.

    Row ``[i, j]`` picks one of the ``2k + 1`` learned vectors ``a_ij``.
    """
    k = check_int("max_relative_position", max_relative_position, 0)
    return shaw_clip(relative_positions(q_len, k_len), k) + k


def shaw_clip(distances: torch.Tensor, max_relative_position: int) -> torch.Tensor:
    """``clip(j − i, −k, k)``: the distance Shaw's vector ``a_ij`` stands for, same shape."""
    k = check_int("max_relative_position", max_relative_position, 0)
    return torch.as_tensor(distances).clamp(-k, k)


def shaw_similarity(distances: torch.Tensor, max_relative_position: int) -> torch.Tensor:
    """``1 − min(|k|, K) / K`` (1 everywhere for ``K = 0``): how far apart Shaw's clipped
    vectors place distance ``k``, 1 at ``k = 0``; float64, same shape."""
    k = check_int("max_relative_position", max_relative_position, 0)
    clipped = shaw_clip(torch.as_tensor(distances).abs(), k).double()
    return 1.0 - clipped / k if k else torch.ones_like(clipped)


def t5_max_exact(num_buckets: int, bidirectional: bool = True) -> int:
    """Distances below this get a T5 bucket each: half the buckets of one direction."""
    num_buckets = check_int("num_buckets", num_buckets, 1)
    return (num_buckets // 2 if bidirectional else num_buckets) // 2


def _check_buckets(bidirectional: bool, num_buckets: int, max_distance: int) -> None:
    if not isinstance(bidirectional, bool):  # "no" would read as true
        raise TypeError(f"bidirectional must be true or false, got {bidirectional!r}")
    # An odd count is taken as Hugging Face takes it: halved with integer division when
    # bidirectional (the last bucket is then never used).
    num_buckets = check_int("num_buckets", num_buckets, 2 if bidirectional else 1)
    max_exact = t5_max_exact(num_buckets, bidirectional)
    if max_exact < 1:
        raise ValueError(
            f"num_buckets must be at least {4 if bidirectional else 2}, got {num_buckets}"
        )
    check_int("max_distance", max_distance, max_exact + 1)


def t5_bucket(
    relative_position: torch.Tensor,
    *,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
) -> torch.Tensor:
    """T5's bucket of each relative position (key − query), int64, same shape.

    Small distances get a bucket each; larger ones share logarithmically wider buckets up to
    ``max_distance``. Bidirectional: half the buckets for keys after the query. Causal: future
    keys fall in bucket 0. Computed in float32 like Hugging Face
    ``T5Attention._relative_position_bucket``, so bucket boundaries agree exactly.
    """
    _check_buckets(bidirectional, num_buckets, max_distance)
    r = torch.as_tensor(relative_position)
    if r.is_floating_point() or r.is_complex() or r.dtype == torch.bool:
        raise TypeError(f"relative_position must hold integers, got {r.dtype}")
    r = r.to(torch.int64)
    buckets = torch.zeros_like(r)
    if bidirectional:
        num_buckets //= 2
        buckets += (r > 0).long() * num_buckets
        r = r.abs()
    else:
        r = -torch.clamp(r, max=0)
    max_exact = num_buckets // 2
    # max_exact ≥ 1; log(0) = −inf only where r < max_exact, which takes the exact branch.
    log_ratio = torch.log(r.float() / max_exact) / math.log(max_distance / max_exact)
    large = max_exact + (log_ratio * (num_buckets - max_exact)).long()
    large = torch.clamp(large, max=num_buckets - 1)
    return buckets + torch.where(r < max_exact, r, large)


def t5_similarity(
    distances: torch.Tensor, *, num_buckets: int = 32, max_distance: int = 128
) -> torch.Tensor:
    """``1 − b(k) / (n − 1)`` with ``b`` the bidirectional bucket of keys ``k ≥ 0`` after the
    query among the ``n = num_buckets // 2`` of one direction: 1 at ``k = 0``; float64."""
    side = num_buckets // 2
    buckets = t5_bucket(
        distances, bidirectional=True, num_buckets=num_buckets, max_distance=max_distance
    )
    return 1.0 - (buckets % side).double() / max(side - 1, 1)


def alibi_slopes(n_heads: int) -> torch.Tensor:
    """ALiBi slopes, float64 ``[n_heads]`` (Press et al.; the reference ``get_slopes``).

    A power of two ``n``: ``m_h = 2^(−8h/n)``, ``h = 1 … n``. Otherwise, with ``c`` the largest
    power of two below ``n``: the ``c`` slopes, then every other slope of ``2c`` heads.
    """
    n_heads = check_int("n_heads", n_heads, 1)
    closest = 2 ** math.floor(math.log2(n_heads))

    def power_of_two_slopes(n: int) -> torch.Tensor:
        return 2.0 ** (-8.0 * torch.arange(1, n + 1, dtype=torch.float64) / n)

    extra = power_of_two_slopes(2 * closest)[0::2][: n_heads - closest]
    return torch.cat((power_of_two_slopes(closest), extra))


def alibi_bias(
    n_heads: int, q_len: int, k_len: int | None = None, *, causal: bool = True
) -> torch.Tensor:
    """ALiBi's additive bias, float64 ``[n_heads, q_len, k_len]``.

    Causal: ``−m_h·(i − j)`` for ``j ≤ i`` and ``−inf`` (masked) for future keys ``j > i``.
    Symmetric: ``−m_h·|i − j|``.
    """
    heads = check_int("n_heads", n_heads, 1)
    r = relative_positions(q_len, k_len)
    check_elements("n_heads × q_len × k_len", heads * r.numel())
    return alibi_by_distance(alibi_slopes(n_heads)[:, None, None], r, causal=causal)


def alibi_by_distance(
    slopes: torch.Tensor, distances: torch.Tensor, *, causal: bool = True
) -> torch.Tensor:
    """ALiBi's bias at each distance ``r = j − i``: ``m·r`` for ``r ≤ 0`` and ``−inf`` for
    future keys when causal, else ``−m·|r|``; float64, ``slopes`` and ``distances`` broadcast."""
    r = torch.as_tensor(distances).double()
    slopes = slopes.double()
    if causal:
        return torch.where(r <= 0, slopes * r, -torch.inf)
    return -slopes * r.abs()


def alibi_block_means(
    slope: float,
    starts: torch.Tensor,
    counts: torch.Tensor,
    col_starts: torch.Tensor,
    col_counts: torch.Tensor,
    *,
    causal: bool = True,
) -> torch.Tensor:
    """Exact block means of one head's ALiBi bias ``f(j − i)`` (``alibi_by_distance``) over
    query runs ``starts`` / ``counts`` × key runs ``col_starts`` / ``col_counts``, float64
    ``[R, C]``, in work proportional to the blocks (``distance_block_means`` sums all 2L).

    Causal: a block holding a future key (``j > i``) is NaN, any other ``m·mean(j − i)``, the
    difference of the runs' centres. Symmetric: ``−m·mean|q − p|``, the centres' distance too
    where the runs do not overlap (``q − p`` keeps one sign); on the blocks where they do (a
    band along the diagonal, about R + C of them) ``Σ|q − p| / (n·m)`` with the sum in
    closed form: ``Σ_{p∈[a,a+n)} Σ_{q∈[c,c+m)} |q − p| = S₂(c+m−a+1) − S₂(c+m−a−n+1)
    − S₂(c−a+1) + S₂(c−a−n+1)``, ``S₂(x) = x(x−1)(x−2)/6`` for ``x ≥ 0`` and
    ``−x(1−x)(2−x)/6`` below (exact in int64 up to 2²⁰ positions).
    """
    if isinstance(slope, bool) or not isinstance(slope, numbers.Real) or not 0 < slope < math.inf:
        raise ValueError(f"slope must be a finite number > 0 (an ALiBi head's m), got {slope!r}")
    # the runs' centres are half-integers below 2²⁰: exact in float64, as their differences
    row_centres = starts.double() + (counts.double() - 1) / 2
    col_centres = col_starts.double() + (col_counts.double() - 1) / 2
    centres = col_centres[None, :] - row_centres[:, None]
    a, n = starts[:, None].long(), counts[:, None].long()
    c, m = col_starts[None, :].long(), col_counts[None, :].long()
    if causal:
        return torch.where(c + m - 1 > a, torch.nan, slope * centres)

    def s2(x: torch.Tensor) -> torch.Tensor:  # Σ over y < x of Σ over k < y of |k|, from 0
        return torch.where(x >= 0, x * (x - 1) * (x - 2), -x * (1 - x) * (2 - x)) // 6

    means = centres.abs()
    rows, cols = ((c < a + n) & (c + m > a)).nonzero(as_tuple=True)  # the runs overlap
    a, n = starts[rows].long(), counts[rows].long()
    c, m = col_starts[cols].long(), col_counts[cols].long()
    total = s2(c + m - a + 1) - s2(c + m - a - n + 1) - s2(c - a + 1) + s2(c - a - n + 1)
    means[rows, cols] = total.double() / (n * m).double()
    return -slope * means


def distance_block_means(
    by_distance: torch.Tensor,
    starts: torch.Tensor,
    counts: torch.Tensor,
    col_starts: torch.Tensor | None = None,
    col_counts: torch.Tensor | None = None,
) -> torch.Tensor:
    """Exact block means of the Toeplitz matrix ``M[i, j] = f(j − i)``, float64 ``[R, C]``.

    ``by_distance[k + L − 1] = f(k)`` for ``k = −(L−1) … L−1``; row runs are ``starts`` /
    ``counts`` and column runs ``col_starts`` / ``col_counts`` (default: the row runs), as
    ``binning.bins`` makes them. A double running sum of ``f`` gives each block's total without
    forming the ``L × L`` matrix. Blocks containing a non-finite value are NaN.
    """
    seq_len = (by_distance.shape[0] + 1) // 2
    col_starts = starts if col_starts is None else col_starts
    col_counts = counts if col_counts is None else col_counts
    if by_distance.dim() != 1 or by_distance.shape[0] % 2 == 0:
        raise ValueError(
            f"by_distance must hold f(k) for k = −(L−1) … L−1, an odd length, got "
            f"{tuple(by_distance.shape)}"
        )
    ends = [int((s + c).max()) for s, c in ((starts, counts), (col_starts, col_counts)) if len(s)]
    if max(ends, default=0) > seq_len:  # runs past L would read f at the wrong distances
        raise ValueError(f"runs must end within the {seq_len} positions by_distance holds")
    f = by_distance.double()
    if int(counts.max()) == 1 and int(col_counts.max()) == 1:  # single cells: M itself, exactly
        exact = f[col_starts[None, :] - starts[:, None] + seq_len - 1]
        return torch.where(torch.isfinite(exact), exact, torch.nan)
    bad = (~torch.isfinite(f)).double()
    f = torch.where(torch.isfinite(f), f, 0.0)

    def double_sum(values: torch.Tensor) -> torch.Tensor:
        # G[x] = Σ_{y < x} F[y] with F[y] = Σ_{k < y} values[k], indices shifted by L − 1.
        first = torch.cat((values.new_zeros(1), torch.cumsum(values, 0)))
        return torch.cat((values.new_zeros(1), torch.cumsum(first, 0)))

    a, n = starts[:, None], counts[:, None]  # query runs [a, a+n)
    c, m = col_starts[None, :], col_counts[None, :]  # key runs [c, c+m)

    def block_sums(table: torch.Tensor) -> torch.Tensor:
        # Σ_{p=a}^{a+n-1} Σ_{q=c}^{c+m-1} f(q − p), f(k) at index k + L − 1.
        def g(x: torch.Tensor) -> torch.Tensor:
            return table[x + seq_len]

        return g(c + m - a) - g(c - a) - g(c + m - a - n) + g(c - a - n)

    total = block_sums(double_sum(f)) / (n * m).double()
    if not bad.any():
        return total
    masked = block_sums(double_sum(bad)) > 0
    return torch.where(masked, torch.nan, total)
