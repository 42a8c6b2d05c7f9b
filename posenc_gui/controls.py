"""Parameter controls: a slider plus an editable number, always holding a valid value.

Each control's ``objectName`` is its parameter name and ``value()`` / ``setValue()`` speak the
parameter's own units, so tests and automation can drive the app by name.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from posenc_gui.choices import format_number
from posenc_gui.views.style import current_look

_LOG_STEPS = 600  # slider positions across a log range: 100 per decade for 10 … 10^7


# A number on its way to being typed: digits with separators, a point, an exponent.
_PARTIAL_NUMBER = re.compile(r"[+-]?[\d,_ ]*\.?\d*([eE][+-]?\d*)?")


def parse_number(text: str) -> float | None:
    """What a person types for a number — ``1e7``, ``20,000,000``, ``1 000``, ``2_000`` — as a
    float; None if it is not a finite number."""
    try:
        value = float(text.strip().replace(",", "").replace("_", "").replace(" ", ""))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _validate(text: str, pos: int) -> tuple[QValidator.State, str, int]:
    """Any number is acceptable while typing, in range or not (``refusal`` judges it on
    Enter), and any start of one is allowed: no keystroke is dropped."""
    if parse_number(text) is not None:
        return QValidator.State.Acceptable, text, pos
    if _PARTIAL_NUMBER.fullmatch(text.strip()):
        return QValidator.State.Intermediate, text, pos
    return QValidator.State.Invalid, text, pos


def _out_of_range(name: str, low: float, high: float, value: float) -> str:
    return f"{name} must be in [{format_number(low)}, {format_number(high)}], got {value:g}"


class _TypedNumber:
    """What both number boxes share: parse what was typed, and refuse (saying why, through
    ``on_refused``) rather than clamp or round it."""

    name = ""
    on_refused: Callable[[str], None] = staticmethod(lambda message: None)

    def refusal(self, value: float) -> str:  # overridden by each box
        raise NotImplementedError

    def typed(self, text: str, current: float) -> float:
        value = parse_number(text)
        message = "" if value is None else self.refusal(value)
        self.on_refused(message)
        return current if value is None or message else value


class StepSpinBox(_TypedNumber, QSpinBox):
    """Whole numbers in range that are multiples of the single step (even for step 2)."""

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        return _validate(text, pos)

    def valueFromText(self, text: str) -> int:
        return int(self.typed(text, self.value()))

    def refusal(self, value: float) -> str:
        low, high, step = self.minimum(), self.maximum(), self.singleStep()
        if not value.is_integer():
            return f"{self.name} must be a whole number, got {value:g}"
        if not low <= value <= high:
            return _out_of_range(self.name, low, high, value)
        if (value - low) % step:
            return f"{self.name} must be a multiple of {step}, got {format_number(value)}"
        return ""


class NumberSpinBox(_TypedNumber, QDoubleSpinBox):
    """Real numbers in range with at most ``decimals`` decimals, shown without trailing
    zeros."""

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        return _validate(text, pos)

    def valueFromText(self, text: str) -> float:
        return self.typed(text, self.value())

    def textFromValue(self, value: float) -> str:
        text = f"{value:.{self.decimals()}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text  # 40960 keeps its zero

    def refusal(self, value: float) -> str:
        low, high = self.minimum(), self.maximum()
        if not low <= value <= high:
            return _out_of_range(self.name, low, high, value)
        if round(value, self.decimals()) != value:
            return f"{self.name} takes at most {self.decimals()} decimals, got {value!r}"
        return ""


class _SliderControl(QWidget):
    """Slider and spin box kept in step; emits ``valueChanged`` once per real change."""

    valueChanged = Signal(object)

    def __init__(
        self,
        name: str,
        box: StepSpinBox | NumberSpinBox,
        positions: int,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self._last: int | float | None = None
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, positions)
        # A slider a finger can use: a long label wraps the control below it instead of
        # squeezing it (the tabs' forms wrap long rows).
        self.slider.setMinimumWidth(110)
        self.box = box
        box.setKeyboardTracking(False)  # commit typed numbers on Enter, not per keystroke
        # wide enough for eight digits (a context of 10,485,760), whatever the font size
        box.setMinimumWidth(max(90, box.fontMetrics().horizontalAdvance("0" * 8) + 36))
        # A typed number that cannot be used is refused here, next to the control.
        self.refusal = QLabel(objectName="refusal", wordWrap=True, visible=False)
        self.refusal.setStyleSheet(f"color: {current_look().error_colour};")
        box.name, box.on_refused = name, self._show_refusal
        row = QHBoxLayout()
        row.addWidget(self.slider, 1)
        row.addWidget(box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(row)
        layout.addWidget(self.refusal)
        self.slider.valueChanged.connect(lambda pos: self.setValue(self._from_position(pos)))
        box.valueChanged.connect(self.setValue)

    def value(self) -> float:
        return self.box.value()

    def _show_refusal(self, message: str) -> None:
        self.refusal.setText(message)
        self.refusal.setVisible(bool(message))

    def setValue(self, value: float) -> None:
        """Set the value (clamped and snapped to a valid one); emits only when it changes."""
        valid = self._valid(value)
        changed, self._last = valid != self._last, valid
        with QSignalBlocker(self.box), QSignalBlocker(self.slider):
            if isinstance(self.box, QSpinBox):
                self.box.setValue(int(valid))
            else:
                self.box.setValue(valid)
            self.slider.setValue(self._to_position(valid))
        if changed:
            self.valueChanged.emit(valid)

    def _valid(self, value: float) -> int | float:
        raise NotImplementedError

    def _to_position(self, value: float) -> int:
        raise NotImplementedError

    def _from_position(self, position: int) -> int | float:
        raise NotImplementedError


class IntControl(_SliderControl):
    """An integer parameter in ``[minimum, maximum]`` restricted to multiples of ``step``.

    With ``log`` the slider is logarithmic (for ranges like 1 … 2^20); the number box still
    takes any valid value.
    """

    def __init__(
        self,
        name: str,
        minimum: int,
        maximum: int,
        value: int,
        *,
        step: int = 1,
        log: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        box = StepSpinBox()
        box.setRange(minimum, maximum)
        box.setSingleStep(step)
        self._minimum, self._maximum, self._step, self._log = minimum, maximum, step, log
        super().__init__(name, box, self._positions(), parent)
        self.setValue(value)

    def value(self) -> int:
        return int(self.box.value())

    def _positions(self) -> int:
        return _LOG_STEPS if self._log else (self._maximum - self._minimum) // self._step

    def setRange(self, minimum: int, maximum: int) -> None:
        """Change the allowed range (the value is clamped into it)."""
        self._minimum, self._maximum = minimum, maximum
        with QSignalBlocker(self.box), QSignalBlocker(self.slider):
            self.box.setRange(minimum, maximum)
            self.slider.setRange(0, self._positions())
        self.setValue(self.value())

    def _valid(self, value: float) -> int:
        value = round(min(max(value, self._minimum), self._maximum))
        return value - (value - self._minimum) % self._step

    def _to_position(self, value: float) -> int:
        if self._log:
            return _log_position(value, self._minimum, self._maximum)
        return (int(value) - self._minimum) // self._step

    def _from_position(self, position: int) -> int:
        if self._log:
            return round(_log_value(position, self._minimum, self._maximum))
        return self._minimum + position * self._step


class LogControl(_SliderControl):
    """A positive real parameter on a logarithmic slider (e.g. RoPE's base θ)."""

    def __init__(
        self,
        name: str,
        minimum: float,
        maximum: float,
        value: float,
        *,
        decimals: int = 4,
        parent: QWidget | None = None,
    ) -> None:
        box = NumberSpinBox()
        box.setRange(minimum, maximum)
        box.setDecimals(decimals)
        box.setStepType(QDoubleSpinBox.StepType.AdaptiveDecimalStepType)
        self._minimum, self._maximum, self._decimals = minimum, maximum, decimals
        super().__init__(name, box, _LOG_STEPS, parent)
        self.setValue(value)

    def value(self) -> float:
        return float(self.box.value())

    def _valid(self, value: float) -> float:
        if not math.isfinite(value):
            return self.value()
        return round(min(max(float(value), self._minimum), self._maximum), self._decimals)

    def _to_position(self, value: float) -> int:
        return _log_position(value, self._minimum, self._maximum)

    def _from_position(self, position: int) -> float:
        return _log_value(position, self._minimum, self._maximum)


def _log_position(value: float, low: float, high: float) -> int:
    """Slider position of ``value`` on a log scale from ``low`` to ``high``."""
    fraction = (math.log10(value) - math.log10(low)) / (math.log10(high) - math.log10(low))
    return round(fraction * _LOG_STEPS)


def _log_value(position: int, low: float, high: float) -> float:
    """The value at slider ``position`` on a log scale from ``low`` to ``high``: a round one
    (two significant digits, so 180,000 rather than 181,970.1), the ends exact."""
    if position <= 0:
        return low
    if position >= _LOG_STEPS:
        return high
    exact = 10.0 ** (math.log10(low) + (math.log10(high) - math.log10(low)) * position / _LOG_STEPS)
    return float(f"{exact:.2g}")


Value = int | float | bool | str
# Widgets whose value is a setting (a session saves them); checkable buttons such as Play are
# actions, not settings.
_SETTING_TYPES = (_SliderControl, QComboBox, QCheckBox, QSpinBox, QDoubleSpinBox, QLineEdit)


def named_controls(container: QWidget) -> dict[str, QWidget]:
    """The settings inside ``container`` by ``objectName``, in the order they were built
    (the order that respects ranges one control sets for another)."""
    return {
        widget.objectName(): widget
        for widget in container.findChildren(QWidget)
        if isinstance(widget, _SETTING_TYPES)
        and widget.objectName()
        and not widget.objectName().startswith("qt_")
    }


def control_value(widget: QWidget) -> Value:
    """The value of a setting widget, in the units its parameter speaks."""
    if isinstance(widget, QComboBox):
        return _choice(widget, widget.currentIndex())
    if isinstance(widget, QCheckBox):
        return widget.isChecked()
    if isinstance(widget, QLineEdit):
        return widget.text()
    assert isinstance(widget, _SliderControl | QSpinBox | QDoubleSpinBox)
    return widget.value()


def settings(container: QWidget) -> dict[str, Value]:
    """Every named setting inside ``container`` with its value (JSON-ready)."""
    return {name: control_value(widget) for name, widget in named_controls(container).items()}


def apply_settings(container: QWidget, values: dict[str, object]) -> None:
    """Set the named settings in ``values`` in build order (a control that sets another's
    range comes first); ValueError naming the first unknown or unfitting one."""
    controls = named_controls(container)
    unknown = sorted(set(values) - set(controls))
    if unknown:
        raise ValueError(f"no setting named {', '.join(unknown)}")
    for name in (name for name in controls if name in values):
        set_control_value(controls[name], values[name])


def reset_settings(container: QWidget, defaults: dict[str, Value]) -> None:
    """Put the named settings back to ``defaults`` (from ``settings`` when the container was
    built); a number whose range has moved since (a position beyond today's seq_len) goes to
    the nearest value it may take, as a freshly built control would."""
    controls = named_controls(container)
    for name in (name for name in controls if name in defaults):
        widget, value = controls[name], defaults[name]
        if isinstance(widget, _SliderControl | QDoubleSpinBox) and not isinstance(value, str):
            widget.setValue(float(value))
        elif isinstance(widget, QSpinBox) and not isinstance(value, str):
            widget.setValue(round(value))
        else:
            set_control_value(widget, value)


def _choice(box: QComboBox, index: int) -> Value:
    """What choosing item ``index`` means: its data, or its text where it has none."""
    data = box.itemData(index)
    return box.itemText(index) if data is None else data


def set_control_value(widget: QWidget, value: object) -> None:
    """Set a setting widget; ValueError naming it and what it allows if ``value`` does not fit."""
    name = widget.objectName()
    if isinstance(widget, QComboBox):
        choices = [_choice(widget, i) for i in range(widget.count())]
        if value not in choices:
            raise ValueError(f"{name} must be one of {', '.join(map(str, choices))}, got {value!r}")
        widget.setCurrentIndex(choices.index(value))
    elif isinstance(widget, QCheckBox):
        if not isinstance(value, bool):
            raise ValueError(f"{name} must be true or false, got {value!r}")
        widget.setChecked(value)
    elif isinstance(widget, QLineEdit):
        if not isinstance(value, str):
            raise ValueError(f"{name} must be text, got {value!r}")
        widget.setText(value)
    else:
        check_holds(widget, name, value)
        assert isinstance(widget, _SliderControl | QSpinBox | QDoubleSpinBox)
        assert isinstance(value, int | float)
        if isinstance(widget, QSpinBox):
            widget.setValue(round(value))
        else:
            widget.setValue(value)


def check_holds(widget: QWidget, key: str, value: object) -> None:
    """ValueError naming ``key`` unless the number control ``widget`` can hold ``value``
    exactly: a number within its range, with no more decimals than it shows."""
    assert isinstance(widget, _SliderControl | QSpinBox | QDoubleSpinBox)
    box = widget.box if isinstance(widget, _SliderControl) else widget
    low, high = box.minimum(), box.maximum()
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ValueError(
            f"{key} must be a number in [{format_number(low)}, {format_number(high)}], "
            f"got {value!r}"
        )
    decimals = box.decimals() if isinstance(box, QDoubleSpinBox) else 0
    if decimals == 0 and box.singleStep() > 1 and value % box.singleStep():  # even dimensions
        raise ValueError(f"{key} must be a multiple of {box.singleStep():g}, got {value!r}")
    if round(value, decimals) != value:
        step = "a whole number" if decimals == 0 else f"a number with at most {decimals} decimals"
        raise ValueError(f"{key} must be {step} (the control's precision), got {value!r}")
