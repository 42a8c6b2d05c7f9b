"""The benchmark's targets, as the performance issue states them, read from its rows."""

import pytest

from posenc_gui.bench.__main__ import main
from posenc_gui.bench.report import misses, seed_ratio, table


def row(**changes):
    base = {
        "tab": "absolute",
        "view": "all",
        "seq_len": 512,
        "d_model": 512,
        "head_dim": 128,
        "views": 4,
        "p50_ms": 10.0,
        "p95_ms": 20.0,
        "exact_p50_ms": 10.0,
        "exact_p95_ms": 20.0,
        "coarse_share": 0.0,
        "compute_ms": 3.0,
        "draw_ms": 2.0,
        "paint_ms": 4.0,
        "stall_ms": 12.0,
        "floor_p50_ms": 8.0,
        "floor_p95_ms": 9.0,
        "look_floor_p50_ms": 30.0,
        "look_floor_p95_ms": 35.0,
    }
    return base | changes


def test_a_row_within_every_target_misses_none():
    assert misses(row()) == []


@pytest.mark.parametrize(
    ("changes", "missed"),
    [
        ({"p50_ms": 12.1}, "floor ×1.5"),  # more than 1.5 × its bare-pyqtgraph floor
        ({"p95_ms": 25.5}, "p95 > 25"),  # four views at 512: 25 ms
        ({"views": 2, "p95_ms": 16.5}, "p95 > 16"),  # one or two views at 512: 16 ms
        ({"seq_len": 131_072, "p95_ms": 51.0}, "p95 > 50"),
        ({"seq_len": 1 << 20, "p95_ms": 101.0, "exact_p95_ms": 900.0}, "first p95 > 100"),
        ({"seq_len": 1 << 20, "p95_ms": 90.0, "exact_p95_ms": 1001.0}, "exact p95 > 1000"),
        ({"stall_ms": 31.0}, "stall > 30"),
    ],
)
def test_each_target_is_named_when_missed(changes, missed):
    assert missed in misses(row(**changes))


def test_the_table_names_the_targets_and_the_seed_ratio():
    report = {
        "device": "cpu",
        "machine": "x86_64, 2 CPUs",
        "first_frame_s": 2.5,
        "ahead_s": 9.5,
        "peak_rss_mb": 900.0,
        "run_peak_rss_mb": 1040.0,
        "close_ms": 120.0,
        "command_line_s": {"--help": 0.05},
        "seed": {"p50_ms": 250.0, "p95_ms": 300.0},
        "results": [row(), row(tab="relative", view="t5", views=2, p95_ms=30.0)],
    }
    assert seed_ratio(report) == 25.0  # 250 ms against the Absolute tab's 10 ms
    text = table(report)
    assert "first frame 2.5 s after launch (misses ≤ 2 s)" in text
    assert "then every tab built and every page drawn ahead 9.5 s later" in text
    # the app's peak is judged; the seed-style baseline's matplotlib comes on top, named
    assert (
        "peak memory 900.0 MB (meets ≤ 1024 MB; 1040.0 MB with the seed-style baseline's "
        "matplotlib)" in text
    )
    assert "close() mid-computation 120.0 ms (meets ≤ 200 ms)" in text
    assert "25.0× faster (meets ≥ 20×)" in text
    lines = text.splitlines()
    # each page's floors: bare, and with the page's look (30 ms) the plain pyqtgraph way
    assert " floor50  look50 " in lines[-3] and "     8.0    30.0 " in lines[-2]
    assert lines[-2].endswith("met") and lines[-1].endswith("missed: p95 > 16")


def test_a_size_that_is_not_three_numbers_is_refused(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--sizes", "512,512"])
    assert exit_.value.code == 2
    assert "a size is seq_len,d_model,head_dim (three whole numbers), got '512,512'" in (
        capsys.readouterr().err
    )


def test_several_runs_report_the_median_of_each_figure():
    from posenc_gui.bench.report import markdown, median_report

    def report(p50: float, rss: float, seed: float) -> dict:
        return {
            "device": "cpu",
            "machine": "x86_64, 2 CPUs",
            "first_frame_s": rss / 1000,
            "ahead_s": rss / 100,
            "peak_rss_mb": rss,
            "run_peak_rss_mb": rss + 100,
            "close_ms": 20.0,
            "command_line_s": {"--help": 0.05},
            "seed": {"p50_ms": seed, "p95_ms": seed},
            "results": [
                row(p50_ms=p50),
                row(seq_len=1 << 20, coarse_share=1.0, p50_ms=80.0, exact_p50_ms=400.0),
            ],
        }

    merged = median_report(
        [report(10.0, 900.0, 200.0), report(30.0, 700.0, 250.0), report(20.0, 800.0, 300.0)]
    )
    assert merged["runs"] == 3 and merged["peak_rss_mb"] == 800.0
    assert merged["run_peak_rss_mb"] == 900.0
    assert merged["results"][0]["p50_ms"] == 20.0 and merged["seed"]["p50_ms"] == 250.0
    text = markdown(merged)
    lines = text.splitlines()
    assert lines[0].startswith("| tab · page | 512 · 512 · 128 | 1,048,576 · 512 · 128 |")
    assert lines[2] == (
        "| absolute · all | 20 / 20 | 80 / 20 → exact 400 / 20 | 3 / 2 / 4 | 8 · 30 | 12 | "
        "floor |"  # split and floors (bare · with the page's look) at 512
    )
    assert lines[-1] == (
        "First frame 0.8 s after launch, every tab built and every page drawn ahead 8.0 s "
        "later (quiet time, before the steps), peak memory 800 MB (900 MB with the seed-style "
        "baseline's matplotlib), `close()` mid-computation 20.0 ms; the seed-style redraw "
        "250 / 250 ms, 12.5× the Absolute tab's p50."
    )


def test_a_run_on_a_gpu_reports_its_memory_there():
    from posenc_gui.bench.report import markdown, median_report

    def report(gpu_mb: float) -> dict:
        return {
            "device": "cuda",
            "machine": "x86_64, 16 CPUs, Python 3.12.3, NVIDIA H200",
            "first_frame_s": 2.0,
            "ahead_s": 10.0,
            "peak_rss_mb": 900.0,
            "peak_gpu_mb": gpu_mb,
            "close_ms": 20.0,
            "command_line_s": {"--help": 0.05},
            "seed": None,
            "results": [row()],
        }

    merged = median_report([report(300.0), report(100.0), report(200.0)])
    assert "peak memory 900.0 MB (meets ≤ 1024 MB), GPU tensors 200 MB at most" in table(merged)
    assert markdown(merged).splitlines()[-1] == (
        "First frame 2.0 s after launch, every tab built and every page drawn ahead 10.0 s "
        "later (quiet time, before the steps), peak memory 900 MB, GPU tensors 200 MB at most, "
        "`close()` mid-computation 20.0 ms."
    )
