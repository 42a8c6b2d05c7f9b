"""The multimodal tab: RoPE over several position axes — M-RoPE's (t, h, w) sections or their
interleaving, and 2-D axial RoPE — and the layer stack of an imported model."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox, QLabel, QSpinBox, QWidget

from posenc_gui.choices import format_number
from posenc_gui.controls import IntControl, index_list, number_box, parse_indices
from posenc_gui.encodings import multimodal
from posenc_gui.encodings.model_config import LayerRope
from posenc_gui.i18n import N_, tr
from posenc_gui.imported_model import ImportedModel
from posenc_gui.presets import Preset
from posenc_gui.tab import Tab, TabContext
from posenc_gui.tabs.multimodal import SPEC
from posenc_gui.tabs.multimodal.compute import (
    COMPARE,
    MultimodalFrame,
    MultimodalParams,
    compute_multimodal,
    fit_section,
    token_count,
)
from posenc_gui.tabs.multimodal.figures import MultimodalFigures

SCHEME_LABELS = {
    "sections": N_("M-RoPE sections (Qwen2-VL, Qwen2.5-VL)"),
    "interleaved": N_("M-RoPE interleaved (Qwen3-VL)"),
    "axial": N_("2-D axial (Pixtral's vision encoder)"),
}
GRID_SIDE = 128  # patches per side of the image (Pixtral: 1024 px / 16 px = 64)
MROPE_NOTE = N_(
    "Pair i turns by the position on its own axis aᵢ: angle = p[aᵢ]·θᵢ. A text token has one id "
    "on every axis (plain RoPE); an image's patches carry their (t, h, w) place in the grid from "
    "the id after the text before them, and the text after it resumes at that id + "
    "max(height, width), as transformers' get_rope_index numbers them."
)
AXIAL_NOTE = N_(
    "Pair i turns by the patch's row or its column: angle = p[aᵢ]·θᵢ, the even-indexed "
    "frequencies on rows, the odd-indexed on columns (Pixtral). The score of two patches depends "
    "on their offset (Δrow, Δcolumn) only."
)


class MultimodalTab(Tab):
    spec = SPEC
    compute = staticmethod(compute_multimodal)
    compare = COMPARE
    per_page = True  # only the page in front is computed

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
        self.section = index_list("mrope_section", "24, 20, 20")
        self.text_before = IntControl("text_before", 0, 4096, 5)
        self.frames = IntControl("frames", 1, 64, 1)
        self.image_height = IntControl("image_height", 1, GRID_SIDE, 8)
        self.image_width = IntControl("image_width", 1, GRID_SIDE, 12)
        self.time_interval = number_box("time_interval", 0.0, 100.0, 1.0, 0.5, 3)
        self.timestamp_tokens = IntControl("timestamp_tokens", 0, 64, 2)
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
        scheme = self.scheme.currentData
        self.add_controls(
            [(N_("temporal id step"), self.time_interval)], applies=lambda: scheme() == "sections"
        )
        self.add_controls(
            [(N_("timestamp tokens per frame"), self.timestamp_tokens)],
            applies=lambda: scheme() == "interleaved",
        )
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
        self.controls.addRow(self.message)
        self.add_controls([("", QLabel(tr(MROPE_NOTE), wordWrap=True))], applies=mrope)
        self.add_controls(
            [("", QLabel(tr(AXIAL_NOTE), wordWrap=True))], applies=lambda: not mrope()
        )

        self.figures = figures = MultimodalFigures(self.imported)
        self.add_page(
            "pairs",
            tr("Pairs && layers"),
            {
                "axis_map": figures.axis_view,
                "pair_frequency": figures.frequency_view,
                "layer_strip": figures.layer_view,
            },
            columns=1,
        )
        self.add_page(
            "sequence",
            tr("Sequence ids"),
            {"id_strip": figures.id_strip, "id_curves": figures.id_curves},
            columns=1,
        )
        self.add_page(
            "scores",
            tr("Patch scores"),
            {"patch_scores": figures.score_view, "patch_profile": figures.profile_view},
            columns=1,  # titles and the grid get the page's width
        )
        self.image_height.valueChanged.connect(lambda n: self.query_row.setRange(0, n - 1))
        self.image_width.valueChanged.connect(lambda n: self.query_column.setRange(0, n - 1))
        self.follow_views((figures.id_strip, figures.id_curves))
        for signal in (
            self.scheme.currentIndexChanged,
            self.section.editingFinished,
            self.text_before.valueChanged,
            self.frames.valueChanged,
            self.image_height.valueChanged,
            self.image_width.valueChanged,
            self.time_interval.valueChanged,
            self.timestamp_tokens.valueChanged,
            self.text_after.valueChanged,
            self.query_row.valueChanged,
            self.query_column.valueChanged,
            self.query.currentIndexChanged,
            self.seed.valueChanged,
        ):
            signal.connect(self.refresh)

    def _mrope(self) -> bool:
        return self.scheme.currentData() != "axial"

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

    def _section(self) -> tuple[tuple[int, ...], str]:
        """The section to draw with, and what the tab says of it: one typed for another
        head_dim is scaled to this one's pairs in the same proportions, and says so."""
        typed = multimodal.check_section(parse_indices("mrope_section", self.section.text()))
        pairs = self.parameters.head_dim.value() // 2
        if sum(typed) == pairs:
            return typed, ""
        fitted = fit_section(typed, pairs)
        note = tr(
            "mrope_section {0} adds up to {1} pairs, head_dim {2} has {3}: drawn with {4}"
        ).format(
            ", ".join(map(str, typed)), sum(typed), 2 * pairs, pairs, ", ".join(map(str, fitted))
        )
        return fitted, note

    def input_notes(self) -> list[str]:
        if not self._mrope():
            return []
        try:
            return [self._section()[1]]
        except ValueError:
            return []  # request() says what is wrong

    def request(self, page: str | None = None) -> MultimodalParams:
        scheme = self.scheme.currentData()
        page = page or self.current_page() or "pairs"
        mrope = scheme != "axial"
        params = MultimodalParams(
            scheme=scheme,
            head_dim=self.parameters.head_dim.value(),
            theta=self.parameters.theta.value(),
            section=self._section()[0] if mrope else (),
            text_before=self.text_before.value(),
            frames=self.frames.value(),
            height=self.image_height.value(),
            width=self.image_width.value(),
            time_interval=self.time_interval.value(),
            text_after=self.text_after.value(),
            query=(self.query_row.value(), self.query_column.value()),
            random=self.query.currentData(),
            seed=self.seed.value(),
            timestamp_tokens=self.timestamp_tokens.value(),
            layers=self._layers(),
            pages=(page,),
        )
        if page != "sequence":  # the windows of its views alone (another page's views are
            return params  # resized when it is laid out, which must not make this frame stale)
        tokens, figures = token_count(params), self.figures
        return params.with_windows(
            figures.id_strip.windows(tokens, 3 if mrope else 2)[0],
            figures.id_curves.x_window(0, tokens),
        )

    def _layers(self) -> tuple[LayerRope, ...]:
        """The imported model's layer types, its main ones at the θ the controls set (what
        view (b) draws)."""
        model = self.imported.model
        scaling = None if model is None else model.primary_layer.scaling
        if scaling is None:
            return ()
        return self.imported.layer_types_with(
            scaling.with_changes(base=self.parameters.theta.value())
        )

    def caption_parameters(self) -> str:
        p = self.parameters
        scheme = self.scheme.currentData()
        section = "" if scheme == "axial" else f", mrope_section [{self.section.text()}]"
        return (
            f"{scheme}{section}, head_dim {p.head_dim.value()}, θ {format_number(p.theta.value())}"
        )

    def draw(self, frame: MultimodalFrame) -> None:
        self.figures.draw(frame)
