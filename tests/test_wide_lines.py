"""2 px curves painted as shifted hair-lines on screen (``views.wide_lines``): the same pixels
covered as Qt's 2 px stroke, the true pen kept for exports, vector output and other pens; the
curve handed its data again only where a new view range changes what it displays."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator

from posenc_gui.views import Curve
from posenc_gui.views.wide_lines import (
    LONGEST_RUN,
    SAME_SLOPE,
    STRAIGHT,
    CurveItem,
    WideLineCurve,
    _plain,
    by_hair_lines,
    opaque_on_raster,
    straight_runs_dropped,
    straight_runs_kept,
)
from tests.shown_view import shown_view

BLUE = "#0072B2"


def _plotted(qtbot, curve: pg.PlotCurveItem) -> tuple[pg.PlotWidget, np.ndarray]:
    """``curve`` (antialiased) alone on a 260 × 160 px plot of x = 0 … 199, y = 0 … 99, and
    the plot's pixels, BGR ``[160, 260, 3]``."""
    widget = pg.PlotWidget(background="w")
    qtbot.addWidget(widget)
    widget.resize(260, 160)
    widget.hideAxis("left")
    widget.hideAxis("bottom")
    curve.opts["antialias"] = True
    widget.addItem(curve)
    widget.setRange(xRange=(0, 199), yRange=(0, 99), padding=0)
    image = QImage(260, 160, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    widget.render(painter)
    painter.end()
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(160, 260, 4)
    return widget, pixels[..., :3].astype(int)


def _covered(qtbot, item_type: type, y: np.ndarray, style=Qt.PenStyle.SolidLine) -> np.ndarray:
    """How much of each pixel a 2 px curve ``y`` over x = 0 … 199 covers, drawn by
    ``item_type`` (0 … 1 per pixel)."""
    curve = item_type(np.arange(200.0), y, pen=pg.mkPen(BLUE, width=2, style=style))
    red = _plotted(qtbot, curve)[1][..., 2].astype(float)  # the curve's blue has almost no red
    return (255 - red) / (255 - QColor(BLUE).red())


@pytest.mark.parametrize(
    "slope", [0.0, 0.45, 1.0, 3.0, -1.0], ids=["flat", "shallow", "rising", "steep", "falling"]
)
def test_hair_lines_cover_what_qt_s_2px_stroke_covers(qtbot, slope):
    y = 50 + slope * (np.arange(200.0) - 100) / 4
    stroke, hair = _covered(qtbot, pg.PlotCurveItem, y), _covered(qtbot, WideLineCurve, y)
    assert stroke.sum() > 150  # a curve was drawn
    # about the same ink: 2 px across a level stretch, 1.7 or 2.4 px across a diagonal one
    assert 0.7 < hair.sum() / stroke.sum() < 1.3
    if slope == 0:
        assert 0.9 < hair.sum() / stroke.sum() < 1.1
    rows = np.arange(stroke.shape[0])[:, None]
    drawn = (stroke.sum(0) > 1) & (hair.sum(0) > 1)
    centre = (stroke * rows).sum(0)[drawn] / stroke.sum(0)[drawn]
    hair_centre = (hair * rows).sum(0)[drawn] / hair.sum(0)[drawn]
    assert np.abs(centre - hair_centre).max() < 1.0  # in the same place


def test_dashes_keep_their_length_and_place(qtbot):
    y = np.full(200, 50.0)
    stroke = _covered(qtbot, pg.PlotCurveItem, y, Qt.PenStyle.DashLine).sum(0) > 0.5
    hair = _covered(qtbot, WideLineCurve, y, Qt.PenStyle.DashLine).sum(0) > 0.5
    assert 0.5 < stroke.mean() < 0.8  # dashes and gaps along the line
    assert (stroke != hair).mean() < 0.1  # the same columns inked, give or take a dash's end


def test_a_curves_view_paints_its_2px_curves_with_hair_lines_on_screen(
    qtbot, monkeypatch, light_look
):
    view = shown_view(qtbot, 500, 300)
    x = np.arange(1000.0)
    view.set_curves([Curve("a", x, np.cos(x / 50), color=BLUE)])
    widths: list[float] = []
    set_pen = QPainter.setPen

    def recording(painter, pen):
        if getattr(pen, "color", None) and pen.color() == QColor(BLUE):
            widths.append(pen.widthF())
        set_pen(painter, pen)

    monkeypatch.setattr(QPainter, "setPen", recording)
    view.grab()
    # four hair-lines for the curve; its legend sample keeps the 2 px stroke
    assert sorted(widths) == [1.0, 1.0, 1.0, 1.0, 2.0]
    widths.clear()
    curve = view.curve_items[0].curve
    curve.setExportMode(True, {"antialias": True})  # as posenc_gui.export draws a figure
    try:
        view.grab()
    finally:
        curve.setExportMode(False)
    assert sorted(widths) == [2.0, 2.0]  # an exported figure: the true stroke
    assert view.curve_items[0].curve.opts["pen"].widthF() == 2.0  # the item keeps its pen


def test_vector_output_and_other_pens_keep_their_stroke(qtbot, tmp_path):
    svg = QSvgGenerator()
    svg.setFileName(str(tmp_path / "figure.svg"))
    svg.setSize(QSize(10, 10))
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    for device, pen, by_hair in (
        (image, pg.mkPen(BLUE, width=2), True),
        (svg, pg.mkPen(BLUE, width=2), False),  # a vector file keeps the true stroke
        (image, pg.mkPen(BLUE, width=3), False),  # presentation's 3 px
        (image, pg.mkPen(BLUE, width=2, style=Qt.PenStyle.DashLine), True),
        (image, pg.mkPen((0, 114, 178, 128), width=2), False),  # overlaps would darken it
    ):
        painter = QPainter(device)
        try:
            assert by_hair_lines(painter, pen) is by_hair
        finally:
            painter.end()
    # a fill or a shadow would be painted at each shift
    assert _plain({"fillLevel": None, "shadowPen": None})
    assert not _plain({"fillLevel": 0.0, "shadowPen": None})
    assert not _plain({"fillLevel": None, "shadowPen": pg.mkPen(BLUE)})


def _plot_of(qtbot, item: pg.PlotDataItem, y: np.ndarray, **opts) -> pg.PlotWidget:
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.resize(300, 200)
    widget.addItem(item)
    widget.setRange(xRange=(0, len(y) - 1), yRange=(-1.0, 1.0), padding=0)
    item.setData(np.arange(len(y), dtype=float), y, **opts)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _displayed(item: pg.PlotDataItem) -> tuple[np.ndarray, np.ndarray]:
    x, y = item.curve.getData()
    return np.array(x), np.array(y)


def test_a_new_y_range_hands_the_curve_nothing_where_nothing_is_clipped(qtbot, monkeypatch):
    item = CurveItem()
    widget = _plot_of(qtbot, item, np.sin(np.arange(200.0) / 9))
    handed: list[int] = []
    update = WideLineCurve.updateData

    def counted(curve, *args, **kwargs):
        handed.append(1)
        return update(curve, *args, **kwargs)

    monkeypatch.setattr(WideLineCurve, "updateData", counted)
    for low, high in ((-2.0, 2.0), (-0.5, 0.25), (-1.0, 1.0)):
        widget.setYRange(low, high, padding=0)
    assert handed == []
    item.setData(np.arange(200.0), np.cos(np.arange(200.0) / 9))  # new data is handed
    assert handed == [1]


@pytest.mark.parametrize("clip_to_view", [False, True], ids=["whole", "clipped-to-view"])
def test_the_curve_displays_what_pyqtgraph_s_item_displays_over_range_changes(qtbot, clip_to_view):
    """Data 10^9 tall in a view 1 tall is clipped to 10^6 view heights and unclipped when the
    view grows again; x ranges re-clip data clipped to the view, as pyqtgraph's own item does."""
    y = np.zeros(400)
    y[100], y[300] = 1e9, -1e9
    ours, theirs = CurveItem(), pg.PlotDataItem()
    plots = [_plot_of(qtbot, item, y, clipToView=clip_to_view) for item in (ours, theirs)]
    ranges = [((0, 399), (-0.5, 0.5)), ((50, 150), (-0.5, 0.5)), ((0, 399), (-2e9, 2e9))]
    ranges += [((120, 399), (-1.0, 1.0)), ((0, 399), (-3e9, 3e9))]
    clipped = []
    for x_range, y_range in ranges:
        for plot in plots:
            plot.setRange(xRange=x_range, yRange=y_range, padding=0)
        (x_ours, y_ours), (x_theirs, y_theirs) = _displayed(ours), _displayed(theirs)
        np.testing.assert_array_equal(x_ours, x_theirs)
        np.testing.assert_array_equal(y_ours, y_theirs)
        clipped.append(bool(np.abs(y_ours).max() < 1e9))
    assert True in clipped and False in clipped  # both cases happened


def test_a_display_redrawn_before_the_range_reaches_the_curve_is_unclipped_after(qtbot):
    """A slot of the view's range signal that redraws the curve before the curve hears of
    the new range gets the display it had (clipped); the new range then unclips it."""
    y = np.zeros(400)
    y[100] = 1e9
    item = CurveItem()
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.resize(300, 200)
    widget.getViewBox().sigRangeChanged.connect(lambda *_: item.updateItems(styleUpdate=False))
    widget.addItem(item)  # the item's own slot after that one
    widget.setRange(xRange=(0, 399), yRange=(-1.0, 1.0), padding=0)
    item.setData(np.arange(400.0), y)
    assert _displayed(item)[1].max() < 1e9  # clipped in a view 2 tall
    widget.setRange(yRange=(-3e9, 3e9), padding=0)
    assert _displayed(item)[1].max() == 1e9


def _envelope(
    qtbot, item_type: type, spacing: float, *, spike: bool = False
) -> tuple[pg.PlotWidget, np.ndarray]:
    """An envelope plotted (``_plotted``): vertical 1 px strokes every ``spacing`` x (1.3 px
    each), from a low to a high edge, in a light opaque colour; with ``spike``, a few lone
    strokes reach far above their neighbours."""
    x = np.arange(0.0, 200.0, spacing)
    low, high = 20 + 8 * np.sin(x / 15), 70 + 8 * np.cos(x / 11)  # a pixel's least and largest
    if spike:  # strokes 40, 41 … x apart: at every offset from a device column's centre
        high[[40, 81, 123, 166]] = 95
    y = np.ravel([low, high], "F")
    pen = pg.mkPen(LIGHT, width=1)
    return _plotted(qtbot, item_type(np.repeat(x, 2), y, pen=pen, connect="pairs"))


LIGHT = "#9fcbe6"  # a palette colour pre-blended with white, as envelopes are drawn


@pytest.mark.parametrize("spacing", [0.77, 1.0], ids=["a stroke a pixel", "moiré spacing"])
def test_an_envelope_is_painted_as_the_columns_its_strokes_cover(qtbot, spacing):
    """Strokes a pixel or so apart cover the band between the edges; on screen it is painted
    column by column, solid (strokes 1.3 px apart left lighter stripes between them)."""
    _, strokes = _envelope(qtbot, pg.PlotCurveItem, spacing)
    _, columns = _envelope(qtbot, WideLineCurve, spacing)
    ink = (strokes < 250).any(-1), (columns < 250).any(-1)
    assert ink[0].sum() > 5000  # an envelope was drawn
    # column by column as tall as the strokes' (the ends of antialiased strokes: a pixel)
    assert np.abs(ink[1].sum(0) - ink[0].sum(0)).max() <= 3
    assert (ink[0] != ink[1]).sum() / ink[0].sum() < 0.05
    # solid: the colour itself wherever it is drawn, bar the column ends
    inside = ink[1] & np.roll(ink[1], 1, 0) & np.roll(ink[1], -1, 0)
    colour = np.array(QColor(LIGHT).getRgb()[:3])[::-1]  # BGR in memory
    assert np.abs(columns[inside] - colour).max() <= 1


def test_a_lone_tall_stroke_keeps_its_height(qtbot):
    _, strokes = _envelope(qtbot, pg.PlotCurveItem, 1.0, spike=True)
    _, columns = _envelope(qtbot, WideLineCurve, 1.0, spike=True)
    heights = [(ink < 250).any(-1).sum(0) for ink in (strokes, columns)]
    assert (heights[0] > 100).sum() >= 4  # the spikes: 75 of the 99 y units up from about 20
    for spike in np.flatnonzero(heights[0] > 100):  # its column, or the next, as tall
        assert heights[1][spike - 1 : spike + 2].max() >= heights[0][spike] - 2


def _counting_line_calls(monkeypatch) -> list[int]:
    """A list that gets a 1 for each ``QPainter.drawLines`` call from now on."""
    calls: list[int] = []
    draw_lines = QPainter.drawLines

    def recording(painter, *args):
        calls.append(1)
        draw_lines(painter, *args)

    monkeypatch.setattr(QPainter, "drawLines", recording)
    return calls


def test_an_envelope_clipped_to_the_view_is_painted_as_columns(qtbot, monkeypatch):
    """pyqtgraph keeps a point either side of the view: the data may begin or end with
    half a pair of strokes, which is left out rather than giving the columns up."""
    item = CurveItem()
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.resize(300, 200)
    widget.addItem(item)
    x = np.repeat(np.arange(200.0), 2)
    item.setData(x, np.tile([-1.0, 1.0], 200), connect="pairs", pen=pg.mkPen(LIGHT, width=1))
    item.setClipToView(True)
    widget.setRange(xRange=(10.5, 60.5), yRange=(-2, 2), padding=0)
    widget.show()
    qtbot.waitExposed(widget)
    shown = item.curve.xData
    assert shown[0] != shown[1] or len(shown) % 2  # the view cut a pair
    drawn = _counting_line_calls(monkeypatch)
    widget.grab()
    assert drawn == [1]  # the columns, in one call


def test_an_exported_envelope_keeps_its_strokes(qtbot, monkeypatch):
    widget, _ = _envelope(qtbot, WideLineCurve, 1.3)
    curve = next(i for i in widget.getPlotItem().items if isinstance(i, WideLineCurve))
    columns = _counting_line_calls(monkeypatch)
    widget.grab()
    assert columns == [1]  # on screen: the columns, in one call
    columns.clear()
    curve.setExportMode(True, {"antialias": True})
    try:
        widget.grab()
    finally:
        curve.setExportMode(False)
    assert columns == []  # exported: pyqtgraph's own strokes (a path)


def test_a_straight_line_of_a_point_per_pixel_comes_back_as_a_point_in_64():
    distance = np.arange(512.0)
    bias = (-0.0625 * distance).astype(np.float32)  # an ALiBi head, rounded to float32
    x, y = straight_runs_dropped(distance, bias)
    every_64th = [*range(0, 512, 64), 511]
    assert list(x) == every_64th and list(y) == list(bias[every_64th])
    causal = np.where(distance < 200, 0.0, -0.5 * (distance - 200))  # level, then falling
    assert list(straight_runs_dropped(distance, causal)[0]) == sorted({*every_64th, 200})
    wave = np.sin(distance / 20)  # no straight run but where it turns: nearly every point
    assert len(straight_runs_dropped(distance, wave)[0]) >= 500


@given(
    st.lists(st.floats(-1e3, 1e3), min_size=2, max_size=12),
    st.integers(3, 600),
    st.floats(0.0, 1e-3),
    st.randoms(use_true_random=False),
)
def test_every_point_dropped_lies_on_the_line_through_those_kept(corners, count, noise, rnd):
    """The kept points, joined, pass within STRAIGHT of the curve's height of every point:
    straight runs between random corners, with noise, and curves of few points."""
    x = np.sort(np.array(rnd.sample(range(10 * count), count), dtype=float))
    y = np.interp(x, np.linspace(x[0], x[-1], len(corners)), corners)
    y = y + noise * np.array([rnd.uniform(-1, 1) for _ in range(count)])
    kept_x, kept_y = straight_runs_dropped(x, y)
    assert kept_x[0] == x[0] and kept_x[-1] == x[-1] and set(kept_x) <= set(x)
    assert np.abs(np.interp(x, kept_x, kept_y) - y).max() <= STRAIGHT * np.ptp(y) + 1e-12


def reference_straight_runs_dropped(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The one-curve search as it was (posenc-gui 9f25ade) before rows were searched at once:
    the points of ``y`` kept (see ``straight_runs_dropped``)."""
    if len(x) < 3 or not (np.isfinite(x).all() and np.isfinite(y).all()):
        return x, y
    dx = np.diff(x)
    if not (dx > 0).all():
        return x, y
    height, width = float(np.ptp(y)), float(x[-1] - x[0])
    slopes = np.diff(y) / dx
    keep = np.ones(len(x), dtype=bool)
    keep[1:-1] = np.abs(np.diff(slopes)) > SAME_SLOPE * height / width
    keep[::LONGEST_RUN] = True
    if keep.sum() == len(x):
        return x, y
    for _ in range(8):  # points too far off their chord are kept, and the chords made anew
        index = np.arange(len(x))
        left = np.maximum.accumulate(np.where(keep, index, 0))
        right = np.minimum.accumulate(np.where(keep, index, len(x) - 1)[::-1])[::-1]
        span = np.where(keep, 1.0, x[right] - x[left])  # a kept point is its own chord
        chord = y[left] + (y[right] - y[left]) * (x - x[left]) / span
        off = ~keep & (np.abs(y - chord) > STRAIGHT * height)
        if not off.any():
            return x[keep], y[keep]
        keep |= off
    return x, y


@given(
    st.lists(st.lists(st.floats(-1e3, 1e3), min_size=2, max_size=6), min_size=1, max_size=5),
    st.integers(3, 300),
    st.integers(-1, 4),
    st.randoms(use_true_random=False),
)
def test_rows_over_the_same_x_keep_what_each_kept_alone(rows, count, gap, rnd):
    """``straight_runs_kept`` of several curves at once keeps of each what the one-curve
    search kept of it (``reference_straight_runs_dropped``); a curve with a gap (not finite)
    keeps all of its points."""
    x = np.sort(np.array(rnd.sample(range(10 * count), count), dtype=float))
    ys = np.stack([np.interp(x, np.linspace(x[0], x[-1], len(c)), c) for c in rows])
    if 0 <= gap < len(rows):
        ys[gap, count // 2] = np.nan
    together = straight_runs_kept(x, ys)
    for row, kept in zip(ys, together, strict=True):
        assert list(x[kept]) == list(reference_straight_runs_dropped(x, row)[0])
        for dtype in (np.float64, np.float32):  # an ALiBi head rounded to float32
            alone = straight_runs_dropped(x, row.astype(dtype))
            reference = reference_straight_runs_dropped(x, row.astype(dtype))
            assert list(alone[0]) == list(reference[0])
    if 0 <= gap < len(rows):
        assert together[gap].all()


def test_a_straight_curve_paints_as_a_point_in_64_and_keeps_its_data(qtbot):
    x = np.arange(200.0)
    y = 10 + 0.37 * x
    pen = pg.mkPen(BLUE, width=2)
    many = WideLineCurve(x, y, pen=pen)
    many.setSegmentedLineMode("on")  # as the curves view draws solid lines
    kept = [0, 64, 128, 192, 199]
    few = WideLineCurve(x[kept], y[kept], pen=pen, connect="finite")  # painted as given
    few.setSegmentedLineMode("on")
    _, painted = _plotted(qtbot, many)
    # painted segment by segment, antialiased joints left darker specks along the line
    np.testing.assert_array_equal(painted, _plotted(qtbot, few)[1])
    assert len(many.xData) == 200 and np.array_equal(many.getData()[1], y)  # data as given


def test_a_curve_without_data_paints_nothing_and_keeps_no_old_data(qtbot):
    curve = WideLineCurve(pen=pg.mkPen(BLUE, width=2))  # the hair-line path, before any data
    image = QImage(40, 40, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    curve.paint(painter, None, None)
    assert (np.frombuffer(image.constBits(), np.uint8) == 255).all()  # nothing painted
    x = np.arange(200.0)
    curve.setData(x, 0.37 * x)
    curve.paint(painter, None, None)  # its straight run found: a point in 64
    assert curve._fewer is not None and len(curve._fewer[0]) < 200
    curve.clear()
    curve.paint(painter, None, None)
    painter.end()
    assert curve._fewer is None and curve._fewer_of is None  # the cleared data not kept


def test_painting_the_fewer_points_keeps_the_mouse_shape_of_the_data(qtbot):
    x = np.arange(200.0)
    curve = WideLineCurve(x, 10 + 0.37 * x, pen=pg.mkPen(BLUE, width=2))
    widget, _ = _plotted(qtbot, curve)
    shape = curve.mouseShape()
    assert shape.elementCount() > 0
    widget.grab()  # paints from a point in 64 again
    assert curve.mouseShape() is shape  # not dropped with the path made of those


def test_a_painter_that_could_not_begin_takes_the_general_way():
    """A backing store too large to allocate leaves the painter without an engine: not a
    raster one (it raised AttributeError from inside a paint)."""
    pen = pg.mkPen("k", width=1)
    assert not opaque_on_raster(QPainter(), pen)
    image = QImage(4, 4, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        assert opaque_on_raster(painter, pen)
    finally:
        painter.end()
