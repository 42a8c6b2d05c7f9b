"""Context extension against transformers' ROPE_INIT_FUNCTIONS, closed forms and model facts."""

from __future__ import annotations

import itertools
import math

import pytest
import torch
from transformers import LlamaConfig
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

from posenc_gui.encodings import rope, rope_scaling
from posenc_gui.encodings.model_config import inv_freq_from_config, read_model_config
from posenc_gui.encodings.rope_scaling import RopeScaling

# transformers works in float32: pow, divisions and the YaRN/Llama 3 blends each round, each
# error a few float32 ulp of the unscaled θ_i (the blends' terms are of that size).
F32_ULPS = 8 * 2**-23


def assert_float32_close(
    ours: torch.Tensor, theirs: torch.Tensor, base: float, rotary_dim: int
) -> None:
    scale = rope.inv_freq(rotary_dim, base)
    error = (ours - theirs.double()).abs()
    assert torch.all(error <= F32_ULPS * scale), (error / scale).max().item()


def hf_inv_freq(config: dict, seq_len: int | None) -> tuple[torch.Tensor, float]:
    """What transformers computes for the same config.json settings."""
    scaling = config.get("rope_scaling")
    hf_config = LlamaConfig(
        hidden_size=4 * config["head_dim"],
        num_attention_heads=4,
        head_dim=config["head_dim"],
        rope_theta=config["rope_theta"],
        max_position_embeddings=config["max_position_embeddings"],
        rope_scaling=dict(scaling) if scaling else None,
    )
    rope_type = hf_config.rope_parameters["rope_type"]
    if rope_type == "default":
        return LlamaRotaryEmbedding.compute_default_rope_parameters(hf_config)
    return ROPE_INIT_FUNCTIONS[rope_type](hf_config, torch.device("cpu"), seq_len)


def config_for(rope_type, head_dim, base, factor, partial=1.0, **extra):
    scaling = {"rope_type": rope_type, "factor": factor, **extra}
    if partial != 1.0:
        scaling["partial_rotary_factor"] = partial
    return {
        "head_dim": head_dim,
        "rope_theta": base,
        "max_position_embeddings": 4096,
        "rope_scaling": None if rope_type == "default" else scaling,
    }


GRID = list(itertools.product((64, 96, 128, 256), (1e4, 5e5, 1e6), (1.0, 2.0, 8.0, 64.0)))


@pytest.mark.parametrize(("head_dim", "base", "factor"), GRID)
@pytest.mark.parametrize("rope_type", ["default", "linear", "dynamic", "yarn", "llama3"])
def test_matches_transformers_over_a_grid(rope_type, head_dim, base, factor):
    extra = {"original_max_position_embeddings": 4096} if rope_type in ("yarn", "llama3") else {}
    if rope_type == "llama3":
        extra |= {"low_freq_factor": 1.0, "high_freq_factor": 4.0}
    config = config_for(rope_type, head_dim, base, factor, **extra)
    for seq_len in (None, 1000, 50_000):
        ours, ours_factor = inv_freq_from_config(config, seq_len=seq_len)
        theirs, their_factor = hf_inv_freq(config, seq_len)
        assert ours.dtype == torch.float64
        assert_float32_close(ours, theirs, base, head_dim)
        assert ours_factor == pytest.approx(their_factor, rel=1e-12)


@pytest.mark.parametrize(("partial", "head_dim"), [(0.25, 96), (0.5, 128), (0.75, 64)])
@pytest.mark.parametrize("rope_type", ["linear", "dynamic", "yarn", "llama3"])
def test_partial_rotary_matches_transformers(rope_type, partial, head_dim):
    extra = {"original_max_position_embeddings": 2048} if rope_type in ("yarn", "llama3") else {}
    if rope_type == "llama3":
        extra |= {"low_freq_factor": 1.0, "high_freq_factor": 4.0}
    config = config_for(rope_type, head_dim, 1e4, 4.0, partial, **extra)
    ours, _ = inv_freq_from_config(config, seq_len=9000)
    theirs, _ = hf_inv_freq(config, 9000)
    assert len(ours) == int(head_dim * partial) // 2
    assert_float32_close(ours, theirs, 1e4, int(head_dim * partial))


@pytest.mark.parametrize(
    "yarn",
    [
        {"beta_fast": 16, "beta_slow": 2},
        {"mscale": 1.0, "mscale_all_dim": 1.0},
        {"mscale": 0.707, "mscale_all_dim": 1.0},
        {"attention_factor": 1.5},
        {"truncate": False},
        {"beta_fast": 4, "beta_slow": 4},  # low == high: the reference's +0.001
    ],
)
def test_yarn_options_match_transformers(yarn):
    config = config_for("yarn", 128, 1e4, 16.0, original_max_position_embeddings=4096, **yarn)
    ours, ours_factor = inv_freq_from_config(config)
    theirs, their_factor = hf_inv_freq(config, None)
    assert_float32_close(ours, theirs, 1e4, 128)
    assert ours_factor == pytest.approx(their_factor, rel=1e-12)


@pytest.mark.parametrize(("factor", "expected"), [(4, 1.1386), (8, 1.2079), (32, 1.3466), (1, 1.0)])
def test_yarn_attention_factor_values(factor, expected):
    config = config_for("yarn", 128, 1e4, factor, original_max_position_embeddings=4096)
    assert inv_freq_from_config(config)[1] == pytest.approx(expected, abs=5e-5)


def test_longrope_switches_lists_at_the_original_context_like_transformers():
    short = [1.0 + i / 100 for i in range(48)]
    long = [1.0 + i for i in range(48)]
    config = {
        "head_dim": 96,
        "rope_theta": 1e4,
        "max_position_embeddings": 131072,
        "original_max_position_embeddings": 4096,
        "rope_scaling": {"type": "longrope", "short_factor": short, "long_factor": long},
    }
    for seq_len in (None, 4096, 4097, 100_000):
        ours, ours_factor = inv_freq_from_config(config, seq_len=seq_len)
        hf_config = LlamaConfig(
            hidden_size=384,
            num_attention_heads=4,
            head_dim=96,
            rope_theta=1e4,
            max_position_embeddings=131072,
            rope_scaling={
                "rope_type": "longrope",
                "short_factor": short,
                "long_factor": long,
                "original_max_position_embeddings": 4096,
            },
        )
        theirs, their_factor = ROPE_INIT_FUNCTIONS["longrope"](hf_config, None, seq_len)
        assert_float32_close(ours, theirs, 1e4, 96)
        assert ours_factor == pytest.approx(their_factor, rel=1e-12)
        lists = long if seq_len and seq_len > 4096 else short
        expected = rope.inv_freq(96) / torch.tensor(lists, dtype=torch.float64)
        torch.testing.assert_close(ours, expected, rtol=1e-15, atol=0)
    assert ours_factor == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)))


@pytest.mark.parametrize(("head_dim", "factor"), [(64, 2.0), (128, 8.0), (256, 64.0)])
def test_static_ntk_is_the_closed_form(head_dim, factor):
    config = config_for("ntk", head_dim, 1e4, factor)
    ours, attention = inv_freq_from_config(config)
    base = 1e4 * factor ** (head_dim / (head_dim - 2))
    torch.testing.assert_close(ours, rope.inv_freq(head_dim, base), rtol=1e-15, atol=0)
    assert attention == 1.0
    assert ours[0] == 1.0 and ours[-1] == pytest.approx(rope.inv_freq(head_dim)[-1] / factor)


def test_llama31_keeps_29_blends_6_interpolates_29():
    scaling = read_model_config(
        {
            "hidden_size": 4096,
            "num_attention_heads": 32,
            "rope_theta": 500000.0,
            "max_position_embeddings": 131072,
            "rope_scaling": {
                "rope_type": "llama3",
                "factor": 8.0,
                "low_freq_factor": 1.0,
                "high_freq_factor": 4.0,
                "original_max_position_embeddings": 8192,
            },
        }
    ).primary
    regions = rope_scaling.regions(scaling)
    assert (regions.count("kept"), regions.count("blended"), regions.count("interpolated")) == (
        29,
        6,
        29,
    )
    assert regions[:29] == ["kept"] * 29 and regions[-29:] == ["interpolated"] * 29


def test_dynamic_base_grows_with_length_only_beyond_the_context():
    scaling = RopeScaling(head_dim=128, method="dynamic", factor=4.0, max_position_embeddings=4096)
    assert rope_scaling.effective_base(scaling, 1000) == 10000.0
    assert rope_scaling.effective_base(scaling, 4096) == 10000.0
    bases = [rope_scaling.effective_base(scaling, n) for n in (5000, 10000, 40000)]
    assert bases == sorted(bases) and bases[0] > 10000
    assert bases[2] == pytest.approx(1e4 * (4 * 40000 / 4096 - 3) ** (128 / 126))


def test_old_names_and_ignored_keys():
    model = read_model_config(
        {
            "hidden_size": 6144,
            "num_attention_heads": 64,
            "rotary_pct": 0.25,
            "rotary_emb_base": 10000,
            "max_position_embeddings": 2048,
            "vocab_size": 50432,
            "rope_scaling": {
                "type": "su",
                "short_factor": [1.0] * 12,
                "long_factor": [2.0] * 12,
                "original_max_position_embeddings": 1024,
                "unknown_knob": 3,
            },
        }
    )
    scaling = model.primary
    assert (scaling.head_dim, scaling.rotary_dim, scaling.method) == (96, 24, "longrope")
    assert dict(model.ignored) == {
        "rope_scaling.unknown_knob": "not a RoPE parameter transformers reads",
        "vocab_size": "not a RoPE setting",
    }


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({}, "head_dim: missing"),
        ({"head_dim": 64, "rope_theta": 1}, "rope_theta: must be > 1"),
        ({"head_dim": 64, "rope_theta": "big"}, "rope_theta: must be a number"),
        (
            {"head_dim": 64, "rope_scaling": {"rope_type": "magic", "factor": 2}},
            "rope_type: unknown 'magic'",
        ),
        ({"head_dim": 64, "rope_scaling": {"rope_type": "linear"}}, "factor: required"),
        (
            {"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": 0.5}},
            "factor: must be ≥ 1",
        ),
        (
            {
                "head_dim": 64,
                "rope_scaling": {
                    "rope_type": "llama3",
                    "factor": 8,
                    "low_freq_factor": 4,
                    "high_freq_factor": 1,
                },
            },
            "high_freq_factor: must be at least low_freq_factor",
        ),
        (
            {
                "head_dim": 96,
                "rope_scaling": {
                    "rope_type": "longrope",
                    "short_factor": [1.0] * 47,
                    "long_factor": [1.0] * 48,
                },
            },
            r"short_factor: needs one factor per pair \(48\), got 47",
        ),
        (
            {
                "head_dim": 96,
                "rope_scaling": {
                    "rope_type": "longrope",
                    "short_factor": [1.0] * 48,
                    "long_factor": [1.0] * 47 + [-2],
                },
            },
            r"long_factor\[47\]: must be > 0",
        ),
        ({"head_dim": 64, "partial_rotary_factor": 0.01}, "partial_rotary_factor: head_dim"),
        (
            {"head_dim": 64, "rope_scaling": {"rope_type": "yarn", "factor": 4, "truncate": "yes"}},
            "truncate: must be true or false",
        ),
        ({"head_dim": 64, "rope_scaling": [1, 2]}, "rope_scaling: must be an object"),
        ({"head_dim": 64, "rope_scaling": False}, "rope_scaling: must be an object"),
        (
            {"head_dim": 64, "rope_scaling": {"rope_type": "yarn", "factor": 4, "beta_fast": 0}},
            "beta_fast: must be > 0",
        ),
        (
            {
                "head_dim": 64,
                "rope_scaling": {"rope_type": "yarn", "factor": 4, "beta_fast": False},
            },
            "beta_fast: must be a number",
        ),
        (
            {"head_dim": 64, "rope_scaling": {"rope_type": "ntk", "factor": 1e308}},
            "factor: 1e.308 makes the NTK base",
        ),
        ({"head_dim": 2**40}, "head_dim: must be in"),
        ({"head_dim": 64, "max_position_embeddings": 2**64}, "max_position_embeddings: must be"),
        ({"head_dim": "64"}, "head_dim: must be an integer"),
        # L0 defaults to the context: a bad context is named as the file names it
        ({"head_dim": 64, "max_position_embeddings": 0}, "^max_position_embeddings: must be in"),
        (
            {"head_dim": 64, "num_attention_heads": 1, "max_position_embeddings": 0},
            "^max_position_embeddings: must be in",
        ),
        # the ramp turned round (transformers warns): fast pairs interpolated, slow ones kept
        (
            {
                "head_dim": 64,
                "rope_scaling": {"rope_type": "yarn", "factor": 4, "beta_fast": 1, "beta_slow": 32},
            },
            r"^rope_scaling\.beta_fast: must be at least beta_slow \(32\), got 1",
        ),
        (  # as transformers: one type per layer
            {"head_dim": 64, "num_hidden_layers": 4, "layer_types": ["full_attention"]},
            r"^layer_types: must name one type per layer \(num_hidden_layers 4\), got 1",
        ),
        ({"head_dim": 64, "rope_theta": float("inf")}, "rope_theta: must be finite"),
        # read for the layer views even without a layer pattern (a billion layers hung them)
        (
            {"head_dim": 64, "num_hidden_layers": 10**9},
            r"num_hidden_layers: must be in \[1, 65,536\], got 1,000,000,000",
        ),
        ({"head_dim": 64, "num_hidden_layers": 0}, r"num_hidden_layers: must be in \[1, 65,536\]"),
        # transformers refuses llama3 without either factor (KeyError): no defaults here either
        (
            {"head_dim": 64, "rope_scaling": {"rope_type": "llama3", "factor": 8.0}},
            "rope_scaling.low_freq_factor: required for rope_type 'llama3'",
        ),
        (  # Hunyuan's alpha stands for the factor: its refusal names alpha
            {"head_dim": 64, "rope_scaling": {"type": "dynamic", "alpha": -1.0, "factor": 1.0}},
            r"rope_scaling.alpha: must be ≥ 1, got -1",
        ),
    ],
)
def test_invalid_settings_name_the_key(config, message):
    with pytest.raises(ValueError, match=message):
        inv_freq_from_config(config)


@pytest.mark.parametrize("seq_len", [0, -5])
def test_a_sequence_length_is_checked_whatever_the_method(seq_len):
    yarn = RopeScaling(64, method="yarn", factor=4.0)  # reads no seq_len, checks it still
    with pytest.raises(ValueError, match=rf"seq_len must be in \[1, ∞\], got {seq_len}"):
        rope_scaling.scaled_inv_freq(yarn, seq_len)
    with pytest.raises(TypeError, match="seq_len must be an integer"):
        rope_scaling.scaled_inv_freq(yarn, 2.5)  # type: ignore[arg-type]


def test_with_changes_names_a_key_that_is_no_field():
    yarn = RopeScaling(64, method="yarn", factor=4.0)
    assert yarn.with_changes(factor=8.0).factor == 8.0
    with pytest.raises(TypeError, match=r"no field 'fator'; its fields: head_dim, .*factor"):
        yarn.with_changes(fator=8.0)
