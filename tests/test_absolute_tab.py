"""The Absolute tab draws exactly the library's numbers as its controls move."""

from __future__ import annotations

import dataclasses
import itertools
import time

import numpy as np
import pytest
import torch
from PySide6.QtWidgets import QWidget

from posenc_gui.encodings import binning, sinusoidal
from posenc_gui.encodings.window import Window
from posenc_gui.tabs.absolute.compute import compute_absolute
from posenc_gui.tabs.rope.compute import compute_rotation
from tests.conftest import FRAME_TIMEOUT_MS
from tests.text_boxes import drawn_tick_labels

# The table and similarity views compute in float32 (posenc_gui.frames.VIEW_DTYPE): a cell of
# one position and one channel is within float32's own rounding of the float64 closed form.
VIEW_ATOL = 1e-6
# View (d) sums float32 waves, each within 1e-6 of float64's: d_model = 128 of them.
OFFSET_ATOL = 1e-6 * 128


def drawn_table(window) -> np.ndarray:
    return window.tab("absolute").table_view.image.image


def expected_table(seq_len, d_model, theta, layout="interleaved") -> np.ndarray:
    return sinusoidal.table(seq_len, d_model, theta, layout=layout).numpy()


def test_first_frame_shows_the_default_table(window):
    p = window.parameters
    assert (p.seq_len.value(), p.d_model.value(), p.theta.value()) == (64, 128, 10000.0)
    np.testing.assert_allclose(
        drawn_table(window), expected_table(64, 128, 10000.0), atol=VIEW_ATOL
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("seq_len", 200),
        ("d_model", 34),
        ("theta", 500.0),
        ("seq_len", 1),
        ("d_model", 2),
        ("theta", 1e7),
    ],
)
def test_each_shared_control_redraws_the_table(window, drive, name, value):
    control = window.findChild(QWidget, name)
    drive(window, lambda: control.setValue(value))
    p = window.parameters
    expected = expected_table(p.seq_len.value(), p.d_model.value(), p.theta.value())
    assert getattr(p, name).value() == value
    np.testing.assert_allclose(drawn_table(window), expected, atol=VIEW_ATOL)


def test_layout_toggle_draws_concatenated_table(window, drive):
    tab = window.tab("absolute")
    drive(window, lambda: tab.layout_choice.setCurrentIndex(1))
    np.testing.assert_allclose(
        drawn_table(window), expected_table(64, 128, 10000.0, "concat"), atol=VIEW_ATOL
    )


def test_long_sequences_draw_exact_row_means(window, drive):
    seq_len = 5000
    drive(window, lambda: window.parameters.seq_len.setValue(seq_len))
    view = window.tab("absolute").table_view
    rows = len(view.y_edges) - 1
    assert view.image.image.shape == (rows, 128)
    assert 64 <= rows < 1000  # the view's height in pixels, not seq_len
    assert view.y_edges[0] == 0 and view.y_edges[-1] == seq_len
    full = sinusoidal.table(seq_len, 128, dtype=torch.float64).numpy()
    expected = np.stack([full[a:b].mean(0) for a, b in itertools.pairwise(view.y_edges)])
    np.testing.assert_allclose(view.image.image, expected, atol=1e-6)


def test_zooming_in_recomputes_exact_values_of_the_window(window, drive):
    drive(window, lambda: window.parameters.seq_len.setValue(6000))
    view = window.tab("absolute").table_view
    drive(window, lambda: view.plot.vb.setRange(xRange=(10, 30), yRange=(4000, 4100), padding=0))
    assert view.x_edges[0] == 10 and view.x_edges[-1] == 30
    assert view.y_edges[0] == 4000 and view.y_edges[-1] == 4100
    expected = sinusoidal.table(6000, 128).numpy()[4000:4100, 10:30]
    np.testing.assert_allclose(view.image.image, expected, atol=VIEW_ATOL)
    # the view keeps the user's zoom: the whole table is not drawn back over it
    drive(window, lambda: window.parameters.theta.setValue(500.0))
    assert view.y_edges[0] == 4000
    np.testing.assert_allclose(
        view.image.image,
        sinusoidal.table(6000, 128, 500.0).numpy()[4000:4100, 10:30],
        atol=VIEW_ATOL,
    )


def test_a_window_that_moves_and_comes_back_keeps_the_frame_on_screen(
    window, drive, qtbot, monkeypatch
):
    drive(window, lambda: window.parameters.seq_len.setValue(1000))
    tab = window.tab("absolute")
    shown, draws = tab.frame, []
    draw, request = tab.draw, tab.request
    monkeypatch.setattr(tab, "draw", lambda frame: (draws.append(frame), draw(frame)))
    zoomed = dataclasses.replace(shown.params, table_rows=Window(400, 500, 100))
    monkeypatch.setattr(tab, "request", lambda: zoomed)
    tab.refresh_windows()  # the table's window moved: its frame is asked for …
    assert tab.is_waiting()
    monkeypatch.setattr(tab, "request", request)
    assert request() == shown.params
    tab.refresh_windows()  # … and came back at once
    qtbot.waitUntil(lambda: not tab.is_waiting(), timeout=FRAME_TIMEOUT_MS)
    qtbot.wait(300)  # time for the zoomed frame to come, were it still wanted
    assert draws == [] and tab.frame is shown
    assert window.timing_label.text() == "Absolute: frame already on screen, nothing computed"
    drive(window, tab.refresh)  # asked for again by a control: drawn again, not computed
    assert draws == [shown] and tab.frame is shown


def test_waveforms_and_offsets_are_exact_pixel_means(window, drive):
    tab = window.tab("absolute")
    drive(window, lambda: window.parameters.seq_len.setValue(7000))
    x, y = tab.wave_view.curve_items[1].getOriginalDataset()  # dim 2
    column = sinusoidal.encode(torch.arange(7000), 128, channels=[2], dtype=torch.float64)
    window_bins = binning.runs(tab.frame.params.wave_x)
    runs = list(zip(*(t.tolist() for t in window_bins), strict=True))
    expected = [column[s : s + n, 0].mean().item() for s, n in runs]
    np.testing.assert_allclose(y, expected, atol=1e-9)
    np.testing.assert_allclose(x, [s + (n - 1) / 2 for s, n in runs])
    assert len(runs) < 7000  # one value per pixel, not per position
    k, by_offset = tab.offset_view.curve_items[1].getOriginalDataset()
    # the closed form's pixels, clipped to the k that exist from reference position p = 0
    view_runs = zip(*(t.tolist() for t in binning.runs(tab.frame.params.offset_x)), strict=True)
    k_runs = [
        (max(s, 0), min(s + n, 7000) - max(s, 0)) for s, n in view_runs if s + n > 0 and s < 7000
    ]
    np.testing.assert_allclose(k, [s + (n - 1) / 2 for s, n in k_runs])
    closed_k, _ = tab.offset_view.curve_items[0].getOriginalDataset()
    shared = np.intersect1d(closed_k, k)  # one grid: every pixel not clipped is the same pixel
    assert len(shared) >= len(k) - 1
    omega = sinusoidal.frequencies(128)
    closed = [
        torch.cos(torch.arange(s, s + n)[:, None] * omega).sum(1).mean().item() for s, n in k_runs
    ]
    np.testing.assert_allclose(by_offset, closed, atol=OFFSET_ATOL)


def test_similarity_matrix_and_cosine_toggle(window, drive):
    tab = window.tab("absolute")
    pe = sinusoidal.table(64, 128, dtype=torch.float64)
    np.testing.assert_allclose(tab.similarity_view.image.image, (pe @ pe.T).numpy(), rtol=1e-6)
    drive(window, lambda: tab.similarity.setCurrentIndex(1))
    np.testing.assert_allclose(
        tab.similarity_view.image.image, (pe @ pe.T).numpy() / 64, rtol=1e-6, atol=1e-7
    )
    assert "cosine" in tab.similarity_view.plot.titleLabel.text


def test_waveforms_follow_the_chosen_dimensions(window, drive):
    tab = window.tab("absolute")
    tab.dimensions.setText("1, 6, 127, 500")
    drive(window, tab.dimensions.editingFinished.emit)
    pe = expected_table(64, 128, 10000.0)
    assert [item.name() for item in tab.wave_view.curve_items] == ["dim 1", "dim 6", "dim 127"]
    for item, dim in zip(tab.wave_view.curve_items, (1, 6, 127), strict=True):
        x, y = item.getOriginalDataset()
        np.testing.assert_array_equal(x, np.arange(64))
        np.testing.assert_allclose(y, pe[:, dim], atol=1e-7)
    assert "dimensions must be in [0, 127]" in tab.message.text()


def test_a_negative_dimension_is_skipped_saying_so(window, drive):
    tab = window.tab("absolute")
    tab.dimensions.setText("-1, 2")
    drive(window, tab.dimensions.editingFinished.emit)
    assert [item.name() for item in tab.wave_view.curve_items] == ["dim 2"]
    assert "dimensions must be in [0, 127]; others are skipped" in tab.message.text()


def test_bad_dimensions_text_gives_a_message(window, drive):
    tab = window.tab("absolute")
    tab.dimensions.setText("zero, one")
    drive(window, tab.dimensions.editingFinished.emit)
    assert "dimensions must be whole numbers" in tab.message.text()
    assert tab.wave_view.curve_items == []


def test_offset_curve_is_independent_of_reference_position(window, drive):
    tab = window.tab("absolute")
    drive(window, lambda: tab.reference_position.setValue(20))
    closed, measured = tab.offset_view.curve_items
    assert measured.name() == "PE(p)·PE(p+k), p = 20"  # it read PE(20)·PE(p+k)
    k, sim = measured.getOriginalDataset()
    np.testing.assert_array_equal(k, np.arange(-20, 44))
    expected = torch.cos(torch.from_numpy(k)[:, None] * sinusoidal.frequencies(128)).sum(1)
    np.testing.assert_allclose(sim, expected.numpy(), atol=OFFSET_ATOL)
    k_all, closed_values = closed.getOriginalDataset()
    np.testing.assert_allclose(closed_values[np.isin(k_all, k)], sim, atol=OFFSET_ATOL)


def test_reference_position_range_follows_seq_len(window, drive):
    tab = window.tab("absolute")
    drive(window, lambda: tab.reference_position.setValue(60))
    drive(window, lambda: window.parameters.seq_len.setValue(10))
    assert tab.reference_position.value() == 9


def test_token_labels_set_seq_len_and_label_the_axis(window, drive):
    tab = window.tab("absolute")
    drive(window, lambda: tab.label_tokens.setChecked(True))
    assert window.parameters.seq_len.value() == 7
    assert not window.parameters.seq_len.isEnabled()
    held = window.parameters.holds["seq_len"]
    assert "labels positions with tokens" in held.text() and not held.isHidden()
    assert drawn_tick_labels(tab.table_view.plot.getAxis("left")) == list("我爱你，中国。")
    assert drawn_tick_labels(tab.wave_view.plot.getAxis("bottom")) == list("我爱你，中国。")
    for side in ("left", "bottom"):  # queries and keys are both positions
        assert drawn_tick_labels(tab.similarity_view.plot.getAxis(side)) == list("我爱你，中国。")
    np.testing.assert_allclose(drawn_table(window), expected_table(7, 128, 10000.0), atol=VIEW_ATOL)
    drive(window, lambda: tab.tokens.setText("Hello"))
    assert window.parameters.seq_len.value() == 5
    drive(window, lambda: tab.label_tokens.setChecked(False))
    assert window.parameters.seq_len.isEnabled() and held.isHidden()


def test_hover_readout_reports_the_drawn_value(window):
    view = window.tab("absolute").table_view
    text = view.describe(3.5, 10.2)  # dimension 3, position 10
    value = sinusoidal.table(64, 128)[10, 3].item()
    assert text == f"position 10 · dimension 3 · PE {value:.6g}"
    assert view.describe(-1, 5) == ""


def test_status_bar_shows_device_and_compute_time(window, drive):
    drive(window, lambda: window.parameters.seq_len.setValue(99))
    assert window.device_label.text() == "device: cpu"
    assert window.timing_label.text().startswith("Absolute: compute ")
    assert window.timing_label.text().endswith(" ms")
    drive(window, window.tab("absolute").refresh)  # the same frame asked for again
    assert window.timing_label.text() == "Absolute: frame already on screen, nothing computed"


def test_status_bar_names_the_visible_tab_and_page_as_the_interface_does(window, drive):
    rope = window.tab("rope")
    drive(window, lambda: window.tabs.setCurrentWidget(rope), channel="rope")
    drive(window, lambda: rope.show_page("rotation"), channel="rope")
    # the rotation panels alone: the tab's other frame is not on its way to overtake it
    drive(window, rope.refresh_rotation, channel="rope.rotation")
    assert window.timing_label.text().startswith("RoPE · Rotation: ")
    drive(window, lambda: rope.show_page("precision"), channel="rope")
    # the tab's own frame is the page in front's: named so
    assert window.timing_label.text().startswith("RoPE · Precision: ")
    # behind the page in front the rotation panels are not computed; one asked for before
    # its page was left is not what the readout tells
    rope.refresh_rotation()
    assert not window.engine.is_coming("rope.rotation")
    late = dataclasses.replace(rope.rotation_request(), position=7)
    drive(
        window,
        lambda: window.engine.submit(
            "rope.rotation", compute_rotation, late, rope.draw_rotation, light=True
        ),
        channel="rope.rotation",
    )
    assert window.timing_label.text().startswith("RoPE · Precision: ")
    window.tab("extension")  # only built tabs compute, so only they are named
    assert window.channel_title("extension.context") == "Context extension · Decay & angles"
    shown = window.timing_label.text()
    # a frame of a tab behind (asked for before it went behind) does not take over the
    # readout of the one on screen
    absolute = window.tab("absolute")
    drive(
        window,
        lambda: absolute.frame_requests.submit(type(absolute).compute, absolute.request()),
        channel="absolute",
    )
    assert window.timing_label.text() == shown


def test_asking_for_a_request_changes_nothing_on_screen(window):
    tab = window.tab("absolute")
    tab.dimensions.setText("0, 999")  # not yet confirmed: no refresh
    tab.request()
    assert tab.message.text() == ""
    tab.dimensions.editingFinished.emit()
    assert "dimensions must be in [0, 127]" in tab.message.text()


def test_a_slow_frame_says_it_is_coming_and_the_sign_goes_with_the_frame(
    window, qtbot, monkeypatch
):
    tab = window.tab("absolute")

    def slow(params, device):
        time.sleep(0.5)
        return compute_absolute(params, device)

    monkeypatch.setattr(type(tab), "compute", staticmethod(slow))
    assert tab.busy.isHidden()
    with qtbot.waitSignal(window.engine.frame_drawn, timeout=10_000):
        window.parameters.seq_len.setValue(77)
        qtbot.waitUntil(lambda: not tab.busy.isHidden(), timeout=2_000)  # after 150 ms
    assert tab.busy.isHidden() and tab.frame.params.seq_len == 77


def test_pooled_waveforms_keep_their_amplitude_and_say_what_a_pixel_holds(window, drive):
    tab = window.tab("absolute")
    assert all(item.name() for item in tab.wave_view.curve_items)  # no envelopes, one a position
    assert "pixel" not in tab.wave_view.plot.titleLabel.text
    drive(window, lambda: window.parameters.seq_len.setValue(1 << 20))
    items = tab.wave_view.curve_items
    envelopes = [item for item in items if not item.name()]
    assert len(envelopes) == len(tab.frame.dimensions)
    # dim 0 (ω = 1): its means are near 0, its envelope spans ±1 in every pixel
    _, mean = next(item for item in items if item.name() == "dim 0").getOriginalDataset()
    assert np.abs(mean).max() < 0.05
    _, pairs = envelopes[0].getOriginalDataset()
    low, high = pairs[0::2], pairs[1::2]
    assert low.max() < -0.99 and high.min() > 0.99
    assert envelopes[0].opts["connect"] == "pairs"  # a stroke per pixel from least to largest
    per_pixel = f"{tab.frame.wave_per_pixel:,}"
    assert per_pixel in tab.wave_view.plot.titleLabel.text and tab.frame.wave_per_pixel > 100
    for view in (tab.table_view, tab.similarity_view, tab.offset_view):
        assert "the mean of" in view.plot.titleLabel.text
    assert [label.text for _, label in tab.wave_view.legend.items] == [
        f"dim {i}" for i in tab.frame.dimensions
    ]  # one entry per curve: its band goes with it


def test_the_busy_sign_counts_the_percent_of_a_chunked_frame(window, qtbot, monkeypatch):
    """The table is computed in chunks of rows; each chunk's share reaches the sign."""
    import posenc_gui.frames

    tab = window.tab("absolute")
    frequencies = window.parameters.d_model.value() // 2
    monkeypatch.setattr(posenc_gui.frames, "CHUNK_CELLS", 8 * frequencies)  # 8 rows a chunk
    slowed = posenc_gui.frames.checkpoint

    def slow_checkpoint(done=None):
        time.sleep(0.05)
        slowed(done)

    monkeypatch.setattr(posenc_gui.frames, "checkpoint", slow_checkpoint)
    texts: list[str] = []
    window.engine.progress.connect(lambda channel, done: texts.append(tab.busy.text()))
    with qtbot.waitSignal(window.engine.frame_drawn, timeout=20_000):
        window.parameters.seq_len.setValue(300)
        qtbot.waitUntil(lambda: not tab.busy.isHidden(), timeout=5_000)
    percents = [int(text.split("… ")[1].split(" %")[0]) for text in texts]
    restarts = [i for i in range(1, len(percents)) if percents[i] < percents[i - 1]]
    last = percents[restarts[-1] if restarts else 0 :]  # the drawn request's (a resize may
    assert last == sorted(last) and last[0] > 0  # … have superseded one): it counts up,
    assert len([p for p in last if p <= 45]) >= 3  # chunk by chunk through the table's share
    assert tab.busy.isHidden() and "%" not in tab.busy.text()  # and goes with the frame


def test_a_sentence_longer_than_qts_default_limit_labels_every_position(window, drive):
    """A character a position up to seq_len's largest: Qt cut a text at 32,767 silently."""
    tab = window.tab("absolute")
    drive(window, lambda: tab.label_tokens.setChecked(True))
    drive(window, lambda: tab.tokens.setText("我爱你" * 12_000))
    assert len(tab.tokens.text()) == 36_000
    assert window.parameters.seq_len.value() == 36_000


def test_a_table_of_a_position_a_row_says_how_many_dimensions_a_cell_holds(window, drive):
    # it read "a cell: the mean of 1 positions × 44 dimensions"
    drive(window, lambda: window.parameters.d_model.setValue(16384))
    view = window.tab("absolute").table_view
    rows, cols = view.cell_span()
    assert rows == 1 and cols > 1  # 64 positions, 16,384 dimensions on a few hundred pixels
    assert view.plot.titleLabel.text == (
        f"(a) PE[position, dimension] · a cell: the mean of {cols:,} dimensions"
    )


def test_the_example_sentence_shows_whole_in_presentation_mode(qapp, qtbot, owned):
    # presentation's fonts left the field room for 爱你，中国。 only: its first character cut
    from posenc_gui.app import install_fonts
    from posenc_gui.views.style import Look
    from posenc_gui.window import MainWindow

    install_fonts(qapp)  # the app's Chinese glyphs, as it draws them
    win = owned(MainWindow(device="cpu", look=Look(presentation=True)))
    win.resize(1500, 950)
    win.show()
    qtbot.waitExposed(win)
    qtbot.wait(300)  # laid out
    field = win.tab("absolute").tokens
    assert field.text() == "我爱你，中国。"
    field.end(False)  # the cursor after the last character: the text scrolls to show it
    start = field.cursorRect().center().x() - field.fontMetrics().horizontalAdvance(field.text())
    assert start >= field.contentsRect().left()  # its first character not scrolled away
