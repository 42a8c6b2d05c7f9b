"""A plot's right-click menu: its range, mouse mode and export, no transforms of drawn data."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QGraphicsView, QMenu

from posenc_gui.views import Curve, CurvesView, HeatmapView
from posenc_gui.views.rotation import RotationPanel, RotationView


def menu_texts(menu: QMenu) -> list[str]:
    """The texts of a menu's actions and of its submenus' actions."""
    texts = []
    for action in menu.actions():
        texts.append(action.text())
        if action.menu() is not None:
            texts += menu_texts(action.menu())
    return texts


def right_click_menu(qtbot, view: QGraphicsView, item, choose: str = "") -> list[str]:
    """Right-click the middle of ``item`` and read the menu that pops up (pyqtgraph pops it
    up as the button is released, without a modal loop), then close it (or choose its action
    ``choose``)."""
    qtbot.waitUntil(lambda: item.sceneBoundingRect().width() > 100, timeout=5000)  # laid out
    middle = view.mapFromScene(item.sceneBoundingRect().center())
    qtbot.mouseClick(QGraphicsView.viewport(view), Qt.MouseButton.RightButton, pos=middle)
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu), timeout=5000)
    popup = QApplication.activePopupWidget()
    seen = menu_texts(popup)
    chosen = [action for action in popup.actions() if action.text() == choose]
    popup.close()
    for action in chosen:
        action.trigger()
    return seen


def shown(qtbot, view: QGraphicsView) -> None:
    qtbot.addWidget(view)
    view.resize(600, 400)
    view.show()
    qtbot.waitExposed(view)


def curves() -> tuple[QGraphicsView, object]:
    view = CurvesView("t", "x", "y")
    x = np.arange(1.0, 50.0)
    view.set_curves([Curve("a", x, x)])
    return view, view.plot.vb


def heatmap() -> tuple[QGraphicsView, object]:
    view = HeatmapView("t", "x", "y", "z")
    view.set_data(np.arange(12.0).reshape(3, 4))
    return view, view.plot.vb


def rotation() -> tuple[QGraphicsView, object]:
    view = RotationView()
    angles = np.linspace(0.0, 3.0, 20)
    trail = np.stack([np.cos(angles), np.sin(angles)], axis=1)  # [T, 2]
    view.set_panels([RotationPanel("pair 0", trail)])
    return view, view.panels[0][0].vb


@pytest.mark.parametrize("make", [curves, heatmap, rotation])
def test_a_plots_menu_has_its_range_and_export_but_no_transforms(qtbot, make):
    """pyqtgraph's "Plot Options" (log axes, FFT, dy/dx, points, downsampling) would re-derive
    the per-pixel means a view draws, behind its back: a log axis from there left the data
    bounds linear (a range to 10⁶⁰). The view's own menu stays."""
    view, box = make()
    shown(qtbot, view)
    texts = right_click_menu(qtbot, view, box)
    assert "View All" in texts and "Export..." in texts  # pyqtgraph's: the view alone
    assert not {"Plot Options", "Transforms", "Log X", "Log Y", "Downsample"} & set(texts)


def test_the_check_sees_pyqtgraphs_plot_options_where_a_plot_has_them(qtbot):
    view, box = curves()
    view.plot.setMenuEnabled(True, enableViewBoxMenu=None)  # as pyqtgraph makes a plot
    shown(qtbot, view)
    assert "Plot Options" in right_click_menu(qtbot, view, box)


def test_a_views_export_opens_the_apps_export_dialog_on_that_view(window, qtbot, monkeypatch):
    """In the window, a view's "Export..." is the app's dialog (its sizes, caption, formats,
    translated), with that view chosen; pyqtgraph's own dialog never opens."""
    from posenc_gui.export_dialog import ExportDialog

    opened: list[tuple[str, str]] = []
    monkeypatch.setattr(
        ExportDialog, "exec", lambda dialog: opened.append((dialog.tab.name, dialog.view_name()))
    )
    tab = window.tab("rope")
    window.tabs.setCurrentWidget(tab)
    view = tab.show_view("decay")
    qtbot.waitUntil(lambda: not tab.is_waiting(), timeout=20_000)
    texts = right_click_menu(qtbot, view, view.plot.vb, choose="Export or copy this view…")
    assert "Export or copy this view…" in texts and "Export..." not in texts
    assert opened == [("rope", "decay")]
    assert view.scene().exportDialog is None


def test_the_file_menus_export_chooses_a_view_of_the_page_in_front(window, qtbot, monkeypatch):
    from PySide6.QtGui import QAction

    from posenc_gui.export_dialog import ExportDialog

    opened: list[str] = []
    monkeypatch.setattr(ExportDialog, "exec", lambda dialog: opened.append(dialog.view_name()))
    tab = window.tab("rope")
    window.tabs.setCurrentWidget(tab)
    tab.show_page("precision")
    qtbot.waitUntil(lambda: tab.error_view.isVisible())
    window.findChild(QAction, "export").trigger()
    assert opened == ["error"]  # not "decay", the first of the tab's views by name
