"""CurvesView keeps its items from frame to frame and updates what they show."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from posenc_gui.views import Band, Curve, CurvesView, Line, Span


def draw(view: CurvesView, shift: float, *, label: str = "L0") -> None:
    x = np.arange(10.0)
    view.set_curves(
        [Curve("a", x, x + shift)],
        bands=[Band("band", x, x - 1 + shift, x + 1 + shift)],
        lines=[Line(3.0 + shift, label)],
        spans=[Span(1.0 + shift, 2.0 + shift, "kept")],
    )


def test_a_new_frame_of_the_same_kinds_updates_the_items_it_drew(qtbot):
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    draw(view, 0.0)
    items = (view.curve_items[0], view.bands[0][1], view.lines[0], view.spans[0])
    draw(view, 5.0, label="target")
    assert (view.curve_items[0], view.bands[0][1], view.lines[0], view.spans[0]) == items
    assert view.lines[0].value() == 8.0 and view.lines[0].label.format == "target"
    assert view.spans[0].getRegion() == (6.0, 7.0)
    low, high = (curve.getData()[1] for curve in view.bands[0][1].curves)
    np.testing.assert_array_equal(low, np.arange(10.0) + 4)
    np.testing.assert_array_equal(high, np.arange(10.0) + 6)
    legend = [label.text for _, label in view.legend.items]
    assert sorted(legend) == ["a", "band", "kept"]  # one entry each, none doubled


def test_other_kinds_replace_the_items(qtbot):
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    draw(view, 0.0)
    x = np.arange(4.0)
    view.set_curves([Curve("b", x, x)], lines=[Line(1.0, "v"), Line(2.0, "h", vertical=False)])
    assert [item.name() for item in view.curve_items] == ["b"]
    assert view.bands == [] and view.spans == [] and len(view.lines) == 2
    assert [label.text for _, label in view.legend.items] == ["b"]
    drawn_lines = [item for item in view.plot.vb.addedItems if isinstance(item, pg.InfiniteLine)]
    assert drawn_lines == view.lines  # the first frame's line went
