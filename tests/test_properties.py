"""Property tests across the library's argument space, the limits included (hypothesis)."""

from __future__ import annotations

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc_gui.encodings import (
    binning,
    model_config,
    multimodal,
    relative,
    rope,
    rope_scaling,
    sinusoidal,
    window,
)
from posenc_gui.encodings.rope_scaling import RopeScaling

FAST = settings(max_examples=60, deadline=None)
even = st.integers(1, 512).map(lambda n: 2 * n)
bases = st.floats(1.0001, 1e8, allow_nan=False)


@FAST
@given(
    seq_len=st.integers(1, 300),
    d_model=even,
    base=bases,
    layout=st.sampled_from(sinusoidal.LAYOUTS),
)
def test_sinusoidal_table_shape_bounds_and_pair_norms(seq_len, d_model, base, layout):
    pe = sinusoidal.table(seq_len, d_model, base, layout=layout, dtype=torch.float64)
    assert pe.shape == (seq_len, d_model) and torch.isfinite(pe).all()
    assert pe.abs().max() <= 1.0
    norms = (pe**2).sum(1)
    torch.testing.assert_close(norms, torch.full_like(norms, d_model / 2))


@FAST
@given(
    value=st.one_of(
        st.integers(-5, 0), st.floats(allow_nan=True), st.text(max_size=3), st.none(), st.booleans()
    )
)
def test_sinusoidal_rejects_bad_seq_len_naming_it(value):
    with pytest.raises((ValueError, TypeError), match="seq_len"):
        sinusoidal.table(value, 8)


@FAST
@given(
    d_model=st.one_of(st.integers(-10, 1), st.integers(1, 50).map(lambda n: 2 * n + 1)),
)
def test_sinusoidal_rejects_bad_d_model_naming_it(d_model):
    with pytest.raises(ValueError, match="d_model"):
        sinusoidal.table(4, d_model)


@FAST
@given(base=st.one_of(st.floats(max_value=1.0), st.just(math.inf), st.just(math.nan)))
def test_bad_bases_are_refused(base):
    with pytest.raises(ValueError, match="base must be a finite number > 1"):
        rope.inv_freq(8, base)


@FAST
@given(
    head_dim=st.integers(1, 64).map(lambda n: 2 * n),
    base=bases,
    m=st.integers(0, 10**7),
    n=st.integers(0, 10**7),
    t=st.integers(0, 10**6),
    layout=st.sampled_from(rope.LAYOUTS),
    seed=st.integers(0, 2**31 - 1),
)
def test_rope_preserves_norms_and_depends_on_distance_only(head_dim, base, m, n, t, layout, seed):
    generator = torch.Generator().manual_seed(seed)
    q, k = torch.randn(2, 1, head_dim, dtype=torch.float64, generator=generator)
    theta = rope.inv_freq(head_dim, base)
    qm = rope.apply(q, [m], theta, layout=layout)
    kn = rope.apply(k, [n], theta, layout=layout)
    torch.testing.assert_close(qm.norm(), q.norm(), rtol=1e-12, atol=0)
    shifted = (
        rope.apply(q, [m + t], theta, layout=layout)
        @ rope.apply(k, [n + t], theta, layout=layout).T
    )
    scale = float(q.norm() * k.norm())
    assert abs(float(shifted) - float(qm @ kn.T)) <= 1e-8 * max(1.0, scale)


@FAST
@given(rotary=st.integers(1, 128).map(lambda n: 2 * n))
def test_layout_permutation_is_a_permutation(rotary):
    perm = rope.permutation(rotary)
    assert sorted(perm.tolist()) == list(range(rotary))


@FAST
@given(
    distances=st.lists(st.integers(-(10**6), 10**6), min_size=1, max_size=50),
    bidirectional=st.booleans(),
    num_buckets=st.integers(2, 64).map(lambda n: 2 * n),
    extra=st.integers(1, 5000),
)
def test_t5_buckets_stay_in_range(distances, bidirectional, num_buckets, extra):
    max_exact = (num_buckets // 2 if bidirectional else num_buckets) // 2
    buckets = relative.t5_bucket(
        torch.tensor(distances),
        bidirectional=bidirectional,
        num_buckets=num_buckets,
        max_distance=max_exact + extra,
    )
    assert buckets.min() >= 0 and buckets.max() < num_buckets


@FAST
@given(n_heads=st.integers(1, 256))
def test_alibi_slopes_lie_in_zero_one_and_decrease_geometrically(n_heads):
    slopes = relative.alibi_slopes(n_heads)
    assert len(slopes) == n_heads and (slopes > 0).all() and (slopes < 1).all()
    closest = 2 ** math.floor(math.log2(n_heads))
    assert (slopes[1:closest] < slopes[: closest - 1]).all()  # geometric, decreasing


@FAST
@given(length=st.integers(1, 10**6), pixels=st.integers(1, 4096))
def test_bins_partition_any_length(length, pixels):
    starts, counts = binning.bins(length, pixels)
    assert int(counts.sum()) == length and len(starts) == min(length, pixels)
    assert int(counts.max() - counts.min()) <= 1


@FAST
@given(
    starts=st.lists(st.integers(-(10**6), 10**6), min_size=1, max_size=8),
    count=st.integers(1, 50),
    omega=st.floats(1e-7, 3.0),
)
def test_mean_cos_sin_matches_direct_means(starts, count, omega):
    s = torch.tensor(starts)
    counts = torch.full_like(s, count)
    cos, sin = binning.mean_cos_sin(s, counts, torch.tensor([omega], dtype=torch.float64))
    positions = s[:, None].double() + torch.arange(count, dtype=torch.float64)[None, :]
    torch.testing.assert_close(cos[:, 0], torch.cos(positions * omega).mean(1), atol=1e-9, rtol=0)
    torch.testing.assert_close(sin[:, 0], torch.sin(positions * omega).mean(1), atol=1e-9, rtol=0)


@FAST
@given(
    rows=st.integers(1, 300),
    runs=st.lists(st.tuples(st.integers(0, 400), st.integers(1, 9)), min_size=1, max_size=20),
    held=st.booleans(),
    seed=st.integers(0, 2**31),
)
def test_run_means_are_the_means_of_their_rows(rows, runs, held, seed):
    """Each run's mean equals the direct mean of its rows (those past the last one equal it
    when ``held``); a run of one row is that row itself, to the last bit."""
    generator = torch.Generator().manual_seed(seed)
    values = torch.randn(rows, 3, generator=generator, dtype=torch.float64) * 1e6
    if not held:
        runs = [(start % rows, min(count, rows - start % rows)) for start, count in runs]
    starts = torch.tensor([start for start, _ in runs])
    counts = torch.tensor([count for _, count in runs])
    means = binning.run_means(values, starts, counts, held=held)
    for mean, (start, count) in zip(means, runs, strict=True):
        rows_of_run = values.double()[[min(row, rows - 1) for row in range(start, start + count)]]
        torch.testing.assert_close(mean, rows_of_run.mean(0), rtol=1e-12, atol=1e-6)
    singles = binning.run_means(values, starts, torch.ones_like(starts), held=held)
    assert torch.equal(singles, values.double()[starts.clamp(max=rows - 1)])


@FAST
@given(
    head_dim=st.integers(2, 128).map(lambda n: 2 * n),
    base=st.floats(10, 1e7),
    method=st.sampled_from(["linear", "ntk", "dynamic", "yarn", "llama3"]),
    factor=st.floats(1.0, 64.0),
    original=st.integers(64, 1 << 17),
    seq_len=st.integers(1, 1 << 21),
)
def test_extension_never_raises_a_frequency_and_stays_finite(
    head_dim, base, method, factor, original, seq_len
):
    scaling = RopeScaling(
        head_dim=head_dim,
        base=base,
        method=method,
        factor=factor,
        original_context=original,
        max_position_embeddings=original,
    )
    scaled = rope_scaling.scaled_inv_freq(scaling, seq_len)
    plain = rope.inv_freq(head_dim, base)
    assert torch.isfinite(scaled).all() and (scaled > 0).all()
    assert (scaled <= plain * (1 + 1e-12)).all()  # extensions slow rotations, never speed up
    assert rope_scaling.attention_factor(scaling) >= 1.0
    assert len(rope_scaling.regions(scaling, seq_len)) == head_dim // 2


@FAST
@given(
    key=st.sampled_from(
        ["head_dim", "rope_theta", "max_position_embeddings", "partial_rotary_factor"]
    ),
    value=st.one_of(
        st.text(max_size=5),
        st.booleans(),
        st.just(-1),
        st.just(float("nan")),
        st.lists(st.integers(), max_size=2),
    ),
)
def test_config_values_of_the_wrong_kind_are_refused_naming_the_key(key, value):
    config = {"head_dim": 64, "rope_theta": 1e4, key: value}
    with pytest.raises(ValueError, match=key):
        model_config.inv_freq_from_config(config)


@pytest.mark.parametrize("key", ["rope_theta", "max_position_embeddings", "partial_rotary_factor"])
def test_a_null_config_value_reads_as_absent_as_transformers_does(key):
    base = {"head_dim": 64, "rope_scaling": {"rope_type": "yarn", "factor": 4.0}}
    absent = model_config.read_model_config(base).primary
    assert model_config.read_model_config({**base, key: None}).primary == absent


@pytest.mark.parametrize(
    ("call", "error", "name"),
    [
        (lambda: rope.apply([[1.0, 2.0]], [0], rope.inv_freq(2)), TypeError, "x must be"),
        (
            lambda: rope.apply(torch.zeros(1, 2, dtype=torch.int64), [0], rope.inv_freq(2)),
            TypeError,
            "x must be a floating-point",
        ),
        (lambda: rope.angles([0], [1.0, 0.5]), TypeError, "inv_freq must be a torch.Tensor"),
        (lambda: relative.t5_bucket(torch.tensor([0.5])), TypeError, "relative_position"),
        (lambda: sinusoidal.frequencies(8.0), TypeError, "d_model must be an integer"),
        (lambda: relative.alibi_slopes(True), TypeError, "n_heads must be an integer"),
        (lambda: binning.bins(10, 0), ValueError, "max_bins must be in"),
        (lambda: window.Window(5, 5), ValueError, "window must not be empty"),
        # torch would read the string as a device ("Invalid device string: 'float32'")
        (lambda: sinusoidal.table(16, 8, dtype="float32"), TypeError, "dtype must be a torch"),
        (lambda: sinusoidal.table(16, 8, dtype=torch.int64), ValueError, "a floating dtype"),
        (
            lambda: rope.precision_error(range(16), rope.inv_freq(8), "bfloat16"),
            TypeError,
            "dtype must be a torch dtype",
        ),
        (lambda: sinusoidal.as_cosine(torch.ones(3), 0), ValueError, "d_model must be in"),
        (lambda: window.Window(0, float("nan")), ValueError, "window ends must be finite"),
        (  # a run of no position has no mean (it was NaN)
            lambda: binning.mean_cos_sin(
                *binning.bins(10, 5)[:1], torch.zeros(5), rope.inv_freq(8)
            ),
            ValueError,
            "counts must be 1 or more, got 0",
        ),
        (
            lambda: binning.mean_cos_sin(torch.arange(5), torch.ones(3), rope.inv_freq(8)),
            ValueError,
            r"starts and counts must be two \[B\] tensors, got \(5,\) and \(3,\)",
        ),
        (  # a string is truthy: "no" read as bidirectional
            lambda: relative.t5_bucket(torch.arange(3), bidirectional="no"),
            TypeError,
            "bidirectional must be true or false",
        ),
        (
            lambda: rope_scaling.effective_base(
                RopeScaling(head_dim=64, method="dynamic", factor=2.0), seq_len=-1
            ),
            ValueError,
            r"seq_len must be in \[1",
        ),
        (  # f(k) for k = −(L−1) … L−1 has an odd length; an even one read wrong distances
            lambda: relative.distance_block_means(torch.ones(10), *binning.bins(5, 5)),
            ValueError,
            "by_distance must hold f",
        ),
        (
            lambda: relative.distance_block_means(torch.ones(9), *binning.bins(8, 4)),
            ValueError,
            "runs must end within the 5 positions",
        ),
        # refused before allocating: these asked for 40 and 80 GB
        (
            lambda: rope.precision_error(range(10**7), rope.inv_freq(1024), torch.bfloat16),
            ValueError,
            r"positions × pairs \(10,000,000 × 512\) is 5,120,000,000 numbers",
        ),
        (
            lambda: multimodal.patch_ids(100_000, 100_000),
            ValueError,
            r"a grid of height × width \(100,000 × 100,000\) patches",
        ),
    ],
)
def test_wrong_types_name_the_parameter(call, error, name):
    with pytest.raises(error, match=name):
        call()


def test_no_runs_sum_to_nothing():
    assert sinusoidal.closed_form_similarity([], 8).shape == (0,)  # it raised from torch.stack
