"""Bundled presets load and validate; preset and config.json files are checked before use."""

from __future__ import annotations

import json

import pytest

from posenc_gui import registry
from posenc_gui.encodings import rope_scaling
from posenc_gui.presets import load_presets, parse_presets, read_config_json

KINDS = registry.preset_kinds()

EXPECTED = [
    "Transformer base (2017)",
    "LLaMA-2-7B",
    "Llama-3-8B",
    "Llama-3.1-8B",
    "Llama-3.2-1B",
    "Mistral-7B v0.1",
    "Mistral-7B v0.3",
    "Qwen2.5-7B-Instruct",
    "Qwen2.5-7B-Instruct + YaRN ×4",
    "Phi-3.5-mini (LongRoPE; Phi-3-mini-128k layout)",
    "Phi-4-mini (LongRoPE, partial 0.75)",
    "GPT-NeoX-20B",
    "Gemma-7B",
    "DeepSeek-V3 (YaRN ×40)",
    "Qwen3-8B",
    "Qwen2-VL-7B (M-RoPE sections 16/24/24)",
    "Qwen2.5-VL-7B (M-RoPE sections 16/24/24)",
    "Qwen3-VL-8B (M-RoPE interleaved 24/20/20)",
    "Pixtral-12B vision encoder (2-D axial, 64 × 64 patches)",
    "Ministral-8B (θ 1e8)",
    "Gemma-3-27B (local θ 1e4, global θ 1e6 ×8)",
    "Llama-4-Scout (hard step ×16, NoPE layers)",
    "gpt-oss-20b (YaRN ×32)",
    "T5-base",
    "BLOOM-176B",
]


def test_every_bundled_preset_loads_validates_and_has_sources():
    presets = load_presets(KINDS)
    assert [p.name for p in presets] == EXPECTED
    for preset in presets:
        assert preset.kind in KINDS
        assert preset.sources and all(isinstance(v, str) and v for v in preset.sources.values())
        if preset.kind == "rope":
            assert preset.rope.rotary_dim >= 2


@pytest.mark.parametrize(
    ("name", "facts"),
    [
        ("LLaMA-2-7B", {"head_dim": 128, "base": 10000.0, "method": "default"}),
        ("Llama-3-8B", {"head_dim": 128, "base": 500000.0, "max_position_embeddings": 8192}),
        ("Llama-3.1-8B", {"method": "llama3", "factor": 8.0, "original_context": 8192}),
        ("Llama-3.2-1B", {"head_dim": 64, "method": "llama3", "factor": 32.0}),
        ("Mistral-7B v0.3", {"base": 1e6, "max_position_embeddings": 32768}),
        (
            "Qwen2.5-7B-Instruct + YaRN ×4",
            {"method": "yarn", "factor": 4.0, "original_context": 32768},
        ),
        (
            "Phi-3.5-mini (LongRoPE; Phi-3-mini-128k layout)",
            {"head_dim": 96, "method": "longrope", "factor": 32.0, "original_context": 4096},
        ),
        (
            "Phi-4-mini (LongRoPE, partial 0.75)",
            {"head_dim": 128, "rotary_dim": 96, "method": "longrope", "factor": 32.0},
        ),
        ("GPT-NeoX-20B", {"head_dim": 96, "rotary_dim": 24}),
        ("Qwen2-VL-7B (M-RoPE sections 16/24/24)", {"head_dim": 128, "base": 1e6}),
        ("Qwen3-VL-8B (M-RoPE interleaved 24/20/20)", {"head_dim": 128, "base": 5e6}),
        ("Pixtral-12B vision encoder (2-D axial, 64 × 64 patches)", {"head_dim": 64, "base": 1e4}),
        ("Gemma-7B", {"head_dim": 256}),
        ("Qwen3-8B", {"head_dim": 128, "base": 1e6, "max_position_embeddings": 40960}),
        (
            "Qwen2.5-VL-7B (M-RoPE sections 16/24/24)",
            {"head_dim": 128, "base": 1e6, "method": "default", "max_position_embeddings": 128000},
        ),
        ("Ministral-8B (θ 1e8)", {"base": 1e8}),
        ("Gemma-3-27B (local θ 1e4, global θ 1e6 ×8)", {"base": 1e6, "method": "linear"}),
        (
            "Llama-4-Scout (hard step ×16, NoPE layers)",
            {"method": "llama3", "factor": 16.0, "low_freq_factor": 1.0, "high_freq_factor": 1.0},
        ),
        ("gpt-oss-20b (YaRN ×32)", {"head_dim": 64, "factor": 32.0, "truncate": False}),
        (
            "DeepSeek-V3 (YaRN ×40)",
            {
                "head_dim": 64,
                "method": "yarn",
                "factor": 40,
                "original_context": 4096,
                "mscale": 1.0,
            },
        ),
    ],
)
def test_rope_presets_hold_the_published_values(name, facts):
    scaling = next(p for p in load_presets(KINDS) if p.name == name).rope
    for key, value in facts.items():
        assert getattr(scaling, key) == value, key


def test_preset_attention_factors():
    by_name = {p.name: p.rope for p in load_presets(KINDS) if p.rope}
    assert rope_scaling.attention_factor(by_name["Qwen2.5-7B-Instruct + YaRN ×4"]) == pytest.approx(
        1.1386, abs=1e-4
    )
    assert rope_scaling.attention_factor(by_name["DeepSeek-V3 (YaRN ×40)"]) == 1.0  # mscale ratio


GOOD = {"name": "x", "kind": "rope", "config": {"head_dim": 64}, "sources": {"config": "here"}}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"version": 1, "presets": [', "not valid JSON"),
        ('{"version": 2, "presets": []}', "version 1"),
        ('{"version": 1, "presets": {}}', "'presets' must be a list"),
        (json.dumps({"version": 1, "presets": [GOOD | {"kind": "magic"}]}), "kind: must be one of"),
        (json.dumps({"version": 1, "presets": [GOOD | {"sources": {}}]}), "say where its values"),
        (
            json.dumps({"version": 1, "presets": [GOOD | {"config": {"head_dim": 7}}]}),
            r"head_dim: must be even \(RoPE rotates pairs of channels\), got 7",
        ),
        (json.dumps({"version": 1, "presets": [GOOD | {"layout": "diagonal"}]}), "layout"),
        (json.dumps({"version": 1, "presets": [GOOD | {"name": ""}]}), "name"),
    ],
)
def test_bad_preset_files_are_refused_with_the_reason(text, message):
    with pytest.raises(ValueError, match=message):
        parse_presets(text, KINDS)


def test_read_config_json_good_and_bad():
    good = json.dumps(
        {"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 5e5, "vocab_size": 128256}
    ).encode()
    config, model = read_config_json(good)
    scaling = model.primary
    assert config["vocab_size"] == 128256 and scaling.head_dim == 128
    assert model.ignored == (("vocab_size", "not a RoPE setting"),)
    assert read_config_json(b"\xef\xbb\xbf" + good)[1] == model  # a UTF-8 byte-order mark
    for data, message in (
        (good[:-5], "not valid JSON"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b" " * 2_000_000, "too large"),
        (b"[1, 2]", "must be a JSON object"),
        (b'{"head_dim": 64.5}', "head_dim: must be an integer"),
    ):
        with pytest.raises(ValueError, match=message):
            read_config_json(data)
