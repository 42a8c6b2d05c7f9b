"""The benchmark's driver: a shown MainWindow, scripted control changes, painted frames."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from posenc_gui.bench import LAUNCHED
from posenc_gui.bench.baselines import contents, page_floor, percentile, seed_redraw
from posenc_gui.bench.machine import machine, peak_gpu_mb, peak_rss_mb
from posenc_gui.bench.steps import Step, scripted_steps
from posenc_gui.collector import without_collector

SIZES = ((512, 512, 128), (131_072, 4096, 128), (1 << 20, 16384, 1024))
FRAME_TIMEOUT_S = 60.0
AHEAD_TIMEOUT_S = 300.0  # for every tab built and every page drawn ahead
IDLE_S = 0.04  # the views have painted a frame once no paint came for this long
FIRST_PAINT_S = 0.2  # … or, before the step's first paint, this long


@dataclass
class Result:
    tab: str
    view: str
    seq_len: int
    d_model: int
    head_dim: int
    views: int  # views on the page
    p50_ms: float  # the first frame painted: the coarse one where the frame is heavy
    p95_ms: float
    exact_p50_ms: float  # the exact frame painted (the same frame where none was coarse)
    exact_p95_ms: float
    coarse_share: float  # of the changes, how many showed a coarse frame first
    compute_ms: float
    draw_ms: float  # the GUI thread handing the frame to the views
    paint_ms: float  # the views painting it
    stall_ms: float
    floor_p50_ms: float  # the same views in bare pyqtgraph
    floor_p95_ms: float
    look_floor_p50_ms: float  # … with the page's look, the plain pyqtgraph way
    look_floor_p95_ms: float


def _paint_watch():
    """An event filter on views' viewports that paints them itself, timing each paint (the
    view's own ``viewportEvent``, which a scroll area's viewport would otherwise call)."""
    from PySide6.QtCore import QEvent, QObject

    class PaintWatch(QObject):
        paints, paint_ms = 0, 0.0

        def eventFilter(self, watched, event) -> bool:
            if event.type() != QEvent.Type.Paint:
                return False
            start = time.perf_counter()
            watched.parent().viewportEvent(event)
            self.paint_ms += (time.perf_counter() - start) * 1e3
            self.paints += 1
            return True

    return PaintWatch()


class Bench:
    """Times frames of a shown MainWindow; everything runs on the GUI thread's event loop."""

    def __init__(self, window, app) -> None:
        from PySide6.QtCore import QEventLoop, QTimer

        from posenc_gui.tabs_ahead import AHEAD, TabsBuiltAhead

        self.window, self.app = window, app
        self.ahead_channel = AHEAD
        self.ahead: TabsBuiltAhead | None = None  # the window's work ahead, once asked for
        self.waiting = QEventLoop.ProcessEventsFlag.WaitForMoreEvents
        # per drawn frame: channel, compute ms, time, whether it is the channel's current
        # request and whether it is a coarse one (both as the frame was drawn)
        self.drawn: list[tuple[str, float, float, bool, bool]] = []
        window.engine.frame_drawn.connect(self._on_drawn)
        self.last_tick = time.perf_counter()
        self.stall = 0.0
        self.ticker = QTimer(interval=2)
        self.ticker.timeout.connect(self._tick)
        self.ticker.start()
        self.watch = _paint_watch()

    def _on_drawn(self, channel: str, request_id: int, ms: float) -> None:
        if channel == self.ahead_channel:
            return  # a page drawn ahead while the app is quiet: no step's frame
        tab = self.window.tab(channel.split(".")[0])  # e.g. rope.rotation: the RoPE tab's
        current = self.window.engine.is_current(channel, request_id)
        self.drawn.append((channel, ms, time.perf_counter(), current, tab.coarse))

    def _tick(self) -> None:
        now = time.perf_counter()
        self.stall = max(self.stall, now - self.last_tick)
        self.last_tick = now

    def page_channel(self, tab) -> str:
        """The channel drawing the page in front: its own where it has one (RoPE's rotation
        panels, ``rope.rotation``), else the tab's. Another channel's frame (the rotation
        panels behind the page, following a change) is not the page's."""
        own = f"{tab.name}.{tab.current_page()}"
        return own if any(drawn[0] == own for drawn in self.drawn) else tab.name

    def wait_frame(
        self, channel: str, since: int, *, exact: bool = True
    ) -> tuple[float, float, bool] | None:
        """Process events until ``channel`` drew its current request after entry ``since`` (or,
        with ``exact`` False, a coarse frame first); (compute ms, time, coarse) or None. Only
        ``channel``'s frames count: see ``page_channel``."""
        deadline = time.perf_counter() + FRAME_TIMEOUT_S
        while time.perf_counter() < deadline:
            self.wait_for_events()
            for ch, ms, at, current, coarse in self.drawn[since:]:
                if ch == channel and ((current and not coarse) or (coarse and not exact)):
                    return ms, at, coarse
        return None

    def wait_for_events(self) -> None:
        """Process the events there are, or wait for some, as the application's event loop
        does: woken at once by the worker's result (at the latest by the ticker's next)."""
        self.app.processEvents(self.waiting)

    def settle(self, seconds: float) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            self.app.processEvents()
            time.sleep(0.001)

    def work_ahead(self) -> float:
        """Let the window do its work ahead in quiet time (``posenc_gui.tabs_ahead``: build its
        tabs, draw its pages, keep the shown tab's pages at the settings of now), as the app's
        window does while the user reads; the seconds that took, its waits for quiet included."""
        from posenc_gui.tabs_ahead import TabsBuiltAhead

        if self.ahead is None:
            self.ahead = TabsBuiltAhead(self.window)
        start = time.perf_counter()
        while not self.ahead.done() and time.perf_counter() - start < AHEAD_TIMEOUT_S:
            self.settle(0.05)  # (asking whether it is done reads every page's settings)
        return time.perf_counter() - start

    def visible_views(self, tab) -> list:
        from PySide6.QtWidgets import QGraphicsView

        return [
            view
            for view in tab.view_names().values()
            if view.isVisible() and isinstance(view, QGraphicsView)
        ]

    def painted(self) -> float:
        """Run the event loop until the views have painted what was drawn (no paint for
        IDLE_S, FIRST_PAINT_S before the step's first, or the next frame drawn); the time the
        last paint ended (one that came with the next frame included: its time is in the paint
        split too)."""
        now = time.perf_counter()
        last_end = quiet_since = now
        frames = len(self.drawn)
        while len(self.drawn) == frames:
            # until the step's first paint, longer: a loaded machine can hold a paint back
            idle = IDLE_S if self.watch.paint_ms > 0 else FIRST_PAINT_S
            if now - quiet_since >= idle:
                break
            paints = self.watch.paints
            self.wait_for_events()
            now = time.perf_counter()
            if self.watch.paints != paints:
                last_end = quiet_since = now
        return last_end

    def measure(self, channel: str, actions: Sequence[tuple[str, Step]]) -> Timings:
        """Time each action: control change → first frame painted and → exact frame painted."""
        from PySide6.QtWidgets import QGraphicsView

        timings = Timings()
        self.settle(0.05)
        self.stall, self.last_tick = 0.0, time.perf_counter()
        tab = self.window.tab(channel)
        for view in self.visible_views(tab):
            QGraphicsView.viewport(view).installEventFilter(self.watch)
        # what draws a frame on the GUI thread: the tab's frame (its draw, then its views
        # settling) and drawers the tab hands the engine itself (RoPE's draw_rotation)
        drawers = [(tab.frame_requests, "_show_frame")]
        drawers += [(tab, name) for name in dir(type(tab)) if name.startswith("draw_")]
        originals = [getattr(owner, name) for owner, name in drawers]
        own = [name in vars(owner) for owner, name in drawers]  # else the class's method

        def timed(draw):
            def timed_draw(frame) -> None:
                start = time.perf_counter()
                draw(frame)
                timings.draw_ms += (time.perf_counter() - start) * 1e3

            return timed_draw

        for (owner, name), draw in zip(drawers, originals, strict=True):
            setattr(owner, name, timed(draw))
        try:
            for name, action in actions:
                self._step(tab, name, action, timings)
        finally:
            for (owner, name), draw, its_own in zip(drawers, originals, own, strict=True):
                if its_own:
                    setattr(owner, name, draw)
                else:
                    delattr(owner, name)
        timings.stall = self.stall * 1e3
        return timings

    def _step(self, tab, name: str, action: Step, timings: Timings) -> None:
        page = tab.current_page()
        since = len(self.drawn)
        self.watch.paint_ms = timings.draw_ms = 0.0
        refused: list[str] = []
        tab.refused.connect(refused.append)
        start = time.perf_counter()
        try:
            back = action()
        finally:
            tab.refused.disconnect(refused.append)
        if isinstance(back, bool):  # nothing could change
            return
        if tab.current_page() != page:  # it brings its own page to the front (a scheme does)
            # not a change of this page's views: untimed, and undone once that page is on
            # screen, as a user would (two page changes in one turn of the event loop would
            # stall it as no user can)
            self.settle(0.3)
            back()
            tab.show_page(page)
            self.wait_frame(self.page_channel(tab), len(self.drawn))
            self.settle(0.3)
            return
        if refused:  # settings the tab refuses (it says why) draw no frame to time:
            back()  # undone, so that the next steps start from settings that fit
            return
        first = self.wait_frame(self.page_channel(tab), since, exact=False)
        if first is None:
            raise RuntimeError(
                f"{tab.name}: no frame within {FRAME_TIMEOUT_S:.0f} s after changing {name}"
            )
        first_end = exact_end = self.painted()
        compute_ms = first[0]
        if first[2]:  # a coarse frame: then the exact one
            self.watch.paint_ms = timings.draw_ms = 0.0
            exact = self.wait_frame(self.page_channel(tab), since)
            if exact is None:
                raise RuntimeError(f"{tab.name}: no exact frame after changing {name}")
            exact_end, compute_ms = self.painted(), exact[0]
        timings.add((first_end - start) * 1e3, (exact_end - start) * 1e3, first[2])
        timings.splits.append((compute_ms, timings.draw_ms, self.watch.paint_ms))


@dataclass
class Timings:
    """What ``Bench.measure`` found for one page."""

    first: list[float] = field(default_factory=list)  # ms to the first frame painted
    exact: list[float] = field(default_factory=list)  # ms to the exact frame painted
    coarse: int = 0  # changes that showed a coarse frame first
    splits: list[tuple[float, float, float]] = field(default_factory=list)  # compute/draw/paint
    draw_ms: float = 0.0  # this step's drawing so far: every channel of the tab (RoPE's two)
    stall: float = 0.0

    def add(self, first: float, exact: float, coarse: bool) -> None:
        self.first.append(first)
        self.exact.append(exact)
        self.coarse += coarse


def closing_time(window, bench: Bench) -> float:
    """ms for ``window.close()`` while the largest Absolute frame is being computed."""
    for name, value in zip(("seq_len", "d_model", "head_dim"), SIZES[-1], strict=True):
        getattr(window.parameters, name).setValue(value)
    window.tabs.setCurrentWidget(window.tab("absolute"))
    window.tab("absolute").refresh()
    bench.settle(0.05)  # the worker is inside it now
    start = time.perf_counter()
    window.close()
    return round((time.perf_counter() - start) * 1e3, 1)


def _median(values: Sequence[float]) -> float:
    # the latencies' own estimator: each step's paint is within its latency, so the medians are too
    return round(percentile(values, 0.5), 1)


def _result(
    tab,
    page: str,
    size: tuple[int, int, int],
    timings: Timings,
    floors: tuple[dict, dict],
    views: int,
) -> Result:
    computes, draws, paints = zip(*timings.splits, strict=True)
    floor, look_floor = floors
    return Result(
        tab=tab.name,
        view=page,
        seq_len=size[0],
        d_model=size[1],
        head_dim=size[2],
        views=views,
        p50_ms=round(percentile(timings.first, 0.5), 1),
        p95_ms=round(percentile(timings.first, 0.95), 1),
        exact_p50_ms=round(percentile(timings.exact, 0.5), 1),
        exact_p95_ms=round(percentile(timings.exact, 0.95), 1),
        coarse_share=round(timings.coarse / len(timings.first), 2),
        compute_ms=_median(computes),
        draw_ms=_median(draws),
        paint_ms=_median(paints),
        stall_ms=round(timings.stall, 1),
        floor_p50_ms=floor["p50_ms"],
        floor_p95_ms=floor["p95_ms"],
        look_floor_p50_ms=look_floor["p50_ms"],
        look_floor_p95_ms=look_floor["p95_ms"],
    )


def run(
    sizes: Sequence[tuple[int, int, int]],
    steps: int,
    device: str | None,
    tabs: Sequence[str] = (),
) -> dict:
    """Measure every page of ``tabs`` (default: all) at each size; the report's data."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    with without_collector():  # as the app starts (posenc_gui.collector)
        from PySide6.QtWidgets import QWidget

        from posenc_gui.app import application
        from posenc_gui.window import MainWindow

        app = application()
        window = MainWindow(device=device)
        window.resize(1500, 950)
        window.show()
    bench = Bench(window, app)
    first = bench.wait_frame("absolute", 0)
    first_frame_s = time.perf_counter() - LAUNCHED if first else float("nan")
    ahead_s = bench.work_ahead()

    results, step = [], 0
    try:
        for size in sizes:
            for name, value in zip(("seq_len", "d_model", "head_dim"), size, strict=True):
                getattr(window.parameters, name).setValue(value)
            for index in range(window.tabs.count()):
                tab = window.tab_at(index)
                if tabs and tab.name not in tabs:
                    continue
                window.tabs.setCurrentWidget(tab)
                bench.work_ahead()  # the user reads the tab first: its pages at these settings
                for page in tab.page_names() or ["all"]:
                    if tab.pages is not None:
                        tab.show_page(page)
                    bench.settle(0.2)  # the page's views settle their sizes
                    since = len(bench.drawn)
                    tab.refresh()
                    bench.wait_frame(bench.page_channel(tab), since)
                    bench.settle(0.3)  # its first paint is not part of a control change
                    timings = bench.measure(tab.name, scripted_steps(window, tab.name, steps, step))
                    step += steps
                    if timings.first:
                        views = bench.visible_views(tab)
                        shown = [contents(view) for view in views]
                        area = tab.findChild(QWidget, "figures") or tab
                        area_size, floor_steps = (area.width(), area.height()), max(steps, 10)
                        floors = (
                            page_floor(shown, area_size, floor_steps),
                            page_floor(shown, area_size, floor_steps, look=True),
                        )
                        results.append(_result(tab, page, size, timings, floors, len(shown)))
        close_ms = closing_time(window, bench)
        # the app's peak (its frames, and its pages' floors), before matplotlib loads and draws
        # for the seed-style baseline, which is not the app (it added 75–190 MB in runs here)
        app_peak_mb = peak_rss_mb()
        seed = seed_redraw(max(steps, 10))
    finally:
        window.close()  # stops the engine's thread, whatever happened (again: a no-op)
    device = window.engine.device
    return {
        "device": device,
        "machine": machine(device),
        "results": [asdict(result) for result in results],
        "seed": seed,
        "close_ms": close_ms,
        "peak_rss_mb": app_peak_mb,
        "run_peak_rss_mb": peak_rss_mb(),
        "first_frame_s": round(first_frame_s, 2),
        "ahead_s": round(ahead_s, 1),
        "peak_gpu_mb": peak_gpu_mb(device),
    }
