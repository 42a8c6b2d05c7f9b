"""The ticks and labels an axis lays out (``views.axis_specs``) are pyqtgraph's own: the same
specs as ``AxisItem.generateDrawSpecs`` for the app's axes, linear and log, labelled by value
or by name, with a grid or without, measured on an image or on a picture."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QImage, QPainter, QPicture

from posenc_gui.views import Curve, HeatmapView, axis_specs
from posenc_gui.views.axis_specs import draw_specs, tick_values
from posenc_gui.views.deferred import settle
from tests.shown_view import shown_view
from tests.text_boxes import drawn_tick_labels


def _plain(specs) -> tuple | None:
    """Specs as plain values: pens by colour, width and style; points and rects by their
    coordinates; flags as an int."""
    if specs is None:
        return None

    def pen(p) -> tuple:
        return p.color().rgba(), p.widthF(), p.style(), p.isCosmetic()

    def point(q) -> tuple:
        return q.x(), q.y()

    line, ticks, labels = specs
    return (
        (pen(line[0]), point(line[1]), point(line[2])),
        [(pen(p), point(a), point(b)) for p, a, b in ticks],
        [((r.x(), r.y(), r.width(), r.height()), int(flags), text) for r, flags, text in labels],
    )


def _not_nudged(rect: QRectF, inside: QRectF, across: int) -> QRectF:
    return rect


def _assert_as_pyqtgraph_lays_out(axis: pg.AxisItem) -> None:
    for device in (QImage(1, 1, QImage.Format.Format_ARGB32_Premultiplied), QPicture()):
        painter = QPainter(device)
        try:
            room = axis.textWidth, axis.textHeight
            theirs = _plain(pg.AxisItem.generateDrawSpecs(axis, painter))
            axis.textWidth, axis.textHeight = room
            ours = _plain(draw_specs(axis, painter))
        finally:
            painter.end()
        assert ours == theirs, axis.orientation
        assert ours is not None and ours[1]  # ticks laid out: nothing compared empty


@pytest.mark.parametrize("log", [False, True], ids=["linear", "log"])
@pytest.mark.parametrize("size", [(300, 200), (900, 500)])
def test_a_curves_view_s_axes_are_laid_out_as_pyqtgraph_does(qtbot, monkeypatch, log, size):
    monkeypatch.setattr(axis_specs, "_nudged_inside", _not_nudged)  # pyqtgraph drops them
    view = shown_view(qtbot, *size)
    view.set_log(x=log)
    for decades, magnitude in ((1, 1e-6), (3, 1.0), (6, 1e5)):
        x = np.linspace(1, 10**decades, 400)
        view.set_curves([Curve("a", x, magnitude * np.cos(x / 7))])
        qtbot.wait(20)
        for side in ("left", "bottom", "top", "right"):  # top and right: no grid, no labels
            _assert_as_pyqtgraph_lays_out(view.plot.getAxis(side))


def test_a_heatmap_s_named_ticks_and_colorbar_are_laid_out_as_pyqtgraph_does(qtbot, monkeypatch):
    monkeypatch.setattr(axis_specs, "_nudged_inside", _not_nudged)
    view = HeatmapView("t", "x", "y", "value")
    qtbot.addWidget(view)
    view.resize(700, 500)
    view.show()
    qtbot.waitExposed(view)
    values = np.random.default_rng(0).standard_normal((6, 40)).astype(np.float32)
    view.set_data(values, row_labels=[f"row {k}" for k in range(6)])
    qtbot.wait(20)
    for axis in (view.plot.getAxis("left"), view.plot.getAxis("bottom"), view.colorbar.axis):
        _assert_as_pyqtgraph_lays_out(axis)


def test_labels_prepared_before_a_paint_are_what_it_plays(qtbot, monkeypatch):
    """``prepare_labels`` records an axis's ticks and labels and plays them nowhere; the
    view's paint then plays that recording, made once."""
    view = shown_view(qtbot, 500, 300)
    x = np.arange(100.0)
    view.set_curves([Curve("a", x, np.cos(x / 7))])
    settle([view])  # its first frame sized the axis (as a tab's does)
    axis = view.plot.getAxis("left")
    view.plot.setYRange(-3, 3)  # a new range: the labels are laid out again
    assert axis.picture is None
    played: list[QPicture] = []
    play = QPicture.play
    monkeypatch.setattr(
        QPicture, "play", lambda pic, painter: played.append(pic) or play(pic, painter)
    )
    axis.prepare_labels()
    prepared = axis.picture
    assert prepared is not None and played == []
    view.grab()
    assert prepared in played and axis.picture is prepared


@pytest.mark.parametrize("log", [False, True], ids=["linear", "log"])
@pytest.mark.parametrize("scale", [1.0, 1e-3])
def test_tick_values_are_pyqtgraph_s_own(qtbot, log, scale):
    # the same floats as pyqtgraph's numpy version, over ranges tiny, huge, negative, reversed
    # and empty, at lengths from a few pixels to a wide screen's
    axis = pg.AxisItem("bottom")
    axis.setScale(scale)
    axis.setLogMode(log)
    rng = np.random.default_rng(7)
    ranges = [(0.0, 0.0), (5.0, -3.0), (-1e-9, 1e-9), (0.0, 1.0), (1.0, 19.0), (-511.5, 511.5)]
    widest = 1 if log else 6  # a log axis's values are decades: its minor level lists 9 each
    ranges += [tuple(rng.standard_normal(2) * 10.0 ** rng.integers(-6, widest)) for _ in range(200)]
    compared = 0
    for low, high in ranges:
        for size in (12.0, 240.0, 901.0, 1900.0):
            theirs = pg.AxisItem.tickValues(axis, low, high, size)
            assert tick_values(axis, low, high, size) == theirs, (low, high, size)
            compared += sum(len(values) for _, values in theirs)
    assert compared > 500  # many values compared, not empty levels


@pytest.mark.parametrize(
    ("values", "labels"),
    [
        ([0.0, 250_000.0, 1_050_000.0], ["0", "250k", "1.05M"]),
        ([2e13, 4e13, 6e13], ["20T", "40T", "60T"]),  # dynamic NTK's base at θ 10¹² ("6e+04G")
        ([0.0, 2.5e17, 6.02e23], ["0", "2.5×10¹⁷", "6.02×10²³"]),
    ],
)
def test_large_tick_values_read_as_a_person_writes_them(qapp, values, labels):
    from posenc_gui.views.axes import CompactAxis

    assert CompactAxis("left").tickStrings(values, 1.0, values[1] - values[0]) == labels


@pytest.mark.parametrize(
    ("values", "spacing", "labels"),
    [
        # pyqtgraph wrote "1.0, 0.5, 0, -0.5": 0 without the decimals of its neighbours
        ([-1.0, -0.5, 0.0, 0.5, 1.0], 0.5, ["−1.0", "−0.5", "0.0", "0.5", "1.0"]),
        ([-0.3 + 3 * 0.1, 0.1], 0.1, ["0.0", "0.1"]),  # 0 off by rounding: "5.55112e-17"
        ([-0.0, 1.0], 1.0, ["0", "1"]),  # not "-0"
        ([-100.0, 0.0, 50.0], 50.0, ["−100", "0", "50"]),
        ([-2e5, 0.0], 2e5, ["−200k", "0"]),
        ([-0.002, 0.0, 0.002], 0.002, ["−0.002", "0.000", "0.002"]),
        # finer than a millionth: short forms with the digits that tell them apart
        ([1.0000001, 1.0000002], 1e-7, ["1.0000001", "1.0000002"]),
        ([-1e-7, 0.0, 1e-7], 1e-7, ["−1e−07", "0", "1e−07"]),
        ([1.0 + 2e-16, 1.0 + 4e-16], 2e-16, ["1.0000000000000002", "1.0000000000000004"]),
        ([1.0, 1.000000002], 2e-9, ["1.000000000", "1.000000002"]),  # not 1 beside 1.000000002
        # tiny values: their digits, not float noise (−3.9999999999999998e−20)
        ([-4e-20, -2e-20, 0.0, 2e-20], 2e-20, ["−4e−20", "−2e−20", "0", "2e−20"]),
    ],
)
def test_tick_labels_write_zero_and_minus_as_print_does(qapp, values, spacing, labels):
    from posenc_gui.views.axes import CompactAxis

    assert CompactAxis("left").tickStrings(values, 1.0, spacing) == labels


def test_a_heatmap_s_cell_ticks_write_negative_indices_with_a_minus_sign(qapp):
    from posenc_gui.views.heatmap import _centre_ticks

    ticks = _centre_ticks(np.arange(-2.0, 3.0), None, lambda cells: 1)
    assert ticks is not None
    assert [label for _, label in ticks[0]] == ["−2", "−1", "0", "1"]


@pytest.mark.parametrize("width", [450, 520])  # ticks 20 apart
def test_an_end_label_a_little_past_the_axis_end_is_moved_in_not_left_out(qtbot, width):
    # distances −63 … 63 drawn from −63.5 to 63.5: the tick at −60 lies 3.5 from the left end,
    # closer than half its label "−60"; pyqtgraph left that label out
    view = shown_view(qtbot, width, 300)
    x = np.arange(-63, 64)
    view.set_curves([Curve("a", x, np.cos(x / 7))], x_extent=(-63, 64))
    qtbot.wait(20)
    axis = view.plot.getAxis("bottom")
    image = QImage(1, 1, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    try:
        specs = draw_specs(axis, painter)
    finally:
        painter.end()
    assert specs is not None
    labels = {text: rect for rect, _, text in specs[2]}
    assert "−60" in labels and "60" in labels, sorted(labels)
    inside = axis.boundingRect()
    for text, value in (("−60", -60.0), ("60", 60.0)):
        rect = labels[text]
        assert inside.left() <= rect.left() and rect.right() <= inside.right()
        tick = axis.mapFromScene(view.plot.vb.mapViewToScene(QPointF(value, 0.0))).x()
        assert rect.left() < tick < rect.right()  # the label still covers its tick


def test_a_label_is_moved_in_by_less_than_half_its_length_or_not_at_all():
    inside = QRectF(0, 0, 100, 20)
    nudged = axis_specs._nudged_inside(QRectF(-6, 2, 20, 10), inside, 1)  # 6 past the left
    assert (nudged.left(), nudged.width(), nudged.top()) == (0, 20, 2)
    nudged = axis_specs._nudged_inside(QRectF(88, 2, 20, 10), inside, 1)  # 8 past the right
    assert nudged.right() == 100
    far = QRectF(-11, 2, 20, 10)  # more than half past: it would no longer cover its tick
    assert axis_specs._nudged_inside(far, inside, 1) == far
    column = QRectF(0, 0, 30, 100)  # a vertical axis: moved up or down
    assert axis_specs._nudged_inside(QRectF(2, 93, 20, 10), column, 0).bottom() == 100


def test_every_labelled_level_of_an_axis_has_the_decimals_of_the_finest(qtbot):
    # y −1 … 1: whole numbers on the first level, halves on the second; each written with
    # its own level's decimals they read "1, 0.5, 0, −0.5, −1"
    view = shown_view(qtbot, 500, 400)
    x = np.arange(100)
    view.set_curves([Curve("a", x, np.cos(x / 7))])
    qtbot.wait(20)
    labels = drawn_tick_labels(view.plot.getAxis("left"))
    assert {"1.0", "0.5", "0.0", "−0.5", "−1.0"} <= set(labels), labels


def test_ticks_of_a_range_near_the_smallest_floats_get_labels_of_a_float_s_digits(qapp):
    from posenc_gui.views.axes import CompactAxis

    labels = CompactAxis("left").tickStrings([0.0, 5e-321, 1e-320], 1.0, 5e-321)
    assert labels[0] == "0" and all(len(label) <= 24 for label in labels), labels  # not 321


def test_compact_labels_zoomed_in_keep_the_digits_that_tell_them_apart(qapp):
    from posenc_gui.views.axes import CompactAxis

    axis = CompactAxis("bottom")
    axis.setRange(500_000, 500_300)  # positions of a 2^20 sequence, zoomed in: "500k" six times
    assert axis.tickStrings([500_000, 500_050, 500_100], 1.0, 50) == ["500k", "500.05k", "500.1k"]
    axis.setRange(9_990, 10_010)
    assert axis.tickStrings([9_996, 10_000, 10_004], 1.0, 4) == ["9.996k", "10k", "10.004k"]


def test_every_level_of_an_axis_reaching_ten_thousand_is_written_compact(qapp):
    from posenc_gui.views.axes import CompactAxis

    axis = CompactAxis("left")
    axis.setRange(-12_000, 12_000)  # its finer level's values stay under 10,000: "5000"
    assert axis.tickStrings([-10_000, 0, 10_000], 1.0, 10_000) == ["−10k", "0", "10k"]
    assert axis.tickStrings([-5_000, 5_000], 1.0, 5_000) == ["−5k", "5k"]


def test_a_tick_at_the_very_end_of_the_axis_keeps_its_label(qtbot):
    view = shown_view(qtbot, 500, 300)
    x = np.arange(1000)
    view.set_curves([Curve("a", x, np.cos(x / 50))], x_extent=(0, 1000))
    view.plot.vb.setXRange(100, 180, padding=0)  # ticks at both ends
    qtbot.wait(20)
    labels = drawn_tick_labels(view.plot.getAxis("bottom"))
    assert labels[0] == "100" and "180" in labels, labels
