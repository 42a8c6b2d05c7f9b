"""Released checkpoints' config.json, as written (legacy keys, wrappers, per-layer RoPE), read
as each family's own rotary module in transformers reads them."""

from __future__ import annotations

import warnings

import pytest
import torch

from posenc_gui.encodings.model_config import NO_ROPE, read_model_config
from posenc_gui.encodings.rope_scaling import attention_factor, regions, scaled_inv_freq
from tests.model_zoo import Family, reference


def _module(family: str, rotary: str, config_class: str, config: dict):
    """The family's rotary module's ``{layer type: (inv_freq, attention)}`` for ``config``."""
    import importlib

    modeling = importlib.import_module(f"transformers.models.{family}.modeling_{family}")
    configuration = importlib.import_module(f"transformers.models.{family}.configuration_{family}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        built = getattr(configuration, config_class)(**config)
    return reference(Family(family, getattr(modeling, rotary), type(built)), built)


def _same(layer, expected) -> None:
    inv_freq, attention = expected
    torch.testing.assert_close(scaled_inv_freq(layer.scaling), inv_freq.double(), rtol=1e-6, atol=0)
    assert attention_factor(layer.scaling) == pytest.approx(attention, rel=1e-6)


GEMMA3 = {  # google/gemma-3-27b-it, legacy keys under text_config
    "architectures": ["Gemma3ForConditionalGeneration"],
    "text_config": {
        "head_dim": 128,
        "hidden_size": 5376,
        "num_attention_heads": 32,
        "num_hidden_layers": 62,
        "rope_theta": 1000000.0,
        "rope_local_base_freq": 10000.0,
        "rope_scaling": {"factor": 8.0, "rope_type": "linear"},
        "sliding_window_pattern": 6,
        "max_position_embeddings": 131072,
    },
    "vision_config": {"hidden_size": 1152},
}


def test_gemma3_global_layers_scale_and_local_layers_keep_their_own_base():
    model = read_model_config(GEMMA3)
    layers = {layer.layer_type: layer for layer in model.layer_types}
    assert layers["sliding_attention"].scaling.base == 10000.0
    assert layers["sliding_attention"].scaling.method == "default"
    assert (layers["full_attention"].scaling.base, layers["full_attention"].scaling.method) == (
        1e6,
        "linear",
    )
    expected = _module("gemma3", "Gemma3RotaryEmbedding", "Gemma3TextConfig", GEMMA3["text_config"])
    for name in ("sliding_attention", "full_attention"):
        _same(layers[name], expected[name])
    assert model.primary is layers["full_attention"].scaling
    ignored = dict(model.ignored)
    assert ignored["vision_config"].startswith("another part of the model")
    assert ignored["architectures"] == "not a RoPE setting"


DEEPSEEK_V3 = {  # deepseek-ai/DeepSeek-V3: no head_dim, the rotary size is qk_rope_head_dim
    "hidden_size": 7168,
    "num_attention_heads": 128,
    "qk_rope_head_dim": 64,
    "qk_nope_head_dim": 128,
    "v_head_dim": 128,
    "kv_lora_rank": 512,
    "max_position_embeddings": 163840,
    "rope_theta": 10000,
    "rope_scaling": {
        "beta_fast": 32,
        "beta_slow": 1,
        "factor": 40,
        "mscale": 1.0,
        "mscale_all_dim": 1.0,
        "original_max_position_embeddings": 4096,
        "type": "yarn",
    },
}


def test_deepseek_v3_rotates_its_64_rope_channels_with_yarn():
    scaling = read_model_config(DEEPSEEK_V3).primary
    assert (scaling.rotary_dim, scaling.method, scaling.factor) == (64, "yarn", 40)
    kinds = regions(scaling)
    assert (kinds.count("kept"), kinds.count("blended"), kinds.count("interpolated")) == (11, 12, 9)
    config = {**DEEPSEEK_V3, "rope_parameters": {**DEEPSEEK_V3["rope_scaling"], "rope_theta": 1e4}}
    expected = _module("deepseek_v3", "DeepseekV3RotaryEmbedding", "DeepseekV3Config", config)
    _same(read_model_config(DEEPSEEK_V3).layer_types[0], expected["default"])


LLAMA4_SCOUT = {  # meta-llama/Llama-4-Scout-17B-16E: a hard step, and every fourth layer NoPE
    "text_config": {
        "head_dim": 128,
        "hidden_size": 5120,
        "num_attention_heads": 40,
        "num_hidden_layers": 48,
        "max_position_embeddings": 10485760,
        "rope_theta": 500000.0,
        "rope_scaling": {
            "factor": 16.0,
            "high_freq_factor": 1.0,
            "low_freq_factor": 1.0,
            "original_max_position_embeddings": 8192,
            "rope_type": "llama3",
        },
        "no_rope_layers": [1, 1, 1, 0] * 12,
    }
}


def test_llama4_scout_steps_without_a_blend_and_has_nope_layers():
    model = read_model_config(LLAMA4_SCOUT)
    rope, nope = model.layer_types
    assert nope.layer_type == NO_ROPE and nope.scaling is None
    assert nope.layers == tuple(range(3, 48, 4)) and len(rope.layers) == 36
    kinds = regions(rope.scaling)
    assert "blended" not in kinds and kinds.count("kept") + kinds.count("interpolated") == 64
    text = LLAMA4_SCOUT["text_config"]
    expected = _module("llama4", "Llama4TextRotaryEmbedding", "Llama4TextConfig", text)
    _same(rope, expected["default"])


def test_hunyuan_alpha_stretches_the_base():
    config = {
        "hidden_size": 4096,
        "num_attention_heads": 32,
        "head_dim": 128,
        "max_position_embeddings": 32768,
        "rope_theta": 10000.0,
        "rope_scaling": {"alpha": 1000.0, "factor": 1.0, "type": "dynamic"},
    }
    scaling = read_model_config(config).primary
    assert scaling.method == "ntk" and scaling.factor == 1000.0
    expected = _module(
        "hunyuan_v1_dense", "HunYuanDenseV1RotaryEmbedding", "HunYuanDenseV1Config", config
    )
    _same(read_model_config(config).layer_types[0], expected["default"])


PHIMOE = {  # microsoft/Phi-3.5-MoE-instruct's layout (its long_mscale made distinct here)
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "max_position_embeddings": 131072,
    "rope_theta": 10000.0,
    "rope_scaling": {
        "type": "longrope",
        "original_max_position_embeddings": 4096,
        "short_factor": [1.0] * 64,
        "long_factor": [1.5] * 64,
        "short_mscale": 1.243163121016122,  # as released, to the last digit
        "long_mscale": 1.367479,
    },
}


def test_phimoe_attention_factor_is_its_short_then_long_mscale():
    config = PHIMOE
    scaling = read_model_config(config).primary
    assert attention_factor(scaling, 4096) == 1.243163121016122
    assert attention_factor(scaling, 8192) == 1.367479
    from transformers.models.phimoe.configuration_phimoe import PhimoeConfig
    from transformers.models.phimoe.modeling_phimoe import PhimoeRotaryEmbedding

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rotary = PhimoeRotaryEmbedding(PhimoeConfig(**config))
    for seq_len in (4096, 8192):
        x = torch.zeros(1, seq_len, 8)
        cos, _ = rotary(x, torch.arange(seq_len)[None])
        assert cos[0, 0, 0].item() == pytest.approx(attention_factor(scaling, seq_len), rel=1e-6)


@pytest.mark.parametrize("theta", [1.2e7, 1e8, 1e11])  # Apertus, Ministral, Falcon-H1
def test_large_bases_of_released_checkpoints_are_read(theta):
    config = {"head_dim": 128, "rope_theta": theta}
    assert read_model_config(config).primary.base == theta


def test_gemma3_layer_pattern_is_built_as_transformers_builds_it():
    from transformers.models.gemma3.configuration_gemma3 import Gemma3TextConfig

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = Gemma3TextConfig(**GEMMA3["text_config"]).layer_types
    layers = {layer.layer_type: layer.layers for layer in read_model_config(GEMMA3).layer_types}
    for name in ("sliding_attention", "full_attention"):
        assert layers[name] == tuple(i for i, kind in enumerate(theirs) if kind == name)
    assert layers["full_attention"][:3] == (5, 11, 17) and len(layers["full_attention"]) == 10


def _preset_config(name: str) -> dict:
    from posenc_gui import registry
    from posenc_gui.presets import load_presets

    return dict(next(p for p in load_presets(registry.preset_kinds()) if p.name == name).config)


def test_phi4_mini_preset_is_what_phi3_rotary_computes_short_and_long():
    config = _preset_config("Phi-4-mini (LongRoPE, partial 0.75)")
    scaling = read_model_config(config).primary
    assert (scaling.head_dim, scaling.rotary_dim, scaling.method) == (128, 96, "longrope")
    assert len(scaling.long_factor) == 48 and scaling.long_factor[-1] == 47.77
    from transformers.models.phi3.configuration_phi3 import Phi3Config
    from transformers.models.phi3.modeling_phi3 import Phi3RotaryEmbedding

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rotary = Phi3RotaryEmbedding(Phi3Config(**config))
    x = torch.ones(1, 1, 8)
    for seq_len, factors in ((4096, scaling.short_factor), (4097, scaling.long_factor)):
        rotary(x, torch.arange(seq_len)[None])  # its forward switches to the long factors
        theirs = rotary.inv_freq.double()
        torch.testing.assert_close(scaled_inv_freq(scaling, seq_len), theirs, rtol=1e-6, atol=0)
        base = 1e4 ** (-torch.arange(0, 96, 2, dtype=torch.float64) / 96)
        torch.testing.assert_close(theirs, base / torch.tensor(factors).double(), rtol=1e-6, atol=0)
        assert attention_factor(scaling, seq_len) == pytest.approx(rotary.attention_scaling)


def test_qwen2_5_vl_preset_reads_its_mrope_sections_and_plain_text_frequencies():
    config = _preset_config("Qwen2.5-VL-7B (M-RoPE sections 16/24/24)")
    model = read_model_config(config)
    assert dict(model.used)["rope_scaling.mrope_section"] == [16, 24, 24]
    assert dict(model.ignored)["use_sliding_window"] == "not a RoPE setting"
    expected = _module("qwen2_5_vl", "Qwen2_5_VLRotaryEmbedding", "Qwen2_5_VLTextConfig", config)
    _same(model.layer_types[0], expected["default"])


def test_every_key_is_named_by_where_it_came_from_and_unused_ones_say_why():
    config = {
        "head_dim": 64,
        "hidden_size": 4096,
        "rope_theta": 5e5,
        "rope_scaling": {"rope_type": "linear", "factor": 4.0, "beta_fast": 32.0},
        "text_config": {"rope_theta": 1e6, "num_attention_heads": 16},
    }
    model = read_model_config(config)
    used, ignored = dict(model.used), dict(model.ignored)
    assert used == {"text_config.rope_theta": 1e6, "head_dim": 64} | {
        f"rope_scaling.{key}": value for key, value in (("rope_type", "linear"), ("factor", 4.0))
    }
    assert model.primary.base == 1e6
    assert ignored == {
        "rope_scaling.beta_fast": "rope_type linear does not use it",
        "rope_theta": "text_config.rope_theta is read instead (the language model's own)",
        "hidden_size": "not needed: other keys decide this model's RoPE",
        "text_config.num_attention_heads": "not needed: other keys decide this model's RoPE",
    }
    with pytest.raises(ValueError, match=r"^rope_scaling\.factor: must be ≥ 1"):
        read_model_config({**config, "rope_scaling": {"rope_type": "linear", "factor": 0.5}})


@pytest.mark.parametrize(
    ("sizes", "message"),
    [
        ({"head_dim": 127}, r"^head_dim: must be even \(RoPE rotates pairs of channels\), got 127"),
        (
            {"hidden_size": 4095, "num_attention_heads": 32},
            r"^hidden_size ÷ num_attention_heads: must be even .*, got 127",
        ),
        (
            {"hidden_size": 4096, "num_attention_heads": 8192},
            r"^hidden_size ÷ num_attention_heads: must be in \[2, 65,536\], got 0",
        ),
        (
            {"head_dim": 127, "partial_rotary_factor": 0.5},
            r"^partial_rotary_factor: head_dim × factor must be an even number ≥ 2, got 63",
        ),
    ],
)
def test_a_head_size_that_cannot_rotate_is_named_by_the_keys_it_came_from(sizes, message):
    with pytest.raises(ValueError, match=message):
        read_model_config({**sizes, "rope_theta": 1e4})


def test_an_integer_past_floats_range_is_refused_by_its_size_not_its_digits():
    with pytest.raises(
        ValueError, match=r"^rope_theta: must be finite, got an integer of 401 digits$"
    ):
        read_model_config({"head_dim": 64, "rope_theta": 10**400})


def test_rope_keys_keep_what_the_reading_needs():
    from posenc_gui.encodings.model_config import rope_keys

    for config in (GEMMA3, LLAMA4_SCOUT, DEEPSEEK_V3):
        kept = rope_keys(config)
        assert read_model_config(kept).layer_types == read_model_config(config).layer_types
    assert "vision_config" not in rope_keys(GEMMA3) and "kv_lora_rank" not in rope_keys(DEEPSEEK_V3)
