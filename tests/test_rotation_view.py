"""RotationView: a frame with new panel titles paints once, and the panels keep their sizes."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt

from posenc_gui.views.deferred import settle
from posenc_gui.views.rotation import MIN_SIDE, RotationPanel, RotationView
from tests.label_sets import label_sets
from tests.paint_count import PaintCount

TRAIL = np.array([[1.0, 0.0], [0.6, 0.8]])


def panels(theta: float) -> list[RotationPanel]:
    """Titles as the RoPE tab writes them (head_dim 128): their widths change with θ."""
    inv_freq = theta ** (-np.arange(6) * 2 / 128)
    return [
        RotationPanel(f"pair {i}<br>θ\u00a0= {f:.3g}, λ\u00a0= {2 * np.pi / f:.4g}", TRAIL)
        for i, f in enumerate(inv_freq)
    ]


@pytest.fixture
def view(qtbot) -> RotationView:
    """A shown RotationView of a usual size."""
    shown = RotationView()
    qtbot.addWidget(shown)
    shown.resize(900, 600)
    shown.show()
    qtbot.waitExposed(shown)
    return shown


def draw(view: RotationView, theta: float) -> None:
    view.set_panels(panels(theta))
    settle([view])  # what the tab does after drawing


def test_new_titles_paint_the_view_once_and_resize_no_panel(view, qtbot):
    draw(view, 10_000.0)
    qtbot.wait(100)
    sizes = [plot.size() for plot, *_ in view.panels]
    count = PaintCount()
    view.viewport().installEventFilter(count)
    draw(view, 1234.5)
    qtbot.wait(150)
    assert view.panels[1][0].titleLabel.text == "pair 1<br>θ\u00a0= 0.895, λ\u00a0= 7.022"
    assert [plot.size() for plot, *_ in view.panels] == sizes  # the new texts move no panel
    assert count.paints == 1  # laid out before its paint, not once it had painted


def test_the_lines_of_a_title_are_centred_on_each_other(view, qtbot):
    view.set_panels([RotationPanel("pair 0<br>θ = 0.000115, λ = 5.441e+04", TRAIL)])
    qtbot.wait(100)
    layout = view.panels[0][0].titleLabel.item.document().firstBlock().layout()
    lines = [layout.lineAt(i).naturalTextRect() for i in range(layout.lineCount())]
    assert len(lines) == 2 and lines[0].width() < lines[1].width() / 2  # one block, two lines
    assert abs(lines[0].center().x() - lines[1].center().x()) < 1  # not left-aligned


def test_the_circle_and_range_follow_the_vector_s_length(view):
    longer = TRAIL * 2.0
    for trail, radius in ((TRAIL, 1.0), (TRAIL[::-1].copy(), 1.0), (longer, 2.0), (TRAIL, 1.0)):
        view.set_panels([RotationPanel("pair 0", trail)])
        plot, circle, *_ = view.panels[0]
        x, y = circle.getData()
        np.testing.assert_allclose(np.hypot(x, y), radius)
        (x0, x1), (y0, y1) = plot.vb.targetRange()
        assert (x0, x1, y0, y1) == pytest.approx(1.15 * radius * np.array([-1, 1, -1, 1]))


def test_panels_equal_to_those_drawn_last_are_not_painted_again(view, qtbot):
    draw(view, 10_000.0)
    qtbot.wait(100)
    count = PaintCount()
    view.viewport().installEventFilter(count)
    draw(view, 10_000.0)  # equal panels, new objects: a control of another view moved
    qtbot.wait(150)
    assert count.paints == 0
    view.set_panels([RotationPanel("pair 0", TRAIL * 2.0)])
    settle([view])
    qtbot.wait(150)
    assert count.paints == 1 and len(view.panels) == 1


def test_a_longer_vector_sets_no_axis_label_anew(view, qtbot):
    view.set_panels([RotationPanel("pair 0", TRAIL)])
    qtbot.wait(50)
    sets = label_sets(view.panels[0][0])
    view.set_panels([RotationPanel("pair 0", TRAIL * 2.0)])  # a new range
    qtbot.wait(50)
    assert view.panels[0][0].vb.targetRange()[0][1] == pytest.approx(2.3)
    assert sets == []  # its axes are all hidden: no text to lay out


@pytest.mark.parametrize("degrees", [0.0, 37.0, 90.0, 160.0, 200.0, 290.0])
def test_the_arrow_head_points_along_the_shaft_away_from_the_centre(view, qtbot, degrees):
    """The head is turned as an item each frame (not drawn anew): it must still point where
    the vector does, from the circle's centre out through its tip."""
    tip = np.array([np.cos(np.radians(degrees)), np.sin(np.radians(degrees))])
    view.set_panels([RotationPanel("pair 0", np.array([[1.0, 0.0], tip]))])
    settle([view])
    plot, _circle, _trail, _shaft, head = view.panels[0]
    # on screen: the head ignores the view's transformations (it keeps its size in pixels)
    to_device = head.deviceTransform(view.viewportTransform())
    point = to_device.map(QPointF(0.0, 0.0))  # the head's tip: its position
    outline = [head.path.elementAt(i) for i in range(head.path.elementCount())]
    middle = QPointF(*np.mean([(e.x, e.y) for e in outline], axis=0))  # on its axis
    base = to_device.map(middle)  # from the tip towards its base
    centre = view.mapFromScene(plot.vb.mapViewToScene(QPointF(0.0, 0.0))).toPointF()
    along = np.array([point.x() - centre.x(), point.y() - centre.y()])
    back = np.array([base.x() - point.x(), base.y() - point.y()])
    cosine = along @ back / np.linalg.norm(along) / np.linalg.norm(back)
    assert cosine < -0.999


def long_titles(count: int) -> list[RotationPanel]:
    """The titles of the RoPE tab's last pairs at head_dim 128: the longest it writes."""
    title = "pair {0}<br>θ\u00a0= 0.000115, λ\u00a0= 54,410"
    return [RotationPanel(title.format(i), TRAIL) for i in range(count)]


def circle_sides(view: RotationView) -> list[float]:
    """Each panel's square on screen, px (the circle's diameter is 1/1.15 of it)."""
    return [min(plot.vb.width(), plot.vb.height()) for plot, *_ in view.panels]


def test_a_wide_short_view_lays_many_panels_out_in_more_columns(view, qtbot):
    view.resize(821, 416)  # the rotation page of a 1280 × 720 window
    view.set_panels(long_titles(16))
    settle([view])
    qtbot.wait(100)
    # in a 4 × 4 grid each title took the most of its row, leaving circles of ~25 px
    assert min(circle_sides(view)) >= MIN_SIDE
    assert view.height() == 416 and view.minimumHeight() <= 416  # no scrolling needed
    rows = {plot.pos().y() for plot, *_ in view.panels}
    assert len(rows) == 2
    for plot, *_ in view.panels:  # titles wrap at word breaks, not inside numbers
        lines = plot.titleLabel.item.toPlainText().split("\n")
        assert all(line.strip() for line in lines)
        document = plot.titleLabel.item.document()
        assert document.idealWidth() <= plot.titleLabel.width() + 1


def needed_height(view: RotationView) -> float:
    """The height the panels' grid needs, titles wrapped as they are now."""
    return view.ci.effectiveSizeHint(Qt.SizeHint.MinimumSize).height()


def test_a_view_too_short_for_its_panels_asks_for_the_height_they_need(view, qtbot):
    view.resize(400, 200)
    view.set_panels(long_titles(16))
    settle([view])
    qtbot.wait(100)
    assert view.minimumHeight() > 200  # its page scrolls rather than shrinking the circles
    # the titles as the layout wrapped them, not as they were before it ran: none clipped
    assert view.minimumHeight() >= needed_height(view)
    view.resize(400, view.minimumHeight())
    qtbot.wait(100)
    assert min(circle_sides(view)) >= MIN_SIDE - 1


@pytest.mark.parametrize("width", [560, 450, 400])
def test_a_narrower_view_asks_for_the_height_its_rewrapped_titles_need(view, qtbot, width):
    """No frame comes with a resize: the view re-fits its height once the layout has wrapped
    the titles to the new width, or the bottom row is clipped instead of the page scrolling."""
    view.resize(600, 300)
    view.set_panels(long_titles(8))
    settle([view])
    qtbot.wait(100)
    view.resize(width, view.height())
    qtbot.waitUntil(lambda: view.minimumHeight() >= needed_height(view), timeout=1000)
    assert view.minimumHeight() == pytest.approx(needed_height(view), abs=1)


def test_no_panels_leave_an_empty_view_and_panels_come_back(view, qtbot):
    view.set_panels(long_titles(3))
    view.set_panels([])
    assert view.panels == [] and view.ci.layout.count() == 0  # nothing left in the grid
    assert not any(plot.isVisible() for plot, *_ in view._made)
    view.set_panels(long_titles(2))
    assert len(view.panels) == 2 and view.panels[0][0].scene() is view.scene()


def test_a_new_view_size_rearranges_the_panels_to_fit_it(view, qtbot):
    view.resize(1400, 300)
    view.set_panels(long_titles(8))
    settle([view])
    qtbot.wait(100)
    assert len({plot.pos().y() for plot, *_ in view.panels}) == 1  # one row across
    view.resize(500, 1000)  # tall and narrow: more rows
    qtbot.wait(100)
    assert len({plot.pos().y() for plot, *_ in view.panels}) >= 3
    assert min(circle_sides(view)) >= MIN_SIDE


def test_a_view_not_drawn_yet_makes_its_panels_ahead(qtbot):
    """The rotation page not shown yet: its first frame finds its panels made."""
    view = RotationView(ahead=3)
    qtbot.addWidget(view)
    qtbot.waitUntil(lambda: len(view._made) == 3)
    assert view.panels == []


def test_panels_made_ahead_in_idle_time_leave_a_larger_count_none_to_make(qtbot, monkeypatch):
    view = RotationView(ahead=6)
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    qtbot.waitExposed(view)
    view.set_panels(long_titles(2))
    assert len(view._made) == 2  # made after the frame, not in it
    qtbot.waitUntil(lambda: len(view._made) == 6)
    made = []
    monkeypatch.setattr(view, "_new_panel", lambda: made.append(1))
    view.set_panels(long_titles(6))
    assert made == [] and len(view.panels) == 6


def test_a_new_panel_count_lays_the_grid_out_once_not_at_each_panel(view, qtbot, monkeypatch):
    view.set_panels(long_titles(2))
    settle([view])
    activations = []
    layout = view.ci.layout
    monkeypatch.setattr(layout, "activate", lambda: activations.append(1))  # pyqtgraph's call
    view.set_panels(long_titles(12))
    assert activations == []  # pyqtgraph's addItem laid the grid out at each of 12 panels
    monkeypatch.undo()
    settle([view])
    assert layout.count() == 12 and all(plot.isVisible() for plot, *_ in view.panels)
    assert len({(plot.pos().x(), plot.pos().y()) for plot, *_ in view.panels}) == 12
