"""Benchmark: drive the real main window offscreen and time every tab and page.

``python -m posenc_gui.bench [--json] [--quick] [--profile] [--device cpu]`` changes every
control of each tab in scripted steps at three sizes and reports, per tab and page: latency from
control change to the views painted (p50, p95), compute time (``--profile``: with the GUI
thread's draw and paint), the longest event-loop stall, plus peak memory, the time from launch
to the first drawn frame, how fast the command line answers ``--help`` and refuses a bad
argument, and the floor: the same four views in bare pyqtgraph, updated and painted in the same
process. It prints figures; it asserts nothing.
"""

from __future__ import annotations

import time

LAUNCHED = time.perf_counter()  # before the heavy imports: "launch" includes them

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from dataclasses import asdict, dataclass  # noqa: E402

SIZES = ((512, 512, 128), (131_072, 4096, 128), (1 << 20, 16384, 1024))
FRAME_TIMEOUT_S = 60.0


@dataclass
class Result:
    tab: str
    view: str
    seq_len: int
    d_model: int
    head_dim: int
    p50_ms: float
    p95_ms: float
    compute_ms: float
    draw_ms: float  # the GUI thread handing the frame to the views
    paint_ms: float  # the views painting it
    stall_ms: float


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Bench:
    """Times frames of a shown MainWindow; everything runs on the GUI thread's event loop."""

    def __init__(self, window, app) -> None:
        from PySide6.QtCore import QTimer

        self.window, self.app = window, app
        self.drawn: list[tuple[str, int, float, float]] = []  # channel, id, compute ms, time
        window.engine.frame_drawn.connect(
            lambda channel, request_id, ms: self.drawn.append(
                (channel, request_id, ms, time.perf_counter())
            )
        )
        self.last_tick = time.perf_counter()
        self.stall = 0.0
        self.ticker = QTimer(interval=2)
        self.ticker.timeout.connect(self._tick)
        self.ticker.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.stall = max(self.stall, now - self.last_tick)
        self.last_tick = now

    def wait_frame(self, channel: str, since: int) -> tuple[float, float] | None:
        """Process events until ``channel``'s current request is drawn after entry ``since``."""
        deadline = time.perf_counter() + FRAME_TIMEOUT_S
        while time.perf_counter() < deadline:
            self.app.processEvents()
            for ch, request_id, ms, at in self.drawn[since:]:
                ours = ch == channel or ch.startswith(channel + ".")  # e.g. rope.rotation
                if ours and self.window.engine.is_current(ch, request_id):
                    return ms, at
            time.sleep(0.0005)
        return None

    def settle(self, seconds: float) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            self.app.processEvents()
            time.sleep(0.001)

    def paint(self, tab) -> float:
        """Paint the tab's visible views now (what the next event-loop pass would); ms."""
        from PySide6.QtWidgets import QGraphicsView

        start = time.perf_counter()
        for view in tab.view_names().values():
            if view.isVisible() and isinstance(view, QGraphicsView):
                QGraphicsView.viewport(view).repaint()
        return (time.perf_counter() - start) * 1e3

    def measure(
        self, channel: str, actions: Sequence[tuple[str, Step]]
    ) -> tuple[list[float], list[list[float]], float]:
        """Latencies (control change → painted), the (compute, draw, paint) ms of one frame per
        action, and the longest stall."""
        latencies: list[float] = []
        splits: list[list[float]] = [[], [], []]
        self.settle(0.05)
        self.stall, self.last_tick = 0.0, time.perf_counter()
        tab = self.window.tab(channel)
        draws: list[float] = []
        draw = tab.draw

        def timed_draw(frame) -> None:  # the engine calls the instance's draw
            start = time.perf_counter()
            draw(frame)
            draws.append((time.perf_counter() - start) * 1e3)

        tab.draw = timed_draw
        try:
            for name, action in actions:
                self._step(tab, name, action, latencies, splits, draws)
        finally:
            del tab.draw  # the class's again
        return latencies, splits, self.stall * 1e3

    def _step(
        self,
        tab,
        name: str,
        action: Step,
        latencies: list[float],
        splits: list[list[float]],
        draws: list[float],
    ) -> None:
        since = len(self.drawn)
        start = time.perf_counter()
        back = action()
        if isinstance(back, bool):  # nothing could change
            return
        try:
            tab.request()
        except ValueError:  # settings the tab refuses (it says why) draw no frame to time:
            back()  # undone, so that the next steps start from settings that fit
            return
        frame = self.wait_frame(tab.name, since)
        if frame is None:
            raise RuntimeError(
                f"{tab.name}: no frame within {FRAME_TIMEOUT_S:.0f} s after changing {name}"
            )
        painted = self.paint(tab)
        latencies.append((frame[1] - start) * 1e3 + painted)
        for split, value in zip(
            splits, (frame[0], draws[-1] if draws else 0.0, painted), strict=True
        ):
            split.append(value)


# A scripted change: returns False when nothing could change, else a way back.
Undo = Callable[[], object]
Step = Callable[[], "Undo | bool"]

# The sizes under test and the toggles that change them or start animations stay untouched.
UNTOUCHED = {"seq_len", "d_model", "head_dim", "label_tokens", "play", "sweep"}


def controls_of(window, tab_name: str) -> list:
    """Every control a user can move on a tab, plus the shared base θ."""
    from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QSpinBox

    from posenc_gui.controls import IntControl, LogControl

    tab = window.tab(tab_name)
    found = [
        widget
        for kind in (IntControl, LogControl, QComboBox, QCheckBox, QSpinBox, QDoubleSpinBox)
        for widget in tab.findChildren(kind)
        if widget.objectName()
        and widget.objectName() not in UNTOUCHED
        and not isinstance(widget.parent(), IntControl | LogControl)
    ]
    return [window.parameters.theta, *sorted(found, key=lambda w: w.objectName())]


def _change(control, k: int) -> Step:
    """An action that moves ``control`` to another valid value (alternating with ``k``); it
    returns False when nothing could change, else a way back."""
    from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QSpinBox

    if isinstance(control, QComboBox):

        def choose() -> Undo:
            index = control.currentIndex()
            control.setCurrentIndex((index + 1) % control.count())
            return lambda: control.setCurrentIndex(index)

        return choose
    if isinstance(control, QCheckBox):

        def toggle() -> Undo:
            control.toggle()
            return control.toggle

        return toggle
    box = control if isinstance(control, QSpinBox | QDoubleSpinBox) else control.box
    low, high = box.minimum(), box.maximum()
    # two values a quarter and a third of the way up the range (geometrically for log ranges)
    share = 0.25 if k % 2 else 1 / 3
    value = low * (high / low) ** share if low > 0 else low + (high - low) * share

    def move() -> Undo | bool:
        before = control.value()
        for target in (value, low, high):  # the first that really changes it (after rounding)
            control.setValue(target)
            if control.value() != before:
                return lambda: control.setValue(before)
        return False  # a one-value range (one ALiBi head, say): nothing to time

    return move


def _steps(window, tab_name: str, count: int, first: int) -> list[tuple[str, Step]]:
    """``count`` scripted (control name, change) steps walking through the tab's controls.

    ``first`` numbers the steps across the whole run, so consecutive steps differ.
    """
    controls = controls_of(window, tab_name)
    return [
        (controls[k % len(controls)].objectName(), _change(controls[k % len(controls)], k))
        for k in range(first, first + count)
    ]


def run(sizes: Sequence[tuple[int, int, int]], steps: int, device: str | None) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from posenc_gui.app import application
    from posenc_gui.window import MainWindow

    app = application()
    window = MainWindow(device=device)
    window.resize(1500, 950)
    window.show()
    bench = Bench(window, app)
    first = bench.wait_frame("absolute", 0)
    first_frame_s = time.perf_counter() - LAUNCHED if first else float("nan")

    results, step = [], 0
    try:
        for seq_len, d_model, head_dim in sizes:
            for name, value in (("seq_len", seq_len), ("d_model", d_model), ("head_dim", head_dim)):
                getattr(window.parameters, name).setValue(value)
            for index in range(window.tabs.count()):
                tab = window.tab_at(index)
                window.tabs.setCurrentWidget(tab)
                for page in tab.page_names() or ["all"]:
                    if tab.pages is not None:
                        tab.show_page(page)
                    bench.settle(0.2)  # the page's views settle their sizes
                    since = len(bench.drawn)
                    tab.refresh()
                    bench.wait_frame(tab.name, since)
                    bench.settle(0.3)  # its first paint is not part of a control change
                    latencies, (computes, draws, paints), stall = bench.measure(
                        tab.name, _steps(window, tab.name, steps, step)
                    )
                    step += steps
                    if latencies:
                        results.append(
                            Result(
                                tab=tab.name,
                                view=page,
                                seq_len=seq_len,
                                d_model=d_model,
                                head_dim=head_dim,
                                p50_ms=round(_percentile(latencies, 0.5), 1),
                                p95_ms=round(_percentile(latencies, 0.95), 1),
                                compute_ms=round(statistics.median(computes), 1),
                                draw_ms=round(statistics.median(draws), 1),
                                paint_ms=round(statistics.median(paints), 1),
                                stall_ms=round(stall, 1),
                            )
                        )
        bare = floor(max(steps, 10))
    finally:
        window.close()  # stops the engine's thread, whatever happened
    return {
        "floor": bare,
        "device": window.engine.device,
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}",
        "results": [asdict(result) for result in results],
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "first_frame_s": round(first_frame_s, 2),
    }


def floor(steps: int, size: int = 512) -> dict[str, float]:
    """The floor: the Absolute tab's four views in bare pyqtgraph (an image with a colorbar,
    four curves, an image, one curve), new data set and painted per step; p50/p95 ms."""
    import numpy as np
    import pyqtgraph as pg
    from PySide6.QtWidgets import QGraphicsView

    page = pg.GraphicsLayoutWidget()
    page.resize(1100, 900)
    page.show()
    table, waves = page.addPlot(), page.addPlot()
    page.nextRow()
    similarity, offsets = page.addPlot(), page.addPlot()
    images = [pg.ImageItem(axisOrder="row-major") for _ in range(2)]
    for plot, image in zip((table, similarity), images, strict=True):
        plot.addItem(image)
        plot.addColorBar(image, colorMap=pg.colormap.get("CET-D1"), values=(-1, 1))
    curves = [waves.plot(pen=pg.mkPen(i, width=2)) for i in range(4)] + [offsets.plot(pen="w")]
    positions, times = np.arange(size), []
    for step in range(steps):
        start = time.perf_counter()
        omega = (1e4 + step) ** (-np.arange(0, size, 2) / size)
        angles = positions[:, None] * omega
        pe = np.concatenate((np.sin(angles), np.cos(angles)), axis=1)
        images[0].setImage(pe, autoLevels=False)
        images[1].setImage(pe @ pe.T, autoLevels=False)
        for i, curve in enumerate(curves[:4]):
            curve.setData(positions, pe[:, 4 * i])
        curves[4].setData(positions, pe @ pe[0])
        QGraphicsView.viewport(page).repaint()
        times.append((time.perf_counter() - start) * 1e3)
    page.close()
    return {
        "p50_ms": round(_percentile(times, 0.5), 1),
        "p95_ms": round(_percentile(times, 0.95), 1),
    }


# The command line answers before Qt and torch load: --help, and a refused argument.
COMMAND_LINES = (("--help",), ("--seq-len", "0"))


def command_line_times(repeats: int = 3) -> dict[str, float]:
    """Median wall time (s) of ``python -m posenc_gui ARGS`` in a fresh interpreter."""
    times = {}
    for args in COMMAND_LINES:
        runs = []
        for _ in range(repeats):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "posenc_gui", *args], capture_output=True)
            runs.append(time.perf_counter() - start)
        times[" ".join(args)] = round(statistics.median(runs), 3)
    return times


def _table(report: dict, *, profile: bool = False) -> str:
    floor_ = report["floor"]
    split = f" {'draw':>8} {'paint':>8}" if profile else ""
    lines = [
        f"device {report['device']} · {report['machine']}",
        f"first frame {report['first_frame_s']} s after launch · peak memory "
        f"{report['peak_rss_mb']} MB",
        "command line: "
        + ", ".join(f"posenc-gui {args} {s} s" for args, s in report["command_line_s"].items()),
        f"floor (bare pyqtgraph, the Absolute tab's four views at 512): p50 "
        f"{floor_['p50_ms']} ms, p95 {floor_['p95_ms']} ms",
        "latency: control change to the views painted",
        "",
        f"{'tab':<10} {'view':<12} {'seq_len':>9} {'d_model':>7} {'head':>5} "
        f"{'p50 ms':>8} {'p95 ms':>8} {'compute':>8}{split} {'stall ms':>8}",
    ]
    for r in report["results"]:
        times = f" {r['draw_ms']:>8} {r['paint_ms']:>8}" if profile else ""
        lines.append(
            f"{r['tab']:<10} {r['view']:<12} {r['seq_len']:>9} {r['d_model']:>7} "
            f"{r['head_dim']:>5} {r['p50_ms']:>8} {r['p95_ms']:>8} "
            f"{r['compute_ms']:>8}{times} {r['stall_ms']:>8}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m posenc_gui.bench", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print a JSON document")
    parser.add_argument(
        "--quick", action="store_true", help="the smallest size and two steps (a smoke run)"
    )
    parser.add_argument(
        "--steps",
        type=int,
        default=24,
        help="control changes per tab page (they walk through every control)",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="split each frame into worker compute, GUI-thread draw and paint (medians)",
    )
    parser.add_argument("--device", help="compute device (default: the best available)")
    args = parser.parse_args(argv)
    if args.steps < 2:
        parser.error(f"--steps must be at least 2, got {args.steps}")
    sizes = SIZES[:1] if args.quick else SIZES
    cli = command_line_times(1 if args.quick else 3)  # before this process loads Qt and torch
    report = run(sizes, 2 if args.quick else args.steps, args.device) | {"command_line_s": cli}
    print(json.dumps(report, indent=1) if args.json else _table(report, profile=args.profile))
    return 0


if __name__ == "__main__":
    sys.exit(main())
