"""Themes, presentation mode and the colormap chooser: what the views are drawn with."""

from __future__ import annotations

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


def test_light_theme_is_the_default(window):
    view = window.tab("absolute").wave_view
    assert view.grab().toImage().pixelColor(3, 3).lightnessF() > 0.9
    assert view.curve_items[0].opts["pen"].color().lightnessF() < 0.1


def test_presentation_mode_has_larger_fonts_and_thicker_lines(open_look, window):
    big = open_look(presentation=True)
    small_view, big_view = window.tab("absolute").offset_view, big.tab("absolute").offset_view
    assert (
        big_view.curve_items[0].opts["pen"].widthF()
        == 1.5 * small_view.curve_items[0].opts["pen"].widthF()
    )
    small_font = small_view.plot.getAxis("bottom").style["tickFont"].pointSizeF()
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


def test_the_view_menu_rebuilds_the_window_and_keeps_every_setting(window, qtbot):
    window.tab("relative").n_heads.setValue(5)
    before = window.session()
    window.findChild(QAction, "theme_dark").trigger()
    dark = window.successor
    qtbot.addWidget(dark)
    after = dark.session()
    assert after["look"]["theme"] == "dark"
    assert {**after, "look": before["look"]} == before
    dark.findChild(QAction, "colormap_sequential_cividis").trigger()
    cividis = dark.successor
    qtbot.addWidget(cividis)
    assert cividis.session()["look"] == {**after["look"], "sequential": "cividis"}
    assert cividis.findChild(QAction, "colormap_sequential_cividis").isChecked()
    cividis.close()


def test_a_rebuilt_window_leaves_no_animation_running(window, qtbot):
    from PySide6.QtCore import QTimer

    window.tab("rope").play.setChecked(True)
    window.tab("extension").sweep.setChecked(True)
    assert any(timer.isActive() for timer in window.findChildren(QTimer))
    window.findChild(QAction, "presentation").trigger()
    qtbot.addWidget(window.successor)
    assert not any(timer.isActive() for timer in window.findChildren(QTimer))
    window.successor.close()


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
