"""Relative schemes against Hugging Face T5 and BLOOM, the ALiBi reference and closed forms."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import numpy as np
import pytest
import torch
from transformers.models.bloom.modeling_bloom import _get_alibi_slopes
from transformers.models.t5.modeling_t5 import T5Attention

from posenc_gui.encodings import binning, relative, sinusoidal
from posenc_gui.encodings.window import Window
from posenc_gui.tabs.relative.compute import RelativeParams, compute_relative


def seeded_normals(seed: int, rows: int, columns: int) -> torch.Tensor:
    """The score page's random inputs: float32 standard normals from a generator seeded
    ``seed``, as float64 ``[rows, columns]``."""
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(rows, columns, generator=generator).double()


def reference_get_slopes(n: int) -> list[float]:
    """ofirpress/attention_with_linear_biases ``get_slopes``, verbatim."""

    def get_slopes_power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        ratio = start
        return [start * ratio**i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest_power_of_2 = 2 ** math.floor(math.log2(n))
    return (
        get_slopes_power_of_2(closest_power_of_2)
        + reference_get_slopes(2 * closest_power_of_2)[0::2][: n - closest_power_of_2]
    )


DISTANCES = torch.arange(-1000, 1001)


# Every valid setting: max_distance must exceed the exact range (transformers divides by
# log(max_distance / max_exact)).
T5_SETTINGS = [
    (bidirectional, num_buckets, max_distance)
    for bidirectional, num_buckets, max_distance in itertools.product(
        (True, False), (7, 8, 16, 32, 33, 64, 128), (20, 128, 500, 1000)
    )
    if max_distance > (num_buckets // 2 if bidirectional else num_buckets) // 2
]


@pytest.mark.parametrize(("bidirectional", "num_buckets", "max_distance"), T5_SETTINGS)
def test_t5_bucket_is_identical_to_transformers(bidirectional, num_buckets, max_distance):
    ours = relative.t5_bucket(
        DISTANCES, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
    )
    theirs = T5Attention._relative_position_bucket(
        DISTANCES, bidirectional, num_buckets, max_distance
    )
    assert torch.equal(ours, theirs)


@pytest.mark.parametrize("bidirectional", [True, False])
def test_t5_buckets_are_monotone_in_distance_and_in_range(bidirectional):
    buckets = relative.t5_bucket(DISTANCES, bidirectional=bidirectional)
    assert buckets.min() >= 0 and buckets.max() <= 31
    past = buckets[DISTANCES <= 0].flip(0)  # |distance| growing into the past
    assert torch.all(past[1:] >= past[:-1])
    future = buckets[DISTANCES > 0]
    if bidirectional:
        assert torch.all(future[1:] >= future[:-1]) and future.min() >= 16
    else:
        assert torch.all(future == 0)  # causal: future keys fall in bucket 0


@pytest.mark.parametrize("n_heads", [*range(1, 17), 24, 32, 48, 64, 96, 112, 127, 128])
def test_alibi_slopes_match_the_reference_and_bloom(n_heads):
    ours = relative.alibi_slopes(n_heads)
    assert ours.dtype == torch.float64 and ours.shape == (n_heads,)
    torch.testing.assert_close(
        ours, torch.tensor(reference_get_slopes(n_heads), dtype=torch.float64), rtol=1e-14, atol=0
    )
    bloom = _get_alibi_slopes(n_heads, torch.device("cpu"))
    # BLOOM rounds the base to float32 and raises it to powers up to n_heads: its relative
    # error grows to about n_heads · 2⁻²⁴.
    torch.testing.assert_close(ours.float(), bloom, rtol=n_heads * 2**-23, atol=0)


def test_alibi_bias_closed_forms():
    causal = relative.alibi_bias(4, 6)
    symmetric = relative.alibi_bias(4, 6, causal=False)
    slopes = relative.alibi_slopes(4)
    for h, i, j in itertools.product(range(4), range(6), range(6)):
        if j <= i:
            assert causal[h, i, j] == -slopes[h] * (i - j)
        else:
            assert causal[h, i, j] == -math.inf
        assert symmetric[h, i, j] == -slopes[h] * abs(i - j)
    assert torch.equal(symmetric, symmetric.transpose(1, 2))


def test_relative_positions_and_shaw_index():
    r = relative.relative_positions(3, 5)
    assert r.tolist() == [[0, 1, 2, 3, 4], [-1, 0, 1, 2, 3], [-2, -1, 0, 1, 2]]
    assert r.dtype == torch.int64
    index = relative.shaw_index(6, 6, 2)
    for i, j in itertools.product(range(6), range(6)):  # tensor2tensor's definition
        assert index[i, j] == min(max(j - i, -2), 2) + 2
    assert index.min() == 0 and index.max() == 4


def test_sinusoidal_relative_table_is_the_sinusoid_of_the_distance():
    table = relative.sinusoidal_relative_table(9, 16, 500.0, dtype=torch.float64)
    assert table.shape == (9, 9, 16)
    for i, j in itertools.product(range(9), range(9)):
        expected = sinusoidal.encode([j - i], 16, 500.0, dtype=torch.float64)[0]
        torch.testing.assert_close(table[i, j], expected, rtol=0, atol=0)
    torch.testing.assert_close(table[0], sinusoidal.table(9, 16, 500.0, dtype=torch.float64))
    torch.testing.assert_close(table[1:, 1:], table[:-1, :-1])  # Toeplitz
    # sin is odd and cos even in the distance
    torch.testing.assert_close(table[:, :, 0::2], -table.transpose(0, 1)[:, :, 0::2])
    torch.testing.assert_close(table[:, :, 1::2], table.transpose(0, 1)[:, :, 1::2])


@pytest.mark.parametrize("window", [1, 2, 37])
def test_sinusoidal_relative_scores_are_each_query_dot_the_table(window):
    """``q_i · PE(j − i)`` from the absolute table of distances 0 … W−1 equals the product
    with the whole ``[W, W, d]`` relative table, in float64 to rounding."""
    d_model, base = 64, 500.0
    queries = torch.randn(window, d_model, dtype=torch.float64)
    table = relative.sinusoidal_relative_table(window, d_model, base, dtype=torch.float64)
    expected = (queries[:, None, :] * table).sum(-1)
    absolute = sinusoidal.table(window, d_model, base, dtype=torch.float64)
    scores = relative.sinusoidal_relative_scores(queries, absolute)
    torch.testing.assert_close(scores, expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize(("length", "max_bins"), [(10, 10), (37, 6), (100, 7), (64, 63)])
def test_distance_block_means_equal_means_of_the_full_matrix(length, max_bins):
    k = torch.arange(-(length - 1), length, dtype=torch.float64)
    f = torch.sin(0.37 * k) * k + 3.0
    matrix = f[relative.relative_positions(length) + length - 1]  # M[i, j] = f(j − i)
    starts, counts = binning.bins(length, max_bins)
    runs = list(zip(starts.tolist(), counts.tolist(), strict=True))
    expected = torch.tensor(
        [[matrix[a : a + n, b : b + m].mean().item() for b, m in runs] for a, n in runs],
        dtype=torch.float64,
    )
    torch.testing.assert_close(
        relative.distance_block_means(f, starts, counts), expected, rtol=0, atol=1e-10
    )


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize(("row_bins", "col_bins"), [(90, 90), (13, 29), (90, 7), (4, 90)])
def test_alibi_block_means_equal_means_of_the_full_bias(causal, row_bins, col_bins):
    length, head = 90, 3
    bias = relative.alibi_bias(5, length, causal=causal)[head - 1]  # [i, j], −inf masked
    rows, cols = binning.bins(length, row_bins), binning.bins(length, col_bins)
    row_runs = list(zip(*(part.tolist() for part in rows), strict=True))
    col_runs = list(zip(*(part.tolist() for part in cols), strict=True))
    expected = torch.tensor(
        [[bias[a : a + n, b : b + m].mean().item() for b, m in col_runs] for a, n in row_runs],
        dtype=torch.float64,
    ).nan_to_num(nan=torch.nan, neginf=torch.nan)  # a block with a masked key: NaN
    slope = float(relative.alibi_slopes(5)[head - 1])
    means = relative.alibi_block_means(slope, *rows, *cols, causal=causal)
    torch.testing.assert_close(means, expected, rtol=1e-15, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("causal", [True, False])
def test_alibi_block_means_over_runs_of_any_lengths_equal_the_full_bias(causal):
    """Runs of uneven lengths (a log axis's, a window's), rows and columns cut apart: blocks
    on, beside and across the diagonal."""
    length, generator = 120, torch.Generator().manual_seed(3)
    bias = relative.alibi_bias(4, length, causal=causal)[1]

    def runs() -> tuple[torch.Tensor, torch.Tensor]:
        cuts = torch.randperm(length - 1, generator=generator)[:17].sort().values + 1
        edges = torch.cat((torch.tensor([0]), cuts, torch.tensor([length])))
        return edges[:-1], edges.diff()

    rows, cols = runs(), runs()
    expected = torch.tensor(
        [
            [bias[a : a + n, b : b + m].mean().item() for b, m in zip(*cols, strict=True)]
            for a, n in zip(*rows, strict=True)
        ],
        dtype=torch.float64,
    ).nan_to_num(nan=torch.nan, neginf=torch.nan)
    slope = float(relative.alibi_slopes(4)[1])
    means = relative.alibi_block_means(slope, *rows, *cols, causal=causal)
    torch.testing.assert_close(means, expected, rtol=1e-15, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("slope", [float("nan"), float("inf"), 0.0, -0.5, True])
def test_an_alibi_slope_that_is_no_head_s_is_refused(slope):
    runs = binning.bins(8, 4)
    with pytest.raises(
        ValueError, match=r"slope must be a finite number > 0 \(an ALiBi head's m\)"
    ):
        relative.alibi_block_means(slope, *runs, *runs)


def test_alibi_block_means_stay_exact_at_a_million_positions():
    length = 1 << 20
    halves = binning.bins(length, 2)
    means = relative.alibi_block_means(1.0, *halves, *halves, causal=False)
    # the block [0, L/2) × [0, L/2): mean |q − p| over n × n cells is (n² − 1) / (3n)
    n = length // 2
    assert means[0, 0].item() == pytest.approx(-(n * n - 1) / (3 * n), rel=1e-15)
    rows, cols = binning.bins(length, 3), halves
    means = relative.alibi_block_means(1.0, *rows, *cols, causal=False)
    total = (means * (rows[1][:, None] * cols[1][None, :])).sum()
    # Σ |q − p| over the whole matrix is (L³ − L) / 3
    assert total.item() == pytest.approx(-(length**3 - length) / 3, rel=1e-14)


def test_distance_block_means_mark_masked_blocks():
    k = torch.arange(-4, 5).double()
    f = torch.where(k <= 0, k, -torch.inf)
    starts, counts = binning.bins(5, 5)
    means = relative.distance_block_means(f, starts, counts)
    assert torch.isnan(means).tolist() == (relative.relative_positions(5) > 0).tolist()
    starts, counts = binning.bins(5, 2)
    assert torch.isnan(relative.distance_block_means(f, starts, counts)).tolist() == [
        [True, True],
        [False, True],
    ]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: relative.relative_positions(0), "q_len must be in"),
        (lambda: relative.shaw_index(4, 4, -1), "max_relative_position must be in"),
        (lambda: relative.t5_bucket(DISTANCES, num_buckets=2), "num_buckets must be at least 4"),
        (
            lambda: relative.t5_bucket(DISTANCES, num_buckets=32, max_distance=8),
            "max_distance must be in",
        ),
        (lambda: relative.alibi_slopes(0), "n_heads must be in"),
        (lambda: relative.t5_max_exact(-7), r"num_buckets must be in \[1, ∞\], got -7"),
        (  # refused at once, not 8 GB and a minute later
            lambda: relative.alibi_bias(1000, 1000),
            r"n_heads × q_len × k_len is 1,000,000,000 numbers, more than the",
        ),
        (lambda: relative.sinusoidal_relative_table(4, 5), "d_model must be even"),
        (
            lambda: relative.sinusoidal_relative_scores(torch.ones(4, 6), torch.ones(4, 6)[:, :5]),
            r"queries and table must both be \[W, d_model\] with W ≥ 1, got \[4, 6\] and \[4, 5\]",
        ),
        (
            lambda: relative.sinusoidal_relative_scores(torch.ones(0, 8), torch.ones(0, 8)),
            r"got \[0, 8\]",
        ),
        (
            lambda: relative.sinusoidal_relative_scores(torch.ones(4, 5), torch.ones(4, 5)),
            "d_model must be even",
        ),
    ],
)
def test_bad_arguments_name_the_parameter(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_a_control_of_one_page_recomputes_only_that_page():
    cpu = torch.device("cpu")
    first = compute_relative(RelativeParams(300, 32, 1e4, scheme="t5"), cpu)
    fewer = compute_relative(replace(first.params, num_buckets=16), cpu)
    # the other pages' arrays are the very ones computed before; the T5 page's are new
    assert fewer.distances is not None and first.distances is not None
    assert fewer.distances.relative_table is first.distances.relative_table
    assert fewer.distances.distances is first.distances.distances
    assert fewer.alibi is not None and first.alibi is not None
    assert fewer.alibi.alibi_matrix is first.alibi.alibi_matrix
    assert fewer.t5 is not None and first.t5 is not None
    assert fewer.t5.buckets is not first.t5.buckets
    assert fewer.t5.bucket_by_distance.max() < first.t5.bucket_by_distance.max()
    warmer = compute_relative(replace(first.params, theta=500.0), cpu)
    assert warmer.distances is not None
    assert warmer.distances.relative_table is not first.distances.relative_table
    assert not np.allclose(
        warmer.distances.relative_table.values, first.distances.relative_table.values
    )


@pytest.mark.parametrize("bidirectional", [True, False])
@pytest.mark.parametrize(
    "x",
    [
        Window(-2999, 3000, 50),  # the whole range, many distances a pixel
        Window(-100, 900, 30),  # across the buckets that change and into a constant tail
        Window(500, 2000, 20),  # inside a constant tail only
        Window(-60, 60, 200),  # a pixel per distance
    ],
)
@pytest.mark.parametrize(
    "pixels",
    [(37, 29), (400, 300)],  # fewer blocks than distances; more (looked up by distance)
)
def test_t5_page_evaluates_only_its_pixels_and_equals_every_distances_buckets(
    bidirectional, x, pixels
):
    seq_len, num_buckets, max_distance = 3000, 16, 40
    every = torch.arange(-(seq_len - 1), seq_len)  # every distance, through Hugging Face's code
    buckets = T5Attention._relative_position_bucket(every, bidirectional, num_buckets, max_distance)
    windows = (Window(0, seq_len, pixels[0]), Window(0, seq_len, pixels[1]))
    params = RelativeParams(
        seq_len, 32, 1e4, num_buckets=num_buckets, max_distance=max_distance,
        bidirectional=bidirectional, bucket_windows=windows, bucket_x=x, pages=("t5",),
    )  # fmt: skip
    page = compute_relative(params, torch.device("cpu")).t5
    assert page is not None
    cols, rows = (binning.runs(window) for window in windows)
    centre = [starts + (counts - 1) // 2 for starts, counts in (cols, rows)]
    expected = buckets[centre[0][None, :] - centre[1][:, None] + seq_len - 1]
    np.testing.assert_array_equal(page.buckets.values, expected.numpy())
    shown = buckets[x.start + seq_len - 1 : x.stop + seq_len - 1]
    if x.pixels >= x.stop - x.start:
        np.testing.assert_array_equal(page.bucket_by_distance, shown.numpy())
    else:
        corners_x, corners_y = binning.step_corners(shown, x.start)
        np.testing.assert_array_equal(page.bucket_x, corners_x.numpy())
        np.testing.assert_array_equal(page.bucket_by_distance, corners_y.numpy())


def test_t5_buckets_each_distance_of_the_view_once(monkeypatch):
    evaluated: list[int] = []
    t5_bucket = relative.t5_bucket

    def counted(k: torch.Tensor, **kwargs) -> torch.Tensor:
        evaluated.append(k.numel())
        return t5_bucket(k, **kwargs)

    monkeypatch.setattr(relative, "t5_bucket", counted)
    windows = (Window(0, 300, 200), Window(0, 300, 150))  # 30,000 blocks, distances −299 … 299
    params = RelativeParams(300, 32, 1e4, bucket_windows=windows, pages=("t5",))
    page = compute_relative(params, torch.device("cpu")).t5
    assert page is not None and page.buckets.values.shape == (150, 200)
    assert max(evaluated) <= 2 * 300 - 1


def test_only_the_pages_asked_for_are_computed():
    cpu = torch.device("cpu")
    frame = compute_relative(RelativeParams(300, 32, 1e4, pages=("alibi",)), cpu)
    assert frame.alibi is not None and frame.alibi.slopes.shape == (8,)
    assert frame.distances is None and frame.t5 is None and frame.scores is None
    with pytest.raises(ValueError, match="pages must be among distances, t5, alibi, scores"):
        RelativeParams(300, 32, 1e4, pages=("tables",))


def test_a_new_seed_draws_new_scores_but_keeps_the_sinusoidal_table(monkeypatch):
    encoded: list[int] = []
    mean_table = sinusoidal.mean_table

    def counted(*args, **kwargs) -> torch.Tensor:
        encoded.append(len(args[0]))
        return mean_table(*args, **kwargs)

    monkeypatch.setattr(sinusoidal, "mean_table", counted)
    scores = [
        compute_relative(
            RelativeParams(48, 72, 1e4, scheme="sinusoidal", seed=seed, pages=("scores",)),
            torch.device("cpu"),
        ).scores
        for seed in (5, 6)
    ]
    assert encoded == [48]  # PE of the distances 0 … 47 once, for both seeds
    assert not np.allclose(scores[0].content, scores[1].content)  # new q and k
    assert not np.allclose(scores[0].bias, scores[1].bias)  # q_i·PE(j − i) with the new q


@pytest.mark.parametrize("seed", [0, 7, 2**31 - 1])
def test_queries_and_keys_are_drawn_independently(seed):
    """q_i·k_j/√d of independent standard normals is standard normal, on the diagonal too
    (k drawn equal to q would put √d = 16 there)."""
    content = compute_relative(
        RelativeParams(256, 256, 1e4, scheme="alibi", seed=seed, pages=("scores",)),
        torch.device("cpu"),
    ).scores.content
    assert abs(np.diag(content).mean()) < 0.5  # the mean of 256: standard deviation 1/16
    assert 0.8 < content.std() < 1.2
    assert not np.allclose(content, content.T)


def test_the_sinusoidal_score_bias_is_q_dot_the_encoding_of_the_distance():
    """bias[i, j] = q_i·PE(j − i) / √d and total = q_i·k_j / √d + bias, against float64 closed
    forms from the same seeded q and k (float32 arrays: within 1e-5)."""
    window, d_model, theta, seed = 40, 4096, 5e5, 3
    scores = compute_relative(
        RelativeParams(window, d_model, theta, scheme="sinusoidal", seed=seed, pages=("scores",)),
        torch.device("cpu"),
    ).scores
    # q drawn from a generator seeded seed, k from one seeded seed + 2³¹
    q, k = (seeded_normals(s, window, d_model) for s in (seed, seed + 2**31))
    i, j = torch.meshgrid(torch.arange(window), torch.arange(window), indexing="ij")
    pe = sinusoidal.encode((j - i).reshape(-1), d_model, theta, dtype=torch.float64)
    bias = (q[i.reshape(-1)] * pe).sum(-1).reshape(window, window) / d_model**0.5
    np.testing.assert_allclose(scores.bias, bias.numpy(), atol=1e-5)
    np.testing.assert_allclose(scores.total, (q @ k.T / d_model**0.5 + bias).numpy(), atol=1e-5)
