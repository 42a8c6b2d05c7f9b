"""The busy and not-current signs sit in the tab bar's corner: the shown tab's, taking no room
from the views and moving nothing as they come and go."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, Qt

from posenc_gui.signs import CORNER_GAP_PX
from tests.conftest import FRAME_TIMEOUT_MS

LONG_REASON = "head_dim must be an even number from 2 to 16,384 (got 7); " * 4


def _placed(widget, window) -> QRect:
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def test_the_shown_tab_s_signs_are_in_the_tab_bar_corner(window, qtbot):
    absolute, relative = window.tab("absolute"), window.tab("relative")
    assert window.tabs.cornerWidget(Qt.Corner.TopRightCorner) is absolute.signs
    window.tabs.setCurrentWidget(relative)
    assert window.tabs.cornerWidget(Qt.Corner.TopRightCorner) is relative.signs
    assert relative.signs.isVisible() and not absolute.signs.isVisible()
    qtbot.waitUntil(
        lambda: relative.frame is not None and not relative.is_waiting(), timeout=FRAME_TIMEOUT_MS
    )
    relative.busy.show()  # (a frame drawn would hide it)
    qtbot.wait(10)  # the tab widget lays its corner out again
    bar = _placed(window.tabs.tabBar(), window)
    corner = _placed(relative.signs, window)
    assert corner.left() >= bar.right() and abs(corner.center().y() - bar.center().y()) <= 4


def test_a_sign_moves_no_view_and_squeezes_no_tab(window, qtbot):
    tab = window.tab("absolute")
    views = [tab.table_view, tab.wave_view, tab.similarity_view, tab.offset_view]
    before = [_placed(view, window) for view in views]
    top = min(place.top() for place in before)
    assert top - _placed(window.tabs.tabBar(), window).bottom() < 20  # no empty strip above
    tab.busy.show()
    tab.mark_stale(LONG_REASON)
    qtbot.wait(50)
    assert tab.busy.isVisible() and tab.stale.isVisible()
    assert [_placed(view, window) for view in views] == before
    bar = window.tabs.tabBar()
    assert bar.width() >= bar.sizeHint().width()  # every tab whole: no scroll buttons
    assert _placed(tab.stale, window).right() <= window.width()
    assert tab.stale.width() < tab.stale.fontMetrics().horizontalAdvance(tab.stale.text())
    assert tab.stale.toolTip() == tab.stale.text()  # the whole text, elided on screen


def test_why_the_views_are_not_current_keeps_its_room_before_the_busy_sign(window, qtbot):
    tab = window.tab("absolute")
    window.resize(1000, 700)
    tab.busy.show()
    tab.mark_stale("head_dim must be an even number from 2 to 16,384 (got 7)")
    qtbot.wait(50)
    room = window.width() - window.tabs.tabBar().sizeHint().width() - 20
    room -= tab.busy.minimumSizeHint().width()  # what the busy sign keeps: "computing…"
    assert tab.stale.width() >= min(tab.stale.sizeHint().width(), room), (tab.stale.width(), room)
    assert tab.busy.width() < tab.busy.sizeHint().width()  # the busy sign elides first,
    # to a word, not a sliver (a px of rounding aside: the layout's hint is from before polish)
    assert tab.busy.width() >= tab.busy.minimumSizeHint().width() - 2 > 40


def test_a_sign_that_comes_goes_or_changes_re_lays_out_its_strip_only(window, qtbot):
    """The tab widget repaints whole when its corner changes size: the strip keeps its size."""
    tab = window.tab("absolute")
    qtbot.waitUntil(lambda: not tab.is_waiting(), timeout=FRAME_TIMEOUT_MS)
    qtbot.wait(50)
    placed = _placed(tab.signs, window)
    requests = []

    class Count(QObject):
        def eventFilter(self, watched, event):
            if event.type() == QEvent.Type.LayoutRequest:
                requests.append(watched)
            return False

    count = Count()
    window.tabs.installEventFilter(count)
    for change in (
        tab.busy.show,
        lambda: tab.busy.setText("computing… 35%"),
        lambda: tab.mark_stale(LONG_REASON),
        tab.busy.hide,
        tab.stale.hide,
    ):
        change()
        qtbot.wait(20)
        assert requests == [] and _placed(tab.signs, window) == placed
    window.tabs.removeEventFilter(count)
    window.resize(window.width() - 100, window.height())  # less room: a narrower strip
    qtbot.waitUntil(lambda: _placed(tab.signs, window).width() == placed.width() - 100)
    assert _placed(tab.signs, window).right() == placed.right() - 100


def test_a_strip_brought_back_to_the_corner_fits_the_room_there_is_now(window, qtbot):
    absolute, relative = window.tab("absolute"), window.tab("relative")
    window.tabs.setCurrentWidget(relative)
    window.resize(window.width() - 150, window.height())  # while Absolute's strip is hidden
    tabs = window.tabs
    room = tabs.width() - tabs.tabBar().sizeHint().width() - CORNER_GAP_PX
    qtbot.waitUntil(lambda: relative.signs.width() == room)
    tabs.setCurrentWidget(absolute)
    qtbot.waitUntil(lambda: absolute.signs.width() == room)
    placed = _placed(absolute.signs, window)
    assert placed.right() == _placed(tabs, window).right()
    assert placed.left() > _placed(tabs.tabBar(), window).right()
