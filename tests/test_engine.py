"""The engine: one worker thread, latest request wins, stale results never drawn."""

from __future__ import annotations

import threading
import time

import pytest
import torch
from PySide6.QtCore import Qt

from posenc_gui.engine import (
    NOT_COMPUTED_MS,
    Engine,
    available_devices,
    check_device,
    default_device,
)


@pytest.fixture
def engine(qtbot):
    eng = Engine("cpu")
    yield eng
    eng.shutdown()


def test_middle_request_is_never_computed_and_only_the_last_is_drawn(qtbot, engine):
    gate = threading.Event()
    computed, drawn, threads = [], [], []

    def compute(params, device):
        computed.append(params)
        threads.append(threading.get_ident())
        if params == "first":
            assert gate.wait(10)
        return params

    engine.submit("ch", compute, "first", drawn.append)
    qtbot.waitUntil(lambda: computed == ["first"])  # the worker is now busy with it
    engine.submit("ch", compute, "second", drawn.append)
    last = engine.submit("ch", compute, "third", drawn.append)
    with qtbot.waitSignal(engine.frame_drawn, check_params_cb=lambda ch, rid, ms: rid == last):
        gate.set()
    qtbot.wait(50)  # let any (wrong) late delivery arrive
    assert computed == ["first", "third"]
    assert drawn == ["third"]  # "first" finished after "third" was asked for: stale, dropped
    assert threading.get_ident() not in threads


def test_requests_made_while_held_compute_only_each_channels_last(qtbot, engine):
    computed, drawn = [], []

    def compute(params, device):
        computed.append(params)
        return params

    engine.hold()
    for params in ("first", "second", "third"):
        engine.submit("ch", compute, params, drawn.append)
    engine.submit("other", compute, "alone", drawn.append)
    qtbot.wait(200)  # held: the worker takes nothing
    assert computed == []
    engine.hold(False)
    qtbot.waitUntil(lambda: len(drawn) == 2)
    qtbot.wait(50)  # let any (wrong) later computation arrive
    assert sorted(computed) == ["alone", "third"] and sorted(drawn) == ["alone", "third"]


def test_a_request_equal_to_the_one_coming_leaves_it_running(qtbot, engine, monkeypatch):
    gate = threading.Event()
    computed, drawn = [], []

    def compute(params, device):
        computed.append((params, str(device)))
        assert gate.wait(10)
        return params

    first = engine.submit("ch", compute, "same", drawn.append)
    qtbot.waitUntil(lambda: len(computed) == 1)  # the worker is now busy with it
    assert engine.submit("ch", compute, "same", drawn.append) == first  # it carries on
    with qtbot.waitSignal(engine.frame_drawn, check_params_cb=lambda ch, rid, ms: rid == first):
        gate.set()
    assert computed == [("same", "cpu")] and drawn == ["same"]
    # another device from the next request on: the same request is computed there
    monkeypatch.setattr("posenc_gui.engine.engine.check_device", lambda name: name)
    gate.clear()
    coming = engine.submit("ch", compute, "other", drawn.append)
    qtbot.waitUntil(lambda: len(computed) == 2)
    engine.set_device("meta")
    moved = engine.submit("ch", compute, "other", drawn.append)
    assert moved != coming and not engine.is_coming("ch", coming)
    with qtbot.waitSignal(engine.frame_drawn, check_params_cb=lambda ch, rid, ms: rid == moved):
        gate.set()
    assert computed[-1] == ("other", "meta")


def test_the_frame_drawn_last_asked_for_again_is_drawn_again_not_computed(
    qtbot, engine, monkeypatch
):
    computed, drawn = [], []

    def compute(params, device):
        computed.append((params, str(device)))
        return params

    reported: dict[int, float] = {}  # compute ms by request id
    engine.frame_drawn.connect(lambda ch, rid, ms: reported.__setitem__(rid, ms))

    def draw(channel: str, params: str) -> int:
        request_id = engine.submit(channel, compute, params, drawn.append)
        qtbot.waitUntil(lambda: request_id in reported)
        return request_id

    first = draw("ch", "a")
    again = draw("ch", "a")  # a view's window moved and came back, say
    assert again != first and engine.is_current("ch", again)
    assert reported[first] > NOT_COMPUTED_MS and reported[again] == NOT_COMPUTED_MS
    assert computed == [("a", "cpu")] and drawn == ["a", "a"]
    draw("other", "a")  # another channel's frame is its own
    elsewhere: list[str] = []
    request_id = engine.submit("ch", compute, "a", elsewhere.append)  # drawn by another drawer
    qtbot.waitUntil(lambda: elsewhere == ["a"])
    assert engine.is_current("ch", request_id) and computed == [("a", "cpu")] * 3
    draw("ch", "b")
    draw("ch", "a")  # no longer the frame drawn last: computed
    assert computed == [("a", "cpu")] * 3 + [("b", "cpu"), ("a", "cpu")]
    monkeypatch.setattr("posenc_gui.engine.engine.check_device", lambda name: name)
    engine.set_device("meta")
    draw("ch", "a")  # drawn last, but computed on another device
    assert computed[-1] == ("a", "meta") and len(computed) == 6


def test_the_frame_being_drawn_asked_for_during_its_drawing_is_not_computed_again(qtbot, engine):
    computed, drawn, asked = [], [], []

    def compute(params, device):
        computed.append(params)
        return params

    def draw(frame: str) -> None:
        drawn.append(frame)
        if len(drawn) == 1:  # the drawing moves a view's range, which asks for its window:
            engine.submit("ch", compute, "elsewhere", draw)  # one in between …
            asked.append(engine.submit("ch", compute, "a", draw))  # … then this frame's

    first = engine.submit("ch", compute, "a", draw)
    qtbot.waitUntil(lambda: len(drawn) == 2)
    qtbot.wait(100)  # time for the window in between to come, were it still wanted
    assert first != asked[0] and computed.count("a") == 1 and drawn == ["a", "a"]
    assert drawn.count("elsewhere") == 0


def test_a_computation_no_longer_wanted_stops_at_its_next_checkpoint(qtbot, engine):
    chunks, started, drawn = [], threading.Event(), []
    engine.submit("tab", _slow(chunks, started), "refused now", drawn.append)
    assert started.wait(5)
    engine.expect("tab")  # the settings were refused, say: no frame of it is wanted
    qtbot.waitUntil(lambda: not engine.is_coming("tab"), timeout=5000)
    qtbot.wait(100)
    stopped_at = len(chunks)
    qtbot.wait(100)
    assert len(chunks) == stopped_at < 30 and drawn == []  # 500 chunks of 10 ms otherwise


def test_channels_do_not_replace_each_other(qtbot, engine):
    drawn = []
    with qtbot.waitSignals([engine.frame_drawn, engine.frame_drawn], timeout=5000):
        engine.submit("a", lambda p, d: p * 2, 1, drawn.append)
        engine.submit("b", lambda p, d: p * 3, 1, drawn.append)
    assert sorted(drawn) == [2, 3]


def test_a_failing_computation_reports_and_the_next_one_draws(qtbot, engine):
    def boom(params, device):
        raise RuntimeError("out of memory (injected)")

    drawn = []
    with qtbot.waitSignal(engine.failed) as failure:
        engine.submit("ch", boom, None, drawn.append)
    assert failure.args == ["ch", "RuntimeError: out of memory (injected)"]
    with qtbot.waitSignal(engine.frame_drawn):
        engine.submit("ch", lambda p, d: p, "ok", drawn.append)
    assert drawn == ["ok"]


@pytest.mark.parametrize("error", [SystemExit(3), GeneratorExit("stray")])
def test_a_computation_raising_a_base_exception_keeps_the_worker_serving(qtbot, engine, error):
    def leave(params, device):
        raise error

    drawn = []
    with qtbot.waitSignal(engine.failed) as failure:
        engine.submit("ch", leave, None, drawn.append)
    assert failure.args[1].startswith(type(error).__name__)
    with qtbot.waitSignal(engine.frame_drawn):
        engine.submit("ch", lambda p, d: p, "still here", drawn.append)
    assert drawn == ["still here"] and engine.is_running()


def test_compute_gets_the_engine_device(qtbot, engine):
    seen = []
    with qtbot.waitSignal(engine.frame_drawn):
        engine.submit("ch", lambda p, d: d, None, seen.append)
    assert seen == [torch.device("cpu")]


def test_a_light_request_computes_on_one_cpu_thread_and_the_others_on_all(qtbot):
    before = torch.get_num_threads()
    torch.set_num_threads(2)  # what the engine finds: its requests not light run on two
    engine = Engine("cpu")
    seen: list[int] = []
    try:
        for step, light in enumerate((True, False, True, False)):
            with qtbot.waitSignal(engine.frame_drawn):
                engine.submit(
                    "ch", lambda p, d: torch.get_num_threads(), step, seen.append, light=light
                )
    finally:
        engine.shutdown()
        torch.set_num_threads(before)
    assert seen == [1, 2, 1, 2]


def test_devices():
    assert available_devices()[-1] == "cpu"
    assert default_device() == available_devices()[0]
    with pytest.raises(ValueError, match="device must be one of"):
        check_device("tpu")


def test_bad_device_is_refused(qtbot):
    with pytest.raises(ValueError, match="device must be one of"):
        Engine("tpu")


def test_shutdown_stops_the_thread(qtbot):
    eng = Engine("cpu")
    assert eng.is_running()
    eng.shutdown()
    assert not eng.is_running()
    eng.shutdown()  # idempotent


def _busy(engine, qtbot):
    """Keep the worker busy until ``gate`` is set; ``finished`` is set when it lets go."""
    gate, started, finished = threading.Event(), threading.Event(), threading.Event()

    def hold(params, device):
        started.set()
        assert gate.wait(10)
        finished.set()

    engine.submit("busy", hold, None, lambda frame: None)
    qtbot.waitUntil(started.is_set)
    return gate, finished


@pytest.mark.parametrize(
    ("preferred", "expected"), [("visible", ["visible", "hidden"]), (None, ["hidden", "visible"])]
)
def test_the_preferred_channel_then_the_newest_request_is_computed_first(
    qtbot, engine, preferred, expected
):
    order = []
    gate, _ = _busy(engine, qtbot)
    engine.prefer(preferred)
    engine.submit("visible", lambda p, d: order.append(p), "visible", lambda frame: None)
    engine.submit("hidden", lambda p, d: order.append(p), "hidden", lambda frame: None)
    gate.set()
    qtbot.waitUntil(lambda: len(order) == 2)
    assert order == expected


def test_shutdown_returns_promptly_mid_computation_and_nothing_is_drawn_after(qtbot):
    engine = Engine("cpu")
    gate, finished = _busy(engine, qtbot)
    drawn = []
    engine.submit("busy", lambda p, d: p, "late", drawn.append)
    engine.shutdown()
    assert not finished.is_set() and not engine.is_running()  # it did not wait for the compute
    gate.set()
    assert finished.wait(5)
    qtbot.wait(100)
    assert drawn == []


def _slow(chunks: list[int], started: threading.Event, total: int = 500):
    """A computation of ``total`` 10 ms chunks that records each chunk it runs."""

    def compute(params, device):
        from posenc_gui.cancel import checkpoint

        started.set()
        for index in range(total):
            checkpoint()
            chunks.append(index)
            threading.Event().wait(0.01)
        return params

    return compute


def test_a_superseded_computation_stops_at_its_next_checkpoint(qtbot, engine):
    chunks, started, drawn = [], threading.Event(), []
    engine.submit("tab", _slow(chunks, started), "slow", drawn.append)
    assert started.wait(5)
    engine.submit("tab", lambda p, d: p, "fast", drawn.append)  # the same channel: replaces it
    qtbot.waitUntil(lambda: drawn == ["fast"], timeout=5000)
    stopped_at = len(chunks)
    qtbot.wait(100)
    assert len(chunks) == stopped_at < 500  # abandoned part way, never resumed
    assert drawn == ["fast"]  # and nothing of it drawn


def test_a_request_of_another_channel_lets_a_computation_finish(qtbot, engine):
    chunks, started, drawn = [], threading.Event(), []
    engine.submit("tab", _slow(chunks, started, total=20), "slow", drawn.append)
    assert started.wait(5)
    engine.submit("other", lambda p, d: p, "other", drawn.append)
    qtbot.waitUntil(lambda: sorted(drawn) == ["other", "slow"], timeout=5000)
    assert len(chunks) == 20


def test_a_background_request_waits_for_the_others_and_resumes_after_an_interruption(qtbot, engine):
    order, drawn = [], []
    gate, _ = _busy(engine, qtbot)
    record = lambda p, d: order.append(p) or p  # noqa: E731
    engine.submit("ahead", record, "ahead", drawn.append, background=True)
    engine.submit("tab", record, "tab", drawn.append)
    gate.set()  # the background request is the newer one: still computed last
    qtbot.waitUntil(lambda: len(drawn) == 2)
    assert order == drawn == ["tab", "ahead"]
    chunks, started = [], threading.Event()
    engine.submit("ahead", _slow(chunks, started, total=30), "slow", drawn.append, background=True)
    assert started.wait(5)
    engine.submit("tab", lambda p, d: p, "change", drawn.append)  # another channel: it yields
    qtbot.waitUntil(lambda: drawn[2:] == ["change", "slow"], timeout=5000)
    assert chunks.count(0) == 2 and len(chunks) > 30  # stopped at a checkpoint, computed again


def test_a_background_request_is_not_kept_and_its_memory_error_changes_no_device(
    qtbot, engine, monkeypatch
):
    computed, failed, changed = [], [], []
    engine.failed.connect(lambda channel, message: failed.append(channel))
    engine.device_changed.connect(changed.append)
    monkeypatch.setattr(engine, "_device", "cuda")  # as if computing on a GPU

    def out_of_memory(params, device):
        raise torch.cuda.OutOfMemoryError("CUDA out of memory")

    engine.submit("ahead", out_of_memory, None, lambda frame: None, background=True)
    qtbot.waitUntil(lambda: failed == ["ahead"])
    assert changed == [] and engine.device == "cuda"
    monkeypatch.setattr(engine, "_device", "cpu")
    drawn = []
    compute = lambda p, d: computed.append(p) or p  # noqa: E731
    for times in (1, 2):  # asked for again: computed again (nothing of it kept)
        engine.submit("ahead", compute, "frame", drawn.append, background=True)
        qtbot.waitUntil(lambda times=times: len(drawn) == len(computed) == times)


def test_shutdown_stops_a_computation_at_its_next_checkpoint(qtbot):
    engine = Engine("cpu")
    chunks, started = [], threading.Event()
    engine.submit("tab", _slow(chunks, started), "slow", lambda frame: None)
    assert started.wait(5)
    engine.shutdown(wait_s=None)  # waits for it to end: at its next checkpoint
    assert not engine.is_running() and len(chunks) < 500


def test_progress_reports_the_share_done_of_the_current_request(qtbot, engine):
    from posenc_gui.cancel import checkpoint, part
    from posenc_gui.engine.engine import PROGRESS_AFTER_S

    def compute(params, device):
        checkpoint(0.25)  # too early to say: a frame this quick would be drawn already
        time.sleep(PROGRESS_AFTER_S)
        checkpoint(0.5)
        with part(0.5, 1.0):  # the second half of the work
            checkpoint(0.5)
        return params

    reported, drawn = [], []
    engine.progress.connect(lambda channel, done: reported.append((channel, done)))
    engine.submit("tab", compute, "frame", drawn.append)
    qtbot.waitUntil(lambda: drawn == ["frame"], timeout=5000)
    assert reported == [("tab", 0.5), ("tab", 0.75)]


def test_freed_memory_goes_back_to_the_system_once_the_worker_is_idle(qtbot, engine, monkeypatch):
    import platform

    import posenc_gui.engine.engine as engine_module
    from posenc_gui.engine.memory import _malloc_trim

    if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
        assert _malloc_trim() is not None  # glibc's malloc_trim, found by ctypes
    sent, trims_after, drawn = [], [], []
    # on the worker thread, as each result is sent: no trim while the GUI thread draws it, nor
    # between two requests in a row (the second reuses what the first freed); one once idle
    engine._worker.computed.connect(
        lambda *result: sent.append(1), Qt.ConnectionType.DirectConnection
    )
    monkeypatch.setattr(
        engine_module, "release_freed_memory", lambda: trims_after.append(len(sent))
    )
    monkeypatch.setattr(engine_module, "TRIM_AFTER_IDLE_S", 1.5)
    engine.submit("tab", lambda p, d: p, "first", drawn.append)
    qtbot.waitUntil(lambda: drawn == ["first"], timeout=5000)
    engine.submit("tab", lambda p, d: p, "second", drawn.append)
    qtbot.waitUntil(lambda: drawn == ["first", "second"], timeout=5000)
    assert trims_after == []
    qtbot.waitUntil(lambda: bool(trims_after), timeout=10_000)
    assert trims_after == [2]  # once, after both results were sent
    qtbot.wait(2000)
    assert trims_after == [2]  # and not again while nothing was computed


def test_the_heap_is_trimmed_only_once_it_keeps_much_freed_memory(monkeypatch):
    """Trimmed pages are faulted back in by the next frame: a small frame's few freed
    megabytes stay; the heap is trimmed once it keeps more than TRIM_ABOVE_BYTES."""
    import platform

    from posenc_gui.engine import memory

    if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
        assert isinstance(memory.freed_bytes(), int)  # glibc's mallinfo2, found by ctypes
    trims: list[int] = []
    monkeypatch.setattr(memory, "_malloc_trim", lambda: trims.append)
    monkeypatch.setattr(memory, "freed_bytes", lambda: 5 * 2**20)  # a frame at 512 leaves 5 MB
    memory.release_freed_memory()
    assert trims == []
    monkeypatch.setattr(memory, "freed_bytes", lambda: memory.TRIM_ABOVE_BYTES + 1)
    memory.release_freed_memory()
    assert trims == [0]  # malloc_trim(0)
    monkeypatch.setattr(memory, "freed_bytes", lambda: None)  # no mallinfo2: as before it
    memory.release_freed_memory()
    assert trims == [0, 0]


def test_what_draws_a_frame_is_released_on_the_gui_thread(qtbot, engine):
    # The worker never holds what draws a frame (a tab's Qt objects, in the app): were its
    # reference the last, those objects would be destroyed on the worker thread.
    released_on_gui_thread = []

    class Drawer:
        def draw(self, frame):
            pass

        def __del__(self):
            released_on_gui_thread.append(threading.current_thread() is threading.main_thread())

    drawer = Drawer()
    with qtbot.waitSignal(engine.frame_drawn):
        engine.submit("ch", lambda p, d: p, 1, drawer.draw)
    del drawer
    with qtbot.waitSignal(engine.frame_drawn):
        engine.submit("ch", lambda p, d: p, 2, lambda frame: None)
    assert released_on_gui_thread == [True]


def test_cycles_are_collected_on_the_gui_thread_only(qtbot, engine):
    import gc

    from posenc_gui.collector import COLLECT_EVERY_S

    collected_on = []

    def note(phase, info):
        if phase == "start":
            collected_on.append(threading.current_thread().name)

    def make_cycles(params, device):
        for _ in range(20 * gc.get_threshold()[0]):  # Python's own would collect here
            cycle: list = []
            cycle.append(cycle)
        return params

    gc.callbacks.append(note)
    try:
        with qtbot.waitSignal(engine.frame_drawn):
            engine.submit("ch", make_cycles, None, lambda frame: None)
        qtbot.wait(int(2000 * COLLECT_EVERY_S))  # the GUI thread's collector comes round
    finally:
        gc.callbacks.remove(note)
    assert collected_on  # the cycles are collected …
    assert set(collected_on) == {threading.main_thread().name}  # … on the GUI thread
