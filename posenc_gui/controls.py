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
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from posenc_gui.choices import format_number, parse_number, plain_typing
from posenc_gui.views.style import current_look

_LOG_STEPS = 600  # slider positions across a log range: 100 per decade for 10 … 10^7


# A number on its way to being typed: digits with separators, a point, an exponent.
_PARTIAL_NUMBER = re.compile(r"[+-]?[\d,_ ]*\.?\d*([eE][+-]?\d*)?")


def parse_indices(name: str, text: str) -> list[int]:
    """``"0, 2, 8"`` (or ``０，２、８``) → ``[0, 2, 8]``; raises ValueError naming the parameter
    otherwise."""
    try:
        indices = [int(part) for part in plain_typing(text).replace(",", " ").split()]
    except ValueError:
        raise ValueError(f"{name} must be whole numbers separated by commas") from None
    if not indices:
        raise ValueError(f"{name} must list at least one index")
    return indices


def index_list(name: str, text: str = "", **options: object) -> QLineEdit:
    """A box for a list of indices (``parse_indices``): what was typed is shown in ASCII once
    typed (a Chinese input method's ``０，２、８`` as ``0,2,8``), as sessions and captions keep
    it."""
    box = QLineEdit(text, objectName=name, **options)
    box.editingFinished.connect(lambda: box.setText(plain_typing(box.text())))
    return box


def _validate(text: str, pos: int) -> tuple[QValidator.State, str, int]:
    """Any number is acceptable while typing, in range or not (``refusal`` judges it on
    Enter), and any start of one is allowed: no keystroke is dropped."""
    if parse_number(text) is not None:
        return QValidator.State.Acceptable, text, pos
    if _PARTIAL_NUMBER.fullmatch(plain_typing(text).strip()):
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
        if not low <= value <= high:  # first: 1e400 is out of range (inf), not "not whole"
            return _out_of_range(self.name, low, high, value)
        if not value.is_integer():
            return f"{self.name} must be a whole number, got {value:g}"
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


def number_box(
    name: str, low: float, high: float, value: float, step: float = 1.0, decimals: int = 2
) -> NumberSpinBox:
    """A number box without a slider (a setting few move): it takes what a person types as
    the sliders' boxes do, and its tab says why it refuses a number (``Tab.add_controls``);
    shown without trailing zeros (``0``, not ``0.000000000000000``)."""
    box = NumberSpinBox(
        objectName=name,
        decimals=decimals,
        minimum=low,
        maximum=high,
        singleStep=step,
        keyboardTracking=False,
    )
    box.name = name
    box.setValue(value)
    return box


class SliderControl(QWidget):
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
            self._show_refusal("")  # a refused number typed before is no longer the question
            self.valueChanged.emit(valid)

    def _valid(self, value: float) -> int | float:
        raise NotImplementedError

    def _to_position(self, value: float) -> int:
        raise NotImplementedError

    def _from_position(self, position: int) -> int | float:
        raise NotImplementedError


class IntControl(SliderControl):
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


class LogControl(SliderControl):
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
