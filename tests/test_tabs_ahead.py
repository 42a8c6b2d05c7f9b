"""An interactive window builds the tabs it does not show, and draws the pages it never showed,
in its quiet moments: a tab's first showing does not wait for its plots to be built (120-300
ms), nor a page's for its first layout, items and paint. A page brought to the front paints
once, with its frame."""

from __future__ import annotations

import math
import time

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QGraphicsView

from tests.conftest import FRAME_TIMEOUT_MS

BUILD_TIMEOUT_MS = 60_000


def all_built(window) -> bool:
    return len(window.built_tabs()) == window.tabs.count()


def quickly_quiet(monkeypatch) -> None:
    from posenc_gui import tabs_ahead

    monkeypatch.setattr(tabs_ahead, "QUIET_MS", 300)
    monkeypatch.setattr(tabs_ahead, "NEXT_MS", 10)


class Paints(QObject):
    """Records, per view of ``views``, whether its tab's frame was the one of ``scheme`` as the
    view painted."""

    def __init__(self, tab, views, scheme: str) -> None:
        super().__init__()
        self.tab, self.scheme = tab, scheme
        self.by_view = {QGraphicsView.viewport(view): [] for view in views}  # (a view's own
        # ``viewport`` is its data window)
        for viewport in self.by_view:
            viewport.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Paint and watched in self.by_view:
            frame = self.tab.frame
            self.by_view[watched].append(frame is not None and frame.params.scheme == self.scheme)
        return False

    def counts(self) -> list[int]:
        return [len(paints) for paints in self.by_view.values()]


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


@pytest.mark.slow
def test_pages_never_shown_are_drawn_ahead_once_quiet_at_the_size_they_are_shown(
    window, qtbot, monkeypatch
):
    from posenc_gui import tabs_ahead

    quickly_quiet(monkeypatch)
    window.parameters.seq_len.setValue(300)
    ahead = tabs_ahead.TabsBuiltAhead(window)
    qtbot.waitUntil(ahead.done, timeout=BUILD_TIMEOUT_MS)
    relative = window.tab("relative")
    # ALiBi's page, behind another page of a tab behind: drawn for the settings of now
    # (a curve per head), its legend entries made, and its frame not taken for the tab's own
    assert relative.frame is None and window.tabs.currentWidget() is window.tab("absolute")
    curves = relative.alibi_curve_view
    assert len(curves.curve_items) + (curves._together is not None) >= 1
    assert [label.text for _, label in curves.legend.items] == ["head 1", "head 8"]
    assert relative.alibi_view.image.image is not None
    drawn_at = relative.alibi_view.size()
    window.tabs.setCurrentWidget(relative)
    relative.show_page("alibi")
    qtbot.waitUntil(lambda: relative.frame is not None and not relative.is_waiting())
    assert relative.alibi_view.size() == drawn_at  # laid out as it is shown: nothing moves
    assert relative.frame.params.seq_len == 300


@pytest.mark.slow
def test_a_change_stops_a_page_drawn_ahead_and_notes_stay_with_the_page_in_front(
    window, qtbot, monkeypatch
):
    from posenc_gui import tabs_ahead
    from posenc_gui.tabs.rope.compute import EXACT_ERROR_POSITIONS

    quickly_quiet(monkeypatch)
    rope = window.tab("rope")
    window.tabs.setCurrentWidget(rope)
    # sampled errors: the precision page's frame carries a note
    window.parameters.seq_len.setValue(EXACT_ERROR_POSITIONS + 1000)
    qtbot.waitUntil(lambda: rope.frame is not None and not rope.is_waiting(), timeout=60_000)
    drawn: list[str] = []  # the frames of the tab's own channels
    window.engine.frame_drawn.connect(
        lambda channel: drawn.append(channel) if channel != tabs_ahead.AHEAD else None
    )
    ahead = tabs_ahead.TabsBuiltAhead(window)
    qtbot.waitUntil(lambda: window.engine.is_coming(tabs_ahead.AHEAD), timeout=BUILD_TIMEOUT_MS)
    window.parameters.head_dim.setValue(64)  # while a page's frame is computed ahead
    qtbot.waitUntil(ahead.done, timeout=BUILD_TIMEOUT_MS)
    assert drawn[0] == "rope"  # the change's frame came first
    # every page drawn ahead at the settings of now, the precision page included
    assert rope.error_view.image.image is not None
    name = rope.error_curve_view.drawn_curves()[0].name
    assert name.startswith("bfloat16: max") and name.endswith("(sampled)")
    assert "Precision views" not in rope.message.text()  # drawn ahead, behind the tables
    rope.show_page("precision")
    qtbot.waitUntil(lambda: "Precision views" in rope.message.text(), timeout=60_000)


def test_a_page_brought_to_the_front_paints_once_with_its_frame(window, qtbot, monkeypatch):
    from posenc_gui import frame_requests
    from posenc_gui import tab as tab_module
    from posenc_gui.views.axes import SHRINK_AFTER_MS

    monkeypatch.setattr(tab_module, "SHOWN_WAIT_MS", 10_000)  # (built after this)
    # a frame judged heavy (a machine under load) comes coarse, then exact: painted twice
    monkeypatch.setattr(frame_requests, "COARSE_AFTER_MS", math.inf)
    relative = window.tab("relative")
    window.tabs.setCurrentWidget(relative)
    relative.show_page("t5")
    qtbot.waitUntil(lambda: not relative.is_waiting(), timeout=FRAME_TIMEOUT_MS)
    qtbot.wait(200)
    views = [relative.slope_view, relative.alibi_view, relative.alibi_curve_view]
    paints = Paints(relative, views, "alibi")
    window.engine.hold()  # the page's frame cannot come yet
    relative.scheme.setCurrentIndex(relative.scheme.findData("alibi"))
    qtbot.wait(150)
    assert paints.counts() == [0, 0, 0]  # not with another frame (here: nothing drawn yet)
    window.engine.hold(False)
    qtbot.waitUntil(lambda: all(paints.counts()), timeout=FRAME_TIMEOUT_MS)
    qtbot.wait(SHRINK_AFTER_MS + 300)  # and not again: no axis gives back room it never needed
    assert [list(p) for p in paints.by_view.values()] == [[True]] * 3  # once, with its frame


def test_a_page_whose_frame_is_late_paints_what_it_has_after_a_while(window, qtbot):
    from posenc_gui.tab import SHOWN_WAIT_MS

    relative = window.tab("relative")
    window.tabs.setCurrentWidget(relative)
    qtbot.waitUntil(lambda: not relative.is_waiting(), timeout=FRAME_TIMEOUT_MS)
    qtbot.wait(200)
    paints = Paints(relative, [relative.alibi_view], "alibi")
    window.engine.hold()
    try:
        start = time.perf_counter()
        relative.scheme.setCurrentIndex(relative.scheme.findData("alibi"))
        qtbot.waitUntil(lambda: all(paints.counts()), timeout=FRAME_TIMEOUT_MS)
        waited_ms = (time.perf_counter() - start) * 1e3
    finally:
        window.engine.hold(False)
    shown = paints.by_view[QGraphicsView.viewport(relative.alibi_view)]
    assert shown and not any(shown)  # painted, with no frame of its own yet
    assert waited_ms >= 0.9 * SHOWN_WAIT_MS  # (Qt's timers may fire 5 % early)


def test_a_page_behind_is_asked_for_with_the_scheme_it_shows(window):
    relative = window.tab("relative")
    relative.scheme.setCurrentIndex(relative.scheme.findData("shaw"))  # on the distances page
    relative.scheme.setCurrentIndex(relative.scheme.findData("t5"))  # the T5 page in front
    assert relative.current_page() == "t5"
    assert relative.request().scheme == "t5"
    assert relative.request("distances").scheme == "shaw"  # what it shows when brought back
    assert relative.request("alibi").scheme == "alibi"
    assert relative.request("scores").scheme == "t5"  # the score formula takes the box's


@pytest.mark.slow
def test_the_shown_tabs_other_pages_are_drawn_again_at_new_settings_once_quiet(
    window, qtbot, monkeypatch
):
    from posenc_gui import tabs_ahead

    quickly_quiet(monkeypatch)
    relative = window.tab("relative")
    window.tabs.setCurrentWidget(relative)
    ahead = tabs_ahead.TabsBuiltAhead(window)
    qtbot.waitUntil(ahead.done, timeout=BUILD_TIMEOUT_MS)

    def alibi_reach() -> float:
        return max(float(curve.x.max()) for curve in relative.alibi_curve_view.drawn_curves())

    assert alibi_reach() < 64  # drawn ahead at the first settings
    window.parameters.seq_len.setValue(300)
    qtbot.waitUntil(lambda: not relative.is_waiting(), timeout=FRAME_TIMEOUT_MS)
    qtbot.waitUntil(ahead.done, timeout=BUILD_TIMEOUT_MS)
    assert alibi_reach() > 250  # behind the distances page, at the settings of now
    assert relative.current_page() == "distances" and relative.frame.params.seq_len == 300
