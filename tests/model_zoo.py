"""Every model family of the installed transformers whose modeling file defines a rotary
embedding class, with its default config: what its own rotary module computes."""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import typing
from collections.abc import Iterator
from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class Family:
    name: str  # the transformers.models package
    rotary: type  # its rotary embedding class (takes a config)
    config_class: type


def families() -> Iterator[Family]:
    """Each family's text rotary classes that are built from a config (vision rotaries built
    from a dimension and θ are not config-driven)."""
    import transformers.models

    for info in pkgutil.iter_modules(transformers.models.__path__):
        try:
            module = importlib.import_module(
                f"transformers.models.{info.name}.modeling_{info.name}"
            )
        except Exception:
            continue
        for name, cls in vars(module).items():
            if not (
                inspect.isclass(cls)
                and name.endswith("RotaryEmbedding")
                and cls.__module__ == module.__name__
            ):
                continue
            parameters = inspect.signature(cls.__init__).parameters
            if "config" not in parameters:
                continue
            try:
                hints = typing.get_type_hints(cls.__init__)
            except Exception:
                hints = {}
            config_class = hints.get("config")
            if inspect.isclass(config_class):
                yield Family(info.name, cls, config_class)


def reference(family: Family, config) -> dict[str, tuple[torch.Tensor, float]]:
    """``{layer type or "default": (inv_freq, attention scaling)}`` from the family's module."""
    rotary = family.rotary(config)
    found = {}
    for key, buffer in rotary.named_buffers():
        if key == "inv_freq":
            found["default"] = (buffer, float(getattr(rotary, "attention_scaling", 1.0)))
        elif key.endswith("_inv_freq") and not key.endswith("original_inv_freq"):
            layer_type = key[: -len("_inv_freq")]
            found[layer_type] = (buffer, float(getattr(rotary, f"{layer_type}_attention_scaling")))
    return found


def config_json(config) -> dict:
    """The config as its config.json would hold it."""
    return json.loads(config.to_json_string(use_diff=False))


# Families whose rotary module this app does not (yet) reproduce from config.json, and why.
UNSUPPORTED = {
    "efficientloftr": "2-D RoPE of an image matcher (not a language model's config.json)",
    "eomt_dinov3": "2-D RoPE of a vision transformer",
    "mlcd": "2-D axial RoPE of a vision encoder",
    "ernie4_5_vl_moe": "3-D multimodal RoPE with its own frequency order (see M-RoPE)",
    "musicflamingo": "the rotary module is the audio encoder's, not the language model's",
    "minimax_m3_vl": "writes rotary_dim 64 yet rotates the whole 128 head (MiniMax-M2 reads "
    "rotary_dim as the rotary size, as this app does)",
    "cohere_compass": "its default config cannot build its own rotary module",
    "blt": "its rotary modules take the encoder, global and decoder sub-configs, not text_config",
    "nemotron3_diarization": "its default config cannot build its own rotary module",
    "pi05": "the rotary module is the action expert's (dit_config), not the language model's",
}
# Default configs whose hidden_size / num_attention_heads × partial_rotary_factor is odd (21,
# 73): no released checkpoint has that; they are checked at the head_dim their releases use.
RELEASED_HEAD_DIM = {"glm4_moe": 128, "glm4v_moe": 128, "qwen3_omni_moe": 128}
