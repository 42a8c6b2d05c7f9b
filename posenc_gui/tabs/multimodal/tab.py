"""The multimodal tab: RoPE over several position axes — M-RoPE's (t, h, w) sections or their
interleaving, and 2-D axial RoPE — and the layer stack of an imported model."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QLabel, QLineEdit, QSpinBox, QWidget

from posenc_gui.controls import IntControl
from posenc_gui.encodings import multimodal
from posenc_gui.encodings.model_config import LayerRope
from posenc_gui.i18n import N_, tr
from posenc_gui.imported_model import ImportedModel
from posenc_gui.presets import ROPE_KINDS, Preset
from posenc_gui.tab import Tab, TabContext, parse_indices
from posenc_gui.tabs.multimodal import SPEC
from posenc_gui.tabs.multimodal.compute import (
    COMPARE,
    MultimodalFrame,
    MultimodalParams,
    compute_multimodal,
)
from posenc_gui.views import Band, Curve, CurvesView, HeatmapView, Span
from posenc_gui.views.pattern import PatternView, Row
from posenc_gui.views.style import DIVERGING, SEQUENTIAL, coloured, current_look, set_title

SCHEME_LABELS = {
    "sections": N_("M-RoPE sections (Qwen2-VL, Qwen2.5-VL)"),
    "interleaved": N_("M-RoPE interleaved (Qwen3-VL)"),
    "axial": N_("2-D axial (Pixtral's vision encoder)"),
}
AXIS_LABELS = {
    "t": N_("t (time)"),
    "h": N_("h (height)"),
    "w": N_("w (width)"),
    "row": N_("row"),
    "col": N_("column"),
}
GRID_SIDE = 128  # patches per side of the image (Pixtral: 1024 px / 16 px = 64)
NOTE = N_(
    "Pair i turns by the position on its own axis aᵢ: angle = p[aᵢ]·θᵢ. A text token has one id "
    "on every axis (plain RoPE); an image's patches carry their (t, h, w) place in the grid, "
    "after the text before them, and the text after it goes on from the largest id + 1."
)


def layer_label(layer: LayerRope, window: int | None) -> str:
    """``sliding_attention · θ 10,000 · window 1,024`` — a layer type's scheme."""
    s = layer.scaling
    if s is None:
        return f"{layer.layer_type} · {tr('no RoPE')}"
    scaled = "" if s.method == "default" else f" · {s.method} ×{s.factor:g}"
    sliding = "sliding" in layer.layer_type and window is not None
    windowed = f" · {tr('window')} {window:,}" if sliding else ""
    return f"{layer.layer_type} · θ {s.base:,.6g}{scaled}{windowed}"


class MultimodalTab(Tab):
    spec, title = SPEC, N_("Multimodal RoPE")
    name = SPEC.name
    compute = staticmethod(compute_multimodal)
    preset_kinds = ROPE_KINDS
    compare = COMPARE

    @classmethod
    def shows_preset(cls, preset: Preset) -> bool:
        return preset.kind == "multimodal"

    @classmethod
    def preset_page(cls, preset: Preset) -> str | None:
        return "pairs"

    def __init__(self, context: TabContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.imported = ImportedModel(self.name)
        self.scheme = QComboBox(objectName="scheme")
        for key, label in SCHEME_LABELS.items():
            self.scheme.addItem(tr(label), key)
        self.scheme.setCurrentIndex(self.scheme.findData("interleaved"))  # Qwen3-VL's
        self.section = QLineEdit("24, 20, 20", objectName="mrope_section")
        self.text_before = IntControl("text_before", 0, 4096, 5)
        self.frames = IntControl("frames", 1, 64, 1)
        self.image_height = IntControl("image_height", 1, GRID_SIDE, 8)
        self.image_width = IntControl("image_width", 1, GRID_SIDE, 12)
        self.time_interval = QDoubleSpinBox(
            objectName="time_interval", minimum=0.0, maximum=100.0, decimals=3, value=1.0
        )
        self.time_interval.setKeyboardTracking(False)
        self.text_after = IntControl("text_after", 0, 4096, 3)
        self.query_row = IntControl("query_row", 0, self.image_height.value() - 1, 3)
        self.query_column = IntControl("query_column", 0, self.image_width.value() - 1, 5)
        self.query = QComboBox(objectName="query")
        self.query.addItem(tr("q = k = all ones"), False)
        self.query.addItem(tr("random q = k (seeded): mean"), True)
        self.seed = QSpinBox(objectName="seed", minimum=0, maximum=2**31 - 1)
        mrope = self._mrope
        self.add_controls([(N_("scheme"), self.scheme)])
        self.section.setToolTip(tr("pairs per axis: t, h, w"))
        self.add_controls([(N_("mrope_section"), self.section)], applies=mrope)
        self.add_controls([(N_("text before"), self.text_before)], applies=mrope)
        self.add_controls([(N_("video frames"), self.frames)], applies=mrope)
        self.add_controls(
            [
                (N_("image height (patches)"), self.image_height),
                (N_("image width (patches)"), self.image_width),
            ]
        )
        self.add_controls([(N_("temporal id step"), self.time_interval)], applies=mrope)
        self.add_controls([(N_("text after"), self.text_after)], applies=mrope)
        self.add_controls(
            [
                (N_("query patch row"), self.query_row),
                (N_("query patch column"), self.query_column),
                (N_("q and k"), self.query),
                (N_("seed (random q)"), self.seed),
            ],
            applies=lambda: self.current_page() == "scores",
        )
        for widget in (self.message, QLabel(tr(NOTE), wordWrap=True)):
            self.controls.addRow(widget)

        self.axis_view = PatternView(tr("(a) The axis each pair turns by"), tr("pair i"))
        self.frequency_view = CurvesView(
            tr("(b) Frequency θᵢ of each pair"), tr("pair i"), tr("θᵢ (rad per position)")
        )
        self.frequency_view.set_log(y=True)
        self.layer_view = PatternView(tr("(c) Layers"), tr("layer"))
        self.id_strip = HeatmapView(
            tr("(d) Position ids per token"),
            tr("token"),
            tr("axis"),
            tr("position id"),
            colormap_role=SEQUENTIAL,
        )
        self.id_curves = CurvesView(
            tr("(e) Position id of each token, per axis"),
            tr("token"),
            tr("position id"),
            legend_at=None,  # no corner stays empty: the title names the axes
        )
        self.id_strip.setMaximumHeight(int(300 * current_look().scale))
        self.score_view = HeatmapView(
            tr("(f) Score of the query patch against every patch"),
            tr("patch column"),
            tr("patch row"),
            tr("score"),
            colormap_role=SEQUENTIAL,
        )
        self.profile_view = CurvesView(
            tr("(g) Along the query's row"), tr("Δ column"), tr("score"), legend_at=None
        )
        self.add_page(
            "pairs",
            tr("Pairs && layers"),
            {
                "axis_map": self.axis_view,
                "pair_frequency": self.frequency_view,
                "layer_strip": self.layer_view,
            },
            columns=1,
        )
        self.add_page(
            "sequence",
            tr("Sequence ids"),
            {"id_strip": self.id_strip, "id_curves": self.id_curves},
            columns=1,
        )
        self.add_page(
            "scores",
            tr("Patch scores"),
            {"patch_scores": self.score_view, "patch_profile": self.profile_view},
            columns=1,  # titles and the grid get the page's width
        )
        self.image_height.valueChanged.connect(lambda n: self.query_row.setRange(0, n - 1))
        self.image_width.valueChanged.connect(lambda n: self.query_column.setRange(0, n - 1))
        for signal in (
            self.id_strip.viewport.changed,
            self.id_curves.viewport.changed,
            self.scheme.currentIndexChanged,
            self.section.editingFinished,
            self.text_before.valueChanged,
            self.frames.valueChanged,
            self.image_height.valueChanged,
            self.image_width.valueChanged,
            self.time_interval.valueChanged,
            self.text_after.valueChanged,
            self.query_row.valueChanged,
            self.query_column.valueChanged,
            self.query.currentIndexChanged,
            self.seed.valueChanged,
        ):
            signal.connect(self.refresh)

    def _mrope(self) -> bool:
        return self.scheme.currentData() != "axial"

    @classmethod
    def preset_parameters(cls, preset: Preset) -> dict[str, float]:
        scaling = preset.rope
        return {} if scaling is None else {"head_dim": scaling.head_dim, "theta": scaling.base}

    def apply_preset(self, preset: Preset) -> None:
        model = preset.model
        if model is None:
            return
        self.imported.set_model(preset.name, preset.config)
        mrope = multimodal.mrope_settings(model)
        if mrope is not None:
            section, interleaved = mrope
            self.section.setText(", ".join(map(str, section)))
            scheme = "interleaved" if interleaved else "sections"
            self.scheme.setCurrentIndex(self.scheme.findData(scheme))
        elif preset.kind == "multimodal":  # a vision encoder: its image's patch grid
            self.scheme.setCurrentIndex(self.scheme.findData("axial"))
            size, patch = preset.config.get("image_size"), preset.config.get("patch_size")
            if not (isinstance(size, int) and isinstance(patch, int)) or patch <= 0:
                return  # the grid stays as the controls have it
            side = size // patch
            if not 1 <= side <= GRID_SIDE:
                raise ValueError(
                    f"{preset.name}: image_size / patch_size is {side} patches per side, "
                    f"outside the tab's 1 … {GRID_SIDE}"
                )
            self.image_height.setValue(side)
            self.image_width.setValue(side)

    def state(self) -> dict[str, Any]:
        return {**super().state(), "model": self.imported.state()}

    def reset(self, defaults: dict[str, Any]) -> None:
        self.imported.clear()  # nothing of an earlier model stays
        super().reset(defaults)

    def set_state(self, state: dict[str, Any]) -> None:
        self.imported.set_state(state.get("model"))  # absent or null: no imported model
        super().set_state(state)

    def _section(self) -> tuple[int, ...]:
        section = tuple(parse_indices("mrope_section", self.section.text()))
        multimodal.section_axes(section)  # validates it, naming the entry
        return section

    def request(self) -> MultimodalParams:
        scheme = self.scheme.currentData()
        height, width = self.image_height.value(), self.image_width.value()
        image = height * width
        mrope = scheme != "axial"
        tokens = (
            self.text_before.value() + self.frames.value() * image + self.text_after.value()
            if mrope
            else image
        )
        return MultimodalParams(
            scheme=scheme,
            head_dim=self.parameters.head_dim.value(),
            theta=self.parameters.theta.value(),
            section=self._section() if mrope else (),
            text_before=self.text_before.value(),
            frames=self.frames.value(),
            height=height,
            width=width,
            time_interval=self.time_interval.value(),
            text_after=self.text_after.value(),
            query=(self.query_row.value(), self.query_column.value()),
            random=self.query.currentData(),
            seed=self.seed.value(),
            ids_x=self.id_strip.windows(tokens, 3 if mrope else 2)[0],
            layers=() if self.imported.model is None else self.imported.model.layer_types,
        )

    def caption_parameters(self) -> str:
        p = self.parameters
        scheme = self.scheme.currentData()
        section = "" if scheme == "axial" else f", mrope_section [{self.section.text()}]"
        return f"{scheme}{section}, head_dim {p.head_dim.value()}, θ {p.theta.value():g}"

    def draw(self, frame: MultimodalFrame) -> None:
        self._draw_pairs(frame)
        self._draw_ids(frame)
        self._draw_scores(frame)

    def _draw_pairs(self, frame: MultimodalFrame) -> None:
        names = [tr(AXIS_LABELS[name]) for name in frame.axis_names]
        pairs = np.arange(len(frame.axes))
        self.axis_view.set_rows(
            [
                Row(name, pairs[frame.axes == axis].tolist(), axis + 1)
                for axis, name in enumerate(names)
            ],
            x_extent=(-0.5, len(pairs) - 0.5),
        )
        self.frequency_view.set_curves(
            [
                Curve(name, pairs[frame.axes == axis], frequency, scatter=True, color=axis + 1)
                for axis, name in enumerate(names)
                if (frequency := frame.frequencies[frame.axes == axis]).size
            ]
        )
        layers = frame.params.layers
        if not layers:
            every = f"{tr('every layer')} · θ {frame.params.theta:g}"
            self.layer_view.set_rows([Row(every, [], 1)], x_labels=[])
            set_title(
                self.layer_view.plot, tr("(c) Layers: choose a preset or import a config.json")
            )
            return
        window = self.imported.sliding_window
        rows = [
            Row(layer_label(layer, window), layer.layers, 0 if layer.scaling is None else i + 1)
            for i, layer in enumerate(layers)
        ]
        count = max((max(layer.layers) + 1 for layer in layers if layer.layers), default=0)
        self.layer_view.set_rows(rows, x_extent=(-0.5, max(count, 1) - 0.5))
        set_title(
            self.layer_view.plot,
            tr("(c) {0} layers · {1}").format(count, self.imported.source)
            if count
            else tr("(c) Every layer alike · {0}").format(self.imported.source),
        )

    def _draw_ids(self, frame: MultimodalFrame) -> None:
        names = [tr(AXIS_LABELS[name]) for name in frame.axis_names]
        edges = frame.id_edges
        self.id_strip.set_data(
            frame.ids,
            x_edges=edges,
            row_labels=names,
            levels=(0.0, max(float(frame.ids.max()), 1.0)),
            extent=(frame.tokens, len(names)),
        )
        centres = (edges[:-1] + edges[1:] - 1) / 2
        first, end = frame.image_tokens
        kind = tr("video tokens") if frame.params.frames > 1 else tr("image tokens")
        # the span in a colour of its own: not one of the axes' 1–3
        spans = [Span(first - 0.5, end - 0.5, kind, 4)] if frame.params.scheme != "axial" else []
        self.id_curves.set_curves(
            [
                Curve(name, centres, frame.ids[axis], dashed=axis > 0, color=axis + 1)
                for axis, name in enumerate(names)
            ],
            spans=spans,
            x_extent=(0, frame.tokens),
        )
        shaded = coloured(kind, 4) if spans else ""
        axes = ", ".join(coloured(name, axis + 1) for axis, name in enumerate(frame.axis_names))
        set_title(
            self.id_curves.plot,
            tr("(e) Ids: {0}").format(axes) + (f" · {shaded}" if shaded else ""),
        )

    def _draw_scores(self, frame: MultimodalFrame) -> None:
        p = frame.params
        row, col = min(p.query[0], p.height - 1), min(p.query[1], p.width - 1)
        scores = frame.scores
        low, high = float(scores.min()), float(scores.max())
        signed = low < 0 < high
        self.score_view.set_colormap(DIVERGING if signed else SEQUENTIAL)
        peak = max(abs(low), abs(high))
        self.score_view.set_data(
            scores, levels=(-peak, peak) if signed else (low, max(high, low + 1e-12))
        )
        which = tr("random q = k, mean") if p.random else "q = k = 1"
        set_title(
            self.score_view.plot,
            tr("(f) Patch ({0}, {1}) · {2}").format(row, col, which),
        )
        x = frame.profile_offsets.astype(float)
        self.profile_view.set_curves(
            [
                Curve("q = k = 1", x, frame.profile_ones, color=1),
                Curve(tr("random q = k: mean"), x, frame.profile_mean, dashed=True, color=6),
            ],
            bands=[
                Band(
                    tr("random q = k: mean ± std"),
                    x,
                    frame.profile_mean - frame.profile_std,
                    frame.profile_mean + frame.profile_std,
                    color=6,
                )
            ],
        )
        set_title(
            self.profile_view.plot,
            tr("(g) Row {0}: {1}, {2}").format(
                row, coloured("q = k = 1", 1), coloured(tr("random: mean ± std"), 6)
            ),
        )
