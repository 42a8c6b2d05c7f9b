"""CurvesView keeps its items from frame to frame and updates what they show."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QGraphicsView

from posenc_gui.views import Band, Curve, CurvesView, Line, Span
from posenc_gui.views.deferred import settle
from tests.label_sets import label_sets
from tests.paint_count import PaintCount
from tests.shown_view import shown_view
from tests.text_boxes import drawn_tick_labels, layout_problems


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
    in_plot = view.plot.vb.childGroup.childItems()
    drawn_lines = {item for item in in_plot if isinstance(item, pg.InfiniteLine)}
    assert drawn_lines == {item for line in view.lines for item in line.items}  # the first went


def test_renamed_curves_keep_their_items_and_the_legend_shows_the_new_names(qtbot):
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    x = np.arange(5.0)
    view.set_curves([Curve("yarn", x, x), Curve("ntk", x, -x)], spans=[Span(1, 2, "ntk")])
    items = list(view.curve_items)
    assert [label.text for _, label in view.legend.items] == ["yarn", "ntk"]  # span: ntk's
    view.set_curves([Curve("pi", x, x), Curve("llama3", x, -x)], spans=[Span(1, 2, "ntk")])
    assert view.curve_items == items and [item.name() for item in items] == ["pi", "llama3"]
    legend = [(label.text, label.toolTip()) for _, label in view.legend.items]
    assert legend == [("pi", "pi"), ("llama3", "llama3"), ("ntk", "ntk")]  # the span's own now


def test_entries_swapped_in_one_frame_size_the_legend_as_a_whole(qtbot, monkeypatch):
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    x = np.arange(5.0)
    view.set_curves([Curve(f"head {h}", x, x * h) for h in range(8)])
    sized = []
    original = pg.LegendItem.updateSize
    monkeypatch.setattr(pg.LegendItem, "updateSize", lambda self: sized.append(1) or original(self))
    heads = (0, 1, 2, 3, *range(9, 17))  # four entries kept, four removed, eight made
    view.set_curves([Curve(f"head {h}", x, x * h) for h in heads])
    assert len(sized) == 2  # once for the entries, once as they are put in columns
    assert [label.text for _, label in view.legend.items] == [f"head {h}" for h in heads]
    bottom = max(
        label.mapToItem(view.legend, QPointF(0, label.boundingRect().height())).y()
        for _, label in view.legend.items
    )
    assert view.legend.boundingRect().height() >= bottom - 1  # sized to hold all its rows


def test_an_entry_that_comes_back_is_the_one_set_aside(qtbot):
    """A curve named in the legend only while it has points (Extension's "angles never seen
    in training") leaves and comes back: its entry is the one set aside, not a new one."""
    view = shown_view(qtbot, 500, 300)
    x = np.arange(10.0)
    kept, sometimes = Curve("a", x, x), Curve("sometimes", x, -x, scatter=True)

    def frame(curves: list[Curve]) -> None:
        view.set_curves(curves)
        settle([view])  # what a tab does after drawing a frame
        qtbot.wait(150)

    frame([kept, sometimes])
    entry = view.legend.items[1]
    frame([kept])
    assert [label.text for _, label in view.legend.items] == ["a"]
    assert not entry[0].isVisible() and not entry[1].isVisible()
    frame([kept, Curve("back", x, 2 * x, scatter=True)])
    assert [label.text for _, label in view.legend.items] == ["a", "back"]
    sample, label = view.legend.items[1]
    assert (sample, label) == entry and sample.isVisible() and label.isVisible()
    assert sample.item is view.curve_items[1]  # it draws the curve it names
    bottom = label.mapToItem(view.legend, QPointF(0, label.boundingRect().height())).y()
    assert view.legend.boundingRect().height() >= bottom - 1  # laid out in the legend again


def test_a_band_keeps_the_item_its_entry_draws_while_the_curves_change(qtbot):
    """Compare's ALiBi heads come and go in front of a band: the band's entry goes with the
    curves' entries and comes back drawing the same proxy item (making one costs ~0.5 ms)."""
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    x = np.arange(5.0)
    band = Band("spread", x, x - 1, x + 1)

    def entry_item(heads: int) -> object:
        view.set_curves(
            [Curve("head" if h == 0 else "", x, x * h) for h in range(heads)], bands=[band]
        )
        (proxy,) = [sample.item for sample, label in view.legend.items if label.text == "spread"]
        return proxy

    first = entry_item(3)
    assert entry_item(5) is first and entry_item(2) is first
    assert [label.text for _, label in view.legend.items] == ["head", "spread"]


def test_another_number_of_curves_reuses_the_items_and_leaves_none_behind(qtbot):
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    x = np.arange(5.0)

    def family(heads: int) -> list[Curve]:  # a named curve, a family of heads, a named curve
        rows = [Curve("alibi" if h == 0 else "", x, x * h, color=1) for h in range(heads)]
        return [Curve("rope", x, -x), *rows, Curve("t5", x, x + 1)]

    view.set_curves(family(6))
    first = list(view.curve_items)
    view.set_curves(family(2))
    assert view.curve_items == first[:4]  # kept in their places
    assert [item.name() for item in view.curve_items] == ["rope", "alibi", None, "t5"]
    view.set_curves(family(6))
    assert set(view.curve_items) == set(first)  # the set-aside items came back, none made
    assert [label.text for _, label in view.legend.items] == ["rope", "alibi", "t5"]
    # nothing drawn or exported beyond them: the others wait in the plot, hidden and empty
    shown = [item for item in view.plot.curves if item.isVisible()]
    assert sorted(map(id, shown)) == sorted(map(id, view.curve_items))
    assert all(item.getOriginalDataset()[0] is None for item in view._set_aside)
    np.testing.assert_array_equal(view.curve_items[-1].getOriginalDataset()[1], x + 1)
    np.testing.assert_array_equal(view.curve_items[3].getOriginalDataset()[1], x * 2)


def test_another_number_of_curves_keeps_the_entries_and_bands_that_stay(qtbot):
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    x = np.arange(5.0)

    def frame(heads: int) -> None:  # a named curve, then one named curve per head
        curves = [Curve("rope", x, -x), *(Curve(f"head {h}", x, x * h) for h in range(heads))]
        view.set_curves(
            curves, bands=[Band("spread", x, x - 1, x + 1)], spans=[Span(1, 2, "trained")]
        )

    frame(2)
    labels = {label.text: label for _, label in view.legend.items}
    fill = view.bands[0][1]
    frame(4)
    entries = [label.text for _, label in view.legend.items]
    assert entries == ["rope", "head 0", "head 1", "head 2", "head 3", "trained", "spread"]
    kept = {label.text: label for _, label in view.legend.items[:3]}
    assert all(kept[name] is labels[name] for name in ("rope", "head 0", "head 1"))
    assert view.bands[0][1] is fill  # the band is as it was: not made again
    frame(1)
    assert [label.text for _, label in view.legend.items] == ["rope", "head 0", "trained", "spread"]
    assert view.legend.items[0][1] is labels["rope"] and view.bands[0][1] is fill
    assert [item for item in view.plot.vb.addedItems if isinstance(item, pg.FillBetweenItem)] == [
        fill
    ]


def test_other_spans_reuse_the_regions_drawn_recoloured(qtbot):
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    x = np.arange(10.0)
    view.set_curves(
        [Curve("a", x, x)],
        spans=[Span(0, 2, "kept", "#00ff00"), Span(2, 5, "blended", "#0000ff"), Span(5, 9, "a")],
    )
    regions = list(view.spans)
    view.set_curves([Curve("a", x, x)], spans=[Span(0, 4, "blended", "#0000ff"), Span(4, 9, "a")])
    assert view.spans == regions[:2]  # kept in their places, none made
    assert [region.getRegion() for region in view.spans] == [(0.0, 4.0), (4.0, 9.0)]
    colour = view.spans[0].brush.color()
    assert (colour.red(), colour.green(), colour.blue(), colour.alpha()) == (0, 0, 255, 45)
    in_plot = [item for item in view.plot.vb.addedItems if isinstance(item, pg.LinearRegionItem)]
    assert in_plot == view.spans  # the third went
    assert [label.text for _, label in view.legend.items] == ["a", "blended"]  # a: the curve's
    # spans again (an M-RoPE scheme after the axial one): the region set aside, not a new one
    view.set_curves(
        [Curve("a", x, x)],
        spans=[Span(0, 1, "kept", "#00ff00"), Span(1, 3, "blended"), Span(3, 9, "a", "#ff0000")],
    )
    assert view.spans == regions  # the third back
    assert view.spans[2].getRegion() == (3.0, 9.0)
    colour = view.spans[2].brush.color()
    assert (colour.red(), colour.green(), colour.blue(), colour.alpha()) == (255, 0, 0, 45)
    in_plot = [item for item in view.plot.vb.addedItems if isinstance(item, pg.LinearRegionItem)]
    assert in_plot == regions


def test_a_curve_that_changes_its_look_is_drawn_in_the_new_one(qtbot):
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    x = np.repeat(np.arange(100.0), 2)
    view.set_curves([Curve("c", x, np.tile([0.0, 1.0], 100), envelope=True)])
    item = view.curve_items[0]
    assert item.opts["connect"] == "pairs"
    view.set_curves([Curve("c", np.arange(100.0), np.arange(100.0), dashed=True)])
    assert view.curve_items == [item] and item.opts["connect"] == "all"
    assert item.opts["pen"].style() == pg.QtCore.Qt.PenStyle.DashLine
    view.set_curves([Curve("c", np.arange(8.0), np.arange(8.0))])  # few points: marked
    assert (
        item.opts["symbol"] == "o" and item.opts["pen"].style() == pg.QtCore.Qt.PenStyle.SolidLine
    )


def test_a_curve_of_one_point_is_marked_a_dashed_one_with_a_ring(qtbot):
    # a head of one pair: one point has no line to show it, dashed or solid
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    one = np.array([0.0])
    view.set_curves([Curve("original", one, one + 6.28, dashed=True), Curve("scaled", one, one)])
    ring, dot = view.curve_items
    assert ring.opts["symbol"] == dot.opts["symbol"] == "o"
    assert ring.opts["symbolBrush"].style() == pg.QtCore.Qt.BrushStyle.NoBrush  # the dot shows
    assert ring.opts["symbolSize"] > dot.opts["symbolSize"]  # through it, where both coincide
    assert dot.opts["symbolBrush"].style() == pg.QtCore.Qt.BrushStyle.SolidPattern
    view.set_curves([Curve("original", np.arange(2.0), np.arange(2.0), dashed=True)])
    assert ring.opts["symbol"] is None  # a dashed line again: unmarked


def test_where_curves_coincide_the_one_named_first_stays_on_top(qtbot):
    # Compare's sinusoidal curve and RoPE's random-q mean: which covered the other followed
    # the order the items happened to be made in
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    x = np.arange(8.0)
    view.set_curves([Curve(name, x, x) for name in ("first", "second", "third")])
    first, second, third = (item.zValue() for item in view.curve_items)
    assert first > second > third
    view.set_curves([Curve("solid", x, x), Curve("dashed", x, x, dashed=True)])
    assert view.curve_items[1].zValue() > view.curve_items[0].zValue()  # dashes show both
    # a family's unnamed line under a named one, also where only the name changed
    view.set_curves([Curve("", x, x, color=0), Curve("named", x, x, color=1)])
    assert view.curve_items[1].zValue() > view.curve_items[0].zValue()


@pytest.mark.parametrize("lines", [16, 17])
def test_a_view_of_many_short_lines_marks_no_points_on_them(qtbot, lines):
    """16 lines of 64 points are marked (1,024 markers); 17 would hide the lines under theirs:
    none is marked then. Scatter curves keep their markers."""
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    x = np.arange(64)
    heads = [Curve(f"head {h}", x, -(h + 1.0) * x) for h in range(lines)]
    view.set_curves([*heads, Curve("points", x, x * 0.5, scatter=True)])
    symbols = {item.opts["symbol"] for item in view.curve_items[:lines]}
    assert symbols == ({"o"} if lines == 16 else {None})
    assert view.curve_items[-1].opts["symbol"] == "o"
    view.set_curves(heads[:2])  # few again: marked again
    assert {item.opts["symbol"] for item in view.curve_items} == {"o"}


def test_tick_labels_follow_the_frame(qtbot):
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    x = np.arange(3.0)
    axis = view.plot.getAxis("bottom")
    view.set_curves([Curve("c", x, x)], x_labels=["我", "爱", "你"])
    view.set_curves([Curve("c", x, x)], x_labels=["我", "爱", "你"])
    assert [label for _, label in axis._tickLevels[0]] == ["我", "爱", "你"]
    view.set_curves([Curve("c", x, x)], x_labels=["中", "国", "。"])
    assert [label for _, label in axis._tickLevels[0]] == ["中", "国", "。"]
    view.set_curves([Curve("c", x, x)])
    assert axis._tickLevels is None  # the axis's own ticks again


def test_the_left_axis_grows_at_once_and_gives_back_room_once_quiet(qtbot):
    from posenc_gui.views.axes import SHRINK_AFTER_MS

    view = shown_view(qtbot, 500, 300)
    axis = view.plot.getAxis("left")
    x = np.arange(10.0)

    def drawn_width(y: np.ndarray) -> float:
        view.set_curves([Curve("a", x, y)])
        qtbot.wait(50)  # painted: the labels asked for their room
        return axis.width()

    narrow = drawn_width(x)  # labels 0, 2, 4 …
    wide = drawn_width(1 + x * 1e-6)  # labels 1.000002 …
    assert wide > narrow + 10  # grown in the frame that needed it: no label cut
    assert drawn_width(x) == wide  # labels narrower again: the room is kept while it moves
    qtbot.waitUntil(lambda: axis.width() < wide, timeout=SHRINK_AFTER_MS + 1000)
    assert axis.width() <= narrow  # then given back


def test_a_first_frame_s_labels_take_their_room_at_once_narrower_too(qtbot):
    # pyqtgraph gives an axis 30 px for its labels to begin with: given back 0.8 s after a
    # view's first frame, its plot moved and painted again
    from posenc_gui.views.axes import SHRINK_AFTER_MS

    view = shown_view(qtbot, 500, 300)
    axis = view.plot.getAxis("left")
    x = np.arange(10.0)
    view.set_curves([Curve("a", x, x)])  # labels 0 … 8, a digit wide
    settle([view])
    qtbot.wait(50)
    first = axis.width()
    qtbot.wait(SHRINK_AFTER_MS + 300)
    assert axis.width() == first


def test_an_axis_keeps_its_room_while_frames_come_even_frames_that_change_nothing(qtbot):
    from posenc_gui.views.axes import SHRINK_AFTER_MS

    view = shown_view(qtbot, 500, 300)
    axis = view.plot.getAxis("left")
    x = np.arange(10.0)
    view.set_curves([Curve("a", x, 1 + x * 1e-6)])  # labels 1.000002 …: a wide axis
    settle([view])  # (as a tab does with each frame)
    qtbot.wait(50)
    wide = axis.width()
    view.set_curves([Curve("a", x, x)])  # labels 0, 2, 4 …: room to give back
    settle([view])
    qtbot.wait(50)
    assert axis.width() == wide
    for _ in range(2 * SHRINK_AFTER_MS // 200):  # a page's frames, this view's data the same
        view.set_curves([Curve("a", x, x)])
        settle([view])
        qtbot.wait(200)
        assert axis.width() == wide  # no re-layout, no second paint, mid-drag
    qtbot.waitUntil(lambda: axis.width() < wide, timeout=SHRINK_AFTER_MS + 1000)


def test_a_new_range_with_the_same_tick_labels_sets_no_axis_label_anew(qtbot):
    view = shown_view(qtbot, 500, 300)
    x = np.arange(10.0)
    view.set_curves([Curve("a", x, x)])
    settle([view])  # (as a tab does with each frame)
    qtbot.wait(50)
    sets = label_sets(view.plot)
    view.set_curves([Curve("a", x, x + 0.2)])  # y moves; its labels stay 0, 2, 4, 6, 8
    settle([view])
    qtbot.wait(50)
    assert view.plot.vb.viewRange()[1][1] > 9.9  # (9.74 before)
    assert sets == []  # hidden axes (top, right) included


def test_a_fitted_range_moved_less_than_a_tenth_of_a_pixel_keeps_its_ends(qtbot):
    # PE's waveforms reach ±1 within float32's rounding, differently at each θ
    view = shown_view(qtbot, 500, 300)
    axis = view.plot.getAxis("left")
    x = np.arange(512.0)
    view.set_curves([Curve("a", x, np.sin(x))])
    settle([view])
    qtbot.wait(50)
    shown, picture = list(view.plot.vb.viewRange()[1]), axis.picture
    assert picture is not None  # laid out for the paint
    view.set_curves([Curve("a", x, np.sin(x) * (1 + 1e-6))])  # ends 1e-6 apart: 1e-4 px
    settle([view])
    qtbot.wait(50)
    assert view.plot.vb.viewRange()[1] == shown
    assert axis.picture is picture  # the axis kept its ticks and labels
    view.set_curves([Curve("a", x, np.sin(x) * 1.01)])  # ends 0.01 apart: about a pixel
    settle([view])
    qtbot.wait(50)
    low, high = view.plot.vb.viewRange()[1]
    assert low < shown[0] - 0.009 and high > shown[1] + 0.009


def test_wider_tick_labels_widen_the_axis_before_the_view_paints(qtbot):
    view = shown_view(qtbot, 500, 300)
    axis = view.plot.getAxis("left")
    x = np.arange(10.0)
    view.set_curves([Curve("a", x, x)])  # labels 0, 2, 4 …
    qtbot.wait(100)
    narrow = axis.width()
    count = PaintCount()
    QGraphicsView.viewport(view).installEventFilter(count)  # the view's own `viewport` is another
    view.set_curves([Curve("a", x, 1 + x * 1e-6)])  # labels 1.000002 …
    settle([view])  # what a tab does after drawing a frame
    assert axis.width() > narrow + 10  # laid out for the new labels before any paint
    qtbot.wait(150)
    assert count.paints == 1  # not painted, re-laid out for its labels, then painted again


def test_axes_the_layout_resized_while_settling_have_their_labels_before_the_paint(qtbot):
    view = shown_view(qtbot, 500, 300)
    x = np.arange(10.0)
    view.set_curves([Curve("a", x, x)])
    qtbot.wait(100)
    bottom = view.plot.getAxis("bottom")
    width = bottom.width()
    view.set_curves([Curve("a", x, 1 + x * 1e-6)])  # wider labels: the bottom axis narrows
    settle([view])
    assert bottom.width() < width - 10  # resized after its labels were laid out …
    axes = [view.plot.getAxis(side) for side in ("left", "bottom")]
    assert all(axis.picture is not None for axis in axes)  # … and laid out again, not in paint


def test_curves_equal_to_those_drawn_last_are_neither_drawn_nor_painted_again(qtbot):
    """A frame hands each view of its page its data; where it did not change (equal arrays,
    new objects, NaN where NaN was), the view lays nothing out and paints nothing."""
    view = shown_view(qtbot, 500, 300)
    x, y = np.arange(10.0), np.r_[np.nan, np.arange(9.0)]

    def frame(values: np.ndarray, **options) -> None:
        view.set_curves([Curve("a", x.copy(), values.copy())], x_extent=(0, 10), **options)
        settle([view])  # what a tab does after drawing a frame
        qtbot.wait(150)

    frame(y)
    count = PaintCount()
    QGraphicsView.viewport(view).installEventFilter(count)
    frame(y)
    assert count.paints == 0
    frame(y + 1)
    assert count.paints == 1
    np.testing.assert_array_equal(view.curve_items[0].getData()[1], y + 1)
    frame(y + 1, lines=[Line(3.0, "x = 3")])  # the same curves, a line more
    assert count.paints == 2 and len(view.lines) == 1


def test_a_frame_hands_pyqtgraph_only_the_curves_and_bands_that_changed(qtbot):
    """Compare draws a curve per encoding and a control moves one of them: the others, and
    a band whose edges stayed, are left as drawn (new objects, equal values)."""
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    x = np.arange(10.0)

    def frame(a: np.ndarray, spread: float) -> None:
        view.set_curves(
            [Curve("a", x.copy(), a.copy()), Curve("b", x.copy(), x * 2)],
            bands=[Band("spread", x.copy(), x - spread, x + spread)],
        )

    frame(x, 1.0)
    handed: list[str] = []
    for item in view.curve_items:
        original = item.setData
        item.setData = lambda *args, item=item, original=original, **kwargs: (
            handed.append(item.name()),
            original(*args, **kwargs),
        )
    fill = view.bands[0][1]
    outline = fill.updatePath
    fill.updatePath = lambda: (handed.append("band"), outline())
    frame(x + 1, 1.0)
    assert handed == ["a"]
    np.testing.assert_array_equal(view.curve_items[0].getData()[1], x + 1)
    frame(x + 1, 2.0)
    assert handed == ["a", "band"]  # made once, when its second edge came
    np.testing.assert_array_equal(fill.curves[1].getData()[1], x + 2)


def test_markers_are_rendered_once_however_many_frames_are_drawn(qtbot):
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    x = np.arange(20.0)
    for shift in range(6):  # six frames of the same look
        view.set_curves([Curve("dots", x, x + shift, scatter=True, color=3)])
    atlas = view.curve_items[0].scatter.fragmentAtlas
    assert len(atlas) == 1  # one symbol, one size, one pen and brush: one rendered marker


def shown_log_view(qtbot, low_decade: int) -> tuple[CurvesView, QImage]:
    """A 700 × 400 view of y = 10^low_decade … 1 on a log axis over x = 0 … 999, grabbed."""
    view = shown_view(qtbot, 700, 400)
    view.set_log(y=True)
    x = np.arange(1000.0)
    view.set_curves([Curve("a", x, np.logspace(low_decade, 0, len(x)))])
    qtbot.wait(50)
    return view, view.grab().toImage()


def grid_row_lightness(view: CurvesView, image: QImage, log_y: float) -> float:
    """The mean lightness of the darkest pixel row around the grid line at ``log_y``, across
    x = 700 … 950 (where the curve runs above the lines asked about)."""
    left, right = (
        view.mapFromScene(view.plot.vb.mapViewToScene(QPointF(at, log_y))) for at in (700, 950)
    )
    return min(
        np.mean(
            [image.pixelColor(column, row).lightness() for column in range(left.x(), right.x())]
        )
        for row in range(left.y() - 1, left.y() + 2)
    )


def test_a_log_axis_over_many_decades_keeps_its_grid_lines(qtbot, light_look):
    # Over 19 decades its minor lines (2 … 9 in each decade, 171) lie 1-2 px apart, faded to
    # the background's colour, 9·10ᵏ on the row of 10ᵏ⁺¹: drawn, they covered the decade lines.
    view, image = shown_log_view(qtbot, -19)
    background = image.pixelColor(3, 3).lightness()
    assert background > 240
    for decade in (-15, -10):  # their lines run across the plot
        assert grid_row_lightness(view, image, decade) < background - 10


def test_a_log_axis_draws_its_decades_stronger_than_the_minor_lines(qtbot, light_look):
    # pyqtgraph's minor level repeats the decades: drawn after them in its fainter colour, it
    # made the decade lines look like the minor ones.
    view, image = shown_log_view(qtbot, -4)
    decade = grid_row_lightness(view, image, -2.0)
    minor = grid_row_lightness(view, image, float(np.log10(3e-3)))
    assert decade < minor - 10


def test_a_reference_line_s_label_reads_above_the_curves_crossing_it(qtbot, light_look):
    view = shown_view(qtbot, 600, 400)
    x = np.linspace(0.0, 100.0, 401)
    # a thick curve running up through the right end of the line, where its label hangs
    crossing = Curve("rising", x, np.clip((x - 80.0) * 0.1, 0.0, 1.0), color=1)
    view.set_curves([crossing], lines=[Line(0.5, "target = 65,536", vertical=False)])
    qtbot.wait(50)
    image = view.grab().toImage()
    box = view.mapFromScene(view.lines[0].label.sceneBoundingRect()).boundingRect()
    curve_colour = view.curve_items[0].opts["pen"].color().name()
    inside = {
        image.pixelColor(column, row).name()
        for column in range(box.left() + 2, box.right() - 1)
        for row in range(box.top() + 2, box.bottom() - 1)
    }
    assert view.curve_items[0].isVisible() and box.width() > 40
    assert curve_colour not in inside  # the label's box covers the curve: its text reads


def test_points_lying_on_a_reference_line_are_drawn_over_its_dashes(qtbot, light_look):
    view = shown_view(qtbot, 600, 400)
    x = np.arange(8.0)
    view.set_curves(
        [Curve("kept", x, np.full(8, 1.0), scatter=True, color=3), Curve("rest", x, x / 8)],
        lines=[Line(1.0, "1", vertical=False, color=2)],
    )
    qtbot.wait(50)
    image = view.grab().toImage()
    marker_colour = view.curve_items[0].opts["symbolBrush"].color().name()
    for point in x[:5]:  # away from the label at the line's right end
        centre = view.mapFromScene(view.plot.vb.mapViewToScene(QPointF(point, 1.0)))
        assert image.pixelColor(centre).name() == marker_colour


def pyqtgraph_bounds(view: CurvesView, within) -> list:
    """The range pyqtgraph's ViewBox finds by asking each item of ``view`` for its bounds."""
    return pg.ViewBox.childrenBounds(view.plot.vb, orthoRange=within)


@pytest.mark.parametrize("log", [(False, False), (False, True), (True, True)])
@pytest.mark.parametrize("marked", [False, True], ids=["lines", "markers"])
def test_the_range_fits_the_data_as_pyqtgraph_s_own_search_would(qtbot, log, marked):
    view = shown_view(qtbot, 640, 420)
    view.set_log(x=log[0], y=log[1])
    count = 20 if marked else 400  # few points are marked: their symbols' pixels count
    x = np.linspace(1.0, 50.0, count)
    y = np.exp(-x / 9.0) + 0.01
    y[3] = np.nan  # a gap bounds nothing
    view.set_curves(
        [Curve("a", x, y), Curve("b", x, 2.0 * y, dashed=True), Curve("c", x[::2], y[::2] / 5)],
        lines=[Line(20.0, "v"), Line(1.5, "h", vertical=False)],
        spans=[Span(2.0, 60.0, "kept")],
    )
    qtbot.wait(50)
    vb = view.plot.vb
    x_shown = list(vb.viewRange()[0])
    for within in ([None, None], [None, x_shown], [None, [x_shown[0], np.mean(x_shown)]]):
        ours, theirs = vb.childrenBounds(orthoRange=within), pyqtgraph_bounds(view, within)
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)
    assert vb.childrenBounds()[1][0] < (np.log10(0.003) if log[1] else 0.003)  # curve c counts


def test_the_y_range_fits_the_visible_part_of_bands_and_curves(qtbot):
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    view.resize(640, 420)
    view.show()
    x = np.arange(100.0)
    view.set_curves(
        [Curve("mean", x, x / 100)], bands=[Band("spread", x, x / 100 - 0.5, x / 100 + 0.5)]
    )
    low, high = view.plot.vb.childrenBounds(orthoRange=[None, [10.0, 20.0]])[1]
    assert (low, high) == (pytest.approx(0.1 - 0.5), pytest.approx(0.2 + 0.5))
    assert view.plot.vb.childrenBounds()[1] == [pytest.approx(-0.5), pytest.approx(1.49)]


def test_a_label_hangs_at_the_end_of_its_line_the_points_leave_free(qtbot, light_look):
    view = shown_view(qtbot, 600, 400)
    view.set_log(y=True)
    x = np.arange(64.0)
    # a ratio per pair, as YaRN's: 1 on the left, 1/8 on the right, a ramp between
    ratio = np.clip(1.0 - (x - 25.0) / 25.0 * 0.875, 0.125, 1.0)
    view.set_curves(
        [Curve("ratio", x, ratio, scatter=True)],
        lines=[Line(1.0, "1", vertical=False), Line(0.125, "1/s = 1/8", vertical=False)],
    )
    qtbot.wait(50)
    centre = view.plot.vb.sceneBoundingRect().center().x()
    one, eighth = (line.label.sceneBoundingRect() for line in view.lines)
    assert one.center().x() > centre  # its points lie on the left: at the right end
    assert eighth.center().x() < centre  # the right end is covered: at the left end
    for box in (one, eighth):
        covered = [
            point
            for point, y in zip(x, ratio, strict=True)
            if box.contains(view.plot.vb.mapViewToScene(QPointF(point, np.log10(y))))
        ]
        assert covered == []
    # the points move to the other side: the labels follow
    view.set_curves(
        [Curve("ratio", x, ratio[::-1], scatter=True)],
        lines=[Line(1.0, "1", vertical=False), Line(0.125, "1/s = 1/8", vertical=False)],
    )
    qtbot.wait(50)
    one, eighth = (line.label.sceneBoundingRect() for line in view.lines)
    assert one.center().x() < centre < eighth.center().x()
    # both ends free: the far end, whatever the end before
    view.set_curves(
        [Curve("ratio", x[30:34], np.full(4, 0.4), scatter=True)],
        lines=[Line(1.0, "1", vertical=False), Line(0.125, "1/s = 1/8", vertical=False)],
    )
    qtbot.wait(50)
    assert all(line.label.sceneBoundingRect().center().x() > centre for line in view.lines)


def test_a_frame_places_its_reference_labels_once(qtbot):
    """Where a label hangs depends on the data and the range a frame fits: placed once both
    are known, not at each step on the way (new data, then each range the view passes)."""
    view = shown_view(qtbot, 500, 300)
    x = np.arange(100.0)

    def frame(y: np.ndarray) -> None:
        view.set_curves([Curve("a", x, y)], lines=[Line(50.0, "L")])
        settle([view])  # what a tab does after drawing a frame
        qtbot.wait(50)

    frame(x)
    placed = []
    place = view.lines[0].place_label
    view.lines[0].place_label = lambda *args: (placed.append(args), place(*args))
    frame(x + 0.5)  # new data, a new y range: the same tick labels, the same sizes
    assert view.plot.vb.viewRange()[1][1] > 99.5
    assert len(placed) == 1


def test_a_label_moves_when_the_view_narrows_under_it(qtbot, light_look):
    view = shown_view(qtbot, 1000, 400)
    x = np.arange(100.0)
    y = np.where((x >= 60) & (x < 76), 0.7, np.where(x % 2, 0.0, 1.0))  # a crowd at 60 … 75
    view.set_curves(
        [Curve("c", x, y, scatter=True)],
        lines=[Line(0.75, "target = 65,536", vertical=False)],
        x_extent=(0, 100),
    )
    qtbot.wait(50)
    vb = view.plot.vb
    assert (
        view.lines[0].label.sceneBoundingRect().center().x() > vb.sceneBoundingRect().center().x()
    )
    view.resize(260, 400)  # the same range, each pixel more data: the label now covers 60 … 75
    qtbot.wait(50)
    assert (
        view.lines[0].label.sceneBoundingRect().center().x() < vb.sceneBoundingRect().center().x()
    )


def test_a_curve_hidden_from_its_legend_entry_leaves_the_range(qtbot):
    view = shown_view(qtbot, 640, 420)
    x = np.arange(50.0)
    view.set_curves([Curve("flat", x, np.sin(x / 5)), Curve("steep", x, x)])
    qtbot.wait(50)
    assert view.plot.vb.viewRange()[1][1] > 40
    view.curve_items[1].setVisible(False)  # what a click on its legend entry does
    qtbot.wait(50)
    assert view.plot.vb.viewRange()[1][1] < 2  # the range fits what is shown
    np.testing.assert_allclose(
        view.plot.vb.childrenBounds(), pyqtgraph_bounds(view, [None, None]), rtol=1e-12
    )


def test_a_dashed_curve_shows_over_a_solid_one_it_coincides_with(qtbot, light_look):
    view = shown_view(qtbot, 600, 400)
    x = np.arange(200.0)
    y = np.cos(x / 20.0)  # drawn first, dashed; then the same values solid
    view.set_curves([Curve("RoPE q = 1", x, y, dashed=True, color=1), Curve("sin", x, y, color=0)])
    qtbot.wait(50)
    image = view.grab().toImage()
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1, 4)
    pixels = pixels[:, : image.width(), 2::-1].astype(int)  # BGRA: as RGB
    colours = [item.opts["pen"].color() for item in view.curve_items]
    dashed_rgb, solid_rgb = (np.array(c.getRgb()[:3]) for c in colours)
    # each pixel by the colour it is (nearly) of: the line's edges blend with what is beside
    near_dashed = np.abs(pixels - dashed_rgb).max(-1) < 0.1 * np.abs(dashed_rgb - solid_rgb).max()
    near_solid = np.abs(pixels - solid_rgb).max(-1) < 0.1 * np.abs(dashed_rgb - solid_rgb).max()
    assert near_dashed.sum() > near_solid.sum() / 4  # its dashes over the solid line, not its rim


def test_positions_are_ticked_at_whole_numbers_only(qtbot):
    view = CurvesView("t", "distance k", "y")
    qtbot.addWidget(view)
    view.resize(600, 300)
    view.show()
    qtbot.waitExposed(view)
    x = np.arange(2.0)  # two positions: pyqtgraph would tick -0.4, -0.2, … 1.4
    view.set_curves([Curve("c", x, 1.0 - x / 2)], x_extent=(0, 2))
    qtbot.wait(50)
    assert drawn_tick_labels(view.plot.getAxis("bottom")) == ["0", "1"]
    view.set_curves([Curve("c", x / 4, x)])  # not positions: any ticks
    qtbot.wait(50)
    assert any("." in label for label in drawn_tick_labels(view.plot.getAxis("bottom")))


def test_a_log_axis_comes_with_the_curves_drawn_for_it(qtbot):
    view = shown_view(qtbot, 600, 400)
    x = np.arange(100.0)
    view.set_curves([Curve("a", x, x / 100)], x_extent=(0, 100))
    axis = view.plot.getAxis("bottom")
    view.set_log(x=True)  # asked for: the window to compute is log-spaced at once …
    assert view.x_window(1, 100).log and view.x_window(1, 100).start == 1
    assert not axis.logMode  # … while the curves on screen keep their linear axis
    assert view.plot.vb.viewRange()[0][1] > 90  # (a log axis's range ends near 2)
    logged = np.arange(1.0, 100.0)
    view.set_curves([Curve("a", logged, logged / 100)], x_extent=(1, 100))
    assert axis.logMode and view.plot.vb.viewRange()[0][1] == pytest.approx(2.0, abs=0.01)


def test_new_axes_map_each_curve_once(qtbot, monkeypatch):
    """Compare's log distance axis: pyqtgraph maps every curve's data anew when the axes
    change, and again as the frame hands it the data for them. Once is enough; a curve
    whose data stays is mapped on to the new axes all the same."""
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    x = np.arange(1.0, 50.0)
    linear = [Curve(name, x, x * k) for k, name in enumerate("abc", start=1)]
    view.set_curves(linear)
    mapped: list[object] = []
    update = pg.PlotDataItem.updateItems
    monkeypatch.setattr(
        pg.PlotDataItem,
        "updateItems",
        lambda item, *a, **k: mapped.append(item) or update(item, *a, **k),
    )
    view.set_log(x=True)
    logged = [Curve(c.name, x[::2], c.y[::2]) for c in linear[:2]] + [linear[2]]  # c stays
    view.set_curves(logged)
    assert sorted(map(id, mapped)) == sorted(map(id, view.curve_items))  # each once
    for item, curve in zip(view.curve_items, logged, strict=True):
        np.testing.assert_allclose(item.curve.getData()[0], np.log10(curve.x))


def test_a_curve_added_on_log_axes_is_drawn_on_them(qtbot):
    """An item made for a plot already on log axes takes them from the plot as it is added
    (only a frame's new axes wait for the data it hands)."""
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    x = np.arange(1.0, 50.0)
    view.set_log(x=True)
    view.set_curves([Curve("a", x, x)])
    view.set_curves([Curve("a", x, x), Curve("b", x, 2 * x), Curve("c", x, 3 * x)])
    assert len(view.curve_items) == 3
    for item in view.curve_items:
        np.testing.assert_allclose(item.curve.getData()[0], np.log10(x))


def test_a_band_entry_hidden_by_a_click_comes_back_shown(qtbot):
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    x = np.arange(5.0)
    band = Band("spread", x, x - 1, x + 1)
    view.set_curves([Curve("a", x, x)], bands=[band])
    (sample,) = [sample for sample, label in view.legend.items if label.text == "spread"]
    sample.item.setVisible(False)  # what a click on the entry's sample does
    view.set_curves([Curve("a", x, x), Curve("b", x, -x)], bands=[band])  # the entry anew
    (sample,) = [sample for sample, label in view.legend.items if label.text == "spread"]
    assert sample.item.isVisible()


def test_a_view_not_drawn_yet_makes_its_items_ahead(qtbot):
    """A view on a page not shown yet: its first frame finds its items made."""
    view = CurvesView("t", "x", "y", ahead=5)
    qtbot.addWidget(view)
    qtbot.waitUntil(lambda: len(view._set_aside) == 5)
    assert view.curve_items == [] and not any(item.isVisible() for item in view._set_aside)


def test_items_made_ahead_in_idle_time_leave_a_frame_of_more_curves_none_to_make(
    qtbot, monkeypatch
):
    view = CurvesView("t", "x", "y", ahead=12)
    qtbot.addWidget(view)
    view.resize(500, 300)
    view.show()
    qtbot.waitExposed(view)
    x = np.arange(50.0)

    def heads(count: int) -> list[Curve]:
        return [Curve("first" if h == 0 else "", x, -x * (h + 1)) for h in range(count)]

    view.set_curves(heads(2))
    assert len(view._set_aside) == 0  # made after the frame, not in it
    qtbot.waitUntil(lambda: len(view._set_aside) == 10)
    monkeypatch.setattr(view, "_new_item", lambda: pytest.fail("an item made in the frame"))
    # nor added to the plot there (twice what styling an item costs), nor taken out of it
    for method in ("addItem", "removeItem"):
        monkeypatch.setattr(view.plot, method, lambda *_, m=method: pytest.fail(f"{m} in a frame"))
    view.set_curves(heads(12))
    assert len(view.curve_items) == 12 and view._set_aside == []
    view.set_curves(heads(3))
    assert [item.isVisible() for item in view._set_aside] == [False] * 9
    view.set_curves(heads(12))
    assert all(item.scene() is view.scene() and item.isVisible() for item in view.curve_items)
    np.testing.assert_array_equal(view.curve_items[11].getOriginalDataset()[1], -x * 12)


def test_a_side_axis_asks_for_its_label_s_length_so_a_short_view_grows_to_hold_it(qtbot):
    """A strip of a view in presentation mode cut its y label to "θᵢ (…": it is laid out at
    least as tall as its label, and its page scrolls where it must."""
    from PySide6.QtGui import QTextDocument

    from posenc_gui.views.deferred import settle

    view = shown_view(qtbot, 600, 140)
    label = "similarity of every query with every key, at every distance"
    view.plot.setLabel("left", label)
    settle([view])  # as a frame does
    axis = view.plot.getAxis("left")
    assert view.minimumHeight() > axis.minimumHeight() > 140
    qtbot.waitUntil(lambda: axis.height() >= axis.minimumHeight())
    document = QTextDocument()
    document.setHtml(axis.labelString())
    assert document.toPlainText() == label and axis.toolTip() == ""


def test_an_axis_label_too_long_for_its_axis_is_elided_or_left_out(qtbot):
    """Shortened with "…" where part of it fits; left out where only "…" would (a strip a
    few rows high), never a lone "…"; the whole label is the axis's tooltip either way."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QFontMetricsF, QTextDocument

    label = "similarity of every query with every key"
    view = CurvesView("t", "x", label)
    qtbot.addWidget(view)
    axis = view.plot.getAxis("left")
    font = axis.label.font()
    font.setPointSizeF(float(axis.labelStyle["font-size"].removesuffix("pt")))
    ellipsis = QFontMetricsF(font).horizontalAdvance("…")

    def shown(length: float) -> str:
        axis.setMinimumHeight(0)  # where a layout cannot give the axis its label's length
        axis.setGeometry(QRectF(0, 0, 40, length))  # a left axis: its length is its height
        document = QTextDocument()
        document.setHtml(axis.labelString())
        return document.toPlainText()

    partly = shown(200)
    assert partly.endswith("…") and len(partly) > 5 and label.startswith(partly[:-1])
    assert axis.toolTip() == label
    assert shown(12 + ellipsis + 1) == ""  # room for "…" alone
    assert axis.toolTip() == label
    assert shown(2000) == label and axis.toolTip() == ""


def test_the_readout_writes_a_negative_zero_as_0(qtbot):
    view = CurvesView("t", "i − j", "bias")
    qtbot.addWidget(view)
    view.set_curves([Curve("head 1", np.arange(3), np.array([-0.0, -0.5, -1.0]))])
    assert view.describe(0.2) == "head 1: 0, 0"
    assert view.describe(1.1) == "head 1: 1, -0.5"


def test_curves_equal_but_for_rounding_get_a_readable_range(qtbot):
    # Compare at one position: every curve is 1 at distance 0, give or take an ulp; the axis
    # spanned 6e-16 and labelled 1.000000000000003 … 0.999999999999997
    view = shown_view(qtbot, 600, 400)
    x = np.zeros(1)
    ones = [1.0, 1.0 - 2**-53, 1.0 + 2**-52, 1.0 - 2**-52]
    flat = [Curve(f"c{k}", x, np.array([one])) for k, one in enumerate(ones)]
    # a range that is small but the data's own stays as it is
    view.set_curves([Curve("small", np.arange(2.0), np.array([1e-10, 3e-10]))])
    qtbot.wait(50)
    low, high = view.plot.vb.viewRange()[1]
    assert 0.5e-10 < low < 1e-10 and 3e-10 < high < 3.5e-10
    for log in (False, True):  # after that tiny range too, and on a log axis
        view.set_log(y=log)
        view.set_curves(flat)
        qtbot.wait(50)
        low, high = view.plot.vb.viewRange()[1]
        assert low < (0.0 if log else 1.0) < high and high - low > 0.1
        labels = drawn_tick_labels(view.plot.getAxis("left"))
        assert labels and all(len(label) <= 4 for label in labels), labels


def test_a_legend_refits_when_the_y_axis_widens_for_its_labels(qtbot):
    # the axis took room from the legend's row without resizing the plot: names fitted to the
    # narrower axis ran past the view's right edge (RoPE's spectrum, presentation, 1500 × 950)
    view = shown_view(qtbot, 800, 420)
    x = np.arange(10.0)
    name = "never completes a turn within seq_len"
    view.set_curves([Curve(name, x, x)])
    qtbot.wait(100)
    axis = view.plot.getAxis("left")
    narrow = axis.width()
    label = view.legend.items[0][1]
    assert label.text == name
    # just wide enough for the whole name beside the narrow axis
    view.resize(round(label.item.mapRectToScene(label.item.boundingRect()).right()) + 10, 420)
    qtbot.wait(100)
    assert label.text == name and not layout_problems(view)
    view.set_curves([Curve(name, x, 1 + x * 1.2345e-6)])  # labels such as 1.000004
    qtbot.wait(100)
    assert axis.width() > narrow + 20
    assert not layout_problems(view)


def _px_inside_edges(view: CurvesView, first: float, last: float) -> tuple[float, float]:
    """Screen pixels from the plot's left edge to x = ``first`` and from x = ``last`` to its
    right edge."""
    box = view.plot.vb
    edges = box.sceneBoundingRect()
    left = box.mapViewToScene(QPointF(first, 0.0)).x() - edges.left()
    right = edges.right() - box.mapViewToScene(QPointF(last, 0.0)).x()
    return left, right


@pytest.mark.parametrize("length", [10, 1 << 20])
def test_markers_at_the_first_and_last_point_are_drawn_whole(qtbot, length):
    # T5's buckets at 2^20: two far points whose markers the plot's edges cut in half
    view = shown_view(qtbot, 500, 300)
    x = np.linspace(0, length - 1, 10).round().astype(np.int64)
    view.set_curves([Curve("a", x, np.cos(x / length))], x_extent=(0, length))
    item = view.curve_items[0]
    assert item.opts["symbol"] is not None  # marked
    radius = item.opts["symbolSize"] / 2
    left, right = _px_inside_edges(view, 0.0, length - 1.0)
    assert left >= radius and right >= radius, (left, right)
    view.resize(900, 400)  # the room stays in pixels at another size
    qtbot.wait(20)
    left, right = _px_inside_edges(view, 0.0, length - 1.0)
    x_range = view.plot.vb.viewRange()[0]
    half_cell = 0.5 * view.plot.vb.width() / (x_range[1] - x_range[0])  # points at i − ½ … i + ½
    for room in (left - half_cell, right - half_cell):
        assert radius <= room < 3 * radius, (left, right, half_cell)


def test_lines_without_markers_reach_the_plot_s_edges(qtbot):
    view = shown_view(qtbot, 500, 300)
    x = np.arange(4000)
    view.set_curves([Curve("a", x, np.cos(x / 50))], x_extent=(0, 4000))
    assert view.curve_items[0].opts["symbol"] is None  # too dense to mark
    assert view.plot.vb.viewRange()[0] == [-0.5, 3999.5]


def test_a_zoomed_view_keeps_its_range_when_its_curves_gain_markers(qtbot):
    view = shown_view(qtbot, 500, 300)
    x = np.arange(4000)
    view.set_curves([Curve("a", x, np.cos(x / 50))], x_extent=(0, 4000))
    view.plot.vb.setXRange(100, 120, padding=0)  # the user zooms in: few points, marked
    zoomed = view.plot.vb.viewRange()[0]
    few = np.arange(100, 121)
    view.set_curves([Curve("a", few, np.cos(few / 50))], x_extent=(0, 4000))
    assert view.curve_items[0].opts["symbol"] is not None
    assert view.plot.vb.viewRange()[0] == zoomed


def test_markers_keep_their_room_after_a_zoom_in_and_back_out(qtbot):
    # zoomed back out, the range comes back within rounding: the view is whole again, and a
    # resize gives the markers their room for the new width
    view = shown_view(qtbot, 500, 300)
    x = np.arange(20)
    view.set_curves([Curve("a", x, np.cos(x / 3))], x_extent=(0, 20))
    box = view.plot.vb
    whole = box.viewRange()[0]
    box.scaleBy(x=0.5)
    box.setXRange(*whole, padding=0)
    box.scaleBy(x=1.0000000000000002)  # pyqtgraph's own zoom back out: off by rounding
    view.resize(1600, 300)
    qtbot.wait(20)
    item = view.curve_items[0]
    left, right = _px_inside_edges(view, 0.0, 19.0)
    half_cell = 0.5 * box.width() / (box.viewRange()[0][1] - box.viewRange()[0][0])
    radius = item.opts["symbolSize"] / 2
    for room in (left - half_cell, right - half_cell):
        assert radius <= room < 3 * radius, (left, right, half_cell)


def test_a_tiny_plot_gives_its_markers_no_room_that_would_show_positions_that_do_not_exist(qtbot):
    view = shown_view(qtbot, 90, 200)
    x = np.arange(10)
    view.set_curves([Curve("a", x, np.cos(x))], x_extent=(0, 10))
    qtbot.wait(20)
    low, high = view.plot.vb.viewRange()[0]
    assert (low, high) == (-0.5, 9.5), (low, high)
