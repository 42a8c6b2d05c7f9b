"""Real models' positional-encoding settings (resources/presets/models.json), validated.

Pure Python: every tab reads what it needs from a ``Preset``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from posenc_gui.choices import ROPE_KINDS, fold_name
from posenc_gui.encodings.model_config import ModelRope, read_model_config
from posenc_gui.encodings.rope_scaling import RopeScaling
from posenc_gui.files import parse_json
from posenc_gui.paths import resource_path


@dataclass(frozen=True)
class Preset:
    name: str
    kind: str  # which encoding: a preset kind some tab takes (registry.preset_kinds)
    config: Mapping[str, Any]  # Hugging Face config.json keys
    layout: str = "half"  # RoPE channel layout of the checkpoint
    sources: Mapping[str, str] | None = None

    @property
    def model(self) -> ModelRope | None:
        """The RoPE of every layer type (None for encodings without RoPE)."""
        return read_model_config(self.config) if self.kind in ROPE_KINDS else None

    @property
    def rope(self) -> RopeScaling | None:
        """The RoPE settings of the main (full-attention) layers."""
        model = self.model
        return None if model is None else model.primary

    @property
    def plain_rope(self) -> bool:
        """RoPE without scaling over the whole head (what the RoPE tab draws). GPT-NeoX's
        ``rotary_pct`` 0.25 rotates 24 of 96 channels: 12 pairs with θ_i = θ^(−2i/24), not
        48 with θ^(−2i/96)."""
        scaling = self.rope if self.kind == "rope" else None
        return (
            scaling is not None
            and scaling.method == "default"
            and scaling.rotary_dim == scaling.head_dim
        )


def _preset(entry: object, index: int, kinds: Collection[str]) -> Preset:
    where = f"presets[{index}]"
    if not isinstance(entry, Mapping):
        raise ValueError(f"{where}: must be an object")
    name, kind = entry.get("name"), entry.get("kind")
    if not isinstance(name, str) or not name:
        raise ValueError(f"{where}.name: must be a non-empty string")
    if kind not in kinds:
        raise ValueError(f"{where}.kind: must be one of {', '.join(kinds)}, got {kind!r}")
    config, sources = entry.get("config"), entry.get("sources")
    if not isinstance(config, Mapping):
        raise ValueError(f"{where}.config: must be an object")
    if not isinstance(sources, Mapping) or not sources:
        raise ValueError(f"{where}.sources: every preset must say where its values come from")
    layout = entry.get("layout", "half")
    if layout not in ("interleaved", "half"):
        raise ValueError(f"{where}.layout: must be interleaved or half, got {layout!r}")
    preset = Preset(name, str(kind), dict(config), layout, dict(sources))
    try:
        preset.rope  # noqa: B018 — validates the RoPE settings now, not when applied
    except ValueError as exc:
        raise ValueError(f"{where} ({name}): {exc}") from None
    return preset


def parse_presets(text: str, kinds: Collection[str]) -> list[Preset]:
    """Presets of the given ``kinds`` from the JSON text of a presets file; ValueError saying
    what is wrong."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"presets: not valid JSON ({exc})") from None
    if not isinstance(document, Mapping) or document.get("version") != 1:
        raise ValueError("presets: expected an object with version 1")
    entries = document.get("presets")
    if not isinstance(entries, list):
        raise ValueError("presets: 'presets' must be a list")
    return [_preset(entry, i, kinds) for i, entry in enumerate(entries)]


def load_presets(kinds: Collection[str], path: Path | None = None) -> list[Preset]:
    """The bundled presets (or those in ``path``), of the given ``kinds``."""
    path = path or resource_path("presets", "models.json")
    return parse_presets(path.read_text(encoding="utf-8"), kinds)


def find_preset(presets: Sequence[Preset], name: str) -> Preset:
    """The preset called ``name`` (case-insensitive, ``x`` for ``×``); ValueError listing them."""
    for preset in presets:
        if fold_name(preset.name) == fold_name(name):
            return preset
    names = ", ".join(preset.name for preset in presets)
    raise ValueError(f"preset must be one of: {names}; got {name!r}")


def read_config_json(data: bytes) -> tuple[Mapping[str, Any], ModelRope]:
    """A model's ``config.json`` bytes → the parsed mapping and its RoPE per layer type (with
    the keys read and those ignored).

    ValueError names what is wrong: size, encoding, JSON syntax, or the key and the reason.
    """
    config = parse_json(data, "config.json")
    return config, read_model_config(config)
