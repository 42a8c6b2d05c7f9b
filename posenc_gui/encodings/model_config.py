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

from posenc_gui.encodings._checks import MAX_DIM
from posenc_gui.encodings.rope_scaling import (
    ALIASES,
    RopeScaling,
    attention_factor,
    factor_list,
    number,
    scaled_inv_freq,
    whole_number,
)

# Other names families give the head size, width, head count and context (their configs'
# ``attribute_map`` in transformers), in the order they are tried.
HEAD_DIM = ("head_dim", "qk_rope_head_dim", "attention_head_dim", "kv_channels")
HIDDEN = ("hidden_size", "n_embd", "d_model")
HEADS = ("num_attention_heads", "n_head", "n_heads", "decoder_num_attention_heads")
CONTEXT = ("max_position_embeddings", "n_positions", "max_seq_len", "model_max_length")
TOP_LEVEL = (
    *HEAD_DIM,
    *HIDDEN,
    *HEADS,
    *CONTEXT[1:],
    "global_head_dim",
    "per_layer_config",
    "rotary_dim",
    "rope_theta",
    "rotary_emb_base",
    "rope_local_base_freq",
    "partial_rotary_factor",
    "rotary_pct",
    "max_position_embeddings",
    "original_max_position_embeddings",
    "rope_scaling",
    "rope_parameters",
    "layer_types",
    "no_rope_layers",
    "num_hidden_layers",
    "attn_config",
)
SCALING = (
    "rope_type",
    "type",
    "rope_theta",
    "factor",
    "original_max_position_embeddings",
    "partial_rotary_factor",
    "beta_fast",
    "beta_slow",
    "mscale",
    "mscale_all_dim",
    "attention_factor",
    "truncate",
    "low_freq_factor",
    "high_freq_factor",
    "short_factor",
    "long_factor",
    "short_mscale",
    "long_mscale",
    "alpha",
)
KEYS = frozenset(TOP_LEVEL)
NO_ROPE = "no_rope"  # the layer type of layers without RoPE


@dataclass(frozen=True)
class LayerRope:
    """The RoPE of one layer type; ``scaling`` None for layers without RoPE (NoPE)."""

    layer_type: str
    scaling: RopeScaling | None
    layers: tuple[int, ...] = ()  # the layers of this type (empty when the config lists none)


@dataclass(frozen=True)
class ModelRope:
    """Every layer type's RoPE, the keys read with the values used, and the keys ignored."""

    layer_types: tuple[LayerRope, ...]
    used: tuple[tuple[str, Any], ...]
    ignored: tuple[str, ...]

    @property
    def primary(self) -> RopeScaling:
        """The full-attention layers' RoPE (else the first layer type that has RoPE)."""
        with_rope = [layer for layer in self.layer_types if layer.scaling is not None]
        for layer in with_rope:
            if layer.layer_type == "full_attention":
                return layer.scaling  # type: ignore[return-value]
        return with_rope[0].scaling  # type: ignore[return-value]


def read_model_config(config: object) -> ModelRope:
    """Read a ``config.json`` mapping; ValueError naming the key and the reason if invalid."""
    if not isinstance(config, Mapping):
        raise ValueError(f"config: must be a JSON object, got {type(config).__name__}")
    text, prefix = _language_model(config)
    reader = _Reader(text, prefix)
    head_dim, partial = reader.rotary_size()
    per_type = reader.parameters_by_type()
    layer_types = reader.layer_types(per_type)
    if set(per_type) - {"default"} and not set(per_type) & set(layer_types):
        layer_types = list(per_type)  # parameter sets not named after layers (DeepSeek-V4)
    layers: list[LayerRope] = []
    for name in dict.fromkeys(layer_types or ["default"]):
        where = [index for index, kind in enumerate(layer_types) if kind == name]
        if name == NO_ROPE:
            layers.append(LayerRope(NO_ROPE, None, tuple(where)))
            continue
        params = per_type.get(name, per_type.get("default"))
        if params is None:  # a layer type with no RoPE parameters (convolution, linear attention)
            layers.append(LayerRope(name, None, tuple(where)))
            continue
        own_dim = reader.layer_head_dim(name, where) or head_dim
        scaling = reader.scaling(params, own_dim, partial, name if len(per_type) > 1 else None)
        layers.append(LayerRope(name, scaling, tuple(where)))
    if all(layer.scaling is None for layer in layers):
        raise ValueError(f"{prefix}no_rope_layers: no layer uses RoPE")
    return ModelRope(
        tuple(layers), tuple(reader.used.items()), tuple(sorted(reader.ignored(config)))
    )


def inv_freq_from_config(
    config: Mapping[str, object], *, seq_len: int | None = None
) -> tuple[torch.Tensor, float]:
    """``(inv_freq as float64, attention_factor)`` of the model's main (full-attention) layers,
    equal to what its rotary module in transformers computes. ValueError naming the key."""
    scaling = read_model_config(config).primary
    return scaled_inv_freq(scaling, seq_len), attention_factor(scaling, seq_len)


def _language_model(config: Mapping[str, Any]) -> tuple[Mapping[str, Any], str]:
    """The language model's keys and how to name them: ``text_config`` over the top level."""
    inner = config.get("text_config")
    if inner is None:
        return config, ""
    if not isinstance(inner, Mapping):
        raise ValueError(f"text_config: must be an object, got {inner!r}")
    top = {key: value for key, value in config.items() if key in KEYS}
    return {**top, **inner}, "text_config."


class _Reader:
    """Reads keys of one language-model config, keeping what was read with the value used."""

    def __init__(self, config: Mapping[str, Any], prefix: str) -> None:
        self.config, self.prefix = config, prefix
        self.used: dict[str, Any] = {}

    def get(self, key: str, default: Any = None, where: Mapping[str, Any] | None = None) -> Any:
        """``key`` of ``where`` (default: the config), null read as absent."""
        source = self.config if where is None else where
        value = source.get(key)
        return default if value is None else value

    def take(self, name: str, value: Any) -> Any:
        """``value``, noted as what ``name`` was read as."""
        self.used[self._name(name)] = value
        return value

    def first(self, keys: tuple[str, ...]) -> str | None:
        """The first of ``keys`` the config sets."""
        return next((key for key in keys if self.get(key) is not None), None)

    def rotary_size(self) -> tuple[int, float]:
        """``(head_dim, partial_rotary_factor)``: the dimension the rotary module uses (MLA's
        ``qk_rope_head_dim`` where a legacy file has no ``head_dim``)."""
        c = self.config
        key, hidden, heads = self.first(HEAD_DIM), self.first(HIDDEN), self.first(HEADS)
        if key is not None:
            head_dim = self.take(key, whole_number(self._name(key), c[key], 2, MAX_DIM))
        elif hidden is not None and heads is not None:
            width = self.take(hidden, whole_number(self._name(hidden), c[hidden], 1))
            count = self.take(heads, whole_number(self._name(heads), c[heads], 1))
            head_dim = width // count
        else:
            raise ValueError(
                f"{self.prefix}head_dim: missing (give head_dim, or hidden_size and "
                "num_attention_heads)"
            )
        partial = 1.0
        for key in ("partial_rotary_factor", "rotary_pct"):
            if self.get(key) is not None:
                partial = self.take(key, number(self._name(key), c[key]))
                break
        if self.get("rotary_dim") is not None and self.get("partial_rotary_factor") is None:
            rotary = whole_number(self._name("rotary_dim"), c["rotary_dim"], 2, head_dim)
            partial = self.take("rotary_dim", rotary) / head_dim
        return head_dim, partial

    def _name(self, key: str) -> str:
        return f"{self.prefix}{key}"

    def layer_head_dim(self, layer_type: str, layers: list[int]) -> int | None:
        """A head size of its own for ``layer_type``: Gemma 4's ``global_head_dim`` of its
        full-attention layers, or ``per_layer_config`` overrides (keyed by layer index)."""
        overrides = self.get("per_layer_config")
        if isinstance(overrides, Mapping) and layers:
            for key, values in overrides.items():
                own = isinstance(values, Mapping) and str(key).isdigit() and int(key) == layers[0]
                if own and values.get("head_dim") is not None:
                    name = f"per_layer_config.{key}.head_dim"
                    return self.take(name, whole_number(name, values["head_dim"], 2, MAX_DIM))
        if layer_type == "full_attention" and self.get("global_head_dim") is not None:
            value = whole_number(self._name("global_head_dim"), self.config["global_head_dim"], 2)
            return self.take("global_head_dim", value)
        return None

    def parameters_by_type(self) -> dict[str, Mapping[str, Any]]:
        """The RoPE parameters of each layer type (``default``: of every layer)."""
        rope = self.get("rope_parameters")
        legacy = self.get("rope_scaling")
        for key, value in (("rope_parameters", rope), ("rope_scaling", legacy)):
            if value is not None and not isinstance(value, Mapping):
                raise ValueError(f"{self._name(key)}: must be an object or null, got {value!r}")
        if rope and _per_layer_type(rope):
            return {name: self._with_theta(params or {}) for name, params in rope.items()}
        flat = self._with_theta(rope or legacy or {})
        local = self.get("rope_local_base_freq")  # Gemma 3: its sliding layers' base
        if local is not None:
            self.take("rope_local_base_freq", local)
            return {"full_attention": flat, "sliding_attention": {"rope_theta": local}}
        return {"default": flat}

    def _with_theta(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        attn = self.get("attn_config", {})
        attn = attn if isinstance(attn, Mapping) else {}
        base = self.get(
            "rope_theta", self.get("rotary_emb_base", self.get("rope_theta", 10000.0, attn))
        )
        return {"rope_theta": base, **{k: v for k, v in params.items() if v is not None}}

    def layer_types(self, per_type: Mapping[str, object]) -> list[str]:
        """Each layer's type, NoPE layers as ``no_rope`` (empty if the config does not say)."""
        kinds = self.get("layer_types")
        if kinds is not None and (
            not isinstance(kinds, list) or not all(isinstance(kind, str) for kind in kinds)
        ):
            raise ValueError(f"{self._name('layer_types')}: must be a list of layer type names")
        no_rope = self.get("no_rope_layers")
        if no_rope is not None:
            if not isinstance(no_rope, list) or not all(v in (0, 1) for v in no_rope):
                raise ValueError(f"{self._name('no_rope_layers')}: must be a list of 0 and 1")
            self.take("no_rope_layers", no_rope)
            kinds = kinds or ["default"] * len(no_rope)
            kinds = [kind if uses else NO_ROPE for kind, uses in zip(kinds, no_rope, strict=False)]
        if kinds is None:
            return [name for name in per_type if name != "default"]
        return list(kinds)

    def scaling(
        self, params: Mapping[str, Any], head_dim: int, partial: float, layer_type: str | None
    ) -> RopeScaling:
        where = f"{self.prefix}rope_parameters.{layer_type}." if layer_type else self.prefix
        method = params.get("rope_type", params.get("type", "default"))
        if not isinstance(method, str):
            raise ValueError(f"{where}rope_type: must be a string, got {method!r}")
        method = ALIASES.get(method, method)
        factor = params.get("factor")
        if method == "dynamic" and params.get("alpha") is not None:
            # Hunyuan: a fixed alpha, base·α^(d/(d−2)): static NTK with factor α
            method, factor = "ntk", params["alpha"]
        context = self.first(CONTEXT)
        max_positions = self.take(context, self.config[context]) if context else 4096
        original = self.get(
            "original_max_position_embeddings",
            params.get("original_max_position_embeddings", max_positions),
        )
        if factor is None and method in ("yarn", "longrope"):
            factor = whole_number(
                f"{where}max_position_embeddings", max_positions, 1
            ) / whole_number(f"{where}original_max_position_embeddings", original, 1)
        elif factor is None and method in ("linear", "dynamic", "llama3"):
            raise ValueError(f"{where}factor: required for rope_type {method!r}")
        try:
            scaling = RopeScaling(
                head_dim=head_dim,
                base=params["rope_theta"],
                method=method,
                factor=1.0 if factor is None else factor,
                original_context=original,
                max_position_embeddings=max_positions,
                partial_rotary_factor=params.get("partial_rotary_factor", partial),
                beta_fast=params.get("beta_fast", 32.0),
                beta_slow=params.get("beta_slow", 1.0),
                mscale=params.get("mscale"),
                mscale_all_dim=params.get("mscale_all_dim"),
                attention_factor=params.get("attention_factor"),
                truncate=params.get("truncate", True),
                low_freq_factor=params.get("low_freq_factor", 1.0),
                high_freq_factor=params.get("high_freq_factor", 4.0),
                short_factor=factor_list(f"{where}short_factor", params.get("short_factor", [])),
                long_factor=factor_list(f"{where}long_factor", params.get("long_factor", [])),
                short_mscale=params.get("short_mscale"),
                long_mscale=params.get("long_mscale"),
            )
        except ValueError as exc:
            raise ValueError(f"{where}{exc}") from None
        for key in SCALING:
            if params.get(key) is not None:
                self.take(f"{where[len(self.prefix) :]}{key}" if layer_type else key, params[key])
        return scaling

    def ignored(self, config: Mapping[str, Any]) -> list[str]:
        names = [key for key in config if key not in KEYS and key != "text_config"]
        names += [f"{self.prefix}{key}" for key in self.config if key not in KEYS and self.prefix]
        for key in ("rope_parameters", "rope_scaling"):
            params = self.get(key)
            if isinstance(params, Mapping):
                groups = params.values() if _per_layer_type(params) else [params]
                names += [
                    f"{self.prefix}{key}.{name}"
                    for group in groups
                    if isinstance(group, Mapping)
                    for name in group
                    if name not in SCALING
                ]
        return sorted(set(names))


def _per_layer_type(params: Mapping[str, Any]) -> bool:
    """Whether RoPE parameters are one dict per layer type (v5) rather than one flat dict."""
    return bool(params) and all(isinstance(value, Mapping | None) for value in params.values())
