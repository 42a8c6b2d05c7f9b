"""The tab widgets holding tabs and pages lay themselves out, and repaint whole, only where
what they lay out changed."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from posenc_gui.views.page import SteadyTabWidget
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
