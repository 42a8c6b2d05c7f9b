"""Reads the RoPE keys of one language-model config (``model_config`` puts the result
together): which key gives each value, which keys have no effect, and why."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from posenc_gui.encodings._checks import MAX_DIM
from posenc_gui.encodings.rope_scaling import (
    ALIASES,
    RopeScaling,
    factor_list,
    number,
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
    "sliding_window_pattern",
    "no_rope_layers",
    "num_hidden_layers",
    "attn_config",
)
# The RoPE parameters each type reads besides rope_type/type, rope_theta and
# partial_rotary_factor (dynamic NTK takes max_position_embeddings as L0, as transformers does;
# M-RoPE's sections leave a text token's frequencies those of plain RoPE).
METHOD_KEYS = {
    "default": set(),
    "linear": {"factor"},
    "ntk": {"factor", "alpha"},  # Hunyuan's alpha: static NTK (its factor is then unused)
    "dynamic": {"factor"},
    "yarn": {
        "factor",
        "original_max_position_embeddings",
        "beta_fast",
        "beta_slow",
        "mscale",
        "mscale_all_dim",
        "attention_factor",
        "truncate",
    },
    "llama3": {"factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"},
    "longrope": {
        "factor",
        "original_max_position_embeddings",
        "short_factor",
        "long_factor",
        "attention_factor",
        "short_mscale",
        "long_mscale",
    },
    "proportional": {"factor"},
}
# M-RoPE's sections apply whatever the type (Qwen3-VL with YaRN for long context).
COMMON_KEYS = {
    "rope_type",
    "type",
    "rope_theta",
    "partial_rotary_factor",
    "mrope_section",
    "mrope_interleaved",
}
SCALING = tuple(sorted(COMMON_KEYS.union(*METHOD_KEYS.values())))  # every RoPE parameter read
KEYS = frozenset(TOP_LEVEL)
NO_ROPE = "no_rope"  # the layer type of layers without RoPE
MAX_LAYERS = 1 << 16


def language_model(config: Mapping[str, Any]) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    """The language model's keys (``text_config`` over the top level) and those of
    ``text_config`` alone (empty without one)."""
    inner = config.get("text_config")
    if inner is None:
        return config, {}
    if not isinstance(inner, Mapping):
        raise ValueError(f"text_config: must be an object, got {inner!r}")
    top = {key: value for key, value in config.items() if key in KEYS}
    return {**top, **inner}, inner


class ConfigReader:
    """Reads keys of one language-model config, keeping what was read with the value used."""

    def __init__(self, config: Mapping[str, Any], inner: Mapping[str, Any]) -> None:
        self.config, self.inner = config, inner
        self.prefix = "text_config." if inner else ""
        self.used: dict[str, Any] = {}
        self.unused: dict[str, str] = {}  # keys read but without effect, with why
        self.paths: dict[str, dict[str, str]] = {}  # per layer type: parameter → its key
        self.containers: dict[str, str] = {}  # per layer type: where its parameters are
        self.head_dim_key = "head_dim"  # what the head dimension was read from (rotary_size)

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
            self.head_dim_key = self._name(key)
        elif hidden is not None and heads is not None:
            width = self.take(hidden, whole_number(self._name(hidden), c[hidden], 1))
            count = self.take(heads, whole_number(self._name(heads), c[heads], 1))
            head_dim = width // count
            self.head_dim_key = f"{self._name(hidden)} ÷ {self._name(heads)}"  # as it came
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
        """``key`` as the file names it (under ``text_config`` if it came from there)."""
        return f"text_config.{key}" if key.split(".")[0] in self.inner else key

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
        """The RoPE parameters of each layer type (``default``: of every layer); where each
        came from is kept in ``paths``."""
        rope = self.get("rope_parameters")
        legacy = self.get("rope_scaling")
        for key, value in (("rope_parameters", rope), ("rope_scaling", legacy)):
            if value is not None and not isinstance(value, Mapping):
                raise ValueError(f"{self._name(key)}: must be an object or null, got {value!r}")
        if rope and _per_layer_type(rope):
            return {
                name: self._with_theta(name, params or {}, f"rope_parameters.{name}")
                for name, params in rope.items()
            }
        local = self.get("rope_local_base_freq")  # Gemma 3: its sliding layers' base
        name = "default" if local is None else "full_attention"
        flat = self._with_theta(
            name, rope or legacy or {}, "rope_parameters" if rope else "rope_scaling"
        )
        if local is None:
            return {"default": flat}
        self.paths["sliding_attention"] = {"rope_theta": self._name("rope_local_base_freq")}
        return {"full_attention": flat, "sliding_attention": {"rope_theta": local}}

    def _with_theta(
        self, layer_type: str, params: Mapping[str, Any], container: str
    ) -> Mapping[str, Any]:
        """``params`` with the base of their layers, noting where each value came from."""
        paths = self.paths.setdefault(layer_type, {})
        paths |= {key: self._name(f"{container}.{key}") for key in params}
        self.containers[layer_type] = self._name(f"{container}.")
        if params.get("rope_theta") is not None:
            base = params["rope_theta"]
        else:
            attn = self.get("attn_config", {})
            attn = attn if isinstance(attn, Mapping) else {}
            sources = [(self.get(k), self._name(k)) for k in ("rope_theta", "rotary_emb_base")]
            sources.append(
                (self.get("rope_theta", None, attn), self._name("attn_config.rope_theta"))
            )
            base, paths["rope_theta"] = next(
                ((value, path) for value, path in sources if value is not None),
                (10000.0, ""),  # transformers' default; no key to name
            )
        return {**{k: v for k, v in params.items() if v is not None}, "rope_theta": base}

    def layer_pattern(self) -> list[str]:
        """Each layer's type, NoPE layers as ``no_rope`` (empty if the config does not say):
        from ``layer_types``, else Gemma 3's ``sliding_window_pattern`` (every n-th layer
        full, as transformers builds it), with ``no_rope_layers`` marking NoPE layers."""
        if self.get("num_hidden_layers") is not None:  # read by the layer views even alone
            count = whole_number(
                self._name("num_hidden_layers"), self.config["num_hidden_layers"], 1, MAX_LAYERS
            )
        kinds = self.get("layer_types")
        if kinds is not None:
            if not isinstance(kinds, list) or not all(isinstance(kind, str) for kind in kinds):
                raise ValueError(f"{self._name('layer_types')}: must be a list of layer type names")
            if self.get("num_hidden_layers") is not None and len(kinds) != count:
                raise ValueError(  # as transformers: one type per layer
                    f"{self._name('layer_types')}: must name one type per layer "
                    f"(num_hidden_layers {count}), got {len(kinds)}"
                )
            self.take("layer_types", kinds)
        elif (
            self.get("sliding_window_pattern") is not None
            and self.get("num_hidden_layers") is not None
        ):
            every = whole_number(
                self._name("sliding_window_pattern"), self.config["sliding_window_pattern"], 1
            )
            self.take("sliding_window_pattern", every)
            self.take("num_hidden_layers", count)
            kinds = [
                "sliding_attention" if (i + 1) % every else "full_attention" for i in range(count)
            ]
        no_rope = self.get("no_rope_layers")
        if no_rope is not None:
            if not isinstance(no_rope, list) or not all(v in (0, 1) for v in no_rope):
                raise ValueError(f"{self._name('no_rope_layers')}: must be a list of 0 and 1")
            self.take("no_rope_layers", no_rope)
            kinds = kinds or ["default"] * len(no_rope)
            kinds = [kind if uses else NO_ROPE for kind, uses in zip(kinds, no_rope, strict=False)]
        return list(kinds or [])

    def scaling(
        self, params: Mapping[str, Any], head_dim: int, partial: float, layer_type: str
    ) -> RopeScaling:
        paths = self.paths.get(layer_type, {})
        where = self.containers.get(layer_type, self.prefix)  # for keys the config leaves out
        method = params.get("rope_type", params.get("type", "default"))
        if not isinstance(method, str):
            key = paths.get("rope_type") or paths.get("type")
            raise ValueError(f"{key}: must be a string, got {method!r}")
        method = ALIASES.get(method, method)
        factor = params.get("factor")
        if method == "dynamic" and params.get("alpha") is not None:
            # Hunyuan: a fixed alpha, base·α^(d/(d−2)): static NTK with factor α
            method, factor = "ntk", params["alpha"]
        context = self.first(CONTEXT)
        max_positions = self.take(context, self.config[context]) if context else 4096
        paths = {
            "max_position_embeddings": self._name(context or "max_position_embeddings"),
            "head_dim": self.head_dim_key,
        }
        paths |= self.paths.get(layer_type, {})
        if method == "ntk" and params.get("alpha") is not None:  # the factor is alpha's
            paths["factor"] = paths.get("alpha", f"{where}alpha")
        original = self.get(
            "original_max_position_embeddings",
            params.get("original_max_position_embeddings", max_positions),
        )
        if self.get("original_max_position_embeddings") is not None:  # a top-level L0
            paths["original_max_position_embeddings"] = self._name(
                "original_max_position_embeddings"
            )
        elif "original_max_position_embeddings" not in paths:  # L0 is the context: named so
            paths["original_max_position_embeddings"] = paths["max_position_embeddings"]
        if factor is None and method in ("yarn", "longrope"):
            factor = whole_number(
                paths["max_position_embeddings"], max_positions, 1
            ) / whole_number(
                paths.get(
                    "original_max_position_embeddings", where + "original_max_position_embeddings"
                ),
                original,
                1,
            )
        elif factor is None and method in ("linear", "dynamic", "llama3"):
            raise ValueError(f"{where}factor: required for rope_type {method!r}")
        for key in ("low_freq_factor", "high_freq_factor") if method == "llama3" else ():
            if params.get(key) is None:  # as transformers: no default for either
                raise ValueError(f"{where}{key}: required for rope_type 'llama3'")
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
                short_factor=factor_list(
                    paths.get("short_factor", ""), params.get("short_factor", [])
                ),
                long_factor=factor_list(
                    paths.get("long_factor", ""), params.get("long_factor", [])
                ),
                short_mscale=params.get("short_mscale"),
                long_mscale=params.get("long_mscale"),
            )
        except ValueError as exc:  # named by the key the value came from
            key, _, reason = str(exc).partition(":")
            raise ValueError(f"{paths.get(key) or self._name(key)}:{reason}") from None
        reads = METHOD_KEYS[method] | COMMON_KEYS
        if params.get("alpha") is not None and method == "ntk":
            reads = reads - {"factor"}  # Hunyuan's alpha replaces the factor
        for key in SCALING:
            path, value = paths.get(key), params.get(key)
            if key == "original_max_position_embeddings" and self.get(key) is not None:
                value = original
            if value is not None and path:
                if key in reads:
                    self.used[path] = value
                else:
                    self.unused[path] = f"rope_type {method} does not use it"
        return scaling

    def ignored(self, config: Mapping[str, Any]) -> dict[str, str]:
        """Every key of ``config`` not read, with why."""
        why: dict[str, str] = dict(self.unused)
        inner = config.get("text_config")
        for key, value in config.items():
            if key == "text_config":
                continue
            if key not in KEYS:
                why[key] = _not_rope(value)
            elif isinstance(inner, Mapping) and inner.get(key) is not None:
                why[key] = f"text_config.{key} is read instead (the language model's own)"
        if self.prefix:
            why |= {
                f"{self.prefix}{k}": _not_rope(v) for k, v in self.config.items() if k not in KEYS
            }
        structures = ("rope_parameters", "rope_scaling", "attn_config", "per_layer_config")
        for key in KEYS.difference(structures):
            name = self._name(key)
            if self.get(key) is not None and name not in self.used and name not in why:
                why[name] = "not needed: other keys decide this model's RoPE"
        for key in ("rope_parameters", "rope_scaling"):
            params = self.get(key)
            if isinstance(params, Mapping):
                groups = params.items() if _per_layer_type(params) else [("", params)]
                for group_name, group in groups:
                    if not isinstance(group, Mapping):
                        continue
                    where = self._name(f"{key}.{group_name + '.' if group_name else ''}")
                    why |= {
                        f"{where}{name}": "not a RoPE parameter transformers reads"
                        for name in group
                        if name not in SCALING
                    }
        return why


def _not_rope(value: object) -> str:
    """Why a key outside ``KEYS`` is not read."""
    if isinstance(value, Mapping):
        return "another part of the model (RoPE is read from the language model)"
    return "not a RoPE setting"


def _per_layer_type(params: Mapping[str, Any]) -> bool:
    """Whether RoPE parameters are one dict per layer type (v5) rather than one flat dict."""
    return bool(params) and all(isinstance(value, Mapping | None) for value in params.values())
