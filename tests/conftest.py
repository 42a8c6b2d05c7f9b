"""Shared fixtures. Qt runs offscreen; set before anything imports Qt."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Callable, Iterator

import pytest

FRAME_TIMEOUT_MS = 20_000


@pytest.fixture
def window(qtbot) -> Iterator:
    """A shown main window on the CPU whose first frame has been drawn."""
    from posenc_gui.app import MainWindow

    win = MainWindow(device="cpu")
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(
        lambda: win.tab("absolute").table_view.image.image is not None, timeout=FRAME_TIMEOUT_MS
    )
    yield win
    win.close()


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
