"""The multimodal tab as a user meets it: what each view draws, against hand-derived ids and
the library's closed forms; refusals; presets; sessions; its Compare entry."""

from __future__ import annotations

import dataclasses
import itertools
import math
import re

import numpy as np
import pytest
import torch

from posenc_gui.comparison import Inputs
from posenc_gui.encodings import multimodal, rope
from posenc_gui.encodings.window import Window
from posenc_gui.presets import Preset
from posenc_gui.tabs.multimodal import compute
from posenc_gui.tabs.multimodal.compute import (
    COMPARE,
    SCHEMES,
    MultimodalParams,
    compute_multimodal,
    pair_axes,
)
from tests.test_extension_tab import data, preset

CHANNEL = "multimodal"


@pytest.fixture
def tab(window, drive):
    mm = window.tab(CHANNEL)
    drive(window, lambda: window.tabs.setCurrentWidget(mm), channel=CHANNEL)
    return mm


def marks(view) -> list[list[int]]:
    """The x of the marks in each row of a pattern view."""
    return [[int(x) for x in data(item)[0]] for item in view.curve_items]


def set_controls(window, drive, tab, **values) -> None:
    for name, value in values.items():
        if name == "section":  # a text field: its frame comes when editing finishes
            tab.section.setText(value)
            drive(window, tab.section.editingFinished.emit, channel=CHANNEL)
        else:
            control = getattr(tab, name)
            drive(window, lambda c=control, v=value: c.setValue(v), channel=CHANNEL)


def test_interleaved_axes_by_default_as_qwen3_vl_assigns_them(tab):
    # head_dim 128: 64 pairs, mrope_section [24, 20, 20]; h on i % 3 == 1 below 60, w on
    # i % 3 == 2 below 60, t elsewhere (pairs 60–63 among them)
    t, h, w = marks(tab.figures.axis_view)
    assert h == list(range(1, 60, 3)) and w == list(range(2, 60, 3))
    assert t == [*range(0, 60, 3), 60, 61, 62, 63]
    x, y = data(tab.figures.frequency_view.curve_items[1])  # h pairs against θ_i = 10000^(−2i/128)
    np.testing.assert_allclose(y, 10000.0 ** (-2 * x / 128), rtol=1e-12)


def test_pair_indices_are_ticked_at_whole_numbers_even_for_one_pair(window, drive, tab):
    from tests.text_boxes import drawn_tick_labels

    drive(window, lambda: window.parameters.head_dim.setValue(2), channel=CHANNEL)
    labels = drawn_tick_labels(tab.figures.axis_view.plot.getAxis("bottom"))
    assert labels == ["0"]  # one pair: not −0.5, −0.4, … 0.5


def test_sections_put_consecutive_pairs_on_each_axis(window, drive, tab):
    drive(window, lambda: tab.scheme.setCurrentIndex(tab.scheme.findData("sections")), CHANNEL)
    set_controls(window, drive, tab, section="16, 24, 24")
    assert marks(tab.figures.axis_view) == [
        list(range(16)),
        list(range(16, 40)),
        list(range(40, 64)),
    ]


def test_sequence_ids_of_text_an_image_and_text(window, drive, tab):
    set_controls(window, drive, tab, text_before=2, image_height=2, image_width=3, text_after=2)
    tab.ready_view("id_strip")  # a page is computed when it comes to the front
    ids = tab.figures.id_strip.image.image
    # text 0, 1; the 2 × 3 image from id 2 (t 2; h 2, 3; w 2, 3, 4); text from 2 + max(2, 3)
    np.testing.assert_array_equal(
        ids,
        [
            [0, 1, 2, 2, 2, 2, 2, 2, 5, 6],
            [0, 1, 2, 2, 2, 3, 3, 3, 5, 6],
            [0, 1, 2, 3, 4, 2, 3, 4, 5, 6],
        ],
    )
    assert [data(item)[1].tolist() for item in tab.figures.id_curves.curve_items] == ids.tolist()
    assert [region.getRegion() for region in tab.figures.id_curves.spans] == [(1.5, 7.5)]


def test_a_video_spaces_its_frames_by_the_temporal_step(window, drive, tab):
    drive(window, lambda: tab.scheme.setCurrentIndex(tab.scheme.findData("sections")), CHANNEL)
    set_controls(
        window, drive, tab, text_before=1, frames=3, image_height=1, image_width=2, text_after=1
    )
    drive(window, lambda: tab.time_interval.setValue(2.0), channel=CHANNEL)
    tab.ready_view("id_strip")
    t, _, w = tab.figures.id_strip.image.image
    assert t.tolist() == [0, 1, 1, 3, 3, 5, 5, 3]  # frames at 1 + ⌊2f⌋; text at 1 + max(1, 2)
    assert w.tolist() == [0, 1, 2, 1, 2, 1, 2, 3]


def test_qwen3_vl_numbers_a_video_frame_by_frame_after_each_timestamp(window, drive, tab):
    set_controls(
        window, drive, tab, text_before=2, frames=3, image_height=2, image_width=2,
        timestamp_tokens=1, text_after=2,
    )  # fmt: skip
    tab.ready_view("id_strip")
    t, h, w = tab.figures.id_strip.image.image
    # text 0, 1; per frame: a timestamp token, then the 2 × 2 grid at one t from the id after
    # it; each frame moves the ids on by max(2, 2) (get_rope_index of Qwen3-VL)
    assert t.tolist() == [0, 1, 2, 3, 3, 3, 3, 5, 6, 6, 6, 6, 8, 9, 9, 9, 9, 11, 12]
    assert h.tolist() == [0, 1, 2, 3, 3, 4, 4, 5, 6, 6, 7, 7, 8, 9, 9, 10, 10, 11, 12]
    assert w.tolist() == [0, 1, 2, 3, 4, 3, 4, 5, 6, 7, 6, 7, 8, 9, 10, 9, 10, 11, 12]


def test_patch_scores_are_the_rotated_dot_products_and_peak_at_the_query(window, drive, tab):
    tab.show_page("scores")
    set_controls(window, drive, tab, image_height=5, image_width=7, query_row=1, query_column=4)
    scores = tab.figures.score_view.image.image
    assert scores.shape == (5, 7)
    # q = k = 1 in 2-D: Σ_i 2·cos(Δ[a_i]·θ_i) over the pairs, with Δt = 0 inside one image
    theta = rope.inv_freq(128, 1e4).numpy()
    axes = multimodal.interleaved_axes(64, [24, 20, 20]).numpy()
    rows, cols = np.meshgrid(np.arange(5) - 1, np.arange(7) - 4, indexing="ij")
    offset = {0: np.zeros_like(rows), 1: rows, 2: cols}
    expected = sum(2 * np.cos(offset[int(a)] * t) for a, t in zip(axes, theta, strict=True))
    np.testing.assert_allclose(scores, expected, rtol=1e-6)
    assert np.unravel_index(np.argmax(scores), scores.shape) == (1, 4)
    assert scores[1, 4] == pytest.approx(128, rel=1e-6)
    ones, mean = (data(item)[1] for item in tab.figures.profile_view.curve_items)
    np.testing.assert_allclose(ones, expected[1], rtol=1e-12)
    # random q = k: the mean over samples of Σ_i (q_a² + q_b²)·cos(φ_i) (the sin terms cancel)
    q = rope.QueryKey(128, "random", 0).vectors(rope.RANDOM_SAMPLES)[0].numpy()
    power = (q[:, :64] ** 2 + q[:, 64:] ** 2).mean(0)
    rows_angle = {0: np.zeros(7), 1: np.zeros(7), 2: np.arange(7) - 4.0}  # along row 1
    expected_mean = sum(
        p * np.cos(rows_angle[int(a)] * t) for a, t, p in zip(axes, theta, power, strict=True)
    )
    np.testing.assert_allclose(mean, expected_mean, rtol=1e-9)
    drive(window, lambda: tab.query.setCurrentIndex(1), channel=CHANNEL)
    np.testing.assert_allclose(tab.figures.score_view.image.image[1], expected_mean, rtol=1e-5)


def test_axial_scores_depend_on_the_offset_only(window, drive, tab):
    drive(window, lambda: tab.scheme.setCurrentIndex(tab.scheme.findData("axial")), CHANNEL)
    set_controls(window, drive, tab, image_height=6, image_width=6, query_row=1, query_column=1)
    tab.ready_view("patch_scores")
    near = tab.figures.score_view.image.image.copy()
    set_controls(window, drive, tab, query_row=3, query_column=2)
    np.testing.assert_allclose(tab.figures.score_view.image.image[2:, 1:], near[:4, :5], rtol=1e-6)
    tab.ready_view("axis_map")
    assert marks(tab.figures.axis_view) == [
        list(range(32)),
        list(range(32, 64)),
    ]  # rows, then columns


def test_the_pages_asked_for_are_computed_and_no_others():
    params = MultimodalParams(
        "sections", 16, 1e4, (2, 3, 3), 5, 1, 2, 3, 1.0, 4, (1, 2), pages=("scores",)
    )
    cpu = torch.device("cpu")
    scores = compute_multimodal(params, cpu)
    assert scores.sequence is None and scores.scores.scores.shape == (2, 3)
    sequence = compute_multimodal(dataclasses.replace(params, pages=("sequence",)), cpu)
    assert sequence.scores is None and sequence.sequence.tokens == 5 + 2 * 3 + 4
    pairs = compute_multimodal(dataclasses.replace(params, pages=("pairs",)), cpu)
    assert (pairs.sequence, pairs.scores) == (None, None)
    assert pairs.axes.tolist() == [0, 0, 1, 1, 1, 2, 2, 2]  # the pairs page's own: always
    with pytest.raises(ValueError, match="pages must be among pairs, sequence, scores"):
        dataclasses.replace(params, pages=("ids",))


def test_the_scores_page_turns_every_q_by_one_set_of_angles(monkeypatch):
    """q = 1 and the random q share the patches' angles: their cosines and sines once."""
    turned = []
    original = multimodal.angles
    monkeypatch.setattr(multimodal, "angles", lambda *a, **k: turned.append(1) or original(*a, **k))
    compute._patch_scores.cache_clear()  # computed by an earlier test, perhaps
    params = MultimodalParams(
        "sections", 16, 1e4, (2, 3, 3), 5, 1, 2, 3, 1.0, 4, (1, 2), pages=("scores",)
    )
    scores = compute_multimodal(params, torch.device("cpu")).scores
    assert len(turned) == 1
    q = torch.ones(16, dtype=torch.float64)
    spatial = SCHEMES[params.scheme][1]
    alone = multimodal.patch_scores(q, q, 2, 3, (1, 2), *pair_axes(params), spatial=spatial)
    np.testing.assert_allclose(scores.scores, alone.numpy(), rtol=1e-6)  # q = 1's, in float32


def test_the_text_and_frames_around_the_image_and_the_shown_q_keep_the_scores(monkeypatch):
    """The scores depend on the grid, the query patch, the frequencies and the sample only:
    a change of the text, the frames or the heatmap's q computes none again, and each
    frame's scores equal those computed afresh."""
    turned = []
    original = multimodal.angles
    monkeypatch.setattr(multimodal, "angles", lambda *a, **k: turned.append(1) or original(*a, **k))
    base = MultimodalParams(
        "sections", 16, 1e4, (2, 3, 3), 5, 1, 3, 4, 1.0, 4, (2, 1), seed=3, pages=("scores",)
    )
    cpu = torch.device("cpu")
    compute_multimodal(base, cpu)
    turned.clear()
    changes = [
        {"text_before": 9}, {"text_after": 0}, {"frames": 4}, {"time_interval": 2.0},
        {"random": True},
    ]  # fmt: skip
    frames = [compute_multimodal(dataclasses.replace(base, **c), cpu).scores for c in changes]
    assert turned == []
    for change, kept in zip(changes, frames, strict=True):
        compute._patch_scores.cache_clear()
        fresh = compute_multimodal(dataclasses.replace(base, **change), cpu).scores
        assert fresh is not None and kept is not None
        np.testing.assert_array_equal(kept.scores, fresh.scores)
        np.testing.assert_array_equal(kept.profile_mean, fresh.profile_mean)
    assert len(turned) == len(changes)  # computed afresh each time once the cache was emptied
    assert not np.array_equal(frames[-1].scores, frames[0].scores)  # the random q's mean


def test_only_the_page_in_front_is_computed_and_a_page_change_computes_its_own(tab):
    assert tab.current_page() == "pairs"
    assert tab.frame.sequence is None and tab.frame.scores is None
    view = tab.ready_view("patch_scores")
    assert tab.frame.scores is not None and tab.frame.sequence is None
    assert view.image.image.shape == (8, 12)  # the default grid, rows × columns
    assert not tab.is_waiting()


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"section": "16, 24"}, "mrope_section must have 3 entries"),
        ({"section": "16, 24, x"}, "mrope_section must be whole numbers"),
    ],
)
def test_sections_that_do_not_fit_are_refused_with_their_name(
    window, drive, tab, setup, message, qtbot
):
    tab.section.setText(setup["section"])
    tab.section.editingFinished.emit()
    assert re.search(message, tab.message.text())
    assert tab.stale.isVisible()
    qtbot.wait(300)  # past the busy sign's delay: no frame is coming, so no sign either
    assert tab.busy.isHidden()


def test_a_section_for_another_head_dim_is_scaled_and_says_so(window, drive, tab):
    drive(window, lambda: tab.scheme.setCurrentIndex(tab.scheme.findData("sections")), CHANNEL)
    set_controls(window, drive, tab, section="16, 24, 20")
    # 64 · (16, 24, 20) / 60 = 17.07, 25.6, 21.33: the largest remainder gets the last pair
    assert [len(row) for row in marks(tab.figures.axis_view)] == [17, 26, 21]
    assert (
        "mrope_section 16, 24, 20 adds up to 60 pairs, head_dim 128 has 64: drawn with 17, 26, 21"
        in tab.message.text()
    )
    drive(window, lambda: window.parameters.head_dim.setValue(120), CHANNEL)  # 16 + 24 + 20
    assert [len(row) for row in marks(tab.figures.axis_view)] == [16, 24, 20]
    assert tab.message.text() == ""


def test_axial_refuses_an_odd_number_of_pairs(window, drive, tab):
    drive(window, lambda: tab.scheme.setCurrentIndex(tab.scheme.findData("axial")), CHANNEL)
    window.parameters.head_dim.setValue(66)  # 33 pairs
    tab.refresh()
    assert "head_dim must be a multiple of 4 for 2-D axial RoPE" in tab.message.text()


def test_presets_set_the_scheme_and_the_layer_stack(window, drive, tab):
    drive(
        window,
        lambda: window.apply_preset(preset(window, "Qwen3-VL-8B (M-RoPE interleaved 24/20/20)")),
        CHANNEL,
    )
    assert window.tabs.currentWidget() is tab and tab.current_page() == "pairs"
    assert tab.scheme.currentData() == "interleaved" and tab.section.text() == "24, 20, 20"
    assert window.parameters.theta.value() == 5e6
    qwen2 = preset(window, "Qwen2-VL-7B (M-RoPE sections 16/24/24)")
    drive(window, lambda: window.apply_preset(qwen2), CHANNEL)
    assert tab.scheme.currentData() == "sections" and tab.section.text() == "16, 24, 24"
    tab.show_view("layer_strip")
    assert marks(tab.figures.layer_view) == [list(range(28))]  # num_hidden_layers, one type
    pixtral = preset(window, "Pixtral-12B vision encoder (2-D axial, 64 × 64 patches)")
    drive(window, lambda: window.apply_preset(pixtral), CHANNEL)
    assert tab.scheme.currentData() == "axial"
    assert (tab.image_height.value(), tab.image_width.value()) == (64, 64)
    assert window.parameters.head_dim.value() == 64
    gemma = preset(window, "Gemma-3-27B (local θ 1e4, global θ 1e6 ×8)")
    window.apply_preset(gemma)  # a Gemma preset brings the extension tab to the front
    drive(window, lambda: (window.tabs.setCurrentWidget(tab), tab.refresh()), CHANNEL)
    tab.show_view("layer_strip")
    sliding, full = marks(tab.figures.layer_view)
    assert full == list(range(5, 62, 6)) and len(sliding) == 52
    labels = [label for _, label in tab.figures.layer_view.plot.getAxis("left")._tickLevels[0]]
    assert labels == [
        "sliding_attention · θ 10,000",
        "full_attention · θ 1,000,000 · linear ×8",
    ]


def test_llama4_layer_strip_shows_its_nope_layers(window, drive, tab):
    window.apply_preset(preset(window, "Llama-4-Scout (hard step ×16, NoPE layers)"))
    drive(window, lambda: (window.tabs.setCurrentWidget(tab), tab.refresh()), CHANNEL)
    tab.show_view("layer_strip")
    rope_layers, nope = marks(tab.figures.layer_view)
    assert nope == list(range(3, 48, 4)) and len(rope_layers) == 36
    labels = [label for _, label in tab.figures.layer_view.plot.getAxis("left")._tickLevels[0]]
    assert labels == ["RoPE layers · θ 500,000 · llama3 ×16", "NoPE layers · no RoPE"]


def test_the_layer_strip_names_the_theta_the_views_draw(window, drive, tab):
    qwen3 = preset(window, "Qwen3-VL-8B (M-RoPE interleaved 24/20/20)")
    drive(window, lambda: window.apply_preset(qwen3), CHANNEL)
    tab.show_view("layer_strip")
    labels = [label for _, label in tab.figures.layer_view.plot.getAxis("left")._tickLevels[0]]
    assert labels == ["RoPE layers · θ 5,000,000"]
    drive(window, lambda: window.parameters.theta.setValue(10.0), CHANNEL)
    labels = [label for _, label in tab.figures.layer_view.plot.getAxis("left")._tickLevels[0]]
    assert labels == ["RoPE layers · θ 10"]  # the θ of view (b), not the preset's


def test_the_imported_model_and_sliding_window_come_back_with_a_session(window, drive, tab):
    window.apply_preset(preset(window, "Qwen2.5-VL-7B (M-RoPE sections 16/24/24)"))
    saved = window.session()
    assert saved["tabs"][CHANNEL]["model"]["config"]["sliding_window"] == 32768
    window.apply_preset(preset(window, "Gemma-3-27B (local θ 1e4, global θ 1e6 ×8)"))
    window.apply_session(saved)
    assert tab.imported.source.startswith("Qwen2.5-VL") and tab.imported.sliding_window == 32768
    bad = {**saved, "tabs": {**saved["tabs"], CHANNEL: {**saved["tabs"][CHANNEL], "model": 3}}}
    with pytest.raises(ValueError, match="multimodal: model must be an object"):
        window.apply_session(bad)


def test_compare_entry_is_one_along_a_row_at_distance_zero_and_the_closed_form():
    starts = torch.arange(50)
    inputs = Inputs(
        50, 128, 64, 1e4, {}, starts, torch.ones(50, dtype=torch.int64), torch.device("cpu")
    )
    (curve,) = COMPARE[0].curves(inputs)
    theta = 10000.0 ** (-np.arange(0, 64, 2) / 64)  # Pixtral: odd-indexed frequencies on columns
    k = np.arange(50)[:, None]
    expected = (2 * 16 + 2 * np.cos(k * theta[1::2]).sum(1)) / 64
    np.testing.assert_allclose(curve.values, expected, rtol=1e-12)
    assert curve.values[0] == pytest.approx(1.0) and math.isfinite(curve.values[-1])


def test_a_vision_preset_whose_grid_does_not_fit_is_refused_and_nothing_changes(window, tab):
    config = {
        "hidden_size": 1024,
        "num_attention_heads": 16,
        "head_dim": 64,
        "rope_theta": 1e4,
        "image_size": 2048,
        "patch_size": 14,
    }  # 146 patches per side
    before = window.session()
    with pytest.raises(ValueError, match="146 patches per side, outside the tab's 1 … 128"):
        window.apply_preset(Preset("big vision", "multimodal", config, "half", {"x": "y"}))
    after = window.session()
    assert after["tabs"][CHANNEL] == before["tabs"][CHANNEL]
    assert after["parameters"] == before["parameters"]


def test_grid_ticks_label_cell_centres_and_thin_out_when_the_view_narrows(
    window, drive, tab, qtbot
):
    tab.show_page("scores")
    set_controls(window, drive, tab, image_height=40, image_width=40)
    axis = tab.figures.score_view.plot.getAxis("bottom")

    def labels() -> list:
        return axis._tickLevels[0] if axis._tickLevels else []

    wide = len(labels())
    assert wide > 2 and all(position % 1 == 0.5 for position, _ in labels())  # cell centres
    window.resize(700, window.height())
    qtbot.waitUntil(lambda: 0 < len(labels()) < wide)  # on resize, no new frame needed
    assert all(position % 1 == 0.5 for position, _ in labels())


def test_a_scheme_of_fewer_axes_spreads_its_rows_and_moves_no_view(window, drive, tab, qtbot):
    figures = tab.figures
    views = (figures.axis_view, figures.frequency_view, figures.layer_view)
    qtbot.wait(50)
    before = [view.geometry() for view in views]
    drive(window, lambda: tab.scheme.setCurrentIndex(tab.scheme.findData("axial")), CHANNEL)
    qtbot.wait(50)
    assert len(marks(figures.axis_view)) == 2  # row, column
    assert [view.geometry() for view in views] == before  # the page is not laid out anew


def test_pooled_id_curves_keep_each_pixel_s_least_and_largest_id():
    # Pixtral's 64 × 64 grid in 100 pixels: about 41 tokens a pixel, so a pixel holding a row's
    # last columns and the next row's first has a mean column id between them (the drawn peaks
    # wandered between 57 and 63); its least and largest ids are those of the tokens it holds
    grid = 64 * 64
    params = MultimodalParams(
        "axial", 64, 1e4, (16, 16), 0, 1, 64, 64, 1.0, 0, (0, 0), curves_x=Window(0, grid, 100)
    )
    page = compute_multimodal(params, torch.device("cpu")).sequence
    rows, columns = np.divmod(np.arange(grid), 64)
    edges = page.curve_edges.astype(int)
    for axis, ids in enumerate((rows, columns)):
        runs = [ids[start:end] for start, end in itertools.pairwise(edges)]
        np.testing.assert_array_equal(page.curve_low[axis], [run.min() for run in runs])
        np.testing.assert_array_equal(page.curve_high[axis], [run.max() for run in runs])
    assert page.curve_per_pixel == max(np.diff(edges)) > 1
    assert page.curve_high[1].max() == 63 and page.curve_low[1].min() == 0


def test_the_id_curves_draw_each_pixel_s_id_band_where_pixels_hold_many_tokens(window, drive, tab):
    set_controls(window, drive, tab, text_before=0, image_height=48, image_width=48, text_after=0)
    tab.ready_view("id_curves")
    view = tab.figures.id_curves
    bands = [curve for curve in view.drawn_curves() if curve.envelope]
    assert len(bands) == len(tab.figures.id_strip.image.image)  # one per axis
    assert max(band.y.max() for band in bands) == 47  # a row's last column, whole
    assert "tokens a pixel: mean, and min–max band" in view.plot.titleLabel.text
    set_controls(window, drive, tab, image_height=2, image_width=3)  # a token a pixel
    assert not any(curve.envelope for curve in view.drawn_curves())
