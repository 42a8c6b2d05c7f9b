"""The benchmark runs the real window and prints a complete report (no timing is asserted)."""

import json
import os
import subprocess
import sys

import pytest

from posenc_gui import tabs_ahead

KEYS = {
    "tab",
    "view",
    "seq_len",
    "d_model",
    "head_dim",
    "views",
    "p50_ms",
    "p95_ms",
    "exact_p50_ms",
    "exact_p95_ms",
    "coarse_share",
    "compute_ms",
    "draw_ms",
    "paint_ms",
    "stall_ms",
    "floor_p50_ms",
    "floor_p95_ms",
    "look_floor_p50_ms",
    "look_floor_p95_ms",
}


@pytest.mark.slow
def test_quick_benchmark_reports_every_tab_and_page_as_json():
    env = os.environ | {"QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-m", "posenc_gui.bench", "--quick", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert {"device", "results", "peak_rss_mb", "first_frame_s"} <= set(report)
    assert report["device"] == "cpu" or report["device"] in ("cuda", "mps")
    views = {(r["tab"], r["view"]) for r in report["results"]}
    assert ("absolute", "all") in views and ("rope", "precision") in views
    assert ("relative", "alibi") in views and ("extension", "dynamic") in views
    for row in report["results"]:
        assert set(row) == KEYS
        assert row["p95_ms"] >= row["p50_ms"] > 0
        # 0 where each step's frame was the one on screen already (a control of another
        # channel, say): nothing computed; every Absolute step computes
        assert row["compute_ms"] > 0 if row["tab"] == "absolute" else row["compute_ms"] >= 0
        # the latency runs until the views have painted: it holds the paint (the split is the
        # exact frame's, which is the first one unless a coarse frame came first); 0 where no
        # step changed what a view shows (handed what it drew, a view paints nothing), while
        # every Absolute step changes its views
        assert row["paint_ms"] > 0 if row["tab"] == "absolute" else row["paint_ms"] >= 0
        assert row["draw_ms"] >= 0
        assert row["exact_p50_ms"] >= row["paint_ms"]
        # the exact frame comes with or after the first one; the floor paints the same views
        assert row["exact_p50_ms"] >= row["p50_ms"] and 0 <= row["coarse_share"] <= 1
        assert row["floor_p95_ms"] >= row["floor_p50_ms"] > 0 and row["views"] >= 1
        assert row["look_floor_p95_ms"] >= row["look_floor_p50_ms"] > 0
    # a tab that hands a page behind to draw when shown can draw in under 0.05 ms; Absolute cannot
    assert next(r for r in report["results"] if r["tab"] == "absolute")["draw_ms"] > 0
    # the seed's numpy + matplotlib redraw of the Absolute tab's panels (a test dependency)
    assert report["seed"]["p95_ms"] >= report["seed"]["p50_ms"] > 0
    assert report["peak_rss_mb"] > 0 and report["first_frame_s"] > 0
    # every tab built and every page drawn ahead, in quiet time, before the steps
    assert report["ahead_s"] * 1000 >= tabs_ahead.QUIET_MS
    # the app's peak is taken before the seed-style baseline runs: the whole run's holds it
    assert report["run_peak_rss_mb"] >= report["peak_rss_mb"]
    assert report["close_ms"] > 0  # close() while the largest Absolute frame is computed
    assert set(report["command_line_s"]) == {"--help", "--seq-len 0"}
    assert all(seconds > 0 for seconds in report["command_line_s"].values())


@pytest.mark.slow
def test_bad_steps_are_refused():
    result = subprocess.run(
        [sys.executable, "-m", "posenc_gui.bench", "--steps", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert "--steps must be at least 2, got 1" in result.stderr


@pytest.mark.slow
def test_repeated_runs_print_the_median_table_in_markdown():
    env = os.environ | {"QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [
            *(sys.executable, "-m", "posenc_gui.bench", "--quick", "--tab", "absolute"),
            *("--repeat", "2", "--markdown"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("| tab · page | 512 · 512 · 128 |")
    assert len(lines) == 5 and lines[2].startswith("| absolute · all | ")
    assert lines[3] == "" and lines[4].startswith("First frame ") and "peak memory" in lines[4]


def test_the_floor_with_the_page_look_has_its_furniture_the_bare_one_none(qtbot):
    import pyqtgraph as pg

    from posenc_gui.bench.baselines import LOOK_LINE_PX, LOOK_TITLE, Contents, floor_page
    from posenc_gui.views.axes import GRID_ALPHA

    views = [Contents(images=((8, 16),), colorbars=1, curves=()), Contents((), 0, (50, 60))]
    built = {}
    for look in (False, True):
        page, images, curves = floor_page(views, (800, 600), look=look)
        qtbot.addWidget(page)
        plots = [page.getItem(0, 0), page.getItem(0, 1)]
        assert len(images) == 1 and [len(x) for _, x, _ in curves] == [50, 60]
        built[look] = plots, [item for item, _, _ in curves]
    (bare_plots, bare_curves), (plots, curves) = built[False], built[True]
    assert all(plot.titleLabel.text == LOOK_TITLE for plot in plots)
    assert all(plot.getAxis("bottom").labelText == "position" for plot in plots)
    assert all(
        plot.getAxis(side).grid == int(255 * GRID_ALPHA)  # as pyqtgraph keeps it
        for plot in plots
        for side in ("left", "bottom")
    )
    legend = plots[1].legend  # the view of curves names each of them; the image's has none
    assert plots[0].legend is None and [label.text for _, label in legend.items] == [
        "curve 1",
        "curve 2",
    ]
    assert all(item.opts["pen"].width() == LOOK_LINE_PX for item in curves)
    assert not any(plot.titleLabel.text or plot.legend for plot in bare_plots)
    assert not any(plot.getAxis(side).grid for plot in bare_plots for side in ("left", "bottom"))
    assert all(pg.mkPen(item.opts["pen"]).width() == 1 for item in bare_curves)


def test_the_machine_line_says_when_python_writes_no_bytecode(monkeypatch):
    from posenc_gui.bench.machine import machine

    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert machine("cpu").endswith(", no bytecode written")  # each launch compiles: slower
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert "bytecode" not in machine("cpu") and f"{os.cpu_count()} CPUs" in machine("cpu")


def test_a_change_the_tab_refuses_is_undone_and_not_timed(window, drive):
    from PySide6.QtWidgets import QApplication

    from posenc_gui.bench.driver import Bench

    tab = window.tab("extension")
    drive(window, lambda: window.tabs.setCurrentWidget(tab), "extension")
    bench = Bench(window, QApplication.instance())
    method = tab.method
    before = method.currentIndex()

    def pick_longrope():  # no short_factor / long_factor lists loaded: refused
        method.setCurrentIndex(method.findData("longrope"))
        return lambda: method.setCurrentIndex(before)

    said: list[str] = []
    tab.refused.connect(said.append)
    timings = bench.measure("extension", [("method", pick_longrope)])
    assert timings.first == [] and timings.splits == []
    assert method.currentIndex() == before and "longrope needs" in said[0]


def test_each_visit_of_a_slider_moves_it_to_a_value_it_has_not_had(window):
    from posenc_gui.bench.steps import controls_of, scripted_steps

    count = len(controls_of(window, "absolute"))
    steps = scripted_steps(window, "absolute", 6 * count, 0)
    thetas = [window.parameters.theta.value()]
    for name, change in steps:
        change()
        if name == "theta":
            thetas.append(window.parameters.theta.value())
    # a drag's frames are new ones; two values in turn would time the views' caches instead
    assert len(thetas) == 7 and len(set(thetas)) == 7
    low, high = window.parameters.theta.box.minimum(), window.parameters.theta.box.maximum()
    assert all(low < theta < high for theta in thetas[1:])  # inside the range, not its ends


def test_a_step_that_brings_another_page_is_undone_once_that_page_has_painted(window, qtbot):
    """A scheme brings its own page to the front: it paints as a user sees it, and the step is
    then undone (untimed) in other turns of the event loop, not in the same one."""
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication, QGraphicsView

    from posenc_gui.bench.driver import Bench
    from posenc_gui.bench.steps import _change

    tab = window.tab("relative")
    window.tabs.setCurrentWidget(tab)
    tab.show_page("distances")
    bench = Bench(window, QApplication.instance())
    bench.settle(0.3)
    painted: list[str] = []

    class Paints(QObject):
        def eventFilter(self, watched, event) -> bool:
            if event.type() == QEvent.Type.Paint:
                painted.append(tab.current_page())
            return False

    paints = Paints()
    for view in tab.view_names().values():
        QGraphicsView.viewport(view).installEventFilter(paints)
    t5 = tab.scheme.findData("t5")
    tab.scheme.setCurrentIndex(t5 - 1)  # Shaw's, on this page: the next is T5's, on its own
    bench.settle(0.3)
    painted.clear()
    timings = bench.measure("relative", [("scheme", _change(tab.scheme, 0))])
    assert tab.current_page() == "distances" and tab.scheme.currentIndex() == t5 - 1
    assert timings.first == []  # untimed
    assert "t5" in painted  # T5's page was on screen before the step was undone
