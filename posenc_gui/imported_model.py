"""The model a tab shows the layer types of: imported from a config.json or a preset, kept in
sessions by the RoPE keys of its config (Qt-free)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from posenc_gui.encodings.model_config import (
    NO_ROPE,
    LayerRope,
    ModelRope,
    read_model_config,
    rope_keys,
)
from posenc_gui.encodings.rope_scaling import RopeScaling
from posenc_gui.translatable import N_

# Layer types a config does not name get these names from model_config: shown translated
UNNAMED_TYPES = {"default": N_("RoPE layers"), NO_ROPE: N_("NoPE layers")}


def layer_type_name(layer: LayerRope) -> str:
    """The name of ``layer``'s type: the config's (``sliding_attention``), or one of
    UNNAMED_TYPES for its caller to translate."""
    return UNNAMED_TYPES.get(layer.layer_type, layer.layer_type)


class ImportedModel:
    """An imported model's ``source``, RoPE ``config`` keys and layer types (``model`` None:
    none imported)."""

    def __init__(self, tab: str) -> None:
        self.tab = tab  # names this tab in a session's error messages
        self.source = ""
        self.config: dict[str, Any] | None = None
        self.model: ModelRope | None = None

    def set_model(self, source: str, config: Mapping[str, Any]) -> None:
        """Take the layer types of ``config`` (ValueError naming the key if it is invalid)."""
        model = read_model_config(config)
        kept = rope_keys(config)
        for inner, keys in ((config, kept), (config.get("text_config"), kept.get("text_config"))):
            if isinstance(inner, Mapping) and "sliding_window" in inner and keys is not None:
                keys["sliding_window"] = inner["sliding_window"]  # shown beside sliding layers
        self.source, self.config, self.model = source, kept, model

    def _whole(self, key: str) -> int | None:
        """A whole-number key of the language model (under ``text_config`` for a wrapper)."""
        config = self.config or {}
        inner = config.get("text_config")
        value = (inner if isinstance(inner, dict) else config).get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    @property
    def sliding_window(self) -> int | None:
        """The sliding layers' window (``sliding_window``)."""
        return self._whole("sliding_window")

    @property
    def layer_count(self) -> int | None:
        """How many layers the model has (``num_hidden_layers``), where the config says."""
        count = self._whole("num_hidden_layers")
        return count if count is not None and count > 0 else None

    def layer_types_with(self, controls: RopeScaling) -> tuple[LayerRope, ...]:
        """The model's layer types, its main ones (``primary_layer``) with the RoPE the
        controls set (what the tab's other views draw); () without a model."""
        if self.model is None:
            return ()
        primary = self.model.primary_layer
        return tuple(
            LayerRope(layer.layer_type, controls, layer.layers) if layer is primary else layer
            for layer in self.model.layer_types
        )

    def clear(self) -> None:
        self.source, self.config, self.model = "", None, None

    def state(self) -> dict[str, Any] | None:
        return None if self.config is None else {"source": self.source, "config": self.config}

    def set_state(self, state: object) -> None:
        """A session's model (null or absent: none); ValueError naming what is wrong."""
        if state is None:
            self.clear()
            return
        source = state.get("source") if isinstance(state, dict) else None
        config = state.get("config") if isinstance(state, dict) else None
        if not isinstance(source, str) or not isinstance(config, dict):
            raise ValueError(f"{self.tab}: model must be an object with a source and a config")
        try:
            self.set_model(source, config)
        except ValueError as exc:
            raise ValueError(f"{self.tab}: model.config.{exc}") from None
