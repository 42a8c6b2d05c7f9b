"""Sessions: every tab's settings round-trip through a versioned JSON file and QSettings; a
corrupt or foreign file is refused with a message and changes nothing."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from posenc_gui.session import FORMAT, VERSION, last_session, parse_session, remember
from tests.conftest import FRAME_TIMEOUT_MS


def change_everything(window) -> None:
    """Move a setting on every tab (and a shared one) away from its default."""
    window.parameters.seq_len.setValue(300)
    window.parameters.theta.setValue(500000.0)
    window.tab("absolute").layout_choice.setCurrentIndex(1)
    window.tab("absolute").dimensions.setText("1, 3")
    window.tab("relative").n_heads.setValue(12)
    window.tab("relative").head.setValue(11)  # its range follows n_heads
    window.tab("relative").causal.setChecked(False)
    window.tab("rope").query_position.setValue(250)  # its range follows seq_len
    window.tab("rope").dtype.setCurrentIndex(0)
    window.tab("rope").show_page("precision")
    window.tab("extension").beta_fast.setValue(16.0)
    window.tab("compare").setting_controls["max_relative_position"].setValue(40)
    window.tabs.setCurrentWidget(window.tab("rope"))


def test_a_saved_session_restores_every_setting_in_a_new_window(window, qtbot, tmp_path):
    from posenc_gui.window import MainWindow

    longrope = next(p for p in window.presets if p.rope and p.rope.method == "longrope")
    window.apply_preset(longrope)
    change_everything(window)
    saved = window.session()
    window.save_session(tmp_path / "lecture.json")
    data = json.loads((tmp_path / "lecture.json").read_text(encoding="utf-8"))
    assert (data["format"], data["version"]) == (FORMAT, VERSION)

    other = MainWindow(device="cpu")
    qtbot.addWidget(other)
    assert other.session() != saved
    other.load_session(tmp_path / "lecture.json")
    assert other.session() == saved
    assert other.tab("relative").head.value() == 11
    assert other.tab("rope").query_position.value() == 250
    assert other.tab("extension").scaling().short_factor  # the LongRoPE lists came too
    other.close()


CORRUPT = [
    (b"\xff\xfe not text", "not UTF-8 text"),
    (b"{", "not valid JSON"),
    (b"[" * 3000 + b"]" * 3000, "nested too deeply"),
    (b"[1, 2]", "not a posenc-gui session"),
    (json.dumps({"format": "something else", "version": 1}).encode(), "not a posenc-gui session"),
    (json.dumps({"format": FORMAT, "version": 99}).encode(), "version 99 cannot be read"),
    (
        json.dumps({"format": FORMAT, "version": 1, "look": {"theme": "sepia"}}).encode(),
        "theme must be one of light, dark",
    ),
    (
        json.dumps({"format": FORMAT, "version": 1, "look": {"presentation": "yes"}}).encode(),
        "presentation must be true or false, got 'yes'",
    ),
    (
        json.dumps({"format": FORMAT, "version": 1, "language": "fr"}).encode(),
        "language must be one of en, zh_CN",
    ),
    (
        json.dumps({"format": FORMAT, "version": 1, "tabs": {"fourier": {}}}).encode(),
        "no tab named fourier",
    ),
    (
        json.dumps(
            {"format": FORMAT, "version": 1, "tabs": {"rope": {"controls": {"spin": 1}}}}
        ).encode(),
        "rope: no setting named spin",
    ),
    (
        json.dumps({"format": FORMAT, "version": 1, "parameters": {"seq_len": 0}}).encode(),
        r"seq_len must be a number in \[1, 1,048,576\], got 0",
    ),
    (
        json.dumps({"format": FORMAT, "version": 1, "parameters": {"d_model": 7}}).encode(),
        "d_model must be a multiple of 2, got 7",
    ),
    (
        json.dumps(
            {"format": FORMAT, "version": 1, "tabs": {"relative": {"controls": {"causal": "yes"}}}}
        ).encode(),
        "causal must be true or false",
    ),
    (
        json.dumps(
            {"format": FORMAT, "version": 1, "tabs": {"rope": {"controls": {"layout": "diagonal"}}}}
        ).encode(),
        "layout must be one of interleaved, half, got 'diagonal'",
    ),
    (
        json.dumps(
            {
                "format": FORMAT,
                "version": 1,
                "tabs": {"rope": {"controls": {"dtype": "float16"}, "page": "nowhere"}},
            }
        ).encode(),
        "page must be one of",
    ),
    (
        json.dumps({"format": FORMAT, "version": 1, "look": {"theme": "dark", "zz": 1}}).encode(),
        r"^bad\.json: look: no setting named 'zz' \(it has theme, presentation,",
    ),
    (
        json.dumps({"format": FORMAT, "version": True}).encode(),  # True == 1 in Python
        r"bad\.json: session version True cannot be read",
    ),
    (
        b'{"format": "posenc-gui session", "version": 1, "parameters": {"seq_len": '
        + b"9" * 5000
        + b"}}",
        "bad.json: holds a whole number of more than 4,300 digits",
    ),
]


@pytest.fixture(scope="module")
def changed_window(qapp):
    """One window with every tab moved off its defaults, shared by the refusal cases: each
    refusal must leave it exactly as it was, so they can share it."""
    from posenc_gui.window import MainWindow

    window = MainWindow(device="cpu")
    window.show()
    change_everything(window)
    yield window
    window.close()


@pytest.mark.parametrize(("data", "message"), CORRUPT)
def test_corrupt_or_foreign_sessions_are_refused_and_change_nothing(
    changed_window, tmp_path, data, message
):
    window = changed_window
    before = window.session()
    assert before["parameters"]["seq_len"] == 300 and len(before["tabs"]) == 5
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    with pytest.raises(ValueError, match=message):
        window.load_session(path)
    assert window.session() == before


def test_the_last_session_is_kept_in_qsettings():
    session = {"format": FORMAT, "version": VERSION, "parameters": {"seq_len": 77}}
    remember(session)
    assert last_session() == session
    assert parse_session(json.dumps(session).encode()) == session


def test_closing_an_interactive_window_keeps_its_session(window):
    change_everything(window)
    window.remember = True
    expected = window.session()
    window.close()
    assert last_session() == expected


@pytest.mark.slow
def test_a_plain_start_restores_the_last_session(run_main, tmp_path):
    remember({"format": FORMAT, "version": VERSION, "parameters": {"d_model": 48}})
    listing = run_main("--list-views")  # not interactive: the kept session is not used
    assert listing.returncode == 0
    session = tmp_path / "s.json"
    session.write_text(
        json.dumps({"format": FORMAT, "version": VERSION, "parameters": {"head_dim": 16}})
    )
    out = tmp_path / "spectrum.csv"
    result = run_main(
        "export",
        "--tab",
        "rope",
        "--view",
        "spectrum",
        "--session",
        str(session),
        "--out",
        str(out),
    )
    assert result.returncode == 0, result.stderr
    rows = out.read_text(encoding="utf-8").splitlines()
    assert len(rows) == 1 + 8  # a header, then head_dim 16 from the session: 8 pairs


@pytest.mark.slow
def test_a_bad_session_on_the_command_line_exits_with_one_line(run_main, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "posenc-gui session", "version": 7}')
    result = run_main(
        "export",
        "--tab",
        "rope",
        "--view",
        "table",
        "--session",
        str(bad),
        "--out",
        str(tmp_path / "t.png"),
    )
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if "posenc-gui: error" in line]
    assert errors == [
        "posenc-gui: error: --session: bad.json: session version 7 cannot be read "
        "(this posenc-gui reads version 1)"
    ]
    assert not (tmp_path / "t.png").exists()


def test_the_window_comes_back_where_it_was_and_maximised(window, qtbot):
    from posenc_gui.window import MainWindow

    window.setGeometry(40, 50, 1111, 777)
    session = window.session()
    assert session["window"] == {"x": 40, "y": 50, "width": 1111, "height": 777, "maximized": False}
    other = MainWindow(device="cpu")
    qtbot.addWidget(other)
    other.apply_session(session)
    assert (other.width(), other.height()) == (1111, 777)
    maximised = session | {"window": session["window"] | {"maximized": True}}
    other.apply_session(maximised)
    assert other.windowState() & Qt.WindowState.WindowMaximized
    assert other.session()["window"]["maximized"] is True
    with pytest.raises(ValueError, match=r"window.width must be a whole number in \[200"):
        other.apply_session(session | {"window": session["window"] | {"width": "wide"}})
    # no desktop is 100,000 px wide: such a window stalled the app asking for gigabytes
    with pytest.raises(ValueError, match=r"window.height must be a whole number in \[150, 16384\]"):
        other.apply_session(session | {"window": session["window"] | {"height": 100_000}})
    assert other.windowState() & Qt.WindowState.WindowMaximized  # the refusals changed nothing
    other.close()


def test_a_session_with_a_byte_order_mark_is_read():
    session = {"format": FORMAT, "version": VERSION, "parameters": {"seq_len": 77}}
    assert parse_session(b"\xef\xbb\xbf" + json.dumps(session).encode()) == session


@pytest.mark.parametrize(
    ("kept", "reason"),
    [
        (["not", "a", "session"], "the settings file holds a list, not a session"),
        ("{broken", "last session: not valid JSON"),
        ('{"format": "posenc-gui session", "version": 1, "language": []}', "language must be"),
        ('{"format": "posenc-gui session", "version": 1, "tab": {}}', "tab must be one of"),
        (
            '{"format": "posenc-gui session", "version": 1, "parameters": {"seq_len": "many"}}',
            "parameters: seq_len",
        ),
        (
            '{"format": "posenc-gui session", "version": 1, '
            '"tabs": {"rope": {"controls": {"position": [1, [2]]}}}}',
            "rope: position",
        ),
    ],
)
def test_corrupt_kept_settings_are_reported_once_and_replaced(qapp, kept, reason):
    from posenc_gui.cli import parse_args
    from posenc_gui.run import _open
    from posenc_gui.session import _settings
    from posenc_gui.window import MainWindow

    store = _settings()
    store.setValue("last_session", kept)
    store.sync()
    window = _open(parse_args(["--device", "cpu"]), interactive=True)
    message = window.statusBar().currentMessage()
    assert message.startswith("Last session not restored: ") and reason in message, message
    fresh = MainWindow(device="cpu")
    assert window.session()["parameters"] == fresh.session()["parameters"]  # the defaults
    fresh.close()
    window.close()
    assert last_session() is not None  # replaced by a readable session: the next start is clean
    again = _open(parse_args(["--device", "cpu"]), interactive=True)
    assert again.statusBar().currentMessage() == ""
    again.close()


def test_the_file_menus_shortcuts_open_save_and_export(window, qtbot, monkeypatch):
    """Ctrl+O opens a session, Ctrl+Shift+S saves one, Ctrl+E exports a view."""
    from posenc_gui import menus

    asked = []
    for kind in ("open_session", "save_session", "export"):
        monkeypatch.setattr(menus, f"_{kind}", lambda _window, kind=kind: asked.append(kind))
    window.activateWindow()
    qtbot.waitActive(window)
    control, shift = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(window, Qt.Key.Key_O, control)
    qtbot.keyClick(window, Qt.Key.Key_S, control | shift)
    qtbot.keyClick(window, Qt.Key.Key_E, control)
    assert asked == ["open_session", "save_session", "export"]


@pytest.mark.parametrize("theme", ["light", "dark"], ids=["applied", "rebuilt"])
def test_a_session_file_from_a_larger_screen_opens_on_this_one(window, tmp_path, theme):
    """File → Open session, with a placement on a 5K monitor: the window comes back onto this
    screen, whether the session applies to it or rebuilds it (another theme)."""
    session = window.session()
    session["window"] = {"x": 3000, "y": 2000, "width": 5000, "height": 4000, "maximized": False}
    session["look"]["theme"] = theme
    (tmp_path / "5k.json").write_text(json.dumps(session), encoding="utf-8")
    window.load_session(tmp_path / "5k.json")
    shown = window._successor() if theme == "dark" else window
    screen, frame = shown.screen().availableGeometry(), shown.frameGeometry()
    least = shown.minimumSizeHint().expandedTo(shown.minimumSize())
    least += frame.size() - shown.geometry().size()  # with its frame
    assert shown.isVisible() and frame.topLeft() == screen.topLeft()
    # no larger than the screen, but where the window cannot be smaller (the offscreen
    # platform's screen is 800 × 800)
    assert frame.width() <= max(screen.width(), least.width())
    assert frame.height() <= max(screen.height(), least.height())


def test_what_a_session_or_preset_changed_is_said_exactly():
    """The status bar's summary: 1,048,576, not 1.04858e+06 (the value rounded to 6 digits)."""
    from posenc_gui.session import changes

    before = {
        "parameters": {"theta": 10000.0, "head_dim": 128},
        "tabs": {"extension": {"controls": {"target_context": 32768.0, "factor": 4.0}}},
    }
    after = {
        "parameters": {"theta": 500000.0, "head_dim": 128},
        "tabs": {"extension": {"controls": {"target_context": 10485760.0, "factor": 0.25}}},
    }
    assert changes(before, after) == [
        "theta 10,000 → 500,000",
        "extension.target_context 32,768 → 10,485,760",
        "extension.factor 4 → 0.25",
    ]


def test_a_session_redraws_what_no_control_shows(window, qtbot):
    """LongRoPE's factor lists are no control's: a session that changes only them still
    redraws the tab (it kept the figure of the lists before)."""
    import numpy as np

    from posenc_gui.export_data import view_table

    extension = window.tab("extension")
    window.tabs.setCurrentWidget(extension)
    session = window.session()
    state = session["tabs"]["extension"]
    state["page"] = "frequencies"
    state["controls"].update(method="longrope", target_context=65536.0, original_context=8192.0)
    pairs = window.parameters.head_dim.value() // 2
    drawn = []
    for factor in (4.0, 16.0):
        state["longrope"] = {"short_factor": [factor] * pairs, "long_factor": [factor] * pairs}
        window.apply_session(session)
        qtbot.waitUntil(
            lambda factor=factor: (
                extension.frame is not None
                and extension.frame.params.scaling.long_factor[0] == factor
                and not extension.is_waiting()
            ),
            timeout=FRAME_TIMEOUT_MS,
        )
        ratios = view_table(extension.view_names()["ratio"])[:, 1:]
        drawn.append(set(np.unique(ratios[np.isfinite(ratios)])))
    assert drawn == [{0.25}, {0.0625}]  # θ′ᵢ/θᵢ = 1/factor for every pair
