"""The extension tab's Layer types page and the import report, as a user meets them."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from posenc_gui.encodings.rope_scaling import RopeScaling, scaled_inv_freq
from posenc_gui.views.axes import END_ROOM_PX
from tests.test_extension_tab import data
from tests.test_real_configs import GEMMA3, LLAMA4_SCOUT
from tests.text_boxes import drawn_tick_labels, text_boxes


@pytest.fixture
def tab(window, drive):
    ext = window.tab("extension")
    drive(window, lambda: window.tabs.setCurrentWidget(ext), channel="extension")
    return ext


def wavelengths(s: RopeScaling, target: int) -> np.ndarray:
    return (2 * math.pi / scaled_inv_freq(s, target)).numpy()


def test_gemma3_shows_local_and_global_layers_side_by_side(window, drive, tab):
    drive(window, lambda: window.import_config(json.dumps(GEMMA3).encode()), channel="extension")
    tab.ready_view("layer_wavelength")  # the page it brings to the front: computed then
    assert tab.current_page() == "layers"
    view = tab.layers.wavelength_view
    names = [item.name() for item in view.curve_items]
    assert names == [
        "sliding_attention: θ 10,000, none (plain RoPE) · 52 layers",
        "full_attention: θ 1,000,000, linear / position interpolation ×8 · 10 layers "
        "(the controls)",
    ]
    target = int(tab.target_context.value())
    local, full = (data(item)[1] for item in view.curve_items)
    np.testing.assert_allclose(local, wavelengths(RopeScaling(128, 1e4), target), rtol=1e-12)
    np.testing.assert_allclose(
        full, wavelengths(RopeScaling(128, 1e6, "linear", 8.0), target), rtol=1e-12
    )
    rows = [data(item) for item in tab.layers.pattern_view.curve_items]
    assert list(rows[1][0]) == list(range(5, 62, 6)) and set(rows[1][1]) == {1.0}
    assert len(rows[0][0]) == 52 and set(rows[0][1]) == {0.0}
    ticks = tab.layers.pattern_view.plot.getAxis("left")._tickLevels
    assert [label for _, label in ticks[0]] == ["sliding_attention", "full_attention"]
    # the row names keep clear of the view's left edge (no axis label there to hold them off)
    boxes = [box for box in text_boxes(tab.layers.pattern_view) if box.kind == "tick"]
    names = [box for box in boxes if box.text.endswith("_attention")]
    assert len(names) == 2 and min(box.rect.left() for box in names) >= END_ROOM_PX / 2


def test_the_controls_edit_the_main_layers_and_the_others_stay_as_imported(window, drive, tab):
    drive(window, lambda: window.import_config(json.dumps(GEMMA3).encode()), channel="extension")
    tab.ready_view("layer_wavelength")  # the page it brings to the front: computed then
    local_before = data(tab.layers.wavelength_view.curve_items[0])[1].copy()
    drive(window, lambda: tab.factor.setValue(4.0), channel="extension")
    local, full = (data(item)[1] for item in tab.layers.wavelength_view.curve_items)
    np.testing.assert_array_equal(local, local_before)
    target = int(tab.target_context.value())
    expected = wavelengths(RopeScaling(128, 1e6, "linear", 4.0), target)
    np.testing.assert_allclose(full, expected, rtol=1e-12)


def test_llama4_nope_layers_have_their_own_row_and_no_curve(window, drive, tab):
    drive(
        window, lambda: window.import_config(json.dumps(LLAMA4_SCOUT).encode()), channel="extension"
    )
    tab.ready_view("layer_wavelength")
    names = [item.name() for item in tab.layers.wavelength_view.curve_items]
    # the types the config leaves unnamed, named for what they are
    assert names == ["RoPE layers: θ 500,000, Llama 3 ×16 · 36 layers (the controls)"]
    rows = tab.layers.pattern_view.plot.getAxis("left")._tickLevels[0]
    assert [label for _, label in rows] == ["RoPE layers", "NoPE layers"]
    rope, nope = (data(item)[0] for item in tab.layers.pattern_view.curve_items)
    assert list(nope) == list(range(3, 48, 4)) and len(rope) == 36


def test_without_a_model_the_page_shows_the_controls_and_says_what_to_import(window, drive, tab):
    tab.show_page("layers")
    drive(window, tab.refresh, channel="extension")
    assert [item.name() for item in tab.layers.wavelength_view.curve_items] == [
        "every layer: θ 10,000, YaRN ×8 · layers not listed"
    ]
    title = tab.layers.pattern_view.plot.titleLabel.text
    assert "import a config.json that lists its layers" in title
    # no layer positions are made up under the empty row
    assert drawn_tick_labels(tab.layers.pattern_view.plot.getAxis("bottom")) == []


def test_a_session_keeps_the_imported_model_and_a_preset_replaces_it(window, drive, tab):
    drive(window, lambda: window.import_config(json.dumps(GEMMA3).encode()), channel="extension")
    tab.ready_view("layer_wavelength")  # the page it brings to the front: computed then
    saved = window.session()
    assert saved["tabs"]["extension"]["model"]["config"]["text_config"]["num_hidden_layers"] == 62
    qwen = next(p for p in window.presets if p.name == "Qwen3-8B")
    drive(window, lambda: window.apply_preset(qwen), channel="extension")
    assert len(tab.layers.imported.model.layer_types) == 1
    drive(window, lambda: window.apply_session(saved), channel="extension")
    tab.ready_view("layer_wavelength")
    assert [layer.layer_type for layer in tab.layers.imported.model.layer_types] == [
        "sliding_attention",
        "full_attention",
    ]
    assert len(tab.layers.wavelength_view.curve_items) == 2


@pytest.mark.parametrize(
    ("model", "message"),
    [
        ([1, 2], "extension: model must be an object with a source and a config"),
        (
            {"source": "x", "config": {"head_dim": 7}},
            "extension: model.config.head_dim: must be even",
        ),
        ({"source": 3, "config": {}}, "model must be an object with a source"),
    ],
)
def test_a_session_model_that_cannot_be_read_is_refused(window, tab, model, message):
    state = tab.state() | {"model": model}
    with pytest.raises(ValueError, match=message):
        tab.set_state(state)


def test_the_import_report_lists_every_key_read_and_every_key_ignored(window, drive, tab):
    config = {
        "hidden_size": 3584,
        "num_attention_heads": 28,
        "rope_theta": 1e6,
        "vocab_size": 152064,
        "rope_scaling": {"type": "linear", "factor": 4.0, "beta_fast": 32},
        "vision_config": {"depth": 32},
    }
    drive(window, lambda: window.import_config(json.dumps(config).encode()), channel="extension")
    window.show_import_report()
    report = window.import_report
    assert report.isVisible() and report.windowTitle() == "Import report: config.json"
    assert report.rows() == [
        ("hidden_size", "3584", "read"),
        ("num_attention_heads", "28", "read"),
        ("rope_scaling.factor", "4.0", "read"),
        ("rope_scaling.type", '"linear"', "read"),
        ("rope_theta", "1000000.0", "read"),
        ("rope_scaling.beta_fast", "", "ignored: rope_type linear does not use it"),
        (
            "vision_config",
            "",
            "ignored: another part of the model (RoPE is read from the language model)",
        ),
        ("vocab_size", "", "ignored: not a RoPE setting"),
    ]


def test_the_report_cuts_long_lists_and_says_when_nothing_was_imported(window, drive, tab):
    window.show_import_report()
    assert window.import_report is None
    assert "No config.json imported yet" in window.statusBar().currentMessage()
    drive(
        window, lambda: window.import_config(json.dumps(LLAMA4_SCOUT).encode()), channel="extension"
    )
    tab.ready_view("layer_wavelength")
    window.show_import_report()
    rows = {key: value for key, value, _ in window.import_report.rows()}
    assert rows["text_config.no_rope_layers"] == "[1, 1, 1, 0, 1, 1, … (48 items)]"
