"""Coarse, then exact: a heavy frame is first drawn at fewer pixels, labelled, then exactly."""

from __future__ import annotations

import time

import torch
from PySide6.QtWidgets import QWidget

import posenc_gui.frame_requests
from posenc_gui.encodings.window import Window, coarsened
from posenc_gui.engine import Engine
from posenc_gui.frame_requests import FrameRequests
from posenc_gui.tabs.absolute.compute import AbsoluteParams
from tests.conftest import FRAME_TIMEOUT_MS


def test_coarsened_parameters_have_fewer_pixels_in_every_window():
    params = AbsoluteParams(4096, 512, 1e4, table_rows=Window(0, 4096, 400), wave_x=None)
    coarse = coarsened(params, 4)
    assert coarse.table_rows == Window(0, 4096, 100) and coarse.wave_x is None
    assert coarse.seq_len == 4096 and coarse.dimensions == params.dimensions  # nothing else
    assert coarsened(AbsoluteParams(8, 8, 1e4, table_rows=Window(0, 8, 3)), 4).table_rows == (
        Window(0, 8, 1)  # never fewer than one pixel
    )


def test_a_heavy_frame_is_drawn_coarse_first_then_exactly(window, drive, qtbot, monkeypatch):
    monkeypatch.setattr(
        posenc_gui.frame_requests, "COARSE_AFTER_MS", -1.0
    )  # every frame counts as heavy
    tab = window.tab("absolute")
    drive(window, lambda: window.parameters.seq_len.setValue(4096))
    exact_rows = tab.table_view.image.image.shape[0]
    # per frame: coarse, rows drawn, sign says coarse, current (what exports and tests wait for)
    shown: list[tuple[bool, int, bool, bool]] = []
    window.engine.frame_drawn.connect(
        lambda channel, request_id, _ms: shown.append(
            (
                tab.coarse,
                tab.table_view.image.image.shape[0],
                tab.busy.isVisible() and tab.busy.text().startswith("coarse"),
                window.engine.is_current(channel, request_id),
            )
        )
    )
    window.parameters.theta.setValue(500.0)
    qtbot.waitUntil(lambda: len(shown) == 2, timeout=FRAME_TIMEOUT_MS)
    (coarse, coarse_rows, labelled, current), (still_coarse, rows, label_after, exact) = shown
    assert coarse and labelled and coarse_rows <= exact_rows // 4  # a quarter of the pixels
    assert not current  # never taken for the frame of these settings
    assert not still_coarse and not label_after and rows == exact_rows and exact
    assert not tab.is_waiting() and tab.frame.params.theta == 500.0
    assert tab.frame.params == tab.request()  # the exact frame is of the settings on screen


def test_while_a_slider_moves_only_coarse_frames_come_and_the_exact_one_after(
    window, drive, qtbot, monkeypatch
):
    monkeypatch.setattr(posenc_gui.frame_requests, "COARSE_AFTER_MS", -1.0)
    tab = window.tab("absolute")
    drive(window, lambda: window.parameters.seq_len.setValue(4096))
    kinds: list[bool] = []
    window.engine.frame_drawn.connect(lambda *_: kinds.append(tab.coarse))
    for value in (400.0, 500.0, 600.0):  # moves closer together than EXACT_AFTER_IDLE_MS
        window.parameters.theta.setValue(value)
        qtbot.waitUntil(lambda: tab.coarse, timeout=FRAME_TIMEOUT_MS)
        qtbot.wait(posenc_gui.frame_requests.EXACT_AFTER_IDLE_MS // 4)
        assert tab.is_waiting()
    qtbot.waitUntil(lambda: not tab.is_waiting(), timeout=FRAME_TIMEOUT_MS)
    assert kinds[-1] is False and kinds.count(False) == 1  # one exact frame: the last settings
    assert tab.frame.params.theta == 600.0
    assert tab.busy.isHidden()  # the exact frame: no sign


def test_frames_heavy_at_smaller_sizes_make_larger_ones_coarse_first(qtbot, monkeypatch):
    monkeypatch.setattr(posenc_gui.frame_requests, "COARSE_AFTER_MS", 20.0)
    engine, owner, sizes, shown = Engine("cpu"), QWidget(), [(64, 64, 64)], []
    qtbot.addWidget(owner)
    requests = FrameRequests(engine, "t", shown.append, lambda: sizes[0], over=owner)

    def slow(params: AbsoluteParams, _device: object) -> AbsoluteParams:
        time.sleep(0.05)  # heavy: over COARSE_AFTER_MS
        return params

    def pixels_drawn(seq_len: int) -> list[int]:
        """The rows of the table of each frame drawn for a request at ``seq_len``."""
        first = len(shown)
        requests.submit(slow, AbsoluteParams(seq_len, 64, 1e4, table_rows=Window(0, 4096, 40)))
        qtbot.waitUntil(lambda: not requests.is_waiting(), timeout=FRAME_TIMEOUT_MS)
        return [frame.table_rows.pixels for frame in shown[first:]]

    try:
        assert pixels_drawn(64) == [40]  # the first frame: warm-up, not counted
        assert pixels_drawn(65) == [40]  # heavy at these sizes
        sizes[0] = (64, 64, 1024)  # a size grew (one the tab may not even use)
        assert pixels_drawn(66) == [10, 40]  # coarse first, then exact
        sizes[0] = (64, 32, 1024)  # a size shrank: the times before say nothing of these
        assert pixels_drawn(67) == [40]
    finally:
        engine.shutdown()


def test_a_heavy_request_equal_to_the_exact_one_computing_leaves_it_running(qtbot, monkeypatch):
    monkeypatch.setattr(posenc_gui.frame_requests, "COARSE_AFTER_MS", -1.0)  # every one heavy
    engine, owner, shown, calls = Engine("cpu"), QWidget(), [], []
    qtbot.addWidget(owner)
    requests = FrameRequests(engine, "t", shown.append, lambda: (64, 64, 64), over=owner)

    def slow(params: AbsoluteParams, _device: object) -> AbsoluteParams:
        calls.append(params)
        time.sleep(0.3 if params.table_rows.pixels == 40 else 0.0)  # the exact one is slow
        return params

    try:
        request = AbsoluteParams(64, 64, 1e4, table_rows=Window(0, 64, 40))
        requests.submit(slow, request)  # coarse first, the exact one once idle
        qtbot.waitUntil(lambda: request in calls, timeout=FRAME_TIMEOUT_MS)
        requests.submit(slow, request)  # while the exact one computes: no coarse one again
        qtbot.waitUntil(lambda: not requests.is_waiting(), timeout=FRAME_TIMEOUT_MS)
        qtbot.wait(400)  # time for a restarted computation to come
        coarse = coarsened(request, posenc_gui.frame_requests.COARSE_FACTOR)
        assert calls == [coarse, request] and shown == [coarse, request]
    finally:
        engine.shutdown()


def test_coarse_first_is_judged_by_what_changed(qtbot, monkeypatch):
    monkeypatch.setattr(posenc_gui.frame_requests, "COARSE_AFTER_MS", 20.0)
    engine, owner, sizes, shown = Engine("cpu"), QWidget(), [(64, 64, 64)], []
    qtbot.addWidget(owner)
    requests = FrameRequests(engine, "t", shown.append, lambda: sizes[0], over=owner)
    cached: set[tuple] = set()

    def cached_by_d_model(params: AbsoluteParams, _device: object) -> AbsoluteParams:
        """Heavy when d_model (or the pixels) changed: theta's views are kept, as tabs keep
        the views a control does not read."""
        key = (params.d_model, params.table_rows)
        if key not in cached:
            cached.add(key)
            time.sleep(0.05)
        return params

    def pixels_drawn(d_model: int, theta: float) -> list[int]:
        first = len(shown)
        request = AbsoluteParams(64, d_model, theta, table_rows=Window(0, 64, 40))
        requests.submit(cached_by_d_model, request)
        qtbot.waitUntil(lambda: not requests.is_waiting(), timeout=FRAME_TIMEOUT_MS)
        return [frame.table_rows.pixels for frame in shown[first:]]

    try:
        assert pixels_drawn(64, 1e4) == [40]  # the first frame: warm-up, not counted
        assert pixels_drawn(66, 1e4) == [40]  # heavy: d_model changed
        assert pixels_drawn(66, 2e4) == [10, 40]  # a change not seen yet: as the slowest
        assert pixels_drawn(66, 3e4) == [40]  # theta is known light now, beside a heavy d_model
        assert pixels_drawn(68, 3e4) == [10, 40]  # d_model is known heavy
        assert pixels_drawn(68, 4e4) == [40]
        sizes[0] = (64, 64, 128)  # a size grew: how light theta is was known at smaller ones
        assert pixels_drawn(68, 5e4) == [10, 40]
    finally:
        engine.shutdown()


def test_a_change_whose_last_frame_computed_briefly_runs_on_one_cpu_thread(qtbot, monkeypatch):
    monkeypatch.setattr(posenc_gui.frame_requests, "COARSE_AFTER_MS", 1000.0)  # none coarse
    before = torch.get_num_threads()
    torch.set_num_threads(2)  # the engine's requests not light run on two
    engine, owner, sizes, threads = Engine("cpu"), QWidget(), [(64, 64, 64)], []
    qtbot.addWidget(owner)
    requests = FrameRequests(engine, "t", lambda _frame: None, lambda: sizes[0], over=owner)
    computed: set[int] = set()
    layouts, slow_layout = ["interleaved"], [False]

    def slow_by_d_model(params: AbsoluteParams, _device: object) -> AbsoluteParams:
        """Over LIGHT_BELOW_MS when d_model is new (or the layout changed, once
        ``slow_layout``); theta's change is light."""
        threads.append(torch.get_num_threads())
        if params.d_model not in computed:
            computed.add(params.d_model)
            time.sleep(0.02)
        if slow_layout[0] and params.layout != layouts[-1]:
            time.sleep(0.02)
        layouts.append(params.layout)
        return params

    def threads_used(d_model: int, theta: float, layout: str = "interleaved") -> int:
        requests.submit(slow_by_d_model, AbsoluteParams(64, d_model, theta, layout=layout))
        qtbot.waitUntil(lambda: not requests.is_waiting(), timeout=FRAME_TIMEOUT_MS)
        return threads[-1]

    try:
        assert threads_used(64, 1e4) == 2  # the first frame: warm-up, not measured
        assert threads_used(66, 1e4) == 2  # d_model: not seen yet, no frame measured here
        assert threads_used(66, 2e4) == 2  # theta: not seen yet, the tab's last frame heavy
        assert threads_used(66, 3e4) == 1  # theta, measured light
        assert threads_used(66, 3e4, "concat") == 1  # not seen yet, the tab's last light
        assert threads_used(68, 3e4, "concat") == 2  # d_model, measured heavy
        assert threads_used(68, 4e4, "concat") == 1  # theta, light beside a heavy d_model
        slow_layout[0] = True
        assert threads_used(68, 4e4) == 1  # the layout was light (now heavy) …
        assert threads_used(68, 4e4, "concat") == 2  # … so from its next frame on, heavy
        sizes[0] = (64, 64, 128)  # a size grew: theta was measured at smaller sizes only
        assert threads_used(68, 5e4, "concat") == 2
        assert threads_used(68, 6e4, "concat") == 1  # measured light at these sizes
        sizes[0] = (64, 64, 32)  # a size shrank: no time before says anything of these
        assert threads_used(68, 7e4, "concat") == 2
    finally:
        engine.shutdown()
        torch.set_num_threads(before)


def test_no_exact_frame_follows_a_coarse_one_once_none_is_coming(qtbot, monkeypatch):
    monkeypatch.setattr(posenc_gui.frame_requests, "COARSE_AFTER_MS", -1.0)  # every one heavy
    engine, owner, shown = Engine("cpu"), QWidget(), []
    qtbot.addWidget(owner)
    requests = FrameRequests(engine, "t", shown.append, lambda: (64, 64, 64), over=owner)
    try:
        request = AbsoluteParams(64, 64, 1e4, table_rows=Window(0, 64, 40))
        requests.submit(lambda params, _device: params, request)
        qtbot.waitUntil(lambda: requests.coarse, timeout=FRAME_TIMEOUT_MS)
        requests.stop()  # the settings were refused, say, before the controls rested
        qtbot.wait(3 * posenc_gui.frame_requests.EXACT_AFTER_IDLE_MS)
        assert shown == [coarsened(request, posenc_gui.frame_requests.COARSE_FACTOR)]
        assert not requests.coarse and not requests.is_waiting() and requests.busy.isHidden()
    finally:
        engine.shutdown()


def test_frames_drawn_again_leave_the_measured_times_alone(qtbot, monkeypatch):
    monkeypatch.setattr(posenc_gui.frame_requests, "COARSE_AFTER_MS", 20.0)
    engine, owner, shown = Engine("cpu"), QWidget(), []
    qtbot.addWidget(owner)
    requests = FrameRequests(engine, "t", shown.append, lambda: (64, 64, 64), over=owner)

    def slow(params: AbsoluteParams, _device: object) -> AbsoluteParams:
        time.sleep(0.05)  # heavy: over COARSE_AFTER_MS
        return params

    def pixels_drawn(seq_len: int, theta: float = 1e4) -> list[int]:
        first = len(shown)
        request = AbsoluteParams(seq_len, 64, theta, table_rows=Window(0, 64, 40))
        requests.submit(slow, request)
        qtbot.waitUntil(lambda: not requests.is_waiting(), timeout=FRAME_TIMEOUT_MS)
        return [frame.table_rows.pixels for frame in shown[first:]]

    try:
        assert pixels_drawn(64) == [40]  # the first frame: warm-up, not counted
        assert pixels_drawn(65) == [40]  # heavy, measured
        for _ in range(posenc_gui.frame_requests.HEAVY_MEMORY):
            assert pixels_drawn(65) == [40]  # the frame on screen asked for again: drawn again
        assert pixels_drawn(65, 2e4) == [10, 40]  # a change not seen: as heavy as measured
    finally:
        engine.shutdown()
