"""An interactive window builds the tabs it does not show in its quiet moments, so that a tab's
first showing does not wait for its plots to be built (120-300 ms)."""

from __future__ import annotations

import pytest

from tests.conftest import FRAME_TIMEOUT_MS

BUILD_TIMEOUT_MS = 60_000


def all_built(window) -> bool:
    return len(window.built_tabs()) == window.tabs.count()


@pytest.mark.slow
def test_the_other_tabs_are_built_once_quiet_and_compute_only_when_shown(
    window, qtbot, monkeypatch
):
    from posenc_gui import tabs_ahead

    monkeypatch.setattr(tabs_ahead, "QUIET_MS", 600)
    tabs_ahead.TabsBuiltAhead(window)
    for step in range(16):  # a control that keeps changing: not quiet
        window.parameters.seq_len.setValue(100 + step)
        qtbot.wait(60)
    assert [tab.name for tab in window.built_tabs()] == ["absolute"]
    qtbot.waitUntil(lambda: all_built(window), timeout=BUILD_TIMEOUT_MS)
    assert window.tabs.currentWidget() is window.tab("absolute")  # nothing else was shown
    assert [tab.name for tab in window.built_tabs() if tab.frame is not None] == ["absolute"]
    window.parameters.seq_len.setValue(200)
    relative = window.tab("relative")
    window.tabs.setCurrentWidget(relative)  # shown later: the settings of now
    qtbot.waitUntil(
        lambda: (
            relative.frame is not None
            and relative.frame.params.seq_len == 200
            and not relative.is_waiting()
        ),
        timeout=FRAME_TIMEOUT_MS,
    )


def test_a_window_rebuilt_in_another_look_builds_its_tabs_ahead_too(
    window, qtbot, owned, monkeypatch
):
    from posenc_gui import tabs_ahead

    monkeypatch.setattr(tabs_ahead, "QUIET_MS", 100)
    window.keep_interactive()  # the app's window, as the command line opens it
    dark = window.change_look(theme="dark")
    qtbot.waitUntil(lambda: all_built(dark), timeout=BUILD_TIMEOUT_MS)
    owned(dark.change_look(theme="light"))  # the light look again for the tests after this
