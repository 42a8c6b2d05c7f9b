"""Themes, presentation mode and the colormap chooser: what the views are drawn with."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtGui import QAction, QColor

from posenc_gui.app import BASE_POINTS
from posenc_gui.views.style import Look
from tests.conftest import FRAME_TIMEOUT_MS


@pytest.fixture
def open_look(qtbot):
    """``open_look(**look)``: a shown window in that look, its first frame drawn."""
    from posenc_gui.window import MainWindow

    windows = []

    def make(**look):
        window = MainWindow(device="cpu", look=Look(**look))
        qtbot.addWidget(window)
        window.show()
        qtbot.waitUntil(lambda: window.tab("absolute").frame is not None, timeout=FRAME_TIMEOUT_MS)
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.close()


def lightness(colour) -> float:
    return QColor(colour).lightnessF()


def test_dark_theme_draws_light_lines_on_a_dark_background(open_look, qtbot):
    window = open_look(theme="dark")
    view = window.tab("absolute").wave_view
    image = view.grab().toImage()
    corner = image.pixelColor(3, 3)
    assert corner.lightnessF() < 0.2
    first = view.curve_items[0].opts["pen"].color()
    assert first.lightnessF() > 0.8  # the palette's first colour is the foreground
    axis = view.plot.getAxis("bottom")
    assert lightness(axis.pen().color()) > 0.8
    assert window.palette().window().color().lightnessF() < 0.3  # widgets follow the theme


@pytest.mark.parametrize(("theme", "grey"), [("light", 200), ("dark", 80)])
def test_cells_with_no_value_are_a_grey_near_the_background(open_look, qtbot, theme, grey):
    """ALiBi's masked future keys: light grey on white, dark grey on the dark background (a
    light triangle glared out of the dark theme)."""
    from posenc_gui.views import HeatmapView

    open_look(theme=theme)  # the look views are drawn in
    view = HeatmapView("t", "x", "y", "v")
    qtbot.addWidget(view)
    view.set_data(np.array([[1.0, np.nan], [2.0, 3.0]]))
    masked = view.mask.image
    assert view.mask.isVisible() and tuple(masked[0, 1]) == (grey, grey, grey, 255)
    assert masked[0, 0, 3] == 0  # cells with a value: not covered


def test_light_theme_is_the_default(window):
    view = window.tab("absolute").wave_view
    assert view.grab().toImage().pixelColor(3, 3).lightnessF() > 0.9
    assert view.curve_items[0].opts["pen"].color().lightnessF() < 0.1


def test_presentation_mode_has_larger_fonts_and_thicker_lines(open_look, window):
    # read before the presentation window exists: views draw in the look of the moment
    small_view = window.tab("absolute").offset_view
    small_pen = small_view.curve_items[0].opts["pen"].widthF()
    small_font = small_view.plot.getAxis("bottom").style["tickFont"].pointSizeF()
    big = open_look(presentation=True)
    big_view = big.tab("absolute").offset_view
    assert big_view.curve_items[0].opts["pen"].widthF() == 1.5 * small_pen
    big_font = big_view.plot.getAxis("bottom").style["tickFont"].pointSizeF()
    assert big_font == 1.5 * small_font
    assert "18pt" in big_view.plot.titleLabel.opts["size"]
    assert big.font().pointSizeF() == 1.5 * BASE_POINTS  # the interface grows too


def test_the_chosen_colormaps_colour_the_heatmaps(open_look):
    window = open_look(sequential="magma", diverging="CET-D1A")
    lut = window.tab("relative").bucket_view.colorbar.colorMap().getLookupTable(nPts=16)
    np.testing.assert_array_equal(lut, pg.colormap.get("magma").getLookupTable(nPts=16))
    lut = window.tab("absolute").table_view.colorbar.colorMap().getLookupTable(nPts=16)
    np.testing.assert_array_equal(lut, pg.colormap.get("CET-D1A").getLookupTable(nPts=16))


def test_a_colormap_that_is_not_on_offer_is_refused():
    with pytest.raises(ValueError, match="sequential colormap must be one of viridis, cividis"):
        Look(sequential="jet")
    with pytest.raises(ValueError, match="theme must be one of light, dark, got 'blue'"):
        Look(theme="blue")


def test_the_view_menu_rebuilds_the_window_and_keeps_every_setting(window, owned):
    window.tab("relative").n_heads.setValue(5)
    before = window.session()
    window.findChild(QAction, "theme_dark").trigger()
    dark = owned(window.successor)
    after = dark.session()
    assert after["look"]["theme"] == "dark"
    assert {**after, "look": before["look"]} == before
    dark.findChild(QAction, "colormap_sequential_cividis").trigger()
    cividis = owned(dark.successor)
    assert cividis.session()["look"] == {**after["look"], "sequential": "cividis"}
    assert cividis.findChild(QAction, "colormap_sequential_cividis").isChecked()


def test_a_rebuilt_window_leaves_no_animation_running(window, owned):
    from PySide6.QtCore import QTimer

    window.tab("rope").play.setChecked(True)
    window.tab("extension").sweep.setChecked(True)
    assert any(timer.isActive() for timer in window.findChildren(QTimer))
    window.findChild(QAction, "presentation").trigger()
    owned(window.successor)
    assert not any(timer.isActive() for timer in window.findChildren(QTimer))


@pytest.mark.parametrize("presentation", [False, True])
def test_plots_and_colorbars_stay_inside_their_views(open_look, qtbot, presentation):
    window = open_look(theme="dark", presentation=presentation)
    qtbot.wait(300)  # layouts settle after the first frame
    tab = window.tab("absolute")
    for view in (tab.table_view, tab.similarity_view):
        right = view.colorbar.axis.mapRectToScene(view.colorbar.axis.boundingRect()).right()
        assert right <= view.width(), (view.plot.titleLabel.text, right, view.width())
    for view in (tab.wave_view, tab.offset_view):
        right = view.plot.vb.mapRectToScene(view.plot.vb.boundingRect()).right()
        assert right <= view.width(), (view.plot.titleLabel.text, right, view.width())


def test_a_curves_view_keeps_qgraphicsview_items(window):
    view = window.tab("absolute").wave_view
    drawn = view.items()  # QGraphicsView.items(): every item in the scene, not the curves
    assert all(item in drawn for item in view.curve_items) and len(drawn) > len(view.curve_items)


def _resident_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads /proc (Linux)")
def test_rebuilds_release_the_windows_they_replace(window, qtbot):
    import gc
    import weakref

    from PySide6.QtCore import QCoreApplication, QEvent
    from shiboken6 import isValid

    replaced = []

    def switch(current, times):
        for index in range(times):
            replaced.append(weakref.ref(current))
            current = current.change_look(theme=("dark", "light")[index % 2])
            qtbot.wait(20)
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        return current

    current = switch(window, 2)  # the dark look's first build loads what it needs once
    gc.collect()
    start = _resident_mb()
    current = switch(current, 24)
    gc.collect()
    # Every replaced window is released, Python side and frames included; only the fixture's
    # own first window stays (it holds it), deleted by Qt.
    alive = [ref() for ref in replaced if ref() is not None]
    assert alive == [window] and not isValid(window)
    assert window.successor is None  # it does not keep the chain of its successors
    assert _resident_mb() - start < 50
    current.close()


def test_a_theme_switch_keeps_held_and_clamped_settings(window, owned):
    window.parameters.seq_len.setValue(64)
    window.tab("rope").position.setValue(10)
    window.tab("absolute").label_tokens.setChecked(True)  # holds seq_len at the sentence's 7
    before = window.session()
    window.findChild(QAction, "theme_dark").trigger()
    dark = owned(window.successor)
    assert {**dark.session(), "look": before["look"]} == before
    assert dark.parameters.seq_len.value() == 7 and dark.tab("absolute").label_tokens.isChecked()


def test_a_look_switch_that_fails_is_said_and_the_menu_shows_the_look_in_use(window, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    import posenc_gui.window

    warnings = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: warnings.append(text))

    def refuse(session, device=None):
        raise ValueError("tabs.rope: position must be in [0, 6], got 10")

    monkeypatch.setattr(posenc_gui.window, "open_window", refuse)
    window.findChild(QAction, "theme_dark").trigger()
    window.findChild(QAction, "presentation").trigger()
    assert warnings == ["tabs.rope: position must be in [0, 6], got 10"] * 2
    assert window.findChild(QAction, "theme_light").isChecked()
    assert not window.findChild(QAction, "theme_dark").isChecked()
    assert not window.findChild(QAction, "presentation").isChecked()
    assert window.isVisible() and window.successor is None and window.engine.is_running()
