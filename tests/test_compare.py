"""The Compare tab: each curve against its closed form in float64 (and T5 and ALiBi against
their references), exact pixel means, and what the tab draws."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from transformers.models.t5.modeling_t5 import T5Attention

from posenc_gui.encodings import binning
from posenc_gui.encodings.binning import Window
from posenc_gui.engine.compare import CompareParams, compute_compare
from tests.test_relative import reference_get_slopes

CPU = torch.device("cpu")


def brute_force(p: CompareParams) -> dict[str, np.ndarray]:
    """Every curve at every distance 0 … seq_len−1, straight from the definitions."""
    k = np.arange(p.seq_len, dtype=np.float64)
    omega = p.theta ** (-np.arange(0, p.d_model, 2) / p.d_model)
    pe = lambda pos: np.stack(  # noqa: E731 (the paper's table, interleaved)
        [np.sin(pos[:, None] * omega), np.cos(pos[:, None] * omega)], -1
    ).reshape(len(pos), -1)
    sinusoidal = pe(k) @ pe(np.zeros(1))[0] / (p.d_model / 2)
    theta = p.theta ** (-np.arange(0, p.head_dim, 2) / p.head_dim)
    rope_ones = np.cos(k[:, None] * theta).mean(-1)  # q = 1: each pair gives 2cos(kθ)/2
    slopes = np.array(reference_get_slopes(p.n_heads))
    relative = torch.arange(p.seq_len)
    buckets = T5Attention._relative_position_bucket(
        relative, bidirectional=True, num_buckets=p.num_buckets, max_distance=p.max_distance
    ).numpy()
    side = p.num_buckets // 2
    t5 = 1 - np.where(k > 0, buckets - side, 0) / (side - 1)
    shaw = 1 - np.minimum(k, p.max_relative_position) / p.max_relative_position
    return {
        "sinusoidal": sinusoidal,
        "rope_ones": rope_ones,
        "alibi": np.exp(-slopes[:, None] * k),
        "t5": t5,
        "shaw": shaw,
    }


@pytest.mark.parametrize(
    "params",
    [
        CompareParams(200, 64, 32, 10000.0),
        CompareParams(300, 128, 128, 500000.0, 7, 16, 64, 12),
        CompareParams(100, 2, 2, 10.0, 1, 4, 9, 1),
    ],
)
def test_curves_match_their_closed_forms(params):
    frame = compute_compare(params, CPU)  # seq_len < 1024 pixels: one distance per pixel
    expected = brute_force(params)
    np.testing.assert_array_equal(frame.distances, np.arange(params.seq_len))
    for name, values in expected.items():
        np.testing.assert_allclose(getattr(frame, name), values, rtol=0, atol=1e-12, err_msg=name)
    # RoPE with q = 1 is the sinusoidal similarity of head_dim: the same curve when they agree
    if params.d_model == params.head_dim:
        np.testing.assert_allclose(frame.rope_ones, frame.sinusoidal, atol=1e-12)


def test_every_curve_is_one_at_distance_zero_and_the_band_is_a_similarity():
    frame = compute_compare(CompareParams(64, 96, 64, 10000.0, seed=3), CPU)
    for curve in (frame.sinusoidal, frame.rope_ones, frame.rope_mean, frame.t5, frame.shaw):
        assert curve[0] == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(frame.alibi[:, 0], 1.0)
    assert frame.rope_std[0] == pytest.approx(0.0, abs=1e-12)
    assert np.all(np.abs(frame.rope_mean) <= 1 + 1e-12)  # Cauchy–Schwarz
    assert np.all(frame.rope_std[1:] > 0)


def test_pixel_means_are_exact_at_a_million_positions():
    seq_len = 1 << 20
    window = Window(1000, 5000, 64)  # 62.5 distances per pixel
    p = CompareParams(seq_len, 32, 16, 10000.0, x=window)
    frame = compute_compare(p, CPU)
    full = brute_force(CompareParams(5000, 32, 16, 10000.0))
    starts, counts = window.bins()
    for name in ("sinusoidal", "rope_ones", "t5", "shaw"):
        means = [full[name][s : s + c].mean() for s, c in zip(starts, counts, strict=True)]
        np.testing.assert_allclose(getattr(frame, name), means, atol=1e-12, err_msg=name)
    means = np.stack(
        [full["alibi"][:, s : s + c].mean(-1) for s, c in zip(starts, counts, strict=True)], -1
    )
    np.testing.assert_allclose(frame.alibi, means, rtol=1e-12, atol=1e-300)


@pytest.mark.parametrize("rate", [0.0, 1e-9, 2**-8, 0.5, 8.0])
def test_mean_decay_is_the_mean_of_the_exponentials(rate):
    starts, counts = torch.tensor([0, 3, 10, 500]), torch.tensor([1, 7, 490, 1])
    ours = binning.mean_decay(starts, counts, torch.tensor([rate]))[:, 0]
    for start, count, value in zip(starts.tolist(), counts.tolist(), ours.tolist(), strict=True):
        exact = sum(math.exp(-rate * p) for p in range(start, start + count)) / count
        assert value == pytest.approx(exact, rel=1e-12, abs=1e-300)


def test_the_tab_draws_the_frame_and_the_comparison_table(window, drive):
    tab = window.tab("compare")
    drive(window, lambda: window.tabs.setCurrentWidget(tab), "compare")
    drive(window, lambda: tab.n_heads.setValue(4), "compare")
    frame = tab.frame
    drawn = {item.name(): item.getOriginalDataset() for item in tab.similarity_view.items}
    x, y = drawn["sinusoidal, d_model 128"]
    np.testing.assert_array_equal(x, frame.distances)
    np.testing.assert_array_equal(y, frame.sinusoidal)
    np.testing.assert_array_equal(drawn["T5, 32 buckets"][1], frame.t5)
    np.testing.assert_array_equal(drawn["Shaw, K = 16"][1], frame.shaw)
    alibi = [
        item
        for item in tab.similarity_view.items
        if item.opts["pen"].color().name()
        == tab.similarity_view.items[-1].opts["pen"].color().name()
    ]
    assert len(alibi) == 4  # one curve per head
    table = tab.table
    assert (table.rowCount(), table.columnCount()) == (5, 5)
    criteria = [table.verticalHeaderItem(r).text() for r in range(5)]
    assert criteria == [
        "Principle",
        "Length generalisation",
        "Compute cost",
        "Typical use",
        "Implementation difficulty",
    ]
    assert [table.horizontalHeaderItem(c).text() for c in range(5)] == [
        "Sinusoidal",
        "Shaw",
        "T5 bias",
        "ALiBi",
        "RoPE",
    ]
    assert all(table.item(r, c).text() for r in range(5) for c in range(5))


def test_the_log_axis_leaves_distance_zero_out(window, drive):
    tab = window.tab("compare")
    drive(window, lambda: window.tabs.setCurrentWidget(tab), "compare")
    drive(window, lambda: tab.log_distance.setChecked(True), "compare")
    x, _ = tab.similarity_view.items[0].getOriginalDataset()
    assert x.min() >= 1 and tab.similarity_view.plot.getAxis("bottom").logMode


def test_log_windows_cover_every_distance_once_and_start_exact():
    starts, counts = binning.log_bins(1, 1 << 20, 512)
    ends = starts + counts
    assert starts[0] == 1 and ends[-1] == 1 << 20
    assert torch.equal(starts[1:], ends[:-1]) and bool((counts >= 1).all())
    assert len(starts) <= 512
    assert counts[:5].tolist() == [1, 1, 1, 1, 1]  # finer than one position near the start
    assert counts[-1] > 1000  # a decade's worth of positions per pixel at the end


def test_pixel_means_are_exact_on_a_log_axis():
    window = Window(1, 5000, 64, log=True)
    frame = compute_compare(CompareParams(1 << 20, 32, 16, 10000.0, x=window), CPU)
    full = brute_force(CompareParams(5000, 32, 16, 10000.0))
    starts, counts = window.bins()
    for name in ("sinusoidal", "rope_ones", "t5", "shaw"):
        means = [full[name][s : s + c].mean() for s, c in zip(starts, counts, strict=True)]
        np.testing.assert_allclose(getattr(frame, name), means, atol=1e-12, err_msg=name)


def test_the_log_axis_starts_at_distance_one_at_any_length(window, drive):
    tab = window.tab("compare")
    drive(window, lambda: window.tabs.setCurrentWidget(tab), "compare")
    drive(window, lambda: tab.log_distance.setChecked(True), "compare")
    drive(window, lambda: window.parameters.seq_len.setValue(1 << 16), "compare")
    x, _ = tab.similarity_view.items[0].getOriginalDataset()
    assert x[0] == 1 and x[1] == 2  # log-spaced pixels: single distances first
    fill = tab.similarity_view.bands[0][1]
    band_x, _ = fill.curves[0].getData()
    np.testing.assert_allclose(band_x, np.log10(tab.frame.distances))  # the band follows log x
