"""Faults in compute, a storm of input, bad output paths and shutdown: no crash, no lie."""

from __future__ import annotations

import dataclasses
import errno
import os
import random
import resource
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import numpy as np
import pytest
import torch
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QPushButton, QSpinBox

from posenc_gui.controls import IntControl, LogControl
from posenc_gui.engine import Engine
from posenc_gui.engine import engine as engine_module
from posenc_gui.files import parse_json, read_file, write_atomic
from tests.conftest import FRAME_TIMEOUT_MS
from tests.test_app import run_in_process

ROOT = Path(__file__).resolve().parents[1]


def test_out_of_memory_on_cuda_falls_back_to_the_cpu(qtbot, monkeypatch):
    monkeypatch.setattr(engine_module, "check_device", lambda name: name)
    eng = Engine("cuda")
    try:

        def exhausted(params, device):
            if device.type == "cuda":
                raise torch.cuda.OutOfMemoryError("CUDA out of memory (injected)")
            return device.type

        drawn = []
        with qtbot.waitSignal(eng.failed) as failure:
            eng.submit("ch", exhausted, None, drawn.append)
        assert "computing on the CPU now" in failure.args[1]
        assert eng.device == "cpu" and drawn == []
        with qtbot.waitSignal(eng.frame_drawn):
            eng.submit("ch", exhausted, None, drawn.append)
        assert drawn == ["cpu"]
    finally:
        eng.shutdown()


def test_a_failing_tab_computation_keeps_the_last_frame(window, drive, qtbot, monkeypatch):
    tab = window.tab("absolute")
    before = tab.table_view.image.image.copy()

    def broken(params, device):
        raise RuntimeError("injected fault")

    monkeypatch.setattr(type(tab), "compute", staticmethod(broken))
    with qtbot.waitSignal(window.engine.failed):
        window.parameters.theta.setValue(321.0)
    assert "Absolute: computation failed — RuntimeError: injected fault" in (
        window.statusBar().currentMessage()
    )
    np.testing.assert_array_equal(tab.table_view.image.image, before)
    assert tab.stale.isVisibleTo(tab)
    assert tab.stale.text() == "not current: RuntimeError: injected fault"
    qtbot.wait(200)
    assert tab.stale.isVisibleTo(tab)  # it stays until a good frame replaces the old one
    monkeypatch.undo()
    drive(window, lambda: window.parameters.theta.setValue(400.0))
    assert not tab.stale.isVisibleTo(tab)


def test_refused_settings_mark_the_frame_on_screen_as_not_current(window, drive):
    tab = window.tab("extension")
    drive(window, lambda: window.tabs.setCurrentWidget(tab), "extension")
    tab.method.setCurrentIndex(tab.method.findData("longrope"))  # no factor lists loaded
    assert tab.stale.isVisibleTo(tab)
    assert tab.stale.text().startswith("not current: longrope needs short_factor")
    drive(window, lambda: tab.method.setCurrentIndex(tab.method.findData("yarn")), "extension")
    assert not tab.stale.isVisibleTo(tab)


def test_a_frame_computing_when_settings_are_refused_is_not_drawn(
    window, drive, qtbot, monkeypatch
):
    tab = window.tab("extension")
    drive(window, lambda: window.tabs.setCurrentWidget(tab), "extension")
    before = tab.frame
    gate, started = threading.Event(), threading.Event()
    compute = type(tab).compute

    def held(params, device):
        started.set()
        assert gate.wait(10)
        return compute(params, device)

    monkeypatch.setattr(type(tab), "compute", staticmethod(held))
    tab.method.setCurrentIndex(tab.method.findData("linear"))  # computing while the gate holds
    qtbot.waitUntil(started.is_set, timeout=FRAME_TIMEOUT_MS)
    tab.method.setCurrentIndex(tab.method.findData("longrope"))  # no factor lists: refused
    gate.set()
    qtbot.wait(300)  # time for the held frame to arrive, were it drawn
    assert tab.frame is before  # the frame on screen is not one of settings since changed
    assert tab.stale.isVisibleTo(tab)
    assert tab.stale.text().startswith("not current: longrope needs short_factor")
    monkeypatch.undo()
    drive(window, lambda: tab.method.setCurrentIndex(tab.method.findData("yarn")), "extension")
    assert tab.frame.params.scaling.method == "yarn" and not tab.stale.isVisibleTo(tab)


def test_a_drawing_fault_is_reported_and_the_next_frame_draws(qtbot):
    eng = Engine("cpu")
    try:

        def bad_draw(result):
            raise ValueError("cannot draw")

        with qtbot.waitSignal(eng.failed) as failure:
            eng.submit("ch", lambda p, d: p, 1, bad_draw)
        assert failure.args == ["ch", "drawing failed: ValueError: cannot draw"]
        drawn = []
        with qtbot.waitSignal(eng.frame_drawn):
            eng.submit("ch", lambda p, d: p, 2, drawn.append)
        assert drawn == [2]
    finally:
        eng.shutdown()


def test_writes_are_atomic_and_failures_leave_nothing(tmp_path):
    target = tmp_path / "figure.png"
    write_atomic(target, lambda path: path.write_bytes(b"complete"))
    assert target.read_bytes() == b"complete"
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask  # not the temporary file's 0600

    def disk_full(path: Path) -> None:
        path.write_bytes(b"half")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with pytest.raises(ValueError, match=r"figure\.png: cannot be written \(No space left"):
        write_atomic(target, disk_full)
    assert target.read_bytes() == b"complete"  # the old file is untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figure.png"]  # no temporary left
    with pytest.raises(ValueError, match="does not exist"):
        write_atomic(tmp_path / "missing" / "x.png", disk_full)
    with pytest.raises(ValueError, match="is a folder"):
        write_atomic(tmp_path, disk_full)
    with pytest.raises(ValueError, match=r"names a folder, not a file"):  # not dir.png written
        write_atomic(f"{tmp_path / 'dir.png'}/", disk_full)


def test_a_symbolic_link_stays_one_and_its_file_is_written(tmp_path):
    kept = tmp_path / "kept.png"
    kept.write_bytes(b"old")
    link = tmp_path / "link.png"
    link.symlink_to(kept)
    write_atomic(link, lambda path: path.write_bytes(b"new"))
    assert link.is_symlink() and kept.read_bytes() == b"new"


def test_screenshot_to_a_missing_folder_is_refused_before_starting(tmp_path, qapp, capsys):
    assert run_in_process(["--screenshot", str(tmp_path / "no" / "x.png")]) == 2
    stderr = capsys.readouterr().err
    assert "--screenshot:" in stderr and "does not exist" in stderr
    assert list(tmp_path.iterdir()) == []


def _animations(window) -> list[QPushButton]:
    """Every tab's play and sweep buttons (the checkable ones)."""
    return [button for button in window.findChildren(QPushButton) if button.isCheckable()]


def assert_same_frame(drawn, expected, where: str = "frame") -> None:
    """Two frames (nested dataclasses, tuples, arrays, numbers) are equal field by field."""
    if dataclasses.is_dataclass(drawn) and not isinstance(drawn, type):
        for field in dataclasses.fields(drawn):
            name = f"{where}.{field.name}"
            assert_same_frame(getattr(drawn, field.name), getattr(expected, field.name), name)
    elif isinstance(drawn, np.ndarray):
        np.testing.assert_array_equal(drawn, expected, err_msg=where)
    elif isinstance(drawn, tuple | list) and drawn and not isinstance(drawn[0], str | int):
        assert len(drawn) == len(expected), where
        for index, (a, b) in enumerate(zip(drawn, expected, strict=True)):
            assert_same_frame(a, b, f"{where}[{index}]")
    elif not callable(drawn):
        assert drawn == expected or (drawn != drawn and expected != expected), where  # NaN


def _random_action(window, rng: random.Random):
    """One random user action: a control change (kept to sizes a test can afford), a tab
    switch, a preset or an animation toggle."""
    kind = rng.random()
    if kind < 0.05:
        return lambda: window.tabs.setCurrentIndex(rng.randrange(window.tabs.count()))
    if kind < 0.08:
        preset = rng.choice(window.presets)
        return lambda: window.apply_preset(preset)
    if kind < 0.1:
        return rng.choice(_animations(window)).toggle
    tab = window.tabs.currentWidget()
    controls = [
        w
        for w in (
            *tab.findChildren(IntControl),
            *tab.findChildren(LogControl),
            *tab.findChildren(QComboBox),
            *tab.findChildren(QCheckBox),
            *tab.findChildren(QSpinBox),
            *tab.findChildren(QDoubleSpinBox),
        )
        if w.isEnabled()
        and w.objectName()
        and not isinstance(w.parent(), IntControl)
        and not isinstance(w.parent(), LogControl)
    ]
    controls += [
        window.parameters.seq_len,
        window.parameters.d_model,
        window.parameters.theta,
        window.parameters.head_dim,
    ]
    control = rng.choice(controls)
    limits = {
        "seq_len": 3000,
        "d_model": 512,
        "head_dim": 256,
        "target_context": 70000,
        "original_context": 70000,
        "sweep_length": 70000,
        "n_heads": 128,
    }
    if isinstance(control, QComboBox):
        return lambda: control.setCurrentIndex(rng.randrange(control.count()))
    if isinstance(control, QCheckBox):
        return control.toggle
    box = control if isinstance(control, QSpinBox | QDoubleSpinBox) else control.box
    low, high = box.minimum(), min(box.maximum(), limits.get(control.objectName(), 1e9))
    if isinstance(control, LogControl):
        return lambda: control.setValue(np.exp(rng.uniform(np.log(low), np.log(high))))
    if isinstance(control, QDoubleSpinBox):
        return lambda: control.setValue(rng.uniform(low, high))
    return lambda: control.setValue(rng.randint(int(low), int(high)))


def storm(window, qtbot, rng: random.Random, steps: int) -> None:
    """``steps`` random actions, then every tab must show the frame of its final settings,
    equal to computing it afresh, with no error, no failure and bounded memory growth."""
    errors, failures = [], []
    window.engine.failed.connect(lambda channel, message: failures.append((channel, message)))
    hook = sys.excepthook
    sys.excepthook = lambda *exc: errors.append(exc)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        for step in range(steps):
            _random_action(window, rng)()
            if step % 25 == 0:
                qtbot.wait(1)
        for button in _animations(window):
            button.setChecked(False)
        for index in range(window.tabs.count()):
            tab = window.tab_at(index)
            window.tabs.setCurrentWidget(tab)
            try:
                tab.request()
            except ValueError as exc:  # settings that clash end refused: said, frame kept
                assert str(exc) in tab.message.text() and not tab.stale.isHidden(), tab.name
                continue
            qtbot.waitUntil(
                lambda tab=tab: tab.frame is not None and tab.frame.params == tab.request(),
                timeout=60_000,
            )
            qtbot.wait(200)  # nothing newer, nothing stale arrives afterwards
            assert tab.frame.params == tab.request(), tab.name
            expected = type(tab).compute(tab.request(), torch.device("cpu"))
            assert_same_frame(tab.frame, expected, tab.name)
    finally:
        sys.excepthook = hook
    assert errors == [] and failures == []
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) / 1024
    assert grown_mb < 600, f"memory grew by {grown_mb:.0f} MB"


@pytest.mark.slow
def test_storm_of_input_ends_with_the_right_frames(window, qtbot):
    storm(window, qtbot, random.Random(20261129), steps=2500)


@pytest.mark.slow
def test_closing_during_computation_and_animation_exits_cleanly():
    script = textwrap.dedent("""
        import os, time
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from PySide6.QtWidgets import QApplication
        from posenc_gui.window import MainWindow
        app = QApplication([])
        window = MainWindow(device="cpu")
        window.show()
        window.tabs.setCurrentWidget(window.tab("rope"))
        window.tab("rope").play.setChecked(True)
        window.parameters.seq_len.setValue(1 << 20)
        window.parameters.d_model.setValue(16384)
        app.processEvents()
        start = time.perf_counter()
        window.close()
        print(f"closed in {time.perf_counter() - start:.2f} s")
    """)
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    assert "QThread" not in result.stderr, result.stderr
    # the window goes at once; the computation in flight finishes on its own, never drawn
    assert float(result.stdout.split()[2]) < 1, result.stdout


def test_reads_are_bounded_and_only_of_regular_files(tmp_path):
    fifo = tmp_path / "config.json"
    os.mkfifo(fifo)  # opening it to read would wait for a writer forever
    with pytest.raises(ValueError, match="not a regular file"):
        read_file(fifo)
    with pytest.raises(ValueError, match="not a regular file"):
        read_file("/dev/zero")  # would never end
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 1_000_001)
    with pytest.raises(ValueError, match="larger than 1,000,000 bytes"):
        read_file(big)
    with pytest.raises(ValueError, match="No such file"):
        read_file(tmp_path / "missing.json")


def test_deep_json_is_refused_with_a_message_on_every_python():
    def nested(levels: int) -> bytes:
        return b'{"a": ' * levels + b"1" + b"}" * levels

    for levels in (101, 5000, 140_000):  # Python 3.12 parses 5000 levels; 3.11 does not
        with pytest.raises(ValueError, match=r"config\.json: nested too deeply .*more than 100"):
            parse_json(nested(levels), "config.json")
    deepest = parse_json(nested(100), "config.json")
    for _ in range(100):
        deepest = deepest["a"]
    assert deepest == 1
    # a string left open is invalid JSON, found as fast as a valid file is read
    with pytest.raises(ValueError, match="not valid JSON"):
        parse_json(b'["' + b'\\"[' * 300_000, "config.json")
    # brackets inside strings open nothing
    assert parse_json(b'{"a": "\\"' + b"[{" * 300 + b'\\\\", "b": [1]}', "x") == {
        "a": '"' + "[{" * 300 + "\\",
        "b": [1],
    }


def test_a_stale_part_file_of_a_killed_run_is_swept_by_the_next_write(tmp_path):
    target = tmp_path / "figure.png"
    stale = tmp_path / ".figure.png.abc123.part"  # what a kill -9 mid-write leaves
    stale.write_bytes(b"half a figure")
    other = tmp_path / ".other.png.abc123.part"  # another target's: not ours to touch
    other.write_bytes(b"")
    write_atomic(target, lambda temporary: temporary.write_bytes(b"whole"))
    assert target.read_bytes() == b"whole"
    assert not stale.exists() and other.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.png.abc123.part", "figure.png"]
