"""Sums of waves on a grid of half-integers (angle addition) against the sums written out."""

from __future__ import annotations

import pytest
import torch

from posenc_gui.encodings import binning, run_sums, sinusoidal
from posenc_gui.encodings.window import Window

OMEGA = sinusoidal.frequencies(48, 1e4)


def _weights(*shape: int) -> torch.Tensor:
    generator = torch.Generator().manual_seed(sum(shape))
    return torch.randn(*shape, len(OMEGA), generator=generator, dtype=torch.float64)


@pytest.mark.parametrize("size", [1, 2, 3, 7, 64, 65, 1000])
@pytest.mark.parametrize("first", [-1023, 0, 5, 2**21 + 1])
def test_wave_sums_equal_the_sums_at_each_half_integer(size, first):
    c, s = _weights(2, 3), _weights(3)
    x = (first + torch.arange(size, dtype=torch.float64)) / 2
    phase = x[:, None] * OMEGA  # [size, F]
    direct = c @ torch.cos(phase).T + s @ torch.sin(phase).T  # [2, 3, size]
    grid = run_sums.wave_sums(first, size, OMEGA, c, s)
    assert grid.shape == (2, 3, size) and grid.dtype == torch.float64
    # either way the phase x·ω is rounded once: a few float64 roundings of the largest phase
    scale = float(c.abs().sum(-1).max() + s.abs().sum())
    tolerance = 8 * 2**-53 * float(phase.abs().max() + 1) * scale
    torch.testing.assert_close(grid, direct, rtol=0, atol=tolerance)
    cos_only = run_sums.wave_sums(first, size, OMEGA, c)
    torch.testing.assert_close(cos_only, c @ torch.cos(phase).T, rtol=0, atol=tolerance)


def _written_out(starts, counts, weights, wave) -> torch.Tensor:
    """Each run's mean of ``weights @ wave(p ω)`` over its positions, one by one."""
    runs = zip(starts.tolist(), counts.tolist(), strict=True)
    positions = (torch.arange(a, a + n, dtype=torch.float64)[:, None] for a, n in runs)
    return torch.stack([(weights @ wave(p * OMEGA).T).mean(-1) for p in positions], dim=-1)


@pytest.mark.parametrize(
    "window",
    [
        Window(0, 64, 64, log=False),  # a position a run
        Window(-63, 64, 50, log=False),  # runs of 2 and 3 positions, negative ones too
        Window(10_000, 10_100, 40, log=False),  # far from 0: runs of 2 and 3
    ],
)
def test_weighted_means_on_the_grid_equal_each_positions_sum(window):
    starts, counts = binning.runs(window)
    assert run_sums._doubled_centres(starts, counts) is not None  # the grid's path
    c, s = _weights(2, 3), _weights(2, 3)
    expected = _written_out(starts, counts, c, torch.cos) + _written_out(
        starts, counts, s, torch.sin
    )
    both = run_sums.weighted_mean_cos_sin(starts, counts, OMEGA, c, s)
    torch.testing.assert_close(both, expected, rtol=0, atol=1e-11)
    # float starts that are whole numbers (closed_form_similarity's offsets) take it too
    as_float = run_sums.weighted_mean_cos_sin(starts.double(), counts, OMEGA, c[0, 0])
    torch.testing.assert_close(
        as_float, _written_out(starts, counts, c[0, 0], torch.cos), rtol=0, atol=1e-11
    )


@pytest.mark.parametrize(
    "window",
    [
        Window(1, 3000, 40, log=True),  # runs of many lengths: each its own ratio
        Window(0, 3000, 37, log=False),  # runs of two lengths, too long for the grid
    ],
)
def test_runs_off_the_grid_summed_a_chunk_at_a_time_equal_each_positions_sum(window, monkeypatch):
    starts, counts = binning.runs(window)
    assert run_sums._doubled_centres(starts, counts) is None  # the direct path
    c, s = _weights(2, 3), _weights(2, 3)
    expected = _written_out(starts, counts, c, torch.cos) + _written_out(
        starts, counts, s, torch.sin
    )
    whole = run_sums.weighted_mean_cos_sin(starts, counts, OMEGA, c, s)
    # 5 runs × 24 frequencies a chunk: no phase (nor wave) of more runs × frequencies than
    # that is formed
    phases, formed = [], run_sums.mean_phases

    def kept_phases(*runs):
        phases.append(formed(*runs))
        return phases[-1]

    monkeypatch.setattr(run_sums, "DIRECT_MAX_CELLS", 5 * len(OMEGA))
    monkeypatch.setattr(run_sums, "mean_phases", kept_phases)
    chunked = run_sums.weighted_mean_cos_sin(starts, counts, OMEGA, c, s)
    assert len(phases) == -(-len(starts) // 5) and max(p.numel() for p in phases) == 5 * 24
    for sums in (whole, chunked):
        torch.testing.assert_close(sums, expected, rtol=0, atol=1e-11)


def test_half_integer_offsets_are_summed_directly():
    offsets = torch.arange(64, dtype=torch.float64) / 2 + 0.25  # not on a grid of half-integers
    assert run_sums._doubled_centres(offsets, torch.ones_like(offsets)) is None
    sums = sinusoidal.closed_form_similarity(offsets, 48)
    expected = torch.cos(offsets[:, None] * OMEGA).sum(1)
    torch.testing.assert_close(sums, expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    ("rows", "columns"),
    [
        (Window(0, 100, 40, log=False), Window(50, 120, 35, log=False)),  # 2 and 3, 2 and 3
        (Window(0, 64, 64, log=False), Window(-40, 60, 33, log=False)),  # 1, and 3 and 4
        (Window(0, 100, 50, log=False), Window(20, 120, 50, log=False)),  # 2, 2: Toeplitz
        (Window(0, 64, 64, log=False), Window(0, 64, 64, log=False)),  # 1, 1: Toeplitz
    ],
)
def test_mean_cos_of_differences_equals_the_block_means(rows, columns):
    (p0, pn), (q0, qn) = binning.runs(rows), binning.runs(columns)
    blocks = torch.tensor(
        [
            [
                torch.cos(
                    (torch.arange(b, b + m)[None, :, None] - torch.arange(a, a + n)[:, None, None])
                    * OMEGA
                )
                .sum(-1)
                .mean()
                .item()
                for b, m in zip(q0.tolist(), qn.tolist(), strict=True)
            ]
            for a, n in zip(p0.tolist(), pn.tolist(), strict=True)
        ],
        dtype=torch.float64,
    )
    exact = run_sums.mean_cos_of_differences((p0, pn), (q0, qn), OMEGA)
    assert exact is not None
    torch.testing.assert_close(exact, blocks, rtol=0, atol=1e-12)
    fast = run_sums.mean_cos_of_differences((p0, pn), (q0, qn), OMEGA, dtype=torch.float32)
    assert fast is not None and fast.dtype == torch.float32
    torch.testing.assert_close(fast.double(), exact, rtol=2**-24, atol=1e-30)


@pytest.mark.parametrize(
    "window",
    [Window(1, 5000, 40, log=True), Window(0, 5000, 40, log=False), Window(0, 20, 20, log=False)],
)
def test_runs_off_the_grid_are_left_to_the_direct_sums(window):
    # log-spaced runs, runs of over a hundred positions, and fewer runs than GRID_MIN_RUNS
    runs = binning.runs(window)
    assert run_sums.mean_cos_of_differences(runs, runs, OMEGA) is None


def test_kept_runs_and_frequencies_are_each_callers_own():
    # both are kept between calls: a caller changing its copy must not change the next one's
    window = Window(0, 100, 40, log=False)
    starts, counts = binning.runs(window)
    omega = sinusoidal.frequencies(48, 1e4)
    starts += 7
    counts.zero_()
    omega.mul_(0)
    again, counts_again = binning.runs(window)
    assert int(again[0]) == 0 and int(counts_again.sum()) == 100
    torch.testing.assert_close(sinusoidal.frequencies(48, 1e4), OMEGA, rtol=0, atol=0)
