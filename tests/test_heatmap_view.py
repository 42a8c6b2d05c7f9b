"""HeatmapView colours data by what it is when the caller leaves the levels to it, and shows a
square image with its axes over the data only."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QTabWidget, QWidget

from posenc_gui.export import export_view
from posenc_gui.views import HeatmapView
from posenc_gui.views.axes import SHRINK_AFTER_MS
from posenc_gui.views.deferred import settle
from posenc_gui.views.style import CYCLIC, colormap
from tests.label_sets import label_sets
from tests.text_boxes import drawn_tick_labels


def lut(view: HeatmapView) -> np.ndarray:
    return view.colorbar.colorMap().getLookupTable(nPts=8)


def shown(
    qtbot, size: tuple[int, int], title: str = "t", x: str = "x", y: str = "y", **options
) -> HeatmapView:
    """A HeatmapView of ``size``, on screen."""
    view = HeatmapView(title, x, y, "v", **options)
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    qtbot.waitExposed(view)
    return view


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
    # one value: a unit range on it, signed where that holds 0 (relative distances at one
    # position, all 0, turned sequential from −0.5 to 0.5, their cell a mid green)
    view.set_data(np.zeros((1, 1)))
    assert view.colorbar.levels() == (-0.5, 0.5)
    np.testing.assert_array_equal(lut(view), colormap("diverging").getLookupTable(nPts=8))
    view.set_data(np.full((2, 2), 0.3))  # one-sided, whatever its unit range holds
    assert view.colorbar.levels() == (-0.2, 0.8)
    np.testing.assert_array_equal(lut(view), colormap("sequential").getLookupTable(nPts=8))
    view.set_data(np.full((2, 2), 7.0))
    assert view.colorbar.levels() == (6.5, 7.5)
    np.testing.assert_array_equal(lut(view), colormap("sequential").getLookupTable(nPts=8))


def test_new_levels_set_no_axis_label_anew(qtbot):
    view = shown(qtbot, (600, 400))
    data = np.arange(64.0).reshape(8, 8)
    view.set_data(data)
    qtbot.wait(50)
    of_plot, of_bar = label_sets(view.plot), label_sets(view.colorbar)
    view.set_data(data + 10)  # the colorbar's range moves, its tick labels as wide
    qtbot.wait(50)
    assert view.colorbar.levels() == (10.0, 73.0)
    assert of_plot == of_bar == []  # hidden axes included


def test_data_equal_to_that_drawn_last_is_neither_drawn_nor_painted_again(qtbot):
    """A frame hands each view of its page its data; where it did not change (equal arrays,
    new objects, NaN where NaN was), the view paints nothing."""
    from PySide6.QtWidgets import QGraphicsView

    from tests.paint_count import PaintCount

    view = shown(qtbot, (500, 400))
    values = np.array([[1.0, -2.0], [3.0, np.nan]])
    view.set_data(values.copy())
    settle([view])  # (as a tab does: its axes sized now, none gives back room meanwhile)
    qtbot.wait(150)
    count = PaintCount()
    QGraphicsView.viewport(view).installEventFilter(count)
    view.set_data(values.copy())
    qtbot.wait(150)
    assert count.paints == 0
    view.set_data(values.copy(), levels=(-5.0, 5.0))  # the same values, other levels
    qtbot.wait(150)
    assert count.paints == 1 and view.colorbar.levels() == (-5.0, 5.0)
    view.set_data(values * 2, levels=(-5.0, 5.0))
    qtbot.wait(150)
    assert count.paints == 2
    np.testing.assert_array_equal(view.image.image, values * 2)


def test_the_grey_of_masked_cells_is_made_again_only_for_other_cells(qtbot):
    """A causal mask stays while the values under it move (ALiBi's heads, a seed): its grey
    image is kept; other NaN cells make it anew, with the grey at them."""
    view = shown(qtbot, (500, 400))
    view.set_data(np.array([[1.0, np.nan], [3.0, 4.0]]))
    kept = view.mask.image
    view.set_data(np.array([[-1.0, np.nan], [5.0, 2.0]]))
    assert view.mask.image is kept and view.mask.isVisible()
    view.set_data(np.array([[np.nan, 1.0], [3.0, 4.0]]))
    alpha = view.mask.image[..., 3]
    assert alpha[0, 0] == 255 and (alpha[0, 1], alpha[1, 0], alpha[1, 1]) == (0, 0, 0)
    view.set_data(np.array([[1.0, 2.0], [3.0, 4.0]]))
    assert not view.mask.isVisible()


def test_the_readout_says_masked_in_the_interface_language_and_zero_without_a_sign(qtbot):
    from posenc_gui.i18n import set_language

    view = HeatmapView("t", "key", "query", "bias")
    qtbot.addWidget(view)
    view.set_data(np.array([[-0.0, np.nan], [-0.5, -0.0]]))
    assert view.describe(0.5, 0.5) == "query 0 · key 0 · bias 0"
    assert view.describe(1.5, 1.5) == "query 1 · key 1 · bias 0"
    assert view.describe(0.5, 1.5) == "query 1 · key 0 · bias -0.5"
    assert view.describe(1.5, 0.5).endswith("bias masked")
    set_language("zh_CN")  # English again after the test (conftest)
    assert view.describe(1.5, 0.5).endswith("bias 已掩码")


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
    view = shown(qtbot, (400, 300))
    asked = view.windows(64, 64)  # a frame is computed for this size; none is drawn yet
    with qtbot.waitSignal(view.viewport.changed):
        view.resize(800, 600)
    assert view.windows(64, 64)[0].pixels > asked[0].pixels


def _spans_its_data(view: HeatmapView, cells: int) -> bool:
    """Whether the view's x and y ranges reach less than a cell past the data's."""
    (x0, x1), (y0, y1) = view.plot.vb.viewRange()
    return abs(x1 - x0 - cells) < 1 and abs(y1 - y0 - cells) < 1


def _shown_square(qtbot, size: tuple[int, int]) -> HeatmapView:
    view = shown(qtbot, size, "(c) Similarity PE·PEᵀ", "position", "position", square=True)
    view.set_data(np.arange(64.0 * 64).reshape(64, 64))
    return view


def test_a_square_heatmap_spans_its_data_in_a_wide_view_with_its_colorbar_beside_it(qtbot):
    view = _shown_square(qtbot, (900, 400))
    qtbot.waitUntil(lambda: _spans_its_data(view, 64))  # not widened past it: margins instead
    box, bar = view.plot.vb.sceneBoundingRect(), view.colorbar.sceneBoundingRect()
    assert 0 < bar.left() - box.right() < 60  # only the value axis's label between
    figure = view.plot.geometry()  # the plot in the view, centred
    assert figure.left() > 150 and abs(figure.left() - (view.width() - figure.right())) < 4


def test_a_square_heatmap_spans_its_data_in_a_tall_view(qtbot):
    view = _shown_square(qtbot, (420, 800))
    qtbot.waitUntil(lambda: _spans_its_data(view, 64))
    title = view.plot.titleLabel.sceneBoundingRect()
    assert title.top() > 150  # the title stays on the image: the margins are above it
    assert view.minimumHeight() < 500  # margins are not room the view needs


def test_a_square_heatmap_fits_its_view_again_after_the_view_shrinks(qtbot):
    view = _shown_square(qtbot, (1400, 500))
    qtbot.waitUntil(lambda: _spans_its_data(view, 64))
    view.resize(600, 500)
    qtbot.waitUntil(lambda: _spans_its_data(view, 64))
    figure = view.centralWidget.geometry()  # not held at the wider view's margins
    assert figure.width() <= view.width() + 0.5, (figure, view.width())


@pytest.mark.parametrize("size", [(900, 400), (400, 900)])
def test_a_square_heatmap_asks_for_its_first_frame_at_the_size_it_is_drawn(qtbot, size):
    """Before its first frame a square view's box still spans the whole view (its rooms take
    the spare width or height once it draws): it asks for the image's pixels, not the box's,
    so that the frame drawn is the one asked for, not one at twice the pixels followed by
    another."""
    view = shown(qtbot, size, x="position", y="position", square=True)
    columns, rows = view.windows(64, 64)
    view.set_data(np.ones((64, 64)))
    qtbot.waitUntil(lambda: _spans_its_data(view, 64))  # the rooms took the rest
    box = view.plot.vb
    assert abs(columns.pixels - box.width()) <= 2 and abs(rows.pixels - box.height()) <= 2
    assert view.windows(64, 64) == (columns, rows)  # no new frame asked for


def test_a_heatmap_labels_the_first_cell_at_the_axis_end(qtbot):
    view = shown(qtbot, (400, 300), x="dimension", y="position")  # fills its view: range = data
    view.set_data(np.ones((4, 128)))  # cells 2-3 px wide: the "0" label reaches past the end
    labels = drawn_tick_labels(view.plot.getAxis("bottom"))
    assert labels[0] == "0" and len(labels) >= 3, labels


def test_a_square_heatmap_shrunk_behind_another_page_spans_its_data_when_shown(qtbot):
    pages = QTabWidget()
    qtbot.addWidget(pages)
    view = HeatmapView("(c) Similarity PE·PEᵀ", "position", "position", "v", square=True)
    pages.addTab(view, "heatmap")
    pages.addTab(QWidget(), "other")
    pages.resize(1400, 500)
    pages.show()
    qtbot.waitExposed(pages)
    view.set_data(np.arange(64.0 * 64).reshape(64, 64))
    qtbot.waitUntil(lambda: _spans_its_data(view, 64))
    pages.setCurrentIndex(1)
    pages.resize(600, 500)  # the view learns its new size only when shown
    pages.setCurrentIndex(0)
    qtbot.waitUntil(lambda: _spans_its_data(view, 64))
    assert view.centralWidget.geometry().width() <= view.width() + 0.5
    assert view.plot.vb.width() > 200


def test_a_square_heatmap_exported_at_another_shape_shows_its_image(qtbot, tmp_path):
    view = _shown_square(qtbot, (1400, 500))
    qtbot.waitUntil(lambda: _spans_its_data(view, 64))
    for width, height in ((300, 700), (600, 600), (2000, 800)):
        path = export_view(view, tmp_path / f"{width}x{height}.png", size=(width, height))
        image = QImage(str(path))
        assert (image.width(), image.height()) == (width, height)
        # the image's middle row, across the figure: the data's colours over a wide stretch
        row = [image.pixelColor(x, height // 2).name() for x in range(width)]
        background = image.pixelColor(1, 1).name()
        assert sum(colour != background for colour in row) > 0.3 * width, (width, height)
    assert _spans_its_data(view, 64)  # the view on screen is as it was
    assert view.centralWidget.geometry().width() <= view.width() + 0.5


def test_a_square_heatmap_stays_square_through_a_drag(qtbot):
    view = _shown_square(qtbot, (1400, 500))
    qtbot.waitUntil(lambda: _spans_its_data(view, 64))
    # axes quiet: none gives back room mid-drag (a machine under load may take that long)
    qtbot.wait(SHRINK_AFTER_MS + 100)
    boxes = []
    view.plot.vb.sigResized.connect(lambda: boxes.append(view.plot.vb.geometry().size()))
    for step in range(1, 11):  # narrower, then taller: each step's box is the image's shape
        view.resize(1400 - 60 * step, 500 + 20 * step)
        qtbot.wait(10)
    assert boxes and all(abs(box.width() - box.height()) < 1.5 for box in boxes), boxes
    qtbot.waitUntil(lambda: _spans_its_data(view, 64))


def test_hovering_the_room_beside_a_square_heatmap_reads_nothing(qtbot):
    view = _shown_square(qtbot, (1400, 500))
    qtbot.waitUntil(lambda: _spans_its_data(view, 64))
    read = []
    view.hovered.connect(read.append)
    box = view.plot.vb.sceneBoundingRect()
    view.scene().sigMouseMoved.emit(box.center())
    view.scene().sigMouseMoved.emit(QPointF(20, box.center().y()))  # left of the plot
    assert read[0].startswith("position 32 · position 32 ·") and read[1] == ""


def test_a_strip_keeps_room_for_every_row_s_label(qtbot):
    view = HeatmapView("(d) ids per token", "token", "axis", "id")
    qtbot.addWidget(view)
    names = ["t (time)", "h (height)", "w (width)"]
    view.set_data(np.arange(3 * 100.0).reshape(3, 100), row_labels=names)
    view.resize(700, 60)  # asked to be shorter than its labels need
    view.show()
    qtbot.waitExposed(view)
    qtbot.wait(50)
    assert view.height() > 60  # it keeps its minimum: the page scrolls instead
    assert drawn_tick_labels(view.plot.getAxis("left")) == names


def test_many_labelled_rows_ask_for_no_more_room_than_a_few(qtbot):
    view = HeatmapView("t", "token", "token", "v")
    qtbot.addWidget(view)
    view.set_data(np.zeros((100, 100)), row_labels=[f"t{i}" for i in range(100)])
    few = HeatmapView("t", "token", "token", "v")
    qtbot.addWidget(few)
    few.set_data(np.zeros((8, 100)), row_labels=[f"t{i}" for i in range(8)])
    assert view.minimumHeight() == few.minimumHeight() < 400  # every n-th row labelled


def test_a_heatmap_gives_back_the_rows_room_when_its_labels_go(qtbot):
    view = HeatmapView("t", "token", "axis", "v")
    qtbot.addWidget(view)
    view.set_data(np.zeros((3, 50)), row_labels=["t", "h", "w"])
    labelled = view.minimumHeight()
    view.set_data(np.zeros((3, 50)))  # the sentence cleared, say
    assert view.minimumHeight() < labelled and view.plot.vb.minimumHeight() == 0


def test_labels_that_do_not_give_one_a_row_or_column_are_refused_with_their_name(qtbot):
    view = HeatmapView("t", "x", "y", "value")
    qtbot.addWidget(view)
    with pytest.raises(ValueError, match=r"row_labels: one label a row \(3\), got 2"):
        view.set_data(np.zeros((3, 4)), row_labels=["a", "b"])
    with pytest.raises(ValueError, match=r"col_labels: one label a col \(4\), got 5"):
        view.set_data(np.zeros((3, 4)), col_labels=list("abcde"))
