"""Shared fixtures. Qt runs offscreen; set before anything imports Qt."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# QSettings (the last session) goes to a throwaway folder, never the user's own.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="posenc-gui-tests-")

import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import shiboken6

FRAME_TIMEOUT_MS = 20_000
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def owned() -> Iterator[Callable]:
    """``owned(window)``: close ``window`` after the test unless a rebuild already deleted it
    (``qtbot.addWidget`` would close a deleted window)."""
    windows: list = []
    yield lambda win: windows.append(win) or win
    for win in windows:
        if shiboken6.isValid(win):
            win.close()


@pytest.fixture
def window(qtbot, owned) -> Iterator:
    """A shown main window on the CPU whose first frame has been drawn."""
    from posenc_gui.window import MainWindow

    win = owned(MainWindow(device="cpu"))
    win.show()
    qtbot.waitUntil(
        lambda: win.tab("absolute").table_view.image.image is not None, timeout=FRAME_TIMEOUT_MS
    )
    return win


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """Tests that switch the interface language leave English behind them."""
    yield
    i18n = sys.modules.get("posenc_gui.i18n")
    if i18n is not None and i18n.language() != "en":
        i18n.set_language("en")


@pytest.fixture
def drive(qtbot) -> Callable:
    """``drive(window, action, channel)``: run ``action`` and wait until its frame is drawn."""

    def run(win, action: Callable[[], object], channel: str = "absolute") -> None:
        def current(ch: str, request_id: int, _ms: float) -> bool:
            return ch == channel and win.engine.is_current(ch, request_id)

        with qtbot.waitSignal(
            win.engine.frame_drawn, timeout=FRAME_TIMEOUT_MS, check_params_cb=current
        ):
            action()

    return run


@pytest.fixture
def run_main() -> Callable[..., subprocess.CompletedProcess]:
    """``run_main(*args)``: run ``main.py`` headless in a subprocess and return its result."""

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, str(ROOT / "main.py"), *args],
            capture_output=True,
            text=True,
            timeout=180,
            cwd=ROOT,
            env=os.environ | {"QT_QPA_PLATFORM": "offscreen"},
        )

    return run


@contextmanager
def _look_kept() -> Iterator[None]:
    """The look views are built in (pyqtgraph's colours too) and the application's font and
    palette (a window's look sets them: ``app.apply_palette``) as they were, afterwards."""
    import pyqtgraph as pg
    from PySide6.QtWidgets import QApplication

    from posenc_gui.views.style import current_look, set_look

    before = current_look()
    names = ("background", "foreground", "antialias", "imageAxisOrder")  # those set_look sets
    options = {name: pg.getConfigOption(name) for name in names}
    app = QApplication.instance()
    font, palette = (app.font(), app.palette()) if isinstance(app, QApplication) else (None, None)
    try:
        yield
    finally:
        set_look(before)
        pg.setConfigOptions(**options)
        app = QApplication.instance()
        if isinstance(app, QApplication) and font is not None and palette is not None:
            if app.font() != font:
                app.setFont(font)
            if app.palette() != palette:
                app.setPalette(palette)


@pytest.fixture(autouse=True)
def _each_test_keeps_the_look() -> Iterator[None]:
    """A window built in another look (presentation, dark) makes it the look of every view
    built after it: views of the next test in the same process were built in it."""
    with _look_kept():
        yield


@pytest.fixture
def light_look():
    """Views built in the app's default look (pyqtgraph's colours too), restored after."""
    from posenc_gui.views.style import Look, set_look

    with _look_kept():
        set_look(Look())
        yield
