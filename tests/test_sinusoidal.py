"""The sinusoidal library against the paper's closed form, in float64, and its properties."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
import torch

from posenc_gui.encodings import binning, run_sums, sinusoidal
from posenc_gui.encodings.window import Window
from posenc_gui.tabs.absolute.compute import AbsoluteParams, compute_absolute


def closed_form(seq_len: int, d_model: int, base: float) -> torch.Tensor:
    """The paper's formula written out element by element: PE[p, 2i] = sin(p / base^(2i/d))."""
    pe = torch.empty(seq_len, d_model, dtype=torch.float64)
    for p in range(seq_len):
        for i in range(d_model // 2):
            angle = p / base ** (2 * i / d_model)
            pe[p, 2 * i] = math.sin(angle)
            pe[p, 2 * i + 1] = math.cos(angle)
    return pe


@pytest.mark.parametrize(
    ("seq_len", "d_model", "base"),
    [(1, 2, 10000.0), (50, 16, 10000.0), (33, 64, 500.0), (7, 10, 1e7)],
)
def test_table_matches_closed_form_in_float64(seq_len, d_model, base):
    pe = sinusoidal.table(seq_len, d_model, base, dtype=torch.float64)
    assert pe.shape == (seq_len, d_model)
    assert pe.dtype == torch.float64
    torch.testing.assert_close(pe, closed_form(seq_len, d_model, base), rtol=0, atol=1e-12)


def test_float32_is_the_rounded_float64():
    pe64 = sinusoidal.table(200, 64, dtype=torch.float64)
    pe32 = sinusoidal.table(200, 64)
    assert pe32.dtype == torch.float32
    assert torch.equal(pe32, pe64.float())


def test_concat_layout_permutes_channels():
    inter = sinusoidal.table(40, 12, dtype=torch.float64)
    concat = sinusoidal.table(40, 12, layout="concat", dtype=torch.float64)
    assert torch.equal(concat, torch.cat((inter[:, 0::2], inter[:, 1::2]), dim=1))


def test_bounds_and_pair_norm():
    pe = sinusoidal.table(1000, 128, dtype=torch.float64)
    assert pe.abs().max() <= 1.0
    pair_norms = pe[:, 0::2] ** 2 + pe[:, 1::2] ** 2
    torch.testing.assert_close(pair_norms, torch.ones_like(pair_norms), rtol=0, atol=1e-12)


def test_wavelengths_run_from_two_pi_to_two_pi_base():
    omega = sinusoidal.frequencies(512, 10000.0)
    assert omega[0].item() == 1.0
    assert 2 * math.pi / omega[-1].item() == pytest.approx(2 * math.pi * 10000 ** (510 / 512))
    assert torch.all(omega[1:] < omega[:-1])


@pytest.mark.parametrize("p", [0, 5, 123])
def test_dot_product_depends_on_offset_only(p):
    k = torch.arange(0, 60)
    sim = sinusoidal.similarity_by_offset(k, 64, position=p)
    expected = torch.cos(k[:, None].double() * sinusoidal.frequencies(64)).sum(1)
    torch.testing.assert_close(sim, expected, rtol=0, atol=1e-10)


def test_float32_similarity_curves_stay_within_their_bound():
    """Sums of float32 waves (phases reduced mod 2π in float64) at 2²⁰ positions and 16,384
    channels: within 1e-6·d_model of the float64 sums, by offset and in closed form, for
    single offsets and for runs."""
    d_model = 16384
    starts, counts = binning.runs(Window(-(2**20 - 1), 2**20, 600))
    for runs in ({"counts": counts}, {}):
        closed = sinusoidal.closed_form_similarity(starts, d_model, **runs)
        closed32 = sinusoidal.closed_form_similarity(starts, d_model, dtype=torch.float32, **runs)
        assert closed32.dtype == torch.float64  # the sums in float32, handed back as float64
        by_offset = sinusoidal.similarity_by_offset(starts, d_model, position=999_983, **runs)
        by_offset32 = sinusoidal.similarity_by_offset(
            starts, d_model, position=999_983, dtype=torch.float32, **runs
        )
        for exact, float32 in ((closed, closed32), (by_offset, by_offset32)):
            assert (exact - float32).abs().max() < 1e-6 * d_model
            assert not torch.equal(exact, float32)  # the float32 sums were really taken
    with pytest.raises(ValueError, match=r"dtype must be torch\.float64 or torch\.float32"):
        sinusoidal.closed_form_similarity(starts, d_model, dtype=torch.float16)


def test_similarity_matrix_is_gram_matrix_and_toeplitz():
    pe = closed_form(30, 16, 10000.0)
    sim = sinusoidal.similarity_matrix(30, 16)
    torch.testing.assert_close(sim, pe @ pe.T, rtol=0, atol=1e-12)
    torch.testing.assert_close(sim[1:, 1:], sim[:-1, :-1], rtol=0, atol=1e-12)
    cos = sinusoidal.similarity_matrix(30, 16, cosine=True)
    torch.testing.assert_close(torch.diagonal(cos), torch.ones(30, dtype=torch.float64))


@pytest.mark.parametrize(("length", "max_bins"), [(10, 10), (10, 3), (97, 8), (1000, 999), (5, 1)])
def test_bins_cover_every_position_once(length, max_bins):
    starts, counts = binning.bins(length, max_bins)
    assert len(starts) == min(length, max_bins)
    assert starts[0] == 0 and (starts[1:] == starts[:-1] + counts[:-1]).all()
    assert (starts[-1] + counts[-1]).item() == length
    assert counts.max() - counts.min() <= 1


@pytest.mark.parametrize(
    ("seq_len", "max_bins", "d_model", "base"),
    [(64, 64, 16, 10000.0), (97, 8, 32, 10000.0), (1000, 37, 8, 50.0), (513, 512, 64, 1e6)],
)
def test_binned_means_equal_mean_of_full_table(seq_len, max_bins, d_model, base):
    starts, counts = binning.bins(seq_len, max_bins)
    full = closed_form(seq_len, d_model, base)
    rows = [full[s : s + n].mean(0) for s, n in zip(starts.tolist(), counts.tolist(), strict=True)]
    mean = sinusoidal.mean_table(starts, counts, d_model, base)
    torch.testing.assert_close(mean, torch.stack(rows), rtol=0, atol=1e-12)
    sim = full @ full.T
    blocks = torch.tensor(
        [
            [
                sim[a : a + n, b : b + m].mean().item()
                for b, m in zip(starts.tolist(), counts.tolist(), strict=True)
            ]
            for a, n in zip(starts.tolist(), counts.tolist(), strict=True)
        ],
        dtype=torch.float64,
    )
    mean_sim = sinusoidal.mean_similarity_matrix(starts, counts, d_model, base)
    torch.testing.assert_close(mean_sim, blocks, rtol=0, atol=1e-9)


@pytest.mark.parametrize("cosine", [False, True])
def test_similarity_of_single_positions_is_the_toeplitz_slice_of_the_gram_matrix(cosine):
    full = closed_form(200, 32, 10000.0)
    sim = full @ full.T / (16 if cosine else 1)
    rows = (torch.arange(5, 41), torch.ones(36, dtype=torch.int64))
    cols = (torch.arange(120, 187), torch.ones(67, dtype=torch.int64))
    exact = sinusoidal.mean_similarity_matrix(*rows, 32, cosine=cosine, columns=cols)
    torch.testing.assert_close(exact, sim[5:41, 120:187], rtol=0, atol=1e-12)
    fast = sinusoidal.mean_similarity_matrix(
        *rows, 32, cosine=cosine, columns=cols, dtype=torch.float32
    )
    assert fast.dtype == torch.float32
    # float32's own rounding of each float64 value: half an ulp
    torch.testing.assert_close(fast.double(), exact, rtol=2**-24, atol=0)


@pytest.mark.parametrize("layout", ["interleaved", "concat"])
@pytest.mark.parametrize(
    "channels",
    [[0, 17, 31], [31, 2, 2], list(range(3, 12)), list(range(12, 21)), list(range(16, 32))],
)
def test_selected_channels_equal_the_table_columns(layout, channels):
    # scattered, repeated and consecutive channels (within a half, across the halves)
    full = sinusoidal.table(100, 32, layout=layout, dtype=torch.float64)
    cols = sinusoidal.encode(torch.arange(100), 32, layout=layout, channels=channels)
    assert torch.equal(cols, full[:, channels].float())
    means = sinusoidal.mean_table(*binning.bins(100, 100), 32, layout=layout, channels=channels)
    assert torch.equal(means, full[:, channels]) and means.is_contiguous()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seq_len": 0}, "seq_len must be in"),
        ({"d_model": 7}, "d_model must be even"),
        ({"d_model": 0}, "d_model must be in"),
        ({"d_model": -4}, "d_model must be in"),
        ({"base": 1.0}, "base must be a finite number > 1"),
        ({"base": float("nan")}, "base must be a finite number > 1"),
        ({"base": float("inf")}, "base must be a finite number > 1"),
        ({"layout": "zigzag"}, "layout must be one of"),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs, message):
    args = {"seq_len": 8, "d_model": 16, "base": 10000.0} | kwargs
    layout = args.pop("layout", "interleaved")
    with pytest.raises(ValueError, match=message):
        sinusoidal.table(args["seq_len"], args["d_model"], args["base"], layout=layout)


def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError, match="seq_len must be an integer"):
        sinusoidal.table(8.5, 16)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="positions must be finite"):
        sinusoidal.encode([0.0, float("nan")], 16)
    with pytest.raises(ValueError, match="channels must be in"):
        sinusoidal.encode([0, 1], 16, channels=[16])
    for channels in ([0.5], [1.7], [True]):  # not truncated to channel 0 or 1
        with pytest.raises(TypeError, match=r"channels must be integers"):
            sinusoidal.encode([0, 1], 16, channels=channels)
    with pytest.raises(ValueError, match=r"positions × channels \(10,000,000 × 512\) is"):
        sinusoidal.encode(torch.arange(10**7), 512)
    with pytest.raises(ValueError, match=r"positions must be 1-D, got shape \(2, 3\)"):
        sinusoidal.encode(torch.arange(6).reshape(2, 3), 8)  # not 6 rows of [len, d]
    with pytest.raises(TypeError, match="positions must be a 1-D sequence of numbers, got str"):
        sinusoidal.encode("abc", 8)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (  # a mean over 1.5 positions means nothing
            lambda: sinusoidal.mean_table(torch.tensor([0.0]), torch.tensor([1.5]), 8),
            r"counts must be whole numbers of positions, got \[1\.5\]",
        ),
        (
            lambda: sinusoidal.closed_form_similarity(torch.tensor([float("nan")]), 8),
            "starts must be finite",
        ),
        (
            lambda: binning.mean_cos_sin(
                torch.tensor([0]), torch.tensor([2]), torch.tensor([float("nan")])
            ),
            r"inv_freq must lie in \(0, π\)",
        ),
        (
            lambda: run_sums.wave_sums(0, 10.5, sinusoidal.frequencies(8), torch.ones(4)),
            "size must be an integer",
        ),
        (
            lambda: run_sums.wave_sums(0, -5, sinusoidal.frequencies(8), torch.ones(4)),
            r"size must be in \[0, ∞\], got -5",
        ),
        (
            lambda: run_sums.wave_sums(0, 8, sinusoidal.frequencies(8), torch.ones(2, 3)),
            r"cos_weights must be a real tensor ending in one weight per frequency \(4\)",
        ),
        (
            lambda: run_sums.wave_sums(
                0, 8, sinusoidal.frequencies(8), torch.ones(4), torch.ones(4, dtype=torch.cfloat)
            ),
            "sin_weights must be a real tensor",
        ),
        (
            lambda: run_sums.wave_sums(0, 10**12, sinusoidal.frequencies(8), torch.ones(2, 4)),
            r"the sums \(weights' rows × size\) is 2,000,000,000,000 numbers",
        ),
    ],
)
def test_runs_and_weights_are_checked(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_column_runs_past_d_model_are_refused():
    rows, columns = binning.bins(10, 2), binning.bins(32, 3)
    with pytest.raises(ValueError, match=r"column runs must lie within the d_model = 16 channels"):
        sinusoidal.block_mean_table(*rows, *columns, 16)


@pytest.mark.parametrize("device", ["gpu", "cuda:7", "cpu:1"])
def test_a_device_this_machine_lacks_is_named_with_those_it_has(device):
    with pytest.raises(ValueError, match=r"device must be a device this machine has \(cpu"):
        sinusoidal.table(4, 16, device=device)
    with pytest.raises(ValueError, match=r"device must be a device this machine has \(cpu"):
        sinusoidal.encode([0, 1], 16, device=device)


def test_a_control_of_one_absolute_view_recomputes_only_that_view():
    cpu = torch.device("cpu")
    first = compute_absolute(AbsoluteParams(300, 32, 1e4), cpu)
    moved = compute_absolute(replace(first.params, reference_position=40), cpu)
    assert moved.table is first.table and moved.similarity is first.similarity
    assert moved.by_offset is not first.by_offset
    assert moved.closed_form is first.closed_form  # Σ cos(kω) does not depend on p
    # PE·PEᵀ is the same for either channel layout (a permutation): kept
    concat = compute_absolute(replace(first.params, layout="concat"), cpu)
    assert concat.similarity is first.similarity and concat.table is not first.table
    assert not np.array_equal(concat.table, first.table)


def test_the_cosine_toggle_scales_the_kept_dot_products(monkeypatch):
    cpu = torch.device("cpu")
    first = compute_absolute(AbsoluteParams(300, 32, 2e4, reference_position=7), cpu)
    computed = []
    for name in ("mean_similarity_matrix", "closed_form_similarity", "similarity_by_offset"):
        original = getattr(sinusoidal, name)
        monkeypatch.setattr(
            sinusoidal,
            name,
            lambda *a, _f=original, _n=name, **k: computed.append(_n) or _f(*a, **k),
        )
    cosine = compute_absolute(replace(first.params, cosine=True), cpu)
    assert computed == []  # nothing recomputed: |PE(p)|² = d/2 for every p
    pe = sinusoidal.table(300, 32, 2e4, dtype=torch.float64)
    np.testing.assert_allclose(
        cosine.similarity, (pe @ pe.T / pe[0].norm() ** 2).numpy(), atol=1e-6
    )
    assert cosine.similarity.dtype == first.similarity.dtype
    np.testing.assert_allclose(cosine.by_offset, first.by_offset / 16, rtol=1e-15)
    np.testing.assert_allclose(cosine.closed_form, first.closed_form / 16, rtol=1e-15)


@pytest.mark.parametrize(
    ("seq_len", "max_bins"), [(1000, 300), (100_000, 300), (5, 5), (200, 14), (60, 20)]
)
def test_extremes_bound_each_pixel_like_the_full_table(seq_len, max_bins):
    channels = [0, 1, 2, 33, 127]
    starts, counts = binning.bins(seq_len, max_bins)
    low, high = sinusoidal.extremes_table(starts, counts, 128, channels=channels)
    full = sinusoidal.encode(torch.arange(seq_len), 128, channels=channels, dtype=torch.float64)
    runs = list(zip(starts.tolist(), counts.tolist(), strict=True))
    least = torch.stack([full[s : s + n].amin(0) for s, n in runs])
    largest = torch.stack([full[s : s + n].amax(0) for s, n in runs])
    omega = sinusoidal.frequencies(128)[[c // 2 for c in channels]]
    # exact over short runs; otherwise within the documented 1 − cos(ω/2), in practice 0.01
    periods = counts[:, None] * omega[None, :] / (2 * math.pi)
    bound = torch.where(periods < binning.EXTREME_PERIODS, 1e-12, 1 - torch.cos(omega / 2))
    assert torch.all((low - least).abs() <= bound) and torch.all((high - largest).abs() <= bound)
    assert (low - least).abs().max() < 0.01 and (high - largest).abs().max() < 0.01
    assert torch.all(low <= largest + 1e-12) and torch.all(high >= least - 1e-12)


def test_step_corners_draw_the_exact_staircase():
    values = torch.tensor([3, 3, 3, 5, 5, 7])
    x, y = binning.step_corners(values, start=-2)
    assert x.tolist() == [-2, 0, 1, 2, 3, 3] and y.tolist() == [3, 3, 5, 5, 7, 7]
    x, y = binning.step_corners(torch.tensor([4]), start=10)
    assert x.tolist() == [10, 10] and y.tolist() == [4, 4]
    with pytest.raises(ValueError, match=r"values must be a 1-D tensor of one or more"):
        binning.step_corners(torch.tensor([], dtype=torch.int64), start=0)


def test_weights_of_another_number_of_frequencies_are_refused():
    runs = binning.bins(12, 3)
    with pytest.raises(ValueError, match=r"cos_weights must end in one weight per frequency \(8\)"):
        run_sums.weighted_mean_cos_sin(*runs, sinusoidal.frequencies(16), torch.ones(3, 5))


@pytest.mark.parametrize("layout", ["interleaved", "concat"])
@pytest.mark.parametrize(
    ("rows", "channels"),
    [((0, 300, 37), (0, 64, 64)), ((5, 300, 37), (3, 61, 9)), ((0, 300, 300), (1, 63, 5))],
)
def test_block_means_of_the_table_equal_the_mean_of_each_block(layout, rows, channels):
    """Blocks of positions × channels, odd channel runs and runs across the concat layout's
    sin | cos boundary included, against the mean of each block of the full float64 table."""
    from posenc_gui.encodings.window import Window

    row_window, channel_window = Window(*rows), Window(*channels)
    starts, counts = binning.runs(row_window)
    col_starts, col_counts = binning.runs(channel_window)
    full = closed_form(300, 64, 500.0)
    if layout == "concat":
        full = torch.cat((full[:, 0::2], full[:, 1::2]), 1)
    expected = torch.stack(
        [
            torch.stack(
                [
                    full[a : a + n, c : c + m].mean()
                    for c, m in zip(col_starts, col_counts, strict=True)
                ]
            )
            for a, n in zip(starts, counts, strict=True)
        ]
    )
    means = sinusoidal.block_mean_table(
        starts, counts, col_starts, col_counts, 64, 500.0, layout=layout
    )
    assert means.dtype == torch.float64
    torch.testing.assert_close(means, expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("layout", ["interleaved", "concat"])
def test_float32_block_means_stay_within_their_bound_at_the_largest_size(layout):
    """2^20 positions × 16,384 channels on ~700 × 800 pixels: float32 within 1e-5 of float64
    (the bound the views rely on, ``posenc_gui.frames.VIEW_DTYPE``)."""
    from posenc_gui.encodings.window import Window

    rows, cols = binning.runs(Window(0, 1 << 20, 700)), binning.runs(Window(0, 16384, 800))
    exact = sinusoidal.block_mean_table(*rows, *cols, 16384, 1e4, layout=layout)
    fast = sinusoidal.block_mean_table(*rows, *cols, 16384, 1e4, layout=layout, dtype=torch.float32)
    assert fast.dtype == torch.float32
    assert float((fast.double() - exact).abs().max()) < 1e-5


def test_float32_phasor_means_are_reduced_before_rounding():
    """Positions near ±2^20 at the highest frequency (negative ones: the relative table's
    keys j − i): float32 of the raw angle would be off by ~0.06 rad; reduced mod 2π in
    float64 first, each mean is within 1e-6."""
    starts = torch.cat(
        (torch.arange((1 << 20) - 64, 1 << 20), torch.arange(-(1 << 20), 64 - (1 << 20)))
    )
    counts = torch.ones_like(starts)
    omega = sinusoidal.frequencies(512, 1e4)
    exact = binning.mean_cos_sin(starts, counts, omega)
    fast = binning.mean_cos_sin(starts, counts, omega, dtype=torch.float32)
    for e, f in zip(exact, fast, strict=True):
        assert f.dtype == torch.float32 and float((f.double() - e).abs().max()) < 1e-6
    with pytest.raises(ValueError, match=r"dtype must be torch\.float64 or torch\.float32"):
        binning.mean_cos_sin(starts, counts, omega, dtype=torch.float16)


@pytest.mark.parametrize("log", [False, True])  # two run lengths, and many (the fallback)
def test_weighted_means_equal_the_weighted_sum_of_each_positions_cos_and_sin(log):
    from posenc_gui.encodings.window import Window

    starts, counts = binning.runs(Window(1, 5000, 37, log=log))
    omega = sinusoidal.frequencies(24, 1e4)
    generator = torch.Generator().manual_seed(0)
    c, s = (torch.randn(3, len(omega), generator=generator, dtype=torch.float64) for _ in "cs")

    def written_out(weights: torch.Tensor, wave) -> torch.Tensor:  # each run position by position
        runs = zip(starts.tolist(), counts.tolist(), strict=True)
        positions = (torch.arange(a, a + n, dtype=torch.float64)[:, None] for a, n in runs)
        return torch.stack([(weights @ wave(p * omega).T).mean(1) for p in positions], dim=1)

    cos_part, sin_part = written_out(c, torch.cos), written_out(s, torch.sin)
    both = run_sums.weighted_mean_cos_sin(starts, counts, omega, c, s)
    torch.testing.assert_close(both, cos_part + sin_part, rtol=0, atol=1e-12)
    cos_only = run_sums.weighted_mean_cos_sin(starts, counts, omega, c)
    torch.testing.assert_close(cos_only, cos_part, rtol=0, atol=1e-12)
