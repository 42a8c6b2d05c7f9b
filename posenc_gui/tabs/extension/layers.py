"""The extension tab's layer-types page: every layer type of an imported model side by side,
and its layer pattern."""

from __future__ import annotations

import numpy as np

from posenc_gui.choices import format_number
from posenc_gui.encodings.model_config import LayerRope
from posenc_gui.encodings.rope_scaling import RopeScaling
from posenc_gui.i18n import tr
from posenc_gui.imported_model import ImportedModel, layer_type_name
from posenc_gui.tabs.extension.compute import LayerTypeFrame
from posenc_gui.tabs.extension.figures import METHOD_LABELS
from posenc_gui.views import Curve, CurvesView
from posenc_gui.views.pattern import PatternView, Row
from posenc_gui.views.style import set_title


def describe(layer: LayerRope, *, edited: bool, dims: bool) -> str:
    """``sliding_attention: θ 10,000, default · 52 layers`` (``edited``: the controls set it;
    ``dims``: say the rotary dim, where layer types differ in it)."""
    s, name = layer.scaling, layer_type_name(layer)
    count = tr("{0} layers").format(len(layer.layers)) if layer.layers else tr("layers not listed")
    if s is None:
        return f"{tr(name)}: {tr('no RoPE')} · {count}"
    scaled = f" ×{s.factor:g}" if s.method != "default" else ""
    dim = f", d {s.rotary_dim}" if dims else ""
    own = tr(" (the controls)") if edited else ""
    method = tr(METHOD_LABELS[s.method])
    return f"{tr(name)}: θ {format_number(s.base)}, {method}{scaled}{dim} · {count}{own}"


class ModelLayers:
    """An imported model's layer types (None: no model imported) and the two views of them."""

    def __init__(self) -> None:
        self.imported = ImportedModel("extension")
        self.wavelength_view = CurvesView(
            tr("(g) Wavelength per pair, each layer type"),
            tr("pair i"),
            tr("wavelength (positions)"),
        )
        self.wavelength_view.set_log(y=True)
        self.pattern_view = PatternView(tr("(h) Layer pattern"), tr("layer"))

    def layer_types(self, controls: RopeScaling) -> tuple[LayerRope, ...]:
        """The model's layer types, the one the controls edit taking their settings (one
        layer type of every layer without a model)."""
        return self.imported.layer_types_with(controls) or (LayerRope(tr("every layer"), controls),)

    def draw(self, kinds: tuple[LayerTypeFrame, ...]) -> None:
        """One curve and one pattern row per layer type of the frame (``frame.layer_types``)."""
        model = self.imported.model
        edited = None if model is None else model.primary_layer.layer_type
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
        # rows without RoPE in the text colour, the others in their curve's colour
        names = [layer_type_name(kind.layer) for kind in kinds]
        self.pattern_view.set_rows(
            [
                Row(tr(name), kind.layer.layers, 0 if kind.layer.scaling is None else i + 1)
                for i, (kind, name) in enumerate(zip(kinds, names, strict=True))
            ]
        )
        listed = any(kind.layer.layers for kind in kinds)
        set_title(
            self.pattern_view.plot,
            tr("(h) Layer pattern")
            if listed
            else tr("(h) Layer pattern: import a config.json that lists its layers"),
        )
