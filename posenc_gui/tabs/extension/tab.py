"""The context-extension tab: what each RoPE scaling method does to each frequency pair."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import ExitStack
from typing import Any

from PySide6.QtCore import QSignalBlocker, QTimer
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QPushButton, QWidget

from posenc_gui.choices import format_number
from posenc_gui.control_settings import check_holds
from posenc_gui.controls import LogControl, NumberSpinBox, number_box
from posenc_gui.encodings.rope_scaling import METHODS, RopeScaling, factor_list
from posenc_gui.i18n import N_, tr
from posenc_gui.presets import Preset
from posenc_gui.tab import Tab, TabContext
from posenc_gui.tabs.extension import SPEC
from posenc_gui.tabs.extension.compute import ExtensionFrame, ExtensionParams, compute_extension
from posenc_gui.tabs.extension.figures import METHOD_LABELS, ExtensionFigures, readout_text
from posenc_gui.tabs.extension.layers import ModelLayers

CONTEXT_RANGE = (16.0, float(2**24))  # Llama 4 Scout: 10,485,760
SWEEP_MS = 40
SWEEP_FRAMES = 200
# Which L0 a method reads from config.json, as transformers does.
READS_ORIGINAL = ("llama3", "yarn", "longrope")


class ExtensionTab(Tab):
    spec = SPEC
    compute = staticmethod(compute_extension)
    per_page = True  # only the page in front is computed (and, for the readout, every pair)

    @classmethod
    def shows_preset(cls, preset: Preset) -> bool:
        # scaled, or rotating part of the head: the partial rotary factor is this tab's
        return preset.kind == "rope" and preset.rope is not None and not preset.plain_rope

    @classmethod
    def preset_page(cls, preset: Preset) -> str | None:
        model = preset.model
        if model is not None and len(model.layer_types) > 1:
            return "layers"  # a model that mixes layer types is shown side by side
        return "dynamic" if preset.rope and preset.rope.method == "dynamic" else "frequencies"

    def __init__(self, context: TabContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.method = QComboBox(objectName="method")
        for key in METHODS:
            self.method.addItem(tr(METHOD_LABELS[key]), key)
        self.method.setCurrentIndex(METHODS.index("yarn"))
        self.factor = LogControl("factor", 1.0, 1024.0, 8.0, decimals=4)
        self.original_context = LogControl("original_context", *CONTEXT_RANGE, 8192, decimals=0)
        self.target_context = LogControl("target_context", *CONTEXT_RANGE, 65536, decimals=0)
        # Ranges and precisions that hold what released configs write (0.03125, 0.707).
        self.partial_rotary_factor = number_box("partial_rotary_factor", 0.001, 1.0, 1.0, 0.05, 6)
        self.beta_fast = number_box("beta_fast", 0.001, 4096, 32.0, 1.0, 4)
        self.beta_slow = number_box("beta_slow", 0.001, 4096, 1.0, 0.5, 4)
        self.mscale = number_box("mscale", 0.0, 64.0, 0.0, 0.1, 6)
        self.mscale_all_dim = number_box("mscale_all_dim", 0.0, 64.0, 0.0, 0.1, 6)
        # 0: unset (the method's own attention factor); PhiMoE's mscales replace LongRoPE's.
        # Released files write them to the last digit (1.243163121016122): 15 decimals.
        self.attention_factor = number_box("attention_factor", 0.0, 64.0, 0.0, 0.01, 15)
        self.short_mscale = number_box("short_mscale", 0.0, 64.0, 0.0, 0.01, 15)
        self.long_mscale = number_box("long_mscale", 0.0, 64.0, 0.0, 0.01, 15)
        self.truncate = QCheckBox(
            tr("YaRN: truncate the ramp"), objectName="truncate", checked=True
        )
        self.low_freq_factor = number_box("low_freq_factor", 0.001, 1024.0, 1.0, 0.5, 4)
        self.high_freq_factor = number_box("high_freq_factor", 0.001, 1024.0, 4.0, 0.5, 4)
        self.factor_lists = QLabel(objectName="factor_lists", wordWrap=True)
        self.sweep = QPushButton(tr("Play dynamic-NTK sweep"), objectName="sweep", checkable=True)
        self.sweep_length = LogControl("sweep_length", *CONTEXT_RANGE, 8192, decimals=0)
        self.readout = QLabel(objectName="readout", wordWrap=True)
        self._lists: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
        self._show_lists(None)
        method = self.method.currentData
        self.add_controls([(N_("method"), self.method)])
        self.add_controls([(N_("factor s"), self.factor)], applies=lambda: method() != "default")
        self.add_controls(
            [
                (N_("original L0"), self.original_context),
                (N_("target context"), self.target_context),
                (N_("partial rotary"), self.partial_rotary_factor),
            ]
        )
        self.add_controls(
            [
                (N_("YaRN beta_fast"), self.beta_fast),
                (N_("YaRN beta_slow"), self.beta_slow),
                (N_("YaRN mscale (0: unset)"), self.mscale),
                (N_("YaRN mscale_all_dim"), self.mscale_all_dim),
                ("", self.truncate),
            ],
            applies=lambda: method() == "yarn",
        )
        self.add_controls(
            [
                (N_("Llama 3 low_freq"), self.low_freq_factor),
                (N_("Llama 3 high_freq"), self.high_freq_factor),
            ],
            applies=lambda: method() == "llama3",
        )
        self.add_controls(
            [(N_("attention factor (0: the method's)"), self.attention_factor)],
            applies=lambda: method() in ("yarn", "longrope"),
        )
        self.add_controls(
            [
                ("", self.factor_lists),
                (N_("LongRoPE short_mscale (0: unset)"), self.short_mscale),
                (N_("LongRoPE long_mscale (0: unset)"), self.long_mscale),
            ],
            applies=lambda: method() == "longrope",
        )
        self.add_controls(
            [(N_("sweep length"), self.sweep_length), ("", self.sweep)],
            applies=lambda: self.current_page() == "dynamic",
        )
        self.layers = ModelLayers()
        for widget in (self.readout, self.message):
            self.controls.addRow(widget)

        self.figures = ExtensionFigures()
        self.add_page(
            "frequencies",
            tr("Frequencies"),
            {"wavelength": self.figures.wavelength_view, "ratio": self.figures.ratio_view},
        )
        figures = self.figures
        self.add_page(
            "context",
            tr("Decay && angles"),
            {"decay": figures.decay_view, "angle": figures.angle_view},
        )
        self.add_page("dynamic", tr("Dynamic NTK"), {"dynamic": self.figures.dynamic_view})
        self.add_page(
            "layers",
            tr("Layer types"),
            {
                "layer_wavelength": self.layers.wavelength_view,
                "layer_pattern": self.layers.pattern_view,
            },
            columns=1,  # the pattern is a strip under the curves, as wide as they are
        )

        self.timer = QTimer(self, interval=SWEEP_MS)
        self.timer.timeout.connect(self._advance_sweep)
        self.sweep.toggled.connect(self._play)
        self.follow_views((self.figures.decay_view,))
        for signal in (
            self.method.currentIndexChanged,
            self.factor.valueChanged,
            self.original_context.valueChanged,
            self.target_context.valueChanged,
            self.partial_rotary_factor.valueChanged,
            self.beta_fast.valueChanged,
            self.beta_slow.valueChanged,
            self.mscale.valueChanged,
            self.mscale_all_dim.valueChanged,
            self.attention_factor.valueChanged,
            self.short_mscale.valueChanged,
            self.long_mscale.valueChanged,
            self.truncate.toggled,
            self.low_freq_factor.valueChanged,
            self.high_freq_factor.valueChanged,
            self.sweep_length.valueChanged,
        ):
            signal.connect(self.refresh)

    def _play(self, on: bool) -> None:
        self.sweep.setText(tr("Pause sweep") if on else tr("Play dynamic-NTK sweep"))
        self.timer.start() if on else self.timer.stop()

    def _advance_sweep(self) -> None:
        low, high = self.original_context.value() / 2, self.target_context.value()
        high = max(high, 2 * self.original_context.value())
        step = (high - low) / SWEEP_FRAMES
        value = self.sweep_length.value() + step
        self.sweep_length.setValue(low if value > high else value)

    def scaling(self) -> RopeScaling:
        """The settings the controls describe (ValueError naming a key if they clash)."""
        method = self.method.currentData()
        short, long = self._lists
        if method == "longrope" and not short:
            raise ValueError(
                tr(
                    "longrope needs short_factor and long_factor lists: load a "
                    "LongRoPE preset or a config.json that has them"
                )
            )
        original = int(self.original_context.value())
        return RopeScaling(
            head_dim=self.parameters.head_dim.value(),
            base=self.parameters.theta.value(),
            method=method,
            factor=self.factor.value(),
            original_context=original,
            max_position_embeddings=original,
            partial_rotary_factor=self.partial_rotary_factor.value(),
            beta_fast=self.beta_fast.value(),
            beta_slow=self.beta_slow.value(),
            mscale=self.mscale.value() or None,
            mscale_all_dim=self.mscale_all_dim.value() or None,
            attention_factor=self.attention_factor.value() or None,
            short_mscale=self.short_mscale.value() or None,
            long_mscale=self.long_mscale.value() or None,
            truncate=self.truncate.isChecked(),
            low_freq_factor=self.low_freq_factor.value(),
            high_freq_factor=self.high_freq_factor.value(),
            short_factor=short,
            long_factor=long,
        )

    def input_notes(self) -> list[str]:
        rotary = int(self.parameters.head_dim.value() * self.partial_rotary_factor.value())
        if rotary >= 4:
            return []
        return [tr("dynamic NTK needs a rotary dim of at least 4 (its exponent is d/(d−2))")]

    def caption_parameters(self) -> str:
        p = self.parameters
        return (
            f"head_dim {p.head_dim.value()}, θ {format_number(p.theta.value())}, "
            f"{self.method.currentData()} ×{self.factor.value():g}, "
            f"L0 {format_number(self.original_context.value())}"
        )

    def request(self, page: str | None = None) -> ExtensionParams:
        target = int(self.target_context.value())
        scaling = self.scaling()
        page = page or self.current_page() or "frequencies"
        return ExtensionParams(
            scaling,
            target,
            int(self.sweep_length.value()),
            # the decay view's window on its page only: another page's views are resized
            # when it is laid out, which must not make this page's frame stale
            self.figures.decay_view.x_window(0, target) if page == "context" else None,
            self.layers.layer_types(scaling),
            pages=(page,),
        )

    def apply_scaling(self, scaling: RopeScaling, source: str, keys: Mapping[str, str]) -> None:
        """Show ``scaling`` (from a preset or config.json; head_dim and θ are set by the
        window) and redraw once; ValueError naming the key (as ``keys`` name each parameter in
        the file, e.g. ``rope_scaling.factor``), and nothing changed, if a control cannot hold
        its value exactly."""
        original = (
            scaling.original_context
            if scaling.method in READS_ORIGINAL
            else scaling.max_position_embeddings
        )
        original_key = (
            "original_max_position_embeddings"
            if scaling.method in READS_ORIGINAL
            else "max_position_embeddings"
        )
        shown: list[tuple[LogControl | NumberSpinBox, str, float]] = [
            (self.factor, "factor", scaling.factor),
            (self.original_context, original_key, original),
            (self.partial_rotary_factor, "partial_rotary_factor", scaling.partial_rotary_factor),
            (self.beta_fast, "beta_fast", scaling.beta_fast),
            (self.beta_slow, "beta_slow", scaling.beta_slow),
            (self.mscale, "mscale", scaling.mscale or 0.0),
            (self.mscale_all_dim, "mscale_all_dim", scaling.mscale_all_dim or 0.0),
            (self.attention_factor, "attention_factor", scaling.attention_factor or 0.0),
            (self.short_mscale, "short_mscale", scaling.short_mscale or 0.0),
            (self.long_mscale, "long_mscale", scaling.long_mscale or 0.0),
            (self.low_freq_factor, "low_freq_factor", scaling.low_freq_factor),
            (self.high_freq_factor, "high_freq_factor", scaling.high_freq_factor),
        ]
        for control, key, value in shown:  # all checked before anything changes
            check_holds(control, keys.get(key, key), value)
        # the context reached: the file's, or original × factor where that is longer (both
        # within their controls' ranges now, so the product is finite)
        extended = round(original * scaling.factor)
        if extended > scaling.max_position_embeddings:
            target_key = f"{keys.get(original_key, original_key)} × {keys.get('factor', 'factor')}"
        else:
            target_key = keys.get("max_position_embeddings", "max_position_embeddings")
        target = max(scaling.max_position_embeddings, extended)
        check_holds(self.target_context, target_key, target)
        shown.append((self.target_context, target_key, target))
        with ExitStack() as stack:  # one redraw at the end, not one per control
            for control in (self.method, self.truncate, *(c for c, _, _ in shown)):
                stack.enter_context(QSignalBlocker(control))
            self.method.setCurrentIndex(METHODS.index(scaling.method))
            for control, _, value in shown:
                control.setValue(value)
            self.truncate.setChecked(scaling.truncate)
        self._lists = (scaling.short_factor, scaling.long_factor)
        self._show_lists(source if scaling.short_factor else None)
        self.refresh()

    def _show_lists(self, source: str | None) -> None:
        short, long = self._lists
        self.factor_lists.setText(
            tr("LongRoPE factor lists: from {0} ({1} short + {2} long)").format(
                source, len(short), len(long)
            )
            if source
            else tr("LongRoPE factor lists: none (load a LongRoPE preset or config.json)")
        )

    def state(self) -> dict[str, Any]:
        short, long = self._lists
        return {
            **super().state(),
            "longrope": {"short_factor": list(short), "long_factor": list(long)},
            "model": self.layers.imported.state(),
        }

    def reset(self, defaults: dict[str, Any]) -> None:
        self.layers.imported.clear()  # nothing of an earlier model stays
        super().reset(defaults)

    def set_state(self, state: dict[str, Any]) -> None:
        self.layers.imported.set_state(state.get("model"))  # absent or null: no imported model
        lists = state.get("longrope")  # absent or null: the lists stay as they are
        if lists is not None:
            short, long = (_session_factors(lists, key) for key in ("short_factor", "long_factor"))
            if len(short) != len(long):
                raise ValueError(
                    "extension: longrope short_factor and long_factor differ in length"
                )
            self._lists = (short, long)
            self._show_lists(tr("session") if short else None)
        super().set_state(state)

    def apply_preset(self, preset: Preset) -> None:
        if preset.rope is not None:
            self.layers.imported.set_model(preset.name, preset.config)
            model = preset.model
            assert model is not None  # a preset with RoPE
            self.apply_scaling(model.primary, preset.name, model.paths)

    def draw(self, frame: ExtensionFrame) -> None:
        self.figures.draw(frame)
        if frame.layer_types is not None:
            self.layers.draw(frame.layer_types)
        self.readout.setText(readout_text(frame))


def _session_factors(lists: object, key: str) -> tuple[float, ...]:
    """A session's LongRoPE list ``key``; ValueError naming it otherwise."""
    try:
        return factor_list(f"longrope.{key}", lists.get(key) if isinstance(lists, dict) else None)
    except ValueError as exc:
        raise ValueError(f"extension: {exc}") from None
