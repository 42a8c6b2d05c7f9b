"""The extension tab's layer-types page: every layer type of an imported model side by side,
and its layer pattern."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from posenc_gui.encodings.model_config import (
    LayerRope,
    ModelRope,
    read_model_config,
    rope_keys,
)
from posenc_gui.encodings.rope_scaling import RopeScaling
from posenc_gui.i18n import tr
from posenc_gui.tabs.extension.compute import ExtensionFrame
from posenc_gui.views import Curve, CurvesView
from posenc_gui.views.style import current_look, set_title


def describe(layer: LayerRope, *, edited: bool, dims: bool) -> str:
    """``sliding_attention: θ 10,000, default · 52 layers`` (``edited``: the controls set it;
    ``dims``: say the rotary dim, where layer types differ in it)."""
    s = layer.scaling
    count = tr("{0} layers").format(len(layer.layers)) if layer.layers else tr("layers not listed")
    if s is None:
        return f"{layer.layer_type}: {tr('no RoPE')} · {count}"
    scaled = f" ×{s.factor:g}" if s.method != "default" else ""
    dim = f", d {s.rotary_dim}" if dims else ""
    own = tr(" (the controls)") if edited else ""
    return f"{layer.layer_type}: θ {s.base:,.6g}, {s.method}{scaled}{dim} · {count}{own}"


class ModelLayers:
    """An imported model's layer types (None: no model imported) and the two views of them."""

    def __init__(self) -> None:
        self.source = ""
        self.config: dict[str, Any] | None = None  # the RoPE keys of the imported config
        self.model: ModelRope | None = None
        self.wavelength_view = CurvesView(
            tr("(g) Wavelength per pair, each layer type"),
            tr("pair i"),
            tr("wavelength (positions)"),
            legend_at="bottom right",  # under the slowest pairs' curves: empty
        )
        self.wavelength_view.set_log(y=True)
        self.pattern_view = CurvesView(tr("(h) Layer pattern"), tr("layer"), "")
        self.pattern_view.plot.setMouseEnabled(y=False)  # rows are categories

    def set_model(self, source: str, config: Mapping[str, Any]) -> None:
        """Take the layer types of ``config`` (ValueError naming the key if it is invalid)."""
        model = read_model_config(config)
        self.source, self.config, self.model = source, rope_keys(config), model

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
            raise ValueError("extension: model must be an object with a source and a config")
        try:
            self.set_model(source, config)
        except ValueError as exc:
            raise ValueError(f"extension: model.config.{exc}") from None

    def layer_types(self, controls: RopeScaling) -> tuple[LayerRope, ...]:
        """The model's layer types, the one the controls edit taking their settings (one
        layer type of every layer without a model)."""
        if self.model is None:
            return (LayerRope(tr("every layer"), controls),)
        primary = self.model.primary_layer
        return tuple(
            LayerRope(layer.layer_type, controls, layer.layers) if layer is primary else layer
            for layer in self.model.layer_types
        )

    def draw(self, frame: ExtensionFrame) -> None:
        edited = None if self.model is None else self.model.primary_layer.layer_type
        kinds = frame.layer_types
        dims = len({kind.layer.scaling.rotary_dim for kind in kinds if kind.layer.scaling}) > 1
        self.wavelength_view.set_curves(
            [
                Curve(
                    describe(kind.layer, edited=kind.layer.layer_type == edited, dims=dims),
                    np.arange(len(kind.wavelength))[np.isfinite(kind.wavelength)],
                    kind.wavelength[np.isfinite(kind.wavelength)],
                    color=index + 1,
                )
                for index, kind in enumerate(kinds)
                if kind.layer.scaling is not None
            ]
        )
        # one row per layer type, a marker at each of its layers; rows without RoPE in the
        # text colour, the others in their curve's colour
        self.pattern_view.set_curves(
            [
                Curve(
                    "",
                    np.array(kind.layer.layers, dtype=float),
                    np.full(len(kind.layer.layers), float(row)),
                    scatter=True,
                    color=0 if kind.layer.scaling is None else row + 1,
                )
                for row, kind in enumerate(kinds)
            ],
            y_labels=[kind.layer.layer_type for kind in kinds],
        )
        # A row per layer type, no taller than a line of text needs: the curves get the rest.
        rows = len(kinds)
        self.pattern_view.setMaximumHeight(int((120 + 34 * rows) * current_look().scale))
        self.pattern_view.plot.setYRange(-0.6, rows - 0.4, padding=0)
        listed = any(kind.layer.layers for kind in kinds)
        set_title(
            self.pattern_view.plot,
            tr("(h) Layer pattern")
            if listed
            else tr("(h) Layer pattern: import a config.json that lists its layers"),
        )
