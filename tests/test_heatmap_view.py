"""HeatmapView colours data by what it is when the caller leaves the levels to it."""

from __future__ import annotations

import numpy as np

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
