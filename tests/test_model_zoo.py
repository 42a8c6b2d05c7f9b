"""The model zoo: every RoPE family of the installed transformers, its config.json imported
through the app's own reader, against that family's own rotary module (inv_freq per layer
type and the attention factor, rtol 1e-6)."""

from __future__ import annotations

import json
import warnings

import pytest
import torch

from posenc_gui.encodings.model_config import read_model_config
from posenc_gui.encodings.rope_scaling import attention_factor, scaled_inv_freq
from posenc_gui.presets import read_config_json
from tests.model_zoo import RELEASED_HEAD_DIM, UNSUPPORTED, config_json, families, reference

pytestmark = pytest.mark.slow

# What released checkpoints put on top of their family's defaults (Llama 3.1, Qwen2.5 YaRN,
# Code Llama-style position interpolation).
VARIANTS = {
    "default": None,
    "linear": {"rope_type": "linear", "factor": 8.0},
    "yarn": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 2048},
    "llama3": {
        "rope_type": "llama3",
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 2048,
    },
}


def _config(family, scaling):
    config = family.config_class()
    try:
        family.rotary(config)
    except (AttributeError, ValueError):  # a wrapper: its rotary takes the language model's
        config = config.get_text_config()
    if family.name in RELEASED_HEAD_DIM:
        config.head_dim = RELEASED_HEAD_DIM[family.name]
    if scaling is not None:
        flat = getattr(config, "rope_parameters", None)
        if not isinstance(flat, dict) or any(isinstance(v, dict) for v in flat.values()):
            return None  # no scaling in this family, or per layer type: the default covers it
        config.rope_parameters = {**flat, **scaling}
        try:
            family.rotary(config)
        except Exception:
            return None
    return config


def _mismatch(family, config) -> str:
    """What differs between the family's rotary module and the app's import ("": nothing)."""
    expected = reference(family, config)
    data = json.dumps(config_json(config)).encode()
    model = read_config_json(data)[1]
    assert model == read_model_config(config_json(config))
    ours = {layer.layer_type: layer for layer in model.layer_types}
    if "default" in expected:  # one rotary for every layer that has RoPE
        pairs = [("default", *expected["default"], layer) for layer in ours.values()]
        pairs = [pair for pair in pairs if pair[3].scaling is not None]
    else:
        pairs = [(name, *values, ours.get(name)) for name, values in expected.items()]
    for name, inv_freq, attention, layer in pairs:
        if layer is None or layer.scaling is None:
            return f"{name}: no such layer type read (read {sorted(ours)})"
        mine = scaled_inv_freq(layer.scaling)
        if mine.shape != inv_freq.shape:
            return f"{name}: {mine.numel()} frequencies, expected {inv_freq.numel()}"
        if not torch.allclose(mine, inv_freq.double(), rtol=1e-6, atol=0):
            worst = (mine / inv_freq.double() - 1).abs().max()
            return f"{name}: inv_freq differs by up to {worst:.1e}"
        if attention_factor(layer.scaling) == pytest.approx(attention, rel=1e-6):
            continue
        return f"{name}: attention factor {attention_factor(layer.scaling)} != {attention}"
    return ""


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_rope_family_imports_as_its_own_rotary_module_computes(variant):
    checked, failures = 0, {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for family in families():
            if "Vision" in family.rotary.__name__ or "ViT" in family.rotary.__name__:
                continue  # 2-D RoPE of image encoders: not part of a language model's import
            key = f"{family.name}.{family.rotary.__name__}"
            try:
                config = _config(family, VARIANTS[variant])
                if config is None:
                    continue
                problem = _mismatch(family, config)
            except Exception as exc:
                problem = f"{type(exc).__name__}: {exc}"
            checked += 1
            if problem:
                failures[family.name] = [*failures.get(family.name, []), f"{key}: {problem}"]
    unexpected = {name: found for name, found in failures.items() if name not in UNSUPPORTED}
    assert not unexpected, json.dumps(unexpected, indent=1)
    assert checked > 150  # the discovery found the families (190 in transformers 5.25)
    if variant == "default":
        assert set(failures) == set(UNSUPPORTED), "a family listed as unsupported now works"
