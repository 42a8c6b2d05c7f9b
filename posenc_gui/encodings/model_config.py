"""A released model's ``config.json`` → its RoPE per layer type, as the model's own rotary
module in transformers reads it.

Layouts read (the keys of ``KEYS``):

- the language model's keys at the top, or under ``text_config`` (multimodal wrappers: Qwen2-VL,
  Gemma 3, Llama 4, Mistral 3…; a flat legacy file's top-level keys fill what it leaves out);
- transformers v5 ``rope_parameters``, flat or one dict per layer type (``full_attention``,
  ``sliding_attention``), or legacy ``rope_theta`` + ``rope_scaling`` (``type`` or ``rope_type``)
  with Gemma 3's ``rope_local_base_freq`` for its sliding layers;
- the rotary size from ``qk_rope_head_dim`` (MLA: DeepSeek-V2/V3), ``head_dim``, ``rotary_dim``
  (MiniMax-M2, GPT-J, CodeGen), ``hidden_size``/``num_attention_heads`` or ``n_embd``/``n_head``,
  with ``partial_rotary_factor`` or ``rotary_pct``;
- family keys: ``rotary_emb_base`` (GPT-NeoX), ``attn_config.rope_theta`` (DBRX), ``alpha``
  (Hunyuan's NTK: base · α^(d/(d−2))), ``short_mscale``/``long_mscale`` (PhiMoE), ``layer_types``
  and ``no_rope_layers`` (NoPE layers: Llama 4, SmolLM3).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import torch

from posenc_gui.encodings._config_reader import KEYS, NO_ROPE, ConfigReader, language_model
from posenc_gui.encodings.rope_scaling import RopeScaling, attention_factor, scaled_inv_freq

__all__ = [
    "KEYS",
    "NO_ROPE",
    "LayerRope",
    "ModelRope",
    "inv_freq_from_config",
    "read_model_config",
    "rope_keys",
]


@dataclass(frozen=True)
class LayerRope:
    """The RoPE of one layer type; ``scaling`` None for layers without RoPE (NoPE)."""

    layer_type: str
    scaling: RopeScaling | None
    layers: tuple[int, ...] = ()  # the layers of this type (empty when the config lists none)


@dataclass(frozen=True)
class ModelRope:
    """Every layer type's RoPE, the keys read with the values used, and the keys ignored with
    why (both sorted by key)."""

    layer_types: tuple[LayerRope, ...]
    used: tuple[tuple[str, Any], ...]
    ignored: tuple[tuple[str, str], ...]

    @property
    def primary_layer(self) -> LayerRope:
        """The full-attention layers (else the first layer type that has RoPE)."""
        with_rope = [layer for layer in self.layer_types if layer.scaling is not None]
        full = [layer for layer in with_rope if layer.layer_type == "full_attention"]
        return (full or with_rope)[0]

    @property
    def paths(self) -> dict[str, str]:
        """Each key read as the file names it, by its last part: ``factor`` →
        ``rope_scaling.factor`` (or ``text_config.rope_scaling.factor``)."""
        return {path.rsplit(".", 1)[-1]: path for path, _ in self.used}

    @property
    def primary(self) -> RopeScaling:
        """The RoPE of ``primary_layer``."""
        return self.primary_layer.scaling  # type: ignore[return-value]


def rope_keys(config: Mapping[str, Any]) -> dict[str, Any]:
    """The part of ``config`` that ``read_model_config`` reads (the same layer types come out
    of it): what a session keeps of an imported model."""
    kept = {key: value for key, value in config.items() if key in KEYS}
    inner = config.get("text_config")
    if isinstance(inner, Mapping):
        kept["text_config"] = {key: value for key, value in inner.items() if key in KEYS}
    return kept


def read_model_config(config: object) -> ModelRope:
    """Read a ``config.json`` mapping; ValueError naming the key and the reason if invalid."""
    if not isinstance(config, Mapping):
        raise ValueError(f"config: must be a JSON object, got {type(config).__name__}")
    text, inner = language_model(config)
    reader = ConfigReader(text, inner)
    head_dim, partial = reader.rotary_size()
    per_type = reader.parameters_by_type()
    pattern = reader.layer_pattern()
    names = list(dict.fromkeys(pattern))
    named_sets = [name for name in per_type if name != "default"]
    if named_sets and not set(named_sets) & set(names):
        names = named_sets  # parameter sets not named after layers (DeepSeek-V4)
    layers: list[LayerRope] = []
    for name in names or ["default"]:
        where = [index for index, kind in enumerate(pattern) if kind == name]
        if name == NO_ROPE:
            layers.append(LayerRope(NO_ROPE, None, tuple(where)))
            continue
        params = per_type.get(name, per_type.get("default"))
        if params is None:  # a layer type with no RoPE parameters (convolution, linear attention)
            layers.append(LayerRope(name, None, tuple(where)))
            continue
        own_dim = reader.layer_head_dim(name, where) or head_dim
        scaling = reader.scaling(params, own_dim, partial, name if name in per_type else "default")
        layers.append(LayerRope(name, scaling, tuple(where)))
    if all(layer.scaling is None for layer in layers):
        raise ValueError(f"{reader.prefix}no_rope_layers: no layer uses RoPE")
    return ModelRope(
        tuple(layers),
        tuple(sorted(reader.used.items())),
        tuple(sorted(reader.ignored(config).items())),
    )


def inv_freq_from_config(
    config: Mapping[str, object], *, seq_len: int | None = None
) -> tuple[torch.Tensor, float]:
    """``(inv_freq as float64, attention_factor)`` of the model's main (full-attention) layers,
    equal to what its rotary module in transformers computes. ValueError naming the key."""
    scaling = read_model_config(config).primary
    return scaled_inv_freq(scaling, seq_len), attention_factor(scaling, seq_len)
