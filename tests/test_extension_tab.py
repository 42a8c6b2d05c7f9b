"""The context-extension tab, presets and config.json import, as a user drives them."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest
import torch
from PySide6.QtCore import Qt

from posenc_gui.encodings import binning, rope_scaling
from posenc_gui.encodings.model_config import LayerRope
from posenc_gui.encodings.rope_scaling import RopeScaling
from posenc_gui.tabs.extension.compute import ExtensionParams, compute_extension
from tests.test_real_configs import PHIMOE


@pytest.fixture
def tab(window, drive):
    ext = window.tab("extension")
    drive(window, lambda: window.tabs.setCurrentWidget(ext), channel="extension")
    return ext


def data(item):
    return item.getOriginalDataset()


def preset(window, name):
    return next(p for p in window.presets if p.name == name)


def test_default_yarn_views_match_the_library(window, tab):
    scaling = RopeScaling(
        head_dim=128, method="yarn", factor=8.0, original_context=8192, max_position_embeddings=8192
    )
    original = rope_scaling.scaled_inv_freq(scaling.with_changes(method="default"))
    scaled = rope_scaling.scaled_inv_freq(scaling)
    _, scaled_curve = tab.figures.wavelength_view.curve_items
    np.testing.assert_allclose(data(scaled_curve)[1], (2 * math.pi / scaled).numpy())
    ratios = np.concatenate([data(item)[1] for item in tab.figures.ratio_view.curve_items])
    pairs = np.concatenate([data(item)[0] for item in tab.figures.ratio_view.curve_items])
    np.testing.assert_allclose(ratios[np.argsort(pairs)], (scaled / original).numpy())
    factor = rope_scaling.attention_factor(scaling)
    assert f"attention factor (mscale) {factor:.4f}" in tab.readout.text()
    # decay: exact run means of 2·Σ cos(d·θ'), scaled by the attention factor squared
    tab.ready_view("decay")  # a page is computed when it comes to the front
    starts, counts = binning.runs(tab.frame.params.decay_x)
    distances, decay = data(tab.figures.decay_view.curve_items[1])
    np.testing.assert_allclose(distances, (starts + (counts - 1) / 2).numpy())
    expected = factor**2 * 2 * binning.mean_phasor(starts, counts, scaled).real.sum(1)
    np.testing.assert_allclose(decay, expected.numpy(), rtol=1e-9, atol=1e-9)
    # 65,536 distances on a few hundred pixels: the title says what a point is (the curves'
    # first points read 65 and 100 where the scores at distance 0 are 128 and 187)
    most = int(counts.max())
    assert most == -(-65536 // len(distances)) > 1
    assert tab.figures.decay_view.plot.titleLabel.text == (
        f"(c) Decay of q·k (q = k = 1) · a pixel: the mean of {most:,} distances"
    )


def test_a_decay_of_a_distance_a_pixel_says_no_mean(window, drive, tab):
    tab.ready_view("decay")
    drive(window, lambda: tab.target_context.setValue(256), channel="extension")
    assert len(data(tab.figures.decay_view.curve_items[0])[0]) == 256
    assert tab.figures.decay_view.plot.titleLabel.text == "(c) Decay of q·k (q = k = 1)"


def test_the_pages_asked_for_are_computed_and_no_others():
    scaling = RopeScaling(head_dim=64, method="dynamic", factor=4.0)
    params = ExtensionParams(scaling, 32768, 20000, layer_types=(LayerRope("x", scaling),))
    cpu = torch.device("cpu")
    frequencies = compute_extension(replace(params, pages=("frequencies",)), cpu)
    assert (frequencies.decay, frequencies.dynamic, frequencies.layer_types) == (None, None, None)
    assert len(frequencies.ratio) == 32  # every pair, whichever the page: the readout's
    dynamic = compute_extension(replace(params, pages=("dynamic",)), cpu)
    assert dynamic.decay is None and dynamic.layer_types is None
    assert dynamic.dynamic.sweep_base == pytest.approx(rope_scaling.effective_base(scaling, 20000))
    context = compute_extension(replace(params, pages=("context",)), cpu)
    assert context.dynamic is None
    assert len(context.decay.decay_scaled) == len(context.decay.distances) > 0
    layers = compute_extension(replace(params, pages=("layers",)), cpu)
    assert layers.decay is None and len(layers.layer_types) == 1
    with pytest.raises(ValueError, match="pages must be among frequencies, context, dynamic"):
        replace(params, pages=("decay",))


def test_only_the_page_in_front_is_computed_and_a_page_change_computes_its_own(tab):
    assert tab.current_page() == "frequencies"
    assert tab.frame.decay is None and tab.frame.dynamic is None and tab.frame.layer_types is None
    tab.ready_view("dynamic")
    assert tab.frame.dynamic is not None and tab.frame.decay is None
    assert len(tab.figures.dynamic_view.curve_items[0].getOriginalDataset()[0]) > 100
    assert not tab.is_waiting()


def test_llama31_preset_shows_29_kept_6_blended_29_interpolated(window, drive, tab):
    drive(window, lambda: window.apply_preset(preset(window, "Llama-3.1-8B")), channel="extension")
    assert window.tabs.currentWidget() is tab
    assert (window.parameters.head_dim.value(), window.parameters.theta.value()) == (128, 5e5)
    assert tab.method.currentData() == "llama3"
    assert "pairs kept 29, blended 6, interpolated 29" in tab.readout.text()
    counts = {item.name(): len(data(item)[0]) for item in tab.figures.ratio_view.curve_items}
    assert counts == {"kept": 29, "blended": 6, "interpolated": 29}
    assert [span.getRegion() for span in tab.figures.ratio_view.spans] == [
        (-0.5, 28.5),
        (28.5, 34.5),
        (34.5, 63.5),
    ]


def test_angle_budget_flags_unseen_angles(window, drive, tab):
    drive(
        window,
        lambda: tab.method.setCurrentIndex(tab.method.findData("default")),
        channel="extension",
    )
    drive(window, lambda: tab.target_context.setValue(32768), channel="extension")
    theta = rope_scaling.scaled_inv_freq(RopeScaling(head_dim=128))
    tab.ready_view("angle")
    original, target, flagged = tab.figures.angle_view.curve_items
    np.testing.assert_allclose(data(original)[1], (8192 * theta).numpy())
    np.testing.assert_allclose(data(target)[1], (32768 * theta).numpy())
    expected = np.flatnonzero((8192 * theta < 2 * math.pi).numpy())
    np.testing.assert_array_equal(data(flagged)[0], expected)
    drive(window, lambda: tab.target_context.setValue(8192), channel="extension")
    # none unseen: no legend entry for what is not drawn
    legend = [label.text for _, label in tab.figures.angle_view.legend.items]
    assert legend == ["within L0, original", "within target, scaled"]


def test_dynamic_sweep_marks_the_base_at_the_length(window, drive, qtbot, tab):
    drive(window, lambda: tab.sweep_length.setValue(20000), channel="extension")
    tab.ready_view("dynamic")
    curve, marker = tab.figures.dynamic_view.curve_items
    scaling = RopeScaling(
        head_dim=128,
        method="dynamic",
        factor=8.0,
        original_context=8192,
        max_position_embeddings=8192,
    )
    assert data(marker)[1][0] == pytest.approx(rope_scaling.effective_base(scaling, 20000))
    _, bases = data(curve)
    assert np.all(np.diff(bases) >= 0) and bases[0] == 10000.0
    start = tab.sweep_length.value()
    tab.sweep.setChecked(True)
    qtbot.waitUntil(lambda: tab.sweep_length.value() != start, timeout=5000)
    tab.sweep.setChecked(False)


def test_clashing_settings_keep_the_last_frame_and_say_why(window, drive, tab):
    drive(
        window,
        lambda: tab.method.setCurrentIndex(tab.method.findData("llama3")),
        channel="extension",
    )
    before = data(tab.figures.wavelength_view.curve_items[1])[1].copy()
    tab.low_freq_factor.setValue(8.0)  # above high_freq_factor 4
    assert "high_freq_factor: must be at least low_freq_factor" in tab.message.text()
    np.testing.assert_array_equal(data(tab.figures.wavelength_view.curve_items[1])[1], before)
    drive(window, lambda: tab.low_freq_factor.setValue(1.0), channel="extension")
    assert tab.message.text() == ""


def test_longrope_without_lists_asks_for_a_preset(window, tab):
    tab.method.setCurrentIndex(tab.method.findData("longrope"))
    assert "longrope needs short_factor and long_factor lists" in tab.message.text()


def test_phi_preset_brings_its_factor_lists(window, drive, tab):
    phi = preset(window, "Phi-3.5-mini (LongRoPE; Phi-3-mini-128k layout)")
    drive(window, lambda: window.apply_preset(phi), channel="extension")
    assert "48 short + 48 long" in tab.factor_lists.text()
    long = torch.tensor(phi.config["rope_scaling"]["long_factor"], dtype=torch.float64)
    theta = rope_scaling.scaled_inv_freq(RopeScaling(head_dim=96))
    np.testing.assert_allclose(
        data(tab.figures.wavelength_view.curve_items[1])[1], (2 * math.pi * long / theta).numpy()
    )  # target 131072 > L0


def test_other_presets_set_their_tabs(window, drive):
    drive(window, lambda: window.apply_preset(preset(window, "BLOOM-176B")), channel="relative")
    relative = window.tab("relative")
    assert (relative.scheme.currentData(), relative.n_heads.value()) == ("alibi", 112)
    drive(window, lambda: window.apply_preset(preset(window, "T5-base")), channel="relative")
    assert relative.scheme.currentData() == "t5" and window.parameters.d_model.value() == 768
    drive(window, lambda: window.apply_preset(preset(window, "GPT-NeoX-20B")), channel="extension")
    assert window.tab("rope").layout_choice.currentData() == "half"
    assert window.parameters.head_dim.value() == 96
    drive(window, lambda: window.apply_preset(preset(window, "LLaMA-2-7B")), channel="rope")
    assert window.tab("rope").layout_choice.currentData() == "interleaved"
    assert window.tabs.currentWidget() is window.tab("rope")  # the whole head rotates
    drive(window, lambda: window.apply_preset(preset(window, "Transformer base (2017)")))
    assert window.parameters.d_model.value() == 512


def test_a_model_rotating_part_of_its_head_opens_where_the_factor_is(window, drive):
    # GPT-NeoX-20B: rotary_pct 0.25 of head_dim 96, so 12 pairs θ_i = θ^(−2i/24) rotate; the
    # RoPE tab (the whole head) would draw 48 pairs of θ^(−2i/96)
    drive(window, lambda: window.apply_preset(preset(window, "GPT-NeoX-20B")), channel="extension")
    tab = window.tab("extension")
    assert window.tabs.currentWidget() is tab and tab.current_page() == "frequencies"
    assert tab.partial_rotary_factor.value() == 0.25
    pairs, wavelengths = data(tab.figures.wavelength_view.curve_items[1])
    np.testing.assert_array_equal(pairs, np.arange(12))
    np.testing.assert_allclose(wavelengths, 2 * math.pi * 10000.0 ** (np.arange(0, 24, 2) / 24))
    # no scaling (s = 1): the ratio view's 1/s line is its line at 1, labelled once
    assert [line.label.format for line in tab.figures.ratio_view.lines] == ["1"]
    # L0 = target = 2,048: one line says both (the target's hid L0's and its label)
    assert [line.label.format for line in tab.figures.wavelength_view.lines] == [
        "L0 = target = 2,048"
    ]
    tab.ready_view("decay")
    assert [(line.value(), line.label.format) for line in tab.figures.decay_view.lines] == [
        (2048.0, "L0 = target")
    ]


def test_a_preset_opens_its_page_resets_its_tabs_and_says_what_changed(window, drive):
    relative = window.tab("relative")
    drive(window, lambda: window.apply_preset(preset(window, "BLOOM-176B")), channel="relative")
    assert relative.current_page() == "alibi"
    said = []
    drive(
        window,
        lambda: said.append(window.apply_preset(preset(window, "T5-base"))),
        channel="relative",
    )
    assert relative.current_page() == "t5"
    assert relative.n_heads.value() == 8  # BLOOM's 112 heads went with BLOOM
    assert said[0].startswith("Loaded T5-base: d_model 128 → 768")
    assert "relative.scheme alibi → t5" in said[0] and "relative.n_heads 112 → 8" in said[0]
    llama = preset(window, "Llama-3.1-8B")
    drive(window, lambda: window.apply_preset(llama), channel="extension")
    assert window.tab("extension").current_page() == "frequencies"
    assert window.tabs.currentWidget() is window.tab("extension")


def test_config_import_applies_and_lists_ignored_keys(window, drive, tab):
    config = {
        "hidden_size": 3584,
        "num_attention_heads": 28,
        "rope_theta": 1e6,
        "max_position_embeddings": 131072,
        "vocab_size": 152064,
        "rope_scaling": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768},
    }
    summary = []
    drive(
        window,
        lambda: summary.append(window.import_config(json.dumps(config).encode())),
        channel="extension",
    )
    assert summary[0].startswith("Loaded config.json: yarn RoPE, head_dim 128")
    assert summary[0].endswith("ignored keys: vocab_size (why: File → Import report…)")
    assert (tab.method.currentData(), tab.factor.value()) == ("yarn", 4.0)
    assert tab.original_context.value() == 32768
    assert window.parameters.theta.value() == 1e6


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"hidden_size": 4096', "not valid JSON"),
        (b'{"head_dim": 128, "rope_theta": -5}', "rope_theta: must be > 1"),
        (b'{"head_dim": 2048}', "head_dim 2048 is outside the app's range"),
        (b'{"head_dim": 64, "rope_theta": 1e13}', r"rope_theta 1e\+13 is outside the app's range"),
        (b"\x89PNG\r\n", "not UTF-8"),
    ],
)
def test_bad_config_changes_nothing(window, tab, data, message):
    before = (
        window.parameters.head_dim.value(),
        window.parameters.theta.value(),
        tab.method.currentData(),
        window.tabs.currentWidget(),
    )
    with pytest.raises(ValueError, match=message):
        window.import_config(data)
    assert before == (
        window.parameters.head_dim.value(),
        window.parameters.theta.value(),
        tab.method.currentData(),
        window.tabs.currentWidget(),
    )


def test_preset_menu_lists_every_preset(window):
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Presets")
    assert [action.text() for action in menu.actions()] == [p.name for p in window.presets]


def test_only_the_chosen_methods_parameters_show(window, drive, tab):
    def shown(widget) -> bool:
        return not widget.isHidden()

    assert tab.method.currentData() == "yarn"  # the default
    assert shown(tab.beta_fast) and shown(tab.factor) and not shown(tab.low_freq_factor)
    drive(window, lambda: tab.method.setCurrentIndex(tab.method.findData("llama3")), "extension")
    assert shown(tab.low_freq_factor) and not shown(tab.beta_fast)
    tab.method.setCurrentIndex(tab.method.findData("default"))
    assert not shown(tab.factor) and shown(tab.original_context), tab.message.text()


def test_a_preset_resets_to_defaults_that_fit_todays_ranges(window):
    rope = window.tab("rope")  # built at seq_len 64: its position m starts at 10
    window.parameters.seq_len.setValue(5)
    rope.position.setValue(2)
    window.apply_preset(preset(window, "LLaMA-2-7B"))
    assert rope.position.value() == 4  # the default 10, as near as seq_len 5 allows


def _imports_exactly(window, config: dict) -> None:
    """The tabs show what the model's full-attention layers compute, to the last bit."""
    from posenc_gui.encodings.model_config import read_model_config
    from posenc_gui.encodings.rope_scaling import attention_factor, scaled_inv_freq

    expected = read_model_config(config).primary
    shown = window.tab("extension").scaling()
    assert (window.parameters.head_dim.value(), window.parameters.theta.value()) == (
        expected.head_dim,
        expected.base,
    )
    for seq_len in (None, expected.original_context + 1):  # LongRoPE: short, then long
        assert torch.equal(scaled_inv_freq(shown, seq_len), scaled_inv_freq(expected, seq_len))
        assert attention_factor(shown, seq_len) == attention_factor(expected, seq_len)


@pytest.mark.parametrize(
    "config",
    [
        {  # DeepSeek-V2's keys: MLA rotary size, mscale 0.707
            "hidden_size": 5120,
            "num_attention_heads": 128,
            "qk_rope_head_dim": 64,
            "max_position_embeddings": 163840,
            "rope_theta": 10000,
            "rope_scaling": {
                "type": "yarn",
                "factor": 40,
                "beta_fast": 32,
                "beta_slow": 1,
                "mscale": 0.707,
                "mscale_all_dim": 0.707,
                "original_max_position_embeddings": 4096,
            },
        },
        {  # Llama 4 Scout, under text_config: a hard step at 10M context
            "text_config": {
                "head_dim": 128,
                "rope_theta": 500000.0,
                "max_position_embeddings": 10485760,
                "rope_scaling": {
                    "rope_type": "llama3",
                    "factor": 16.0,
                    "low_freq_factor": 1.0,
                    "high_freq_factor": 1.0,
                    "original_max_position_embeddings": 8192,
                },
                "no_rope_layers": [1, 1, 1, 0] * 12,
            }
        },
        {"head_dim": 128, "partial_rotary_factor": 0.03125 * 8, "rope_theta": 1e11},  # Falcon-H1 θ
        PHIMOE,  # LongRoPE with its own short and long attention factors
        {  # an explicit YaRN attention factor replaces 0.1·ln s + 1
            "head_dim": 128,
            "rope_theta": 1e6,
            "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "attention_factor": 1.3},
        },
    ],
)
def test_real_configs_import_exactly(window, config):
    summary = window.import_config(json.dumps(config).encode())
    _imports_exactly(window, config)
    if "text_config" in config:
        layers = "θ 500,000; layer types: default (36) θ 500,000 llama3, no_rope (12)"
        assert f"RoPE, head_dim 128, {layers}" in summary


LLAMA3_FREQUENCIES = {"rope_type": "llama3", "low_freq_factor": 1.0, "high_freq_factor": 4.0}


@pytest.mark.parametrize(
    ("scaling", "message"),
    [
        (
            {"rope_type": "yarn", "factor": 2000.0},
            r"^rope_scaling\.factor must be a number in \[1, 1,024\], got 2000\.0",
        ),
        (  # past float64's range once multiplied by the context: refused, not an overflow
            {**LLAMA3_FREQUENCIES, "factor": 1e308, "original_max_position_embeddings": 8192},
            r"^rope_scaling\.factor must be a number in \[1, 1,024\], got 1e\+308",
        ),
        (  # the context reached is the product of two keys: both named
            {**LLAMA3_FREQUENCIES, "factor": 8.0, "original_max_position_embeddings": 10**7},
            r"^rope_scaling\.original_max_position_embeddings × rope_scaling\.factor must be a "
            r"number in \[16, 16,777,216\], got 80000000",
        ),
        ({"rope_type": "yarn", "factor": 4.0, "beta_fast": 32.00001}, "at most 4 decimals"),
        (
            {"rope_type": "yarn", "factor": 4.0, "attention_factor": 1.0000000000000002},
            "attention_factor must be a number with at most 15 decimals",
        ),
    ],
)
def test_a_config_value_the_controls_cannot_hold_is_refused_and_changes_nothing(
    window, scaling, message
):
    window.import_config(json.dumps({"head_dim": 64, "rope_theta": 5e5}).encode())
    imported = window.imported
    for index in range(window.tabs.count()):  # built, so that their settings are compared
        window.tab_at(index)
    before = window.session()
    config = {"head_dim": 64, "rope_theta": 5e5, "rope_scaling": scaling}
    with pytest.raises(ValueError, match=message):
        window.import_config(json.dumps(config).encode())
    assert window.session() == before and window.imported is imported


def test_a_preset_that_fails_for_any_reason_changes_nothing(window, monkeypatch):
    for index in range(window.tabs.count()):
        window.tab_at(index)
    before = window.session()

    def fails(preset) -> None:
        raise RuntimeError("an unforeseen fault")

    monkeypatch.setattr(window.tab("extension"), "apply_preset", fails)
    with pytest.raises(RuntimeError, match="unforeseen"):
        window.apply_preset(preset(window, "Llama-3.1-8B"))
    assert window.session() == before


def test_a_rotary_dim_of_two_draws_every_page_but_the_ntk_curve_and_says_why(window, drive, tab):
    drive(window, lambda: window.parameters.head_dim.setValue(2), channel="extension")
    tab.ready_view("dynamic")
    assert len(tab.frame.ratio) == 1 and len(tab.frame.dynamic.lengths) == 0
    assert "dynamic NTK needs a rotary dim of at least 4" in tab.message.text()
    title = tab.figures.dynamic_view.plot.titleLabel.text  # the empty figure says why
    assert title.endswith(" · none: it needs a rotary dim of at least 4")
    with pytest.raises(ValueError, match="NTK scaling needs a rotary dim of at least 4"):
        tab.scaling().with_changes(method="dynamic")


def test_a_number_box_without_a_slider_refuses_what_does_not_fit_saying_so(tab, qtbot):
    """Typed as into the sliders' boxes: a number out of range is refused whole, and the tab
    says which setting and its range (the box reverted silently); no trailing zeros."""
    box = tab.beta_fast
    line = box.lineEdit()
    line.selectAll()
    qtbot.keyClicks(line, "5000")
    assert line.text() == "5000"  # every keystroke arrived, out of range or not
    qtbot.keyClick(line, Qt.Key.Key_Return)
    assert box.value() == 32.0
    assert "beta_fast must be in [0.001, 4,096], got 5000" in tab.message.text()
    line.selectAll()
    qtbot.keyClicks(line, "40")
    qtbot.keyClick(line, Qt.Key.Key_Return)
    assert box.value() == 40.0 and "beta_fast" not in tab.message.text()
    assert tab.attention_factor.text() == "0"  # not 0.000000000000000


def test_the_caption_writes_l0_as_the_plot_does(tab):
    assert tab.caption_parameters().endswith("yarn ×8, L0 8,192")  # it read L0 8192


@pytest.mark.parametrize("sweep", [8192, 20_000, 300_000])
def test_the_dynamic_curve_reaches_the_sweep_s_length(sweep):
    # Qwen2.5's YaRN preset: L0 32,768, the curve from 16,384, its marker at 8,192 beside it
    scaling = RopeScaling(
        head_dim=128,
        base=1e6,
        method="yarn",
        factor=4.0,
        original_context=32768,
        max_position_embeddings=32768,
    )
    params = ExtensionParams(scaling, 131072, sweep, pages=("dynamic",))
    page = compute_extension(params, torch.device("cpu")).dynamic
    assert page.lengths[0] <= sweep <= page.lengths[-1]
    assert page.lengths[0] == min(sweep, 16384) and page.lengths[-1] == max(sweep, 131072)
    assert (page.dynamic_base[page.lengths <= 32768] == 1e6).all()  # θ itself up to L0
    dynamic = scaling.with_changes(method="dynamic")
    assert page.sweep_base == rope_scaling.effective_base(dynamic, sweep)
