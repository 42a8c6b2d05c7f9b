"""The Relative tab draws exactly the library's numbers as its controls move."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from posenc_gui.encodings import relative, sinusoidal
from tests.test_relative import seeded_normals

R64 = relative.relative_positions(64).numpy()


@pytest.fixture
def tab(window, drive):
    relative_tab = window.tab("relative")
    drive(window, lambda: window.tabs.setCurrentWidget(relative_tab), channel="relative")
    return relative_tab


def set_scheme(window, drive, tab, scheme: str) -> None:
    drive(
        window, lambda: tab.scheme.setCurrentIndex(tab.scheme.findData(scheme)), channel="relative"
    )


def show_page(tab, page: str) -> None:
    """Bring ``page`` to the front and wait for its frame: only the page in front is computed
    (its request comes once the page is laid out, maybe after a frame of the page before)."""
    tab.ready_view(next(name for name, on in tab.spec.views.items() if on == page))
    assert tab.current_page() == page and tab.frame.params.pages == (page,)


def test_only_the_page_in_front_is_computed_and_a_page_change_computes_its_own(window, drive, tab):
    assert tab.current_page() == "distances"
    assert tab.frame.distances is not None and tab.frame.t5 is None and tab.frame.scores is None
    show_page(tab, "scores")
    assert tab.frame.scores is not None and tab.frame.distances is None
    assert tab.content_view.image.image.shape == (64, 64)


def test_exporting_a_view_of_a_page_not_computed_waits_for_its_frame(window, drive, tab, tmp_path):
    from posenc_gui.export_dialog import ExportDialog

    dialog = ExportDialog(tab)
    dialog.view.setCurrentIndex(dialog.view.findData("attention"))
    view = dialog.chosen_view()  # brings the page in front and waits for its frame
    assert tab.current_page() == "scores" and not tab.is_waiting()
    np.testing.assert_allclose(view.image.image.sum(1), 1.0, rtol=1e-5)  # softmax rows


def test_distance_matrix_and_shaw_clipping(window, drive, tab):
    np.testing.assert_array_equal(tab.distance_view.image.image, R64)
    set_scheme(window, drive, tab, "shaw")
    assert tab.pages.currentWidget().objectName() == "distances"
    drive(window, lambda: tab.max_relative_position.setValue(3), channel="relative")
    np.testing.assert_array_equal(tab.distance_view.image.image, np.clip(R64, -3, 3))


def test_long_sequences_draw_exact_block_means(window, drive, tab):
    drive(window, lambda: window.parameters.seq_len.setValue(3000), channel="relative")
    view = tab.distance_view
    assert view.image.image.shape == (len(view.y_edges) - 1, len(view.x_edges) - 1)
    assert len(view.y_edges) < 1000  # pixels, not positions
    rows = np.array(view.y_edges)
    cols = np.array(view.x_edges)
    row_centres = (rows[:-1] + rows[1:] - 1) / 2  # mean of j − i over a block
    col_centres = (cols[:-1] + cols[1:] - 1) / 2
    np.testing.assert_allclose(
        view.image.image, col_centres[None, :] - row_centres[:, None], atol=1e-3
    )


def test_zoomed_bucket_matrix_is_exact(window, drive, tab):
    show_page(tab, "t5")
    drive(window, lambda: window.parameters.seq_len.setValue(5000), channel="relative")
    view = tab.bucket_view
    drive(
        window,
        lambda: view.plot.vb.setRange(xRange=(2000, 2100), yRange=(1900, 1950), padding=0),
        channel="relative",
    )
    # square cells: the view shows at least the asked range, one position per cell
    rows, cols = view.y_edges.astype(int), view.x_edges.astype(int)
    assert rows[0] <= 1900 and rows[-1] >= 1950 and cols[0] <= 2000 and cols[-1] >= 2100
    assert np.all(np.diff(rows) == 1) and np.all(np.diff(cols) == 1)
    expected = relative.t5_bucket(
        torch.from_numpy(cols[:-1])[None, :] - torch.from_numpy(rows[:-1])[:, None]
    ).numpy()
    np.testing.assert_array_equal(view.image.image, expected)


def test_relative_table_row_for_the_chosen_query(window, drive, tab):
    drive(window, lambda: tab.query_position.setValue(5), channel="relative")
    expected = sinusoidal.encode(torch.arange(64) - 5, 128).numpy()
    np.testing.assert_allclose(tab.table_view.image.image, expected, atol=1e-6)


def test_t5_views_follow_their_controls(window, drive, tab):
    show_page(tab, "t5")
    np.testing.assert_array_equal(
        tab.bucket_view.image.image, relative.t5_bucket(torch.from_numpy(R64)).numpy()
    )
    drive(window, lambda: tab.bidirectional.setChecked(False), channel="relative")
    drive(window, lambda: tab.num_buckets.setValue(16), channel="relative")
    drive(window, lambda: tab.max_distance.setValue(40), channel="relative")
    expected = relative.t5_bucket(
        torch.from_numpy(R64), bidirectional=False, num_buckets=16, max_distance=40
    ).numpy()
    np.testing.assert_array_equal(tab.bucket_view.image.image, expected)
    k, buckets = tab.bucket_curve_view.curve_items[0].getOriginalDataset()
    np.testing.assert_array_equal(k, np.arange(-63, 64))
    np.testing.assert_array_equal(
        buckets,
        relative.t5_bucket(
            torch.from_numpy(k.astype(np.int64)),
            bidirectional=False,
            num_buckets=16,
            max_distance=40,
        ).numpy(),
    )


def test_max_distance_cannot_fall_into_the_exact_range(window, drive, tab):
    drive(window, lambda: tab.max_distance.setValue(9), channel="relative")
    drive(window, lambda: tab.num_buckets.setValue(128), channel="relative")
    assert tab.max_distance.value() == 33  # 128 buckets: 64 a side, 32 exact
    assert tab.message.text() == ""


def test_alibi_views(window, drive, tab):
    set_scheme(window, drive, tab, "alibi")
    assert tab.pages.currentWidget().objectName() == "alibi"
    drive(window, lambda: tab.n_heads.setValue(4), channel="relative")
    axis = tab.slope_view.plot.getAxis("bottom")
    (low, high), width = tab.slope_view.plot.vb.viewRange()[0], axis.width()
    assert low < 1 and high > 4  # every head's point inside the view
    ticks = [value for _, values in axis.tickValues(low, high, width) for value in values]
    assert ticks and all(value == int(value) for value in ticks)  # whole heads only
    drive(window, lambda: tab.n_heads.setValue(12), channel="relative")
    drive(window, lambda: tab.head.setValue(3), channel="relative")
    heads, slopes = tab.slope_view.curve_items[0].getOriginalDataset()
    np.testing.assert_array_equal(heads, np.arange(1, 13))
    np.testing.assert_allclose(slopes, relative.alibi_slopes(12).numpy())
    bias = relative.alibi_bias(12, 64)[2].numpy()
    image = tab.alibi_view.image.image
    np.testing.assert_array_equal(np.isnan(image), np.isinf(bias))
    np.testing.assert_allclose(image[~np.isnan(image)], bias[np.isfinite(bias)], rtol=1e-6)
    assert tab.alibi_view.mask.isVisible()
    assert len(tab.alibi_curve_view.curve_items) == 12
    drive(window, lambda: tab.causal.setChecked(False), channel="relative")
    np.testing.assert_allclose(
        tab.alibi_view.image.image, relative.alibi_bias(12, 64, causal=False)[2].numpy(), rtol=1e-6
    )
    assert not tab.alibi_view.mask.isVisible()
    drive(window, lambda: tab.n_heads.setValue(2), channel="relative")
    assert tab.head.value() == 2


def test_score_formula_adds_the_scheme_bias(window, drive, tab):
    set_scheme(window, drive, tab, "alibi")
    show_page(tab, "scores")
    # the tab's seeded float32 inputs, the formula in float64
    q, k = (seeded_normals(seed, 64, 128) for seed in (0, 2**31))  # k: seed + 2³¹
    content = (q @ k.T / 128**0.5).numpy()
    np.testing.assert_allclose(tab.content_view.image.image, content, rtol=1e-5, atol=1e-6)
    bias = relative.alibi_bias(8, 64)[0].numpy()
    total = content + bias
    np.testing.assert_allclose(
        tab.total_view.image.image[np.isfinite(total)],
        total[np.isfinite(total)],
        rtol=1e-5,
        atol=1e-5,
    )
    attention = tab.attention_view.image.image
    np.testing.assert_allclose(attention.sum(1), 1.0, rtol=1e-5)
    assert np.all(attention[np.isinf(bias)] == 0)  # masked keys get no attention
    assert "positions 0 … 63" in tab.window_note.text()


def test_sinusoidal_scheme_bias_uses_the_relative_table(window, drive, tab):
    assert tab.scheme.currentData() == "sinusoidal"  # the source article's, by default
    show_page(tab, "scores")
    q = seeded_normals(0, 64, 128)
    table = relative.sinusoidal_relative_table(64, 128, dtype=torch.float64)
    expected = ((q[:, None, :] * table).sum(-1) / 128**0.5).numpy()
    np.testing.assert_allclose(tab.bias_view.image.image, expected, rtol=1e-5, atol=1e-6)


def test_an_odd_number_of_t5_buckets_draws_as_hugging_face_buckets_it(window, drive):
    tab = window.tab("relative")
    window.tabs.setCurrentWidget(tab)
    tab.scheme.setCurrentIndex(tab.scheme.findData("t5"))
    show_page(tab, "t5")
    drive(window, lambda: tab.num_buckets.setValue(33), channel="relative")
    from transformers.models.t5.modeling_t5 import T5Attention

    seq_len = window.parameters.seq_len.value()
    expected = T5Attention._relative_position_bucket(
        relative.relative_positions(seq_len),
        tab.bidirectional.isChecked(),
        33,
        tab.max_distance.value(),
    )
    assert tab.frame.params.num_buckets == 33 and tab.frame.t5.buckets.values.shape == (64, 64)
    np.testing.assert_array_equal(tab.frame.t5.buckets.values, expected.numpy())


def test_t5_buckets_against_distance_are_an_exact_staircase_when_pooled(window, drive, tab):
    show_page(tab, "t5")
    drive(window, lambda: window.parameters.seq_len.setValue(200_000), channel="relative")
    x, y = tab.bucket_curve_view.curve_items[0].getOriginalDataset()
    assert len(x) < 2 * 64 + 2  # a staircase's corners, not a point per pixel
    np.testing.assert_array_equal(y, np.round(y))  # bucket ids, never their means
    exact = relative.t5_bucket(torch.from_numpy(x.astype(np.int64))).numpy()
    np.testing.assert_array_equal(y, exact)  # each corner is the bucket at its distance
    steps = relative.t5_bucket(torch.arange(-199_999, 200_000)).numpy()
    assert len(x) == 2 * (np.count_nonzero(np.diff(steps)) + 1)  # every bucket's run drawn


def test_a_pooled_bucket_matrix_shows_buckets_never_their_means(window, drive, tab):
    show_page(tab, "t5")
    drive(window, lambda: window.parameters.seq_len.setValue(50_000), channel="relative")
    view = tab.bucket_view
    values = view.image.image
    assert values.shape[0] < 50_000 and view.cell_span()[0] > 1  # pooled
    rows, cols = view.y_edges.astype(np.int64), view.x_edges.astype(np.int64)
    centre = lambda edges: edges[:-1] + (np.diff(edges) - 1) // 2  # noqa: E731
    distance = centre(cols)[None, :] - centre(rows)[:, None]
    expected = relative.t5_bucket(torch.from_numpy(distance)).numpy()
    np.testing.assert_array_equal(values, expected)  # whole bucket ids: the centre's bucket


def contrast(a, b) -> float:
    """WCAG's contrast ratio of two QColors."""

    def luminance(colour) -> float:
        def channel(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        r, g, b_ = (channel(c) for c in (colour.redF(), colour.greenF(), colour.blueF()))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b_

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("sequential", ["viridis", "cividis", "magma", "plasma", "inferno"])
def test_every_alibi_head_stands_out_from_the_background(qtbot, owned, drive, theme, sequential):
    from PySide6.QtGui import QColor

    from posenc_gui.views.style import Look
    from posenc_gui.window import MainWindow

    window = owned(MainWindow(device="cpu", look=Look(theme=theme, sequential=sequential)))
    window.show()
    tab = window.tab("relative")
    drive(window, lambda: window.tabs.setCurrentWidget(tab), channel="relative")
    show_page(tab, "alibi")
    background = QColor(tab.alibi_curve_view.backgroundBrush().color())
    pens = [item.opts["pen"].color() for item in tab.alibi_curve_view.curve_items]
    assert len(pens) == tab.frame.params.n_heads
    assert min(contrast(colour, background) for colour in pens) >= 2.5


def test_the_scheme_box_agrees_with_the_page_in_front(window, drive, tab):
    """A page brought to the front by its own tab sets the scheme it draws: T5's and ALiBi's
    pages are theirs; the distances page draws the sinusoidal table or Shaw's clipping (the
    one chosen there last); the score formula takes any scheme."""
    assert (tab.current_page(), tab.scheme.currentData()) == ("distances", "sinusoidal")
    set_scheme(window, drive, tab, "shaw")
    for page, scheme in (("alibi", "alibi"), ("t5", "t5"), ("distances", "shaw")):
        tab.show_page(page)
        assert tab.scheme.currentData() == scheme
    set_scheme(window, drive, tab, "alibi")
    assert tab.current_page() == "alibi"
    show_page(tab, "scores")
    assert tab.scheme.currentData() == "alibi" and tab.frame.params.scheme == "alibi"
    set_scheme(window, drive, tab, "t5")
    assert tab.current_page() == "scores"  # the score formula with T5's bias
    tab.show_page("distances")
    assert tab.scheme.currentData() == "shaw"


def test_a_pooled_heatmap_says_in_its_title_what_a_cell_averages(window, drive, tab):
    def titles() -> list[str]:
        return [view.plot.titleLabel.text for view in (tab.distance_view, tab.table_view)]

    assert not any("a cell: the mean of" in title for title in titles())  # 64: a cell each
    drive(window, lambda: window.parameters.seq_len.setValue(200_000), channel="relative")
    rows, cols = tab.distance_view.cell_span()
    assert rows > 1 and cols > 1
    assert titles()[0].endswith(f" · a cell: the mean of {rows:,} positions × {cols:,} positions")
    rows, cols = tab.table_view.cell_span()  # 128 dimensions: a column each
    assert cols == 1 and titles()[1].endswith(f" · a cell: the mean of {rows:,} positions")
    show_page(tab, "alibi")
    rows, cols = tab.alibi_view.cell_span()
    title = tab.alibi_view.plot.titleLabel.text
    assert title.endswith(f" · a cell: the mean of {rows:,} positions × {cols:,} positions")


def test_exporting_a_view_of_another_page_keeps_the_page_and_the_scheme(window, drive, tab):
    """The T5 page selects the T5 scheme when it comes to the front: brought there only to
    draw a view for the export dialog, it leaves the score formula's scheme as it was."""
    from posenc_gui.export_dialog import ExportDialog

    set_scheme(window, drive, tab, "alibi")
    show_page(tab, "scores")
    dialog = ExportDialog(tab)
    dialog.view.setCurrentIndex(dialog.view.findData("bucket"))  # on the T5 page
    with dialog._page_kept():
        assert dialog.chosen_view() is tab.bucket_view and tab.scheme.currentData() == "t5"
    assert (tab.current_page(), tab.scheme.currentData()) == ("scores", "alibi")


def test_the_caption_names_alibi_s_head_count_by_its_parameter(window):
    # it read "ALiBi 8 heads", an English word in a Chinese caption: parameters go by name
    assert (
        window.tab("relative")
        .caption_parameters()
        .endswith("; Shaw K 4, T5 32/128, ALiBi n_heads 8")
    )
