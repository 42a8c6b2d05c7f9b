"""Start-up, the command line and shutdown."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from tests.conftest import FRAME_TIMEOUT_MS

ROOT = Path(__file__).resolve().parents[1]


def printed_by_python(code: str) -> list[str]:
    """The lines ``code`` prints in a fresh interpreter, which must exit cleanly."""
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()


def run_in_process(args) -> int:
    """``posenc-gui ARGS`` in this process: its exit status (argparse's SystemExit included)."""
    from posenc_gui.cli import main

    try:
        return main(list(args))
    except SystemExit as exc:
        return int(exc.code or 0)


@pytest.mark.slow
def test_main_starts_draws_saves_and_closes(tmp_path, run_main):
    shot = tmp_path / "absolute.png"
    result = run_main("--device", "cpu", "--seq-len", "100", "--screenshot", str(shot))
    assert result.returncode == 0, result.stderr
    image = QImage(str(shot))
    assert image.width() >= 1000 and image.height() >= 600
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)
    }
    assert len(colours) > 200  # heatmaps and curves were drawn, not a blank window
    assert "QThread: Destroyed while thread is still running" not in result.stderr


@pytest.mark.slow
def test_start_up_makes_no_full_collection_and_freezes_what_it_made(tmp_path):
    """Torch, Qt, pyqtgraph and the window come without a full pass of Python's cycle
    collector over them, and are frozen out of later passes; collection then stays with the
    GUI thread's timer (Python's own is back only where no window was built)."""
    shot = tmp_path / "shot.png"
    code = (
        "import gc, os\n"
        "os.environ['QT_QPA_PLATFORM'] = 'offscreen'\n"
        "walked = []  # the objects each full pass walks\n"
        "gc.callbacks.append(lambda phase, info: phase == 'start' and info['generation'] == 2"
        " and walked.append(len(gc.get_objects())))\n"
        "from posenc_gui.cli import main\n"
        "print(main(['--device', 'mps']), gc.isenabled(), gc.get_freeze_count() > 100_000)\n"
        f"print(main(['--device', 'cpu', '--seq-len', '64', '--screenshot', {str(shot)!r}]))\n"
        "print(gc.isenabled(), walked)\n"
    )
    refused, shown, after = (printed_by_python(code)[i] for i in (0, -2, -1))
    assert refused == "2 True True"  # the modules frozen; no window: Python's own collects
    assert (shown, after) == ("0", "False []")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--seq-len", "0"), "--seq-len must be in [1, 1,048,576], got 0"),
        (("--d-model", "7"), "--d-model must be even, got 7"),
        (("--theta", "5"), "--theta must be in [10, 1e+12], got 5"),
        (("--d-model", "20000"), "--d-model must be in [2, 16,384], got 20,000"),
        (("--device", "tpu"), "argument --device: invalid choice: 'tpu'"),
        (
            ("--seq-len", "many"),
            "argument --seq-len: must be an integer in [1, 1,048,576], got 'many'",
        ),
        (
            ("--seq-len", "1.5"),
            "argument --seq-len: must be an integer in [1, 1,048,576], got '1.5'",
        ),
        (("--seq-len", "1e400"), "must be an integer in [1, 1,048,576], got '1e400'"),
        (("--theta", "nan"), "argument --theta: must be a number in [10, 1e+12], got 'nan'"),
        (("--seq-len", "２,０００,０００"), "--seq-len must be in [1, 1,048,576], got 2,000,000"),
        (("--d-model", "100000000"), "--d-model must be in [2, 16,384], got 100,000,000"),
        # a value argparse would take for an option ("expected one argument")
        (("--theta", "-1e3"), "--theta must be in [10, 1e+12], got -1,000"),
        (("--theta", "-inf"), "argument --theta: must be a number in [10, 1e+12], got '-inf'"),
        (("--screenshot", "x.svg"), "--screenshot: writes a PNG, so its name ends in .png"),
        (("--preset", ""), "--preset must be one of: Transformer base (2017)"),
        (  # options that would do nothing are refused, not dropped
            ("export", "--tab", "rope", "--view", "decay", "--size", "800x600", "--out", "d.csv"),
            "--size: not for a .csv file",
        ),
        (
            (
                "export",
                "--tab",
                "rope",
                "--view",
                "decay",
                "--scale",
                "2",
                "--caption",
                "--out",
                "d.svg",
            ),
            "--scale: not for a .svg file",
        ),
        (
            ("export", "--tab", "rope", "--page", "tables", "--view", "rotation", "--out", "r.png"),
            "--view rotation is on the rotation page of the rope tab, not on --page tables",
        ),
        (("--tab", "rope", "--page", "nowhere"), "page must be one of tables, rotation"),
        (("--tab", "absolute", "--page", "rotation"), "must be one of (none) on the absolute tab"),
        (("--page", "rotatoin"), "--page must be one of alibi, context, distances, dynamic"),
        (
            ("--page", "rotation", "--screenshot", "x.png"),
            "--page rotation is a page of the rope tab: give --tab (without it the absolute tab",
        ),
        (("--preset", "GPT-5"), "--preset must be one of: Transformer base (2017)"),
        (("--config", "/nonexistent/config.json"), "--config: /nonexistent/config.json: No such"),
        (("--config", "c" * 300 + ".json"), "File name too long"),
        (("--screenshot", "s" * 300 + ".png"), "--screenshot: " + "s" * 300 + ".png: cannot be"),
        (
            ("export", "--tab", "rope", "--view", "table", "--out", "o" * 300 + ".svg"),
            "File name too long",
        ),
        (("export", "--tab", "rope"), "the following arguments are required: --view, --out"),
        (("export", "--screenshot", "x.png"), "unrecognized arguments: --screenshot"),
        (("--head-dim", "7"), "--head-dim must be even, got 7"),
        (
            ("--preset", "Llama-3-8B", "--config", "config.json"),
            "--preset and --config both set a model's settings: give one of them",
        ),
        (("--tokens", "--seq-len", "64"), "--tokens sets seq_len to the sentence's length"),
    ],
)
def test_bad_arguments_exit_non_zero_with_a_message(args, message, qapp, capsys):
    assert run_in_process(args) == 2
    assert message in capsys.readouterr().err


def test_a_config_that_does_not_fit_is_refused_naming_the_file_and_the_key(qapp, tmp_path, capsys):
    config = tmp_path / "huge.json"
    config.write_text(
        '{"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072,'
        ' "rope_scaling": {"rope_type": "llama3", "factor": 1e308, "low_freq_factor": 1.0,'
        ' "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}',
        encoding="utf-8",
    )
    args = ["export", "--tab", "extension", "--view", "ratio", "--config", str(config)]
    assert run_in_process([*args, "--out", str(tmp_path / "ratio.csv")]) == 2
    assert capsys.readouterr().err == (
        f"posenc-gui: error: --config: {config}: rope_scaling.factor must be a number in "
        "[1, 1,024], got 1e+308\n"
    )


def test_a_page_without_a_tab_is_taken_where_a_preset_or_session_chooses_the_tab(tmp_path):
    from posenc_gui.cli import parse_args

    shot = str(tmp_path / "x.png")
    preset = "Qwen3-VL-8B (M-RoPE interleaved 24/20/20)"  # it brings the Multimodal tab
    args = parse_args(["--preset", preset, "--page", "sequence", "--screenshot", shot])
    assert args.page == "sequence" and args.tab is None
    assert parse_args(["--page", "rotation"]).page == "rotation"  # the last session's tab


@pytest.mark.parametrize("model", ["preset", "config"])
def test_values_given_on_the_command_line_win_over_a_presets(qapp, tmp_path, model):
    """``--preset Llama-3-8B --theta 10000 --head-dim 64``: θ 10,000 and 64 dims, not the
    preset's 500,000 and 128 (they were set first, then silently replaced)."""
    from posenc_gui.cli import parse_args
    from posenc_gui.run import _apply_options, _open

    config = tmp_path / "config.json"
    config.write_text(
        '{"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,'
        ' "rope_theta": 500000.0, "max_position_embeddings": 8192}',
        encoding="utf-8",
    )
    chosen = ["--preset", "Llama-3-8B"] if model == "preset" else ["--config", str(config)]
    args = parse_args([*chosen, "--theta", "10000", "--head-dim", "64", "--device", "cpu"])
    window = _open(args, interactive=False)
    try:
        _apply_options(window, args)
        assert window.parameters.theta.value() == 10000.0
        assert window.parameters.head_dim.value() == 64
    finally:
        window.close()


@pytest.mark.slow
def test_python_dash_m_entry_prints_version():
    result = subprocess.run(
        [sys.executable, "-m", "posenc_gui", "--version"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert result.returncode == 0
    assert result.stdout.startswith("posenc-gui ")


def test_closing_the_window_stops_the_engine(qtbot):
    from posenc_gui.window import MainWindow

    win = MainWindow(device="cpu")
    qtbot.addWidget(win)
    win.show()
    win.parameters.seq_len.setValue(4000)  # a computation in flight while closing
    win.close()
    assert not win.engine.is_running()


@pytest.mark.slow
def test_a_window_deleted_at_once_after_a_grab_is_deleted_cleanly():
    """As at exit, a window never closed: deleting it resizes the plots' titles while their
    plots are being deleted (a title that read its deleted plot crashed the interpreter, so
    this runs in one of its own)."""
    code = (
        "import time\n"
        "from posenc_gui.app import application\n"
        "app = application()\n"
        "from shiboken6 import delete\n"
        "from posenc_gui.views.style import Look\n"
        "from posenc_gui.window import MainWindow\n"
        "win = MainWindow(device='cpu', look=Look(presentation=True))  # titles that wrap\n"
        "win.resize(1280, 720)\n"
        "win.show()\n"
        "rope = win.tab('rope')\n"
        "win.tabs.setCurrentWidget(rope)\n"
        "deadline = time.monotonic() + 60\n"
        "while rope.frame is None and time.monotonic() < deadline:\n"
        "    app.processEvents()\n"
        "    time.sleep(0.01)\n"
        "win.grab()\n"
        "win.before_exit()\n"
        "delete(win)\n"
        "print('deleted', rope.frame is not None)\n"
    )
    assert printed_by_python(code) == ["deleted True"]


def test_the_first_frame_is_computed_and_drawn_once(qtbot, owned, monkeypatch):
    """A window built, set from a session and shown computes nothing until the event loop
    runs and its layouts settle: only the last request, at the sizes its views are laid out
    at, is computed. Its drawing (a new extent in every view, the range moved there) asks
    for no frame of its own. (A window shown before makes the next one lay out over several
    rounds of the event loop.)"""
    from posenc_gui.tabs.absolute.tab import AbsoluteTab
    from posenc_gui.window import MainWindow, open_window

    before = owned(MainWindow(device="cpu"))
    before.show()
    before.close()

    computed = []
    compute = AbsoluteTab.compute

    def counted(params, device):
        computed.append(params)
        return compute(params, device)

    monkeypatch.setattr(AbsoluteTab, "compute", staticmethod(counted))
    session = {"parameters": {"seq_len": 300, "theta": 500.0}}
    session["tabs"] = {"absolute": {"controls": {"reference_position": 7}}}
    win = owned(open_window(session, device="cpu"))
    drawn: list[str] = []
    win.engine.frame_drawn.connect(lambda channel, _request, _ms: drawn.append(channel))
    win.resize(1500, 950)
    win.show()
    qtbot.waitUntil(lambda: bool(drawn), timeout=FRAME_TIMEOUT_MS)
    qtbot.wait(1500)  # past the axes giving back room (SHRINK_AFTER_MS), and its layout
    assert drawn == ["absolute"]
    assert [(p.seq_len, p.theta, p.reference_position) for p in computed] == [(300, 500.0, 7)]
    assert computed[0] == win.tab("absolute").request()  # at the views' laid-out sizes


def test_the_window_loads_only_the_tab_it_shows():
    """The other tabs' modules load when each is first built: the window lists the tabs and
    presets from the specs."""
    code = (
        "import os, sys\n"
        "os.environ['QT_QPA_PLATFORM'] = 'offscreen'\n"
        "from posenc_gui.app import application\n"
        "from posenc_gui.window import MainWindow\n"
        "app = application()\n"
        "window = MainWindow(device='cpu')\n"
        "print(sorted(m for m in sys.modules if m.startswith('posenc_gui.tabs.')"
        " and m.endswith('.tab')))\n"
        "print([window.tabs.tabText(i) for i in range(window.tabs.count())])\n"
        "print(len(window.presets))\n"
    )
    loaded, titles, presets = printed_by_python(code)[-3:]
    assert loaded == "['posenc_gui.tabs.absolute.tab']"
    assert titles == str(
        ["Absolute", "Relative", "RoPE", "Context extension", "Multimodal RoPE", "Compare"]
    )
    assert int(presets) > 10


@pytest.mark.slow
def test_no_page_loads_symbolic_maths_for_its_frames():
    """Every page of every tab computes its frame without loading sympy, which some torch
    helpers import on their first call (torch.broadcast_shapes did, for the RoPE decay curves:
    0.3–0.4 s and 60 MB on the worker, holding the interpreter's lock from the GUI thread)."""
    code = (
        "import os, sys, time\n"
        "os.environ['QT_QPA_PLATFORM'] = 'offscreen'\n"
        "from posenc_gui.app import application\n"
        "from posenc_gui.window import MainWindow\n"
        "app = application()\n"
        "window = MainWindow(device='cpu')\n"
        "window.show()\n"
        "drawn = set()\n"
        "window.engine.frame_drawn.connect(lambda channel, _id, _ms: drawn.add(channel))\n"
        "for index in range(window.tabs.count()):\n"
        "    tab = window.tab_at(index)\n"
        "    window.tabs.setCurrentWidget(tab)\n"
        "    for page in tab.page_names() or [None]:\n"
        "        if page:\n"
        "            tab.show_page(page)\n"
        "        end = time.monotonic() + 60\n"
        "        while (tab.is_waiting() or tab.name not in drawn) and time.monotonic() < end:\n"
        "            app.processEvents()\n"
        "            time.sleep(0.002)\n"
        "        assert not tab.is_waiting(), (tab.name, page)\n"
        "print(sorted(drawn))\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'sympy', 'mpmath'}))\n"
        "window.close()\n"
    )
    channels, symbolic = printed_by_python(code)[-2:]
    assert {"absolute", "relative", "rope", "extension", "multimodal", "compare"} <= set(
        eval(channels)  # a printed list of the channels that drew a frame
    )
    assert symbolic == "[]"


def test_menus_have_quit_and_about(window):
    from PySide6.QtGui import QAction

    names = {action.objectName() for action in window.findChildren(QAction)}
    assert {"quit", "about", "device_cpu"} <= names


def test_chinese_glyphs_come_from_a_system_cjk_font_when_one_is_installed(qapp):
    from PySide6.QtGui import QFont

    from posenc_gui.app import CJK_FALLBACK, with_cjk_fonts

    base = QFont("DejaVu Sans")
    with_noto = with_cjk_fonts(base, ["DejaVu Sans", "Noto Sans CJK SC", "Arial"])
    assert with_noto.families() == ["DejaVu Sans", "Noto Sans CJK SC", CJK_FALLBACK]
    bare = with_cjk_fonts(base, ["DejaVu Sans"])
    assert bare.families() == ["DejaVu Sans", CJK_FALLBACK]
    assert with_cjk_fonts(with_noto, ["Noto Sans CJK SC"]).families() == with_noto.families()


def test_help_names_the_commands_with_examples(capsys):
    from posenc_gui.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    assert "posenc-gui export [options]" in text and "examples:" in text
    assert "posenc-gui export --list-views" in text


def test_export_help_offers_only_what_export_does(capsys):
    from posenc_gui.cli import main

    with pytest.raises(SystemExit):
        main(["export", "--help"])
    text = capsys.readouterr().out
    assert "--out" in text and "--view" in text and "--screenshot" not in text


def test_export_list_views_works_alone(qapp, capsys):
    assert run_in_process(["export", "--list-views"]) == 0
    assert "rope table" in capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("args", [["--help"], ["--seq-len", "0"], ["--preset", "nope"]])
def test_arguments_are_checked_before_qt_and_torch_load(args):
    code = (
        "import sys\n"
        "from posenc_gui.cli import main\n"
        "try:\n"
        f"    main({args!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('torch', 'PySide6', 'pyqtgraph')\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(heavy)))\n"
    )
    assert printed_by_python(code)[-1] == "[]"


def test_presets_are_found_in_any_case_with_x_for_times():
    from posenc_gui import registry
    from posenc_gui.presets import find_preset, load_presets

    presets = load_presets(registry.preset_kinds())
    found = find_preset(presets, "  qwen2.5-7b-instruct   + YARN x4 ")
    assert found.name == "Qwen2.5-7B-Instruct + YaRN ×4"
    with pytest.raises(ValueError, match="preset must be one of"):
        find_preset(presets, "GPT-5")


@pytest.mark.parametrize(
    ("environ", "library", "platform", "hint"),
    [
        ({"DISPLAY": ":0"}, None, "linux", "libxcb-cursor0"),
        ({"DISPLAY": ":0"}, "libxcb-cursor.so.0", "linux", None),
        ({}, "libxcb-cursor.so.0", "linux", "no display"),
        ({"QT_QPA_PLATFORM": "offscreen"}, None, "linux", None),
        ({"XDG_SESSION_TYPE": "wayland"}, None, "linux", None),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"}, None, "linux", "apt install libxcb-cursor0"),
        ({}, None, "darwin", None),
    ],
)
def test_a_start_that_qt_would_fail_prints_the_fix_first(environ, library, platform, hint):
    from posenc_gui.app import missing_platform_library

    found = missing_platform_library(environ, lambda name: library, platform)
    assert (found is None) if hint is None else (hint in found)


def test_a_file_that_is_not_json_is_refused_before_anything_loads(tmp_path, capsys):
    from posenc_gui.cli import main

    bad = tmp_path / "config.json"
    bad.write_text('{"rope_theta": 1e6,', encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        main(["--config", str(bad)])
    assert exit_.value.code == 2
    assert f"--config: {bad}: not valid JSON" in capsys.readouterr().err


def test_a_window_kept_until_closed_is_deleted_and_released_when_closed(qtbot):
    import gc
    import weakref

    from PySide6.QtCore import QCoreApplication, QEvent

    from posenc_gui.teardown import keep_until_closed
    from posenc_gui.window import MainWindow

    window = MainWindow(device="cpu")
    window.show()
    keep_until_closed(window)
    kept = weakref.ref(window)
    del window
    gc.collect()
    assert kept() is not None and kept().isVisible()  # nothing else owns it: still open
    kept().close()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    assert kept() is None  # deleted by Qt, and its Python side let go


def test_a_combo_box_too_narrow_for_its_choice_ends_it_with_an_ellipsis(qtbot):
    from PySide6.QtWidgets import QComboBox

    from posenc_gui.app import InterfaceStyle

    class Recording(InterfaceStyle):
        def __init__(self) -> None:
            super().__init__()
            self.drawn: list[tuple[str, int]] = []  # each text, and the width it is drawn in

        def drawItemText(self, painter, rect, flags, palette, enabled, text, role=None) -> None:
            self.drawn.append((text, rect.width()))
            super().drawItemText(painter, rect, flags, palette, enabled, text, role)

    style = Recording()
    box = QComboBox()
    qtbot.addWidget(box)
    box.setStyle(style)
    box.addItem("interleaved (Meta LLaMA, GPT-J)")
    for narrow in range(120, 200, 3):
        box.resize(narrow, 30)
        box.grab()
        shown, width = style.drawn[-1]
        assert shown.startswith("interleaved") and shown.endswith("…")
        assert box.fontMetrics().horizontalAdvance(shown) <= width, narrow  # nothing cut off
    box.resize(600, 30)  # room enough: the choice whole
    box.grab()
    assert style.drawn[-1][0] == "interleaved (Meta LLaMA, GPT-J)"


# The app started from a terminal, and a line once its event loop runs.
STARTED_FROM_A_TERMINAL = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
exec_ = QApplication.exec
def say_running_then_exec(*_):
    QTimer.singleShot(0, lambda: print("running", flush=True))
    return exec_()
QApplication.exec = say_running_then_exec
from posenc_gui.cli import main
sys.exit(main(["--device", "cpu", "--seq-len", "77"]))
"""


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_or_sigterm_closes_the_app_as_its_close_button_does(tmp_path, number):
    child = subprocess.Popen(
        [sys.executable, "-c", STARTED_FROM_A_TERMINAL],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=os.environ | {"QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path)},
    )
    try:
        assert child.stdout.readline() == "running\n"
        child.send_signal(number)
        _, err = child.communicate(timeout=30)
    finally:
        child.kill()
        child.wait()
    assert child.returncode == 0 and "Traceback" not in err, err
    kept = (tmp_path / "posenc-gui" / "posenc-gui.ini").read_text()
    assert "seq_len" in kept and "77" in kept  # the session kept, as a close keeps it


OPENED_FROM_A_LARGER_SCREEN = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from posenc_gui.session import FORMAT, VERSION, remember
from posenc_gui.window import MainWindow
window = {"x": 3000, "y": 2000, "width": 5000, "height": 4000, "maximized": False}
remember({"format": FORMAT, "version": VERSION, "window": window})  # a 5K monitor's
exec_ = QApplication.exec
def say_where_then_close(*_):
    app = QApplication.instance()
    def say() -> None:
        (shown,) = [w for w in app.topLevelWidgets() if isinstance(w, MainWindow)]
        least = shown.minimumSizeHint().expandedTo(shown.minimumSize())
        least += shown.frameGeometry().size() - shown.geometry().size()  # with its frame
        print(shown.frameGeometry().getRect(), shown.screen().availableGeometry().getRect())
        print(least.width(), least.height())
        shown.close()
    QTimer.singleShot(0, say)
    return exec_()
QApplication.exec = say_where_then_close
from posenc_gui.cli import main
sys.exit(main(["--device", "cpu"]))
"""


@pytest.mark.slow
def test_a_session_from_a_larger_screen_opens_on_this_one(tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", OPENED_FROM_A_LARGER_SCREEN],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=os.environ | {"QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr
    rects, least = result.stdout.strip().splitlines()
    (x, y, width, height), (left, top, screen_width, screen_height) = (
        tuple(map(int, part.strip("( ").split(", "))) for part in rects.rstrip(")").split(") (")
    )
    least_width, least_height = map(int, least.split())
    # on the screen, and no larger than it (but where the window cannot be smaller: the
    # offscreen platform's screen is 800 × 800)
    assert (x, y) == (left, top)
    assert width <= max(screen_width, least_width) and height <= max(screen_height, least_height)


def test_latin_text_keeps_the_system_s_sans_once_chinese_fallbacks_are_added(qapp):
    # "Sans Serif" followed by fallbacks resolved to the bundled CJK font: Latin came out in its
    # narrower glyphs, and an SVG's words, drawn by a viewer's own sans, ran into each other
    from PySide6.QtGui import QFont, QFontInfo

    from posenc_gui.app import CJK_FALLBACK, install_fonts

    system = QFontInfo(QFont("Sans Serif")).family()
    install_fonts(qapp)
    assert system != CJK_FALLBACK
    assert QFontInfo(qapp.font()).family() == system
    assert qapp.font().families()[-1] == CJK_FALLBACK  # Chinese still has its glyphs


def test_the_shared_sizes_are_typed_as_the_number_boxes_take_them():
    from posenc_gui.cli import parse_args

    args = parse_args(["--seq-len", "1e3", "--d-model", "２５６", "--theta", "500,000"])
    assert (args.seq_len, args.d_model, args.theta) == (1000, 256, 500_000.0)
    assert type(args.seq_len) is int and type(args.d_model) is int


def test_a_screenshot_that_cannot_be_written_names_the_option(qapp, tmp_path, monkeypatch, capsys):
    import errno

    import posenc_gui.run

    def disk_full(image, path) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(posenc_gui.run, "save_png", disk_full)
    shot = tmp_path / "shot.png"
    assert run_in_process(["--seq-len", "16", "--screenshot", str(shot)]) == 1
    assert f"posenc-gui: error: --screenshot: {shot}: cannot be written (No space left" in (
        capsys.readouterr().err
    )
    assert not shot.exists()


def test_a_config_outside_the_app_s_ranges_is_named_once(qapp, tmp_path, capsys):
    config = tmp_path / "huge.json"
    config.write_text('{"head_dim": 64, "rope_theta": 1e300}', encoding="utf-8")
    assert run_in_process(["--config", str(config), "--screenshot", str(tmp_path / "x.png")]) == 2
    assert capsys.readouterr().err == (
        f"posenc-gui: error: --config: {config}: rope_theta 1e+300 is outside the app's range "
        "10 … 1e+12\n"
    )
