"""The RoPE tab draws exactly the library's numbers as its controls move."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pyqtgraph as pg
import pytest
import torch

from posenc_gui.encodings import rope
from posenc_gui.encodings.rope import RANDOM_SAMPLES, QueryKey
from posenc_gui.tabs.rope.compute import (
    ERROR_FLOOR,
    RopeParams,
    RotationParams,
    compute_rope,
    compute_rotation,
)
from posenc_gui.tabs.rope.tab import ANIMATION_MS
from tests.conftest import FRAME_TIMEOUT_MS


@pytest.fixture
def tab(window, drive):
    rope_tab = window.tab("rope")
    drive(window, lambda: window.tabs.setCurrentWidget(rope_tab), channel="rope")
    return rope_tab


def data(item) -> tuple[np.ndarray, np.ndarray]:
    return item.getOriginalDataset()


def test_angle_cos_and_sin_tables(window, drive, tab):
    angles = rope.angles(torch.arange(64), rope.inv_freq(128)).numpy()
    np.testing.assert_allclose(tab.table_view.image.image, np.mod(angles, 2 * np.pi), atol=1e-5)
    drive(window, lambda: tab.table.setCurrentIndex(1), channel="rope")
    np.testing.assert_allclose(tab.table_view.image.image, np.cos(angles), atol=1e-6)
    drive(window, lambda: tab.table.setCurrentIndex(2), channel="rope")
    np.testing.assert_allclose(tab.table_view.image.image, np.sin(angles), atol=1e-6)


def test_head_dim_and_theta_redraw_the_table(window, drive, tab):
    drive(window, lambda: window.parameters.head_dim.setValue(24), channel="rope")
    drive(window, lambda: window.parameters.theta.setValue(500.0), channel="rope")
    expected = np.mod(rope.angles(torch.arange(64), rope.inv_freq(24, 500.0)).numpy(), 2 * np.pi)
    assert tab.table_view.image.image.shape == (64, 12)
    np.testing.assert_allclose(tab.table_view.image.image, expected, atol=1e-5)


def test_rotation_panels_show_the_rotated_pair(window, drive, tab):
    tab.show_view("rotation")  # a page's views draw when it comes to the front
    tab.pairs.setText("0, 3, 63")
    drive(window, tab.pairs.editingFinished.emit, channel="rope.rotation")
    drive(window, lambda: tab.position.setValue(25), channel="rope.rotation")
    assert len(tab.rotation_view.panels) == 3
    theta = rope.inv_freq(128)
    for (plot, _circle, trail, _shaft, head), pair in zip(
        tab.rotation_view.panels, (0, 3, 63), strict=True
    ):
        x, y = trail.getData()
        # positions up to 25, but no more than one turn: more would retrace the circle
        assert len(x) == min(26, math.ceil(2 * math.pi / theta[pair].item()) + 1)
        angle = 25 * theta[pair].item()
        # q = all ones: the pair (1, 1) rotated by m·θ_i
        expected = (np.cos(angle) - np.sin(angle), np.sin(angle) + np.cos(angle))
        np.testing.assert_allclose((x[-1], y[-1]), expected, atol=1e-12)
        assert (head.pos().x(), head.pos().y()) == pytest.approx(expected)
        assert f"pair {pair}" in plot.titleLabel.text


def test_a_long_trail_is_a_smooth_arc_of_few_points():
    """At a late position the slowest pair's last turn spans ~60,000 positions: its trail is
    spread over that turn, each point on the circle, a polygon within 1e-4 of the radius of
    it, and few points (each costs its paint: 4096 made a panel's paint 1 ms)."""
    head_dim, m = 128, 1_000_000
    frame = compute_rotation(
        RotationParams(head_dim, 1e4, "half", QueryKey(head_dim), (63,), m),
        torch.device("cpu"),
    )
    trail = frame.trails[0]
    radius = np.hypot(*trail.T)
    np.testing.assert_allclose(radius, math.sqrt(2), rtol=1e-12)
    angles = np.unwrap(np.arctan2(trail[:, 1], trail[:, 0]))
    turn = abs(angles[-1] - angles[0])
    step = rope.inv_freq(head_dim)[63].item()  # the angle of one position
    assert 2 * math.pi <= turn < 2 * math.pi + step  # the last turn, whole: ⌈2π/θ⌉ positions
    steps = np.abs(np.diff(angles))
    assert (1 - np.cos(steps.max() / 2)) < 1e-4  # a chord's sagitta, over the radius
    assert len(trail) <= 300


def test_pair_count_spreads_panels_and_bad_pairs_get_a_message(window, drive, tab):
    tab.show_view("rotation")
    drive(window, lambda: tab.pair_count.setValue(3), channel="rope.rotation")
    assert [p.titleLabel.text.split("<br>")[0] for p, *_ in tab.rotation_view.panels] == [
        "pair 0",
        "pair 32",
        "pair 63",
    ]
    tab.pairs.setText("1, 99")
    drive(window, tab.pairs.editingFinished.emit, channel="rope.rotation")
    assert len(tab.rotation_view.panels) == 1
    assert "pairs must be in [0, 63]" in tab.message.text()
    view = tab.rotation_view
    shown = [i for i in view.scene().items() if isinstance(i, pg.PlotItem) and i.isVisible()]
    assert shown == [view.panels[0][0]]  # the other two left the figure: hidden, not drawn
    assert view.ci.layout.count() == 1  # nor in the grid


def test_more_pairs_than_panels_show_the_first_saying_so(window, drive, tab):
    tab.show_view("rotation")
    tab.pairs.setText(", ".join(map(str, range(20))))
    drive(window, tab.pairs.editingFinished.emit, channel="rope.rotation")
    assert len(tab.rotation_view.panels) == 16
    assert "pairs: at most 16 panels; the first 16 are shown" in tab.message.text()


def test_play_animates_the_position(window, qtbot, tab):
    start = tab.position.value()
    tab.play.setChecked(True)
    assert tab.play.text() == "Pause"
    qtbot.waitUntil(lambda: tab.position.value() != start, timeout=5000)
    tab.play.setChecked(False)
    assert not tab.timer.isActive()


def test_invariance_curve_is_flat_and_matches_rotation(window, drive, tab):
    tab.query.setCurrentIndex(1)
    drive(window, lambda: tab.shift.setValue(40), channel="rope")
    tab.ready_view("invariance")  # only the page in front is computed: this one's frame
    rotated, unrotated = tab.invariance_view.curve_items
    _, scores = data(rotated)
    q, k = torch.randn(2, 1, 128, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    theta = rope.inv_freq(128)
    for shift in (0, 17, 63):
        expected = rope.apply(q, [2 + shift], theta)[0] @ rope.apply(k, [5 + shift], theta)[0]
        assert scores[shift] == pytest.approx(expected.item(), abs=1e-10)
    assert np.ptp(scores) < 1e-9
    assert data(unrotated)[1][0] == pytest.approx((q * k).sum().item())
    assert "t = 40" in tab.readout.text()


def test_decay_curves_and_log_axis(window, drive, tab):
    tab.ready_view("decay")
    ones, mean = tab.decay_view.curve_items
    d, score = data(ones)
    expected = 2 * torch.cos(torch.from_numpy(d)[:, None] * rope.inv_freq(128)).sum(1)
    np.testing.assert_allclose(score, expected.numpy(), atol=1e-9)
    assert score[0] == pytest.approx(128)
    q, k = QueryKey(128, "random", 0).vectors(RANDOM_SAMPLES)
    random_scores = rope.relative_scores(q, k, d, rope.inv_freq(128))
    np.testing.assert_allclose(data(mean)[1], random_scores.mean(0).numpy(), atol=1e-9)
    assert len(tab.decay_view.bands) == 1
    drive(window, lambda: tab.log_distance.setChecked(True), channel="rope")
    assert data(tab.decay_view.curve_items[0])[0][0] == 1  # d = 0 left out on a log axis


def test_the_decay_title_says_when_a_pixel_is_a_mean_of_distances(window, drive, tab):
    # at a million positions the first pixel's mean read as a peak of 26 instead of 128
    title = "(d) Long-term decay of q·k"
    tab.ready_view("decay")
    assert tab.decay_view.plot.titleLabel.text == title  # 64 distances: one a pixel
    drive(window, lambda: window.parameters.seq_len.setValue(1 << 20), channel="rope")
    tab.ready_view("decay")
    pixels = len(data(tab.decay_view.curve_items[0])[0])
    most = -(-(1 << 20) // pixels)  # the runs of a window differ by one distance at most
    assert tab.decay_view.plot.titleLabel.text == (
        f"{title} · a pixel: the mean of {most:,} distances"
    )
    drive(window, lambda: tab.log_distance.setChecked(True), channel="rope")
    assert tab.decay_view.plot.titleLabel.text == title  # the first pixels: a distance each


def test_spectrum_marks_pairs_longer_than_the_context(window, drive, tab):
    drive(window, lambda: window.parameters.seq_len.setValue(1000), channel="rope")
    short, long = tab.spectrum_view.curve_items
    wavelengths = rope.wavelengths(rope.inv_freq(128)).numpy()
    np.testing.assert_array_equal(data(long)[0], np.flatnonzero(wavelengths > 1000))
    np.testing.assert_array_equal(data(short)[0], np.flatnonzero(wavelengths <= 1000))
    assert tab.spectrum_view.lines[0].label.format == "seq_len = 1000"


def test_layout_map_and_permutation(window, drive, tab):
    drive(window, lambda: window.parameters.head_dim.setValue(8), channel="rope")
    tab.ready_view("layout")
    np.testing.assert_array_equal(
        tab.layout_view.image.image, [[0, 0, 1, 1, 2, 2, 3, 3], [0, 1, 2, 3, 0, 1, 2, 3]]
    )
    np.testing.assert_array_equal(
        data(tab.permutation_view.curve_items[0])[1], [0, 2, 4, 6, 1, 3, 5, 7]
    )


def test_precision_views_follow_the_dtype(window, drive, tab):
    tab.ready_view("error")
    drive(window, lambda: tab.dtype.setCurrentText("float64"), channel="rope")
    assert np.all(tab.error_view.image.image == np.float32(np.log10(ERROR_FLOOR)))
    assert [len(curve.x) for curve in tab.error_curve_view.drawn_curves()] == [0]  # and why:
    assert "float64 holds every angle shown exactly: no error to draw" in tab.message.text()
    drive(window, lambda: tab.dtype.setCurrentText("bfloat16"), channel="rope")
    expected, _ = rope.precision_error(torch.arange(64), rope.inv_freq(128), torch.bfloat16)
    np.testing.assert_allclose(
        tab.error_view.image.image, np.log10(np.maximum(expected.numpy(), ERROR_FLOOR)), rtol=1e-5
    )
    # the log axis holds the errors there are: an exact position (m = 0) is left out, not
    # drawn at ERROR_FLOOR (the axis then spanned 14 empty decades)
    positions, worst = data(tab.error_curve_view.curve_items[0])
    largest = expected.amax(1).numpy()
    assert largest[0] == 0 and positions[0] > 0
    np.testing.assert_array_equal(positions, np.flatnonzero(largest > 0))
    np.testing.assert_allclose(worst, largest[largest > 0])
    assert tab.error_curve_view.plot.vb.viewRange()[1][0] > np.log10(largest[largest > 0].min()) - 1


def test_play_behind_another_page_computes_nothing_and_keeps_its_notes(window, drive, qtbot):
    tab = window.tab("rope")
    drive(window, lambda: window.tabs.setCurrentWidget(tab), "rope")
    tab.ready_view("rotation")
    rotations = []
    window.engine.frame_drawn.connect(lambda channel, *_: rotations.append(channel))
    tab.play.setChecked(True)
    qtbot.waitUntil(lambda: rotations.count("rope.rotation") >= 3, timeout=FRAME_TIMEOUT_MS)
    tab.ready_view("error")  # playing on, behind the precision page
    drive(window, lambda: tab.dtype.setCurrentText("float16"), "rope")
    drive(window, lambda: window.parameters.seq_len.setValue(70_000), "rope")
    assert "float16 cannot hold" in tab.message.text()
    rotations.clear()
    position = tab.position.value()
    qtbot.wait(10 * ANIMATION_MS)
    assert tab.position.value() != position  # it plays on
    assert "rope.rotation" not in rotations  # but its panels wait for their page
    assert "float16 cannot hold" in tab.message.text()
    tab.show_page("rotation")
    qtbot.waitUntil(lambda: rotations.count("rope.rotation") >= 3, timeout=FRAME_TIMEOUT_MS)
    tab.play.setChecked(False)


def test_rotation_panels_behind_another_page_come_with_the_settings_of_now(window, drive, tab):
    drawn = []
    window.engine.frame_drawn.connect(lambda channel, *_: drawn.append(channel))
    drive(window, lambda: window.parameters.theta.setValue(500.0), channel="rope")
    assert "rope.rotation" not in drawn  # the tables page is in front
    view = tab.ready_view("rotation")  # waits for the panels too
    slowest = rope.inv_freq(128, 500.0)[63].item()
    # a no-break space: a narrow panel never breaks between "θ" and its "="; λ = 2π·500^(126/128)
    # in whole positions with separators (5.441e+04 at θ 10,000 read beside 4080)
    title = f"pair 63<br>θ\u00a0= {slowest:.3g}, λ\u00a0= 2,851"
    assert view.panels[-1][0].titleLabel.text == title


def test_asking_for_a_request_changes_nothing_on_screen(window):
    tab = window.tab("rope")
    tab.pairs.setText("900")  # out of range; not yet confirmed, so no refresh
    tab.rotation_request()
    tab.request()
    assert tab.message.text() == ""
    tab.pairs.editingFinished.emit()
    assert "pairs must be in [0, 63]" in tab.message.text()


def test_controls_show_only_on_the_pages_they_change(window, drive):
    tab = window.tab("rope")
    drive(window, lambda: window.tabs.setCurrentWidget(tab), "rope")

    def shown(widget) -> bool:
        return not widget.isHidden()

    tab.show_page("precision")
    assert shown(tab.dtype) and not shown(tab.position) and not shown(tab.layout_choice)
    tab.show_page("rotation")
    assert shown(tab.position) and shown(tab.play) and not shown(tab.dtype)
    assert not shown(tab.seed)  # q = k = 1: no seed to choose
    drive(window, lambda: tab.query.setCurrentIndex(1), "rope")
    assert shown(tab.seed)


def test_a_control_of_one_rope_page_recomputes_only_that_page():
    cpu = torch.device("cpu")
    first = compute_rope(RopeParams(300, 32, 1e4), cpu)
    moved = compute_rope(replace(first.params, dtype="float16"), cpu)
    assert moved.tables.table is first.tables.table
    assert moved.invariance.decay_mean is first.invariance.decay_mean
    assert moved.invariance.rotated_scores is first.invariance.rotated_scores
    assert not np.array_equal(moved.precision.error_table, first.precision.error_table)
    apart = compute_rope(replace(first.params, key_position=9), cpu)
    assert apart.tables.table is first.tables.table
    assert apart.precision.error_table is first.precision.error_table
    # q = k = 1 at distance 9: (R_m q)·(R_{m+9} k) = Σᵢ 2·cos(9·θᵢ), at every shift
    expected = 2 * np.cos(9 * rope.inv_freq(32).numpy()).sum()
    np.testing.assert_allclose(apart.invariance.rotated_scores, expected, rtol=1e-12)
    cosine = compute_rope(replace(first.params, table="cos"), cpu)
    assert cosine.invariance.decay_mean is first.invariance.decay_mean
    assert cosine.tables.table is not first.tables.table
    angles = rope.angles(torch.arange(300), rope.inv_freq(32)).numpy()
    np.testing.assert_allclose(cosine.tables.table, np.cos(angles), atol=1e-6)


def test_the_pages_asked_for_are_computed_and_no_others():
    cpu = torch.device("cpu")
    frame = compute_rope(RopeParams(300, 32, 1e4, pages=("precision",)), cpu)
    assert frame.precision is not None
    assert frame.tables is None and frame.invariance is None and frame.layouts is None
    # the rotation page's panels are compute_rotation's: nothing here
    rotation = compute_rope(RopeParams(300, 32, 1e4, pages=("rotation",)), cpu)
    assert (rotation.tables, rotation.invariance, rotation.layouts, rotation.precision) == (
        None,
        None,
        None,
        None,
    )
    with pytest.raises(ValueError, match="pages must be among tables, rotation, invariance"):
        RopeParams(300, 32, 1e4, pages=("decay",))


def test_only_the_page_in_front_is_computed_and_a_page_change_computes_its_own(window, drive, tab):
    assert tab.current_page() == "tables"
    assert tab.frame.tables is not None and tab.frame.precision is None
    assert tab.frame.invariance is None and tab.frame.layouts is None
    view = tab.ready_view("error")
    assert tab.frame.precision is not None and tab.frame.tables is None
    assert view.image.image.shape == (64, 64)  # positions × pairs at head_dim 128
    assert not tab.is_waiting()


def test_on_the_rotation_page_its_panels_are_computed_first(window, drive, tab):
    order: list[str] = []
    window.engine.frame_drawn.connect(lambda channel, *_: order.append(channel))
    theta = window.parameters.theta
    for page, first in (("rotation", "rope.rotation"), ("tables", "rope")):
        tab.show_page(page)
        order.clear()
        drive(window, lambda: theta.setValue(theta.value() * 2), channel="rope")
        assert order[0] == first


def test_a_tab_behind_another_asks_for_nothing_until_it_comes_to_the_front(window, drive, qtbot):
    behind = window.tab("rope")  # built, behind the Absolute tab
    drawn: list[str] = []
    window.engine.frame_drawn.connect(lambda channel, *_: drawn.append(channel))
    behind.table.setCurrentIndex(1)  # cos: a control of the tab behind (as a preset sets one)
    behind.table_view.resize(333, 222)  # its views' layouts still settle while it is behind
    qtbot.wait(300)
    assert not [channel for channel in drawn if channel.startswith("rope")]
    drive(window, lambda: window.tabs.setCurrentWidget(behind), channel="rope")
    angles = rope.angles(torch.arange(64), rope.inv_freq(128)).numpy()
    np.testing.assert_allclose(behind.table_view.image.image, np.cos(angles), atol=1e-6)


def test_an_exact_cell_never_shares_its_colour_with_an_inexact_one(window, drive, tab):
    tab.ready_view("error")
    for name, value in (("seq_len", 2), ("head_dim", 2)):
        drive(window, lambda n=name, v=value: getattr(window.parameters, n).setValue(v), "rope")
    assert tab.dtype.currentText() == "bfloat16"  # the default: the frame drawn is bf16's
    errors, _ = rope.precision_error(torch.arange(2), rope.inv_freq(2), torch.bfloat16)
    assert errors[0, 0] == 0 and errors[1, 0] > 1e-4  # cos 0 is exact, cos 1 is not
    low, high = tab.error_view.colorbar.levels()
    drawn = tab.error_view.image.image[:, 0]
    assert drawn[0] <= low and low < drawn[1] <= high  # bottom colour: exact only
    # errors over many decades (float16 over 512 positions): the least a decade above exact
    drive(window, lambda: window.parameters.seq_len.setValue(512), "rope")
    drive(window, lambda: window.parameters.head_dim.setValue(128), "rope")
    drive(window, lambda: tab.dtype.setCurrentText("float16"), channel="rope")
    low, high = tab.error_view.colorbar.levels()
    drawn = tab.error_view.image.image
    exact = drawn <= np.log10(ERROR_FLOOR)
    assert exact.any() and high - drawn[~exact].min() > 3  # several decades
    assert drawn[~exact].min() - low == pytest.approx(1.0)


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_precision_titles_break_lines_around_their_formula_never_inside(
    window, owned, language
):
    """Wrapped to a narrow view (presentation mode, Chinese), "|cos − cos₆₄|" stays whole."""
    shown = window if language == "en" else owned(window.change_language(language))
    rope_tab = shown.tab("rope")
    for view in (rope_tab.error_view, rope_tab.error_curve_view):
        document = view.plot.titleLabel.item.document().clone()
        text = document.toPlainText()
        formula = text[text.index("|") : text.rindex("|") + 1]
        assert "cos₆₄" in formula
        document.setTextWidth(-1)  # one line: the formula's own width
        document.size()
        whole = document.firstBlock().layout().lineAt(0)
        start = text.index(formula)
        least = math.ceil(whole.cursorToX(start + len(formula))[0] - whole.cursorToX(start)[0])
        least += 2 * document.documentMargin() + 1  # and the margins it is laid out in
        for width in range(int(least), 400, 10):  # from a line for the formula alone on
            document.setTextWidth(width)
            document.size()  # laid out now
            layout = document.firstBlock().layout()
            rows = [layout.lineAt(i) for i in range(layout.lineCount())]
            pieces = [text[row.textStart() : row.textStart() + row.textLength()] for row in rows]
            assert any(formula in piece for piece in pieces), (width, pieces)
