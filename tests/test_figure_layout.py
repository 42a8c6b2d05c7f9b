"""Figures that read at every window size: no clipped or overlapping text, legends off the
data, square cells where both axes are positions, one notation, hover readouts on curves."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QScrollArea

from posenc_gui.tabs.compare.tab import PLOT_HEIGHT
from posenc_gui.views import CurvesView, HeatmapView
from posenc_gui.views.style import Look, set_title
from tests.conftest import FRAME_TIMEOUT_MS
from tests.shown_view import shown_view
from tests.text_boxes import layout_problems, legend_problems, text_boxes

SIZES = [(1280, 720), (1500, 950), (1920, 1080)]
# TeX-like notation: θ'_i, R_{m+t}, m_h, q_i (the interface writes θ′ᵢ, Rₘ₊ₜ, mₕ, qᵢ)
TEX_LIKE = re.compile(r"_\{|\^\{|'_|[A-Za-zθωΣ]_[a-z0-9]\b")


def _drawn(qtbot, tab) -> None:
    qtbot.wait(50)
    qtbot.waitUntil(
        lambda: tab.frame is not None and not tab.is_waiting(), timeout=FRAME_TIMEOUT_MS
    )
    qtbot.wait(100)  # layouts settle after a frame


def every_page(window, qtbot) -> Iterator[tuple[str, str, object]]:
    """``(tab, page, view)`` for every view of every page, each page in front and drawn."""
    for index in range(window.tabs.count()):
        tab = window.tab_at(index)
        window.tabs.setCurrentIndex(index)
        _drawn(qtbot, tab)
        for page in tab.page_names() or [""]:
            if page:
                tab.show_page(page)
                _drawn(qtbot, tab)
            for name, view in tab.view_names().items():
                if view.isVisible():
                    yield tab.name, page, name, view


@pytest.fixture
def sized_window(qtbot, owned):
    def make(size, *, presentation: bool):
        from posenc_gui.window import MainWindow

        win = owned(MainWindow(device="cpu", look=Look(presentation=presentation)))
        win.resize(*size)
        win.show()
        return win

    return make


@pytest.mark.slow
@pytest.mark.parametrize("presentation", [False, True], ids=["normal", "presentation"])
def test_every_text_fits_at_every_window_size(sized_window, qtbot, presentation):
    window = sized_window(SIZES[0], presentation=presentation)
    problems = []
    for size in SIZES:
        window.resize(*size)
        qtbot.wait(200)
        for tab, page, name, view in every_page(window, qtbot):
            where = f"{size[0]}×{size[1]} {tab}/{page}/{name}"
            problems += [f"{where}: {problem}" for problem in layout_problems(view)]
            # the figures scroll vertically where the window is too short for them, never across
            placed = QRect(view.mapTo(window, QPoint(0, 0)), view.size())
            if placed.left() < 0 or placed.right() > window.width():
                problems.append(f"{where}: the view {placed} leaves the window")
        assert (window.width(), window.height()) == size  # nothing pushed the window larger
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "shared", [{}, {"seq_len": 2}, {"seq_len": 4096, "d_model": 1024, "head_dim": 256}]
)
def test_no_legend_lies_on_the_data(window, qtbot, shared):
    for name, value in shared.items():
        getattr(window.parameters, name).setValue(value)
    problems, legends = [], 0
    for tab, page, name, view in every_page(window, qtbot):
        problems += [f"{tab}/{page}/{name}: {problem}" for problem in legend_problems(view)]
        legends += any(box.kind == "legend" for box in text_boxes(view))
    assert legends >= 10  # the views with legends were seen
    assert not problems, "\n".join(problems)


def test_a_legend_too_wide_for_its_view_wraps_into_columns_and_elides(window, qtbot):
    view = window.tab("compare").similarity_view
    window.tabs.setCurrentWidget(window.tab("compare"))
    _drawn(qtbot, window.tab("compare"))
    full = [label.toolTip() for _, label in view.legend.items]
    window.resize(900, 700)
    qtbot.wait(200)
    shown = [label.text for _, label in view.legend.items]
    assert view.legend.columnCount >= 1 and len(shown) == len(full)
    assert any(text.endswith("…") and text != name for text, name in zip(shown, full, strict=True))
    right = view.legend.sceneBoundingRect().right()
    assert right <= view.width() + 1, (right, view.width())
    assert not legend_problems(view)


def test_cells_are_square_where_both_axes_are_positions(window, qtbot):
    tab = window.tab("absolute")
    _drawn(qtbot, tab)
    similarity: HeatmapView = tab.similarity_view
    rows, cols = similarity.image.image.shape
    cell = similarity.image.mapRectToScene(similarity.image.boundingRect())
    assert cell.width() / cols == pytest.approx(cell.height() / rows, abs=1.0)
    table: HeatmapView = tab.table_view  # dimension × position: fills its plot's box
    drawn = table.image.mapRectToScene(table.image.boundingRect())
    box = table.plot.vb.sceneBoundingRect()
    assert abs(drawn.width() - box.width()) < 1 and abs(drawn.height() - box.height()) < 1
    rows, cols = table.image.image.shape
    assert abs(drawn.width() / cols / (drawn.height() / rows) - 1) > 0.1  # cells not square


def test_the_interface_writes_one_notation(window, qtbot):
    texts = [
        box.text
        for _tab, _page, _name, view in every_page(window, qtbot)
        for box in text_boxes(view)
    ]
    assert any("θ′ᵢ" in text for text in texts) and any("mₕ" in text for text in texts)
    assert not [text for text in texts if TEX_LIKE.search(text)]
    bias_title = window.tab("relative").bias_view.plot.titleLabel.text
    # the scheme of the page walked last before the score formula's: its name, not its key
    assert window.tab("relative").scheme.currentData() == "alibi"
    assert "alibi" not in bias_title and "ALiBi" in bias_title


def test_hovering_a_curve_reads_the_nearest_point_of_each(window, qtbot):
    tab = window.tab("absolute")
    _drawn(qtbot, tab)
    view: CurvesView = tab.wave_view
    box = view.plot.vb
    x, y = 10.0, 0.0
    scene = box.mapViewToScene(QPointF(x, y))
    view.scene().sigMouseMoved.emit(scene)
    readout = window.findChild(type(window.hover_label), "hover").text()
    names = [item.name() for item in view.curve_items]
    assert all(name in readout for name in names)
    xs, ys = view.curve_items[0].getOriginalDataset()
    nearest = int(abs(xs - x).argmin())
    assert f"{names[0]}: {xs[nearest]:.6g}, {ys[nearest]:.6g}" in readout
    QApplication.sendEvent(view, QEvent(QEvent.Type.Leave))
    assert window.hover_label.text() == ""
    view.scene().sigMouseMoved.emit(scene)
    assert window.hover_label.text()
    window.tabs.setCurrentWidget(window.tab("rope"))  # a readout of a tab no longer shown
    assert window.hover_label.text() == ""


@pytest.mark.parametrize(
    "title", ["(d) PE(p)·PE(p+k) against distance k", "(d) PE(p)·PE(p+k) 随距离 k 变化"]
)
def test_a_title_a_little_too_wide_wraps_into_lines_of_even_length(qtbot, title):
    """Not its whole text but a last word (or Chinese character) on a line of its own."""
    view = shown_view(qtbot, 1200, 300)
    set_title(view.plot, title)
    label = view.plot.titleLabel
    qtbot.wait(50)
    one_line = label.item.document().idealWidth()
    view.resize(round(one_line) + view.width() - round(label.width()) - 6, 300)
    qtbot.waitUntil(lambda: label.width() < one_line, timeout=1000)
    qtbot.wait(50)
    layout = label.item.document().firstBlock().layout()
    widths = [layout.lineAt(i).naturalTextWidth() for i in range(layout.lineCount())]
    # evenly as the break opportunities allow: "(d) PE(p)·PE(p+k)" holds none
    assert len(widths) == 2 and min(widths) > 0.4 * max(widths), widths


def test_a_view_too_short_for_its_texts_scrolls_instead_of_clipping(sized_window, qtbot):
    window = sized_window((1280, 720), presentation=True)
    tab = window.tab("absolute")
    _drawn(qtbot, tab)
    assert (window.width(), window.height()) == (1280, 720)
    for view in tab.view_names().values():
        assert view.height() >= view.minimumHeight() > 0
        assert not layout_problems(view)
    area = tab.findChild(QScrollArea, "figures")
    assert area.verticalScrollBar().maximum() > 0  # the figures scroll


def _compare_tab(sized_window, qtbot, size: tuple[int, int], presentation: bool):
    """The Compare tab in front of a window of ``size``, its frame drawn."""
    window = sized_window(size, presentation=presentation)
    tab = window.tab("compare")
    window.tabs.setCurrentWidget(tab)
    _drawn(qtbot, tab)
    return tab


@pytest.mark.parametrize("presentation", [False, True], ids=["normal", "presentation"])
def test_the_comparison_keeps_a_readable_plot_and_whole_names(sized_window, qtbot, presentation):
    tab = _compare_tab(sized_window, qtbot, (1280, 720), presentation)
    look = Look(presentation=presentation)
    # the table gives way to the figure: the plot keeps PLOT_HEIGHT px of data at least
    assert tab.similarity_view.plot.vb.height() >= PLOT_HEIGHT * look.scale - 1
    columns = tab.table.horizontalHeader()
    for column in range(tab.table.columnCount()):  # every encoding's name whole
        needed = columns.sectionSizeFromContents(column).width()
        assert columns.sectionSize(column) >= needed, tab.table.horizontalHeaderItem(column).text()
    # a row taller than the table's room reads from its first line, criterion and cells, and
    # scrolls by pixels to the rest (by rows, its end could never be scrolled into view)
    table, top = tab.table, Qt.AlignmentFlag.AlignTop
    first_row = table.visualItemRect(table.item(0, 0))
    assert first_row.top() == 0
    if presentation:
        assert first_row.height() > table.viewport().height()
    assert table.verticalHeader().defaultAlignment() & top
    assert all(table.item(0, c).textAlignment() & top.value for c in range(table.columnCount()))
    assert table.verticalScrollMode() == QAbstractItemView.ScrollMode.ScrollPerPixel


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_no_control_is_cut_by_the_controls_column(sized_window, qtbot, language):
    from posenc_gui import i18n

    i18n.set_language(language)  # set back to English after the test (conftest)
    window = sized_window(SIZES[0], presentation=True)  # the largest fonts
    qtbot.wait(100)
    problems = []
    for index in range(window.tabs.count()):
        tab = window.tab_at(index)
        window.tabs.setCurrentIndex(index)
        for page in tab.page_names() or [""]:
            if page:
                tab.show_page(page)
            qtbot.wait(20)
            area = tab.findChild(QScrollArea, "controls")
            need, room = area.widget().minimumSizeHint().width(), area.viewport().width()
            if need > room:
                problems.append(f"{tab.name}/{page}: the controls need {need} px, get {room}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_score_pages_four_heatmaps_are_drawn_the_same_size(sized_window, qtbot, language):
    """Whatever the scheme, the bias's title (it names the scheme) takes no more lines than
    its neighbours' titles, so its image is not drawn smaller than theirs."""
    from posenc_gui import i18n

    i18n.set_language(language)  # set back to English after the test (conftest)
    window = sized_window(SIZES[0], presentation=True)  # the largest fonts
    tab = window.tab("relative")
    window.tabs.setCurrentWidget(tab)
    for index in range(tab.scheme.count()):
        tab.scheme.setCurrentIndex(index)
        tab.show_page("scores")
        _drawn(qtbot, tab)
        qtbot.wait(200)
        views = [tab.content_view, tab.bias_view, tab.total_view, tab.attention_view]
        widths = [
            round(view.image.mapRectToScene(view.image.boundingRect()).width()) for view in views
        ]
        assert max(widths) - min(widths) <= 2, (tab.scheme.currentData(), widths)


@pytest.mark.parametrize("presentation", [False, True], ids=["normal", "presentation"])
def test_the_comparison_shows_every_column_in_a_1500_px_window(sized_window, qtbot, presentation):
    # in presentation mode "Implementation difficulty" made the criteria 260 px wide: RoPE's
    # column was cut and 2-D axial RoPE's scrolled out of view; names break onto two lines there
    table = _compare_tab(sized_window, qtbot, (1500, 950), presentation).table
    assert table.horizontalScrollBar().maximum() == 0  # nothing to scroll to across
    names = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert names[-1] == ("2-D axial\nRoPE" if presentation else "2-D axial RoPE")


def test_the_rows_of_a_page_share_its_height_alike(owned, qtbot):
    # by size hints alone, presentation mode's fonts gave the score page's lower row three
    # times the upper one's height at 1500 × 950: its upper heatmaps were thumbnails
    from posenc_gui.window import MainWindow

    window = owned(MainWindow(device="cpu", look=Look(presentation=True)))
    tab = window.tab("relative")
    window.tabs.setCurrentWidget(tab)
    tab.show_page("scores")  # before the window is shown, as --tab relative --page scores
    window.resize(1500, 950)
    window.show()
    _drawn(qtbot, tab)
    views = [tab.content_view, tab.bias_view, tab.total_view, tab.attention_view]
    heights = [view.height() for view in views]
    assert max(heights) - min(heights) <= 2, heights
    widths = [round(view.image.mapRectToScene(view.image.boundingRect()).width()) for view in views]
    assert max(widths) - min(widths) <= 2 and min(widths) > 150, widths


@pytest.mark.parametrize("presentation", [False, True], ids=["normal", "presentation"])
def test_a_strip_leaves_the_page_to_the_plot_below_it(sized_window, qtbot, presentation):
    # Multimodal's id strip (three rows): by size hints it took its most in presentation mode
    # and squeezed the id curves; by an equal share it took half the page
    window = sized_window((1500, 950), presentation=presentation)
    tab = window.tab("multimodal")
    window.tabs.setCurrentWidget(tab)
    tab.show_page("sequence")
    _drawn(qtbot, tab)
    strip, curves = tab.figures.id_strip, tab.figures.id_curves
    assert curves.height() > 1.5 * strip.height(), (strip.height(), curves.height())
