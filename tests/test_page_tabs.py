"""The tab widgets holding tabs and pages lay themselves out, and repaint whole, only where
what they lay out changed; a page brought to the front paints its views once; a frame's views
paint in one repaint of their window, in the turn of the event loop after their drawing."""

from __future__ import annotations

import time

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsView,
    QLabel,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from posenc_gui.views import Curve, CurvesView, HeatmapView
from posenc_gui.views.axes import SHRINK_AFTER_MS
from posenc_gui.views.page import SteadyTabWidget, ViewPage
from tests.paint_count import PaintCount


def shown_tabs(qtbot, kind: type[QTabWidget]) -> tuple[QTabWidget, QLabel]:
    """A tab widget of ``kind`` on screen, a page holding a label, laid out and painted."""
    tabs = kind()
    page = QWidget()
    label = QLabel("a view")
    QVBoxLayout(page).addWidget(label)
    tabs.addTab(page, "page")
    qtbot.addWidget(tabs)
    tabs.resize(400, 300)
    tabs.show()
    qtbot.waitExposed(tabs)
    qtbot.wait(50)
    return tabs, label


@pytest.mark.parametrize("kind, paints", [(SteadyTabWidget, 0), (QTabWidget, 1)])
def test_a_layout_request_that_changes_nothing_repaints_nothing(qtbot, kind, paints):
    """A view's plot that laid itself out again at the same size (a frame's new legend
    entry, say) sends its page's layout a request, which reaches the tab widget: Qt's
    repaints itself whole for it."""
    tabs, label = shown_tabs(qtbot, kind)
    count = PaintCount()
    tabs.installEventFilter(count)
    label.updateGeometry()
    qtbot.wait(50)
    assert count.paints == paints


def test_what_it_lays_out_still_moves(qtbot):
    tabs, label = shown_tabs(qtbot, SteadyTabWidget)
    bar = tabs.tabBar()
    narrow = bar.width()
    tabs.setTabText(0, "a page with a much longer title")
    qtbot.wait(50)
    assert bar.width() > narrow + 50  # the bar placed again at its new size
    corner = QLabel("a sign in the corner")
    tabs.setCornerWidget(corner)
    corner.show()
    qtbot.wait(50)
    assert corner.isVisible() and corner.width() > 50
    label.setMinimumHeight(400)  # a page that needs more room: the parent's layout is told
    qtbot.wait(50)
    assert tabs.minimumSizeHint().height() > 400
    tabs.resize(500, 600)
    qtbot.wait(50)
    assert tabs.currentWidget().height() > 500  # the page follows the new size


def test_a_page_brought_to_the_front_paints_each_of_its_views_once(qtbot):
    """Qt activates a view's scene as the view is shown in an active window, and every plot,
    axis and legend of an activated scene repaints: each view of the page painted three
    times. An axis that gave back room behind the page needed it again at the first paint,
    laying the view out anew: a second paint."""
    tabs = SteadyTabWidget()
    pages = []
    for name in ("one", "two"):
        views = (CurvesView("t", "x", "y"), HeatmapView("t", "x", "y", "v"))
        tabs.addTab(ViewPage(list(views), 2, objectName=name), name)
        pages.append(views)
    qtbot.addWidget(tabs)
    tabs.resize(800, 400)
    tabs.show()
    qtbot.waitExposed(tabs)
    tabs.activateWindow()
    qtbot.waitUntil(tabs.isActiveWindow)
    for index, (curves, heatmap) in enumerate(pages):
        tabs.setCurrentIndex(index)
        curves.set_curves([Curve("a", np.arange(10.0), np.arange(10.0) ** 2)])
        heatmap.set_data(np.arange(12.0).reshape(3, 4))
        qtbot.wait(100)
    tabs.setCurrentIndex(0)
    qtbot.wait(SHRINK_AFTER_MS + 200)  # long enough for axes to give back room
    counts = [PaintCount() for _ in pages[1]]
    for count, view in zip(counts, pages[1], strict=True):
        QGraphicsView.viewport(view).installEventFilter(count)
    tabs.setCurrentIndex(1)
    qtbot.waitUntil(lambda: all(count.paints for count in counts))
    qtbot.wait(100)  # time for any paint more
    assert [count.paints for count in counts] == [1, 1]
    # the window deactivated and activated again (another application in between), as Qt
    # tells each of its widgets: nothing to paint anew
    for view in pages[1]:
        for kind in (QEvent.Type.WindowDeactivate, QEvent.Type.WindowActivate):
            QApplication.sendEvent(view, QEvent(kind))
    qtbot.wait(100)
    assert [count.paints for count in counts] == [1, 1]


class EventLog(QObject):
    """Appends ``name`` to ``log`` for each event of type ``kind`` its object gets."""

    def __init__(self, log: list[str], name: str, kind: QEvent.Type) -> None:
        super().__init__()
        self.log, self.name, self.kind = log, name, kind

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == self.kind:
            self.log.append(self.name)
        return False


def test_a_frames_views_paint_in_one_repaint_of_the_window(window, drive, qtbot):
    """A scene handing its views their changes made their window repaint at once: the four
    views of an Absolute frame painted in four repaints of the window, one after another."""
    tab = window.tab("absolute")
    views = tab.view_names()
    assert len(views) == 4
    qtbot.wait(200)  # the first frame painted
    log: list[str] = []
    filters = [EventLog(log, "repaint", QEvent.Type.UpdateRequest)]
    window.installEventFilter(filters[0])
    for name, view in views.items():
        filters.append(EventLog(log, name, QEvent.Type.Paint))
        QGraphicsView.viewport(view).installEventFilter(filters[-1])
    drive(window, lambda: window.parameters.theta.setValue(500.0))  # every view changes
    qtbot.waitUntil(lambda: set(views) <= set(log))
    qtbot.wait(100)  # time for any repaint more
    painted = [entry for entry in log if entry in views]
    assert sorted(painted) == sorted(views)  # each view painted, once
    first, last = log.index(painted[0]), log.index(painted[-1])
    assert "repaint" not in log[first:last]  # all in one repaint


def test_a_timer_due_as_a_frame_is_drawn_runs_before_its_views_paint(window, qtbot):
    """A frame's drawing and its paint are two turns of the event loop: input and timers due
    meanwhile wait for one of them, not both (they held the loop 20 ms in one turn)."""
    tab = window.tab("absolute")
    views = tab.view_names()
    qtbot.wait(200)  # the first frame painted
    log: list[str] = []
    filters = [EventLog(log, name, QEvent.Type.Paint) for name in views]
    for view, watch in zip(views.values(), filters, strict=True):
        QGraphicsView.viewport(view).installEventFilter(watch)
    draw = tab.draw

    def draw_with_a_timer(frame) -> None:
        QTimer.singleShot(1, lambda: log.append("timer"))
        draw(frame)
        time.sleep(0.002)  # the timer is due before the drawing ends, on any machine
        log.append("drawn")

    tab.draw = draw_with_a_timer
    window.parameters.theta.setValue(500.0)  # every view changes
    qtbot.waitUntil(lambda: set(views) <= set(log))
    first_paint = min(log.index(name) for name in views)
    assert log.index("drawn") < log.index("timer") < first_paint
