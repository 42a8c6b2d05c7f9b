"""HeatmapView colours data by what it is when the caller leaves the levels to it."""

from __future__ import annotations

import numpy as np
from PySide6.QtWidgets import QTabWidget

from posenc_gui.views import HeatmapView
from posenc_gui.views.style import CYCLIC, colormap


def lut(view: HeatmapView) -> np.ndarray:
    return view.colorbar.colorMap().getLookupTable(nPts=8)


def test_signed_data_is_centred_on_the_diverging_map_one_sided_data_sequential(qtbot):
    view = HeatmapView("t", "x", "y", "v")
    qtbot.addWidget(view)
    view.set_data(np.array([[28.0, 64.0], [40.0, np.nan]]))  # positive: PE·PEᵀ, say
    assert view.colorbar.levels() == (28.0, 64.0)
    np.testing.assert_array_equal(lut(view), colormap("sequential").getLookupTable(nPts=8))
    view.set_data(np.array([[-128.0, -3.0], [0.0, np.nan]]))  # never positive: ALiBi
    assert view.colorbar.levels() == (-128.0, 0.0)
    view.set_data(np.array([[-2.0, 5.0]]))  # signed
    assert view.colorbar.levels() == (-5.0, 5.0)
    np.testing.assert_array_equal(lut(view), colormap("diverging").getLookupTable(nPts=8))
    view.set_data(np.array([[0.5, 0.5]]), levels=(0.0, 1.0))  # the caller's levels stay
    assert view.colorbar.levels() == (0.0, 1.0)


def test_a_cyclic_view_keeps_its_map(qtbot):
    view = HeatmapView("t", "x", "y", "angle", colormap_role=CYCLIC)
    qtbot.addWidget(view)
    view.set_data(np.array([[0.0, 6.0]]))
    np.testing.assert_array_equal(lut(view), colormap("cyclic").getLookupTable(nPts=8))
    assert view.colorbar.levels() == (0.0, 6.0)  # from the data, not centred


def test_a_view_behind_another_page_draws_its_last_data_when_shown(qtbot):
    pages = QTabWidget()
    qtbot.addWidget(pages)
    front, behind = HeatmapView("a", "x", "y", "v"), HeatmapView("b", "x", "y", "v")
    pages.addTab(front, "a")
    pages.addTab(behind, "b")
    pages.show()
    qtbot.waitExposed(pages)
    behind.set_data(np.ones((2, 3)))
    behind.set_data(np.full((4, 5), 2.0))
    assert behind.image.image is None  # hidden: nothing drawn yet
    pages.setCurrentWidget(behind)
    np.testing.assert_array_equal(behind.image.image, np.full((4, 5), 2.0))  # the last call


def test_a_view_not_drawn_yet_asks_again_when_resized(qtbot):
    view = HeatmapView("t", "x", "y", "v")
    qtbot.addWidget(view)
    view.resize(400, 300)
    view.show()
    qtbot.waitExposed(view)
    asked = view.windows(64, 64)  # a frame is computed for this size; none is drawn yet
    with qtbot.waitSignal(view.viewport.changed):
        view.resize(800, 600)
    assert view.windows(64, 64)[0].pixels > asked[0].pixels
