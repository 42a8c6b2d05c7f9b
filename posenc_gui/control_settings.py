"""Settings: the values of a container's named controls (a tab, the shared parameters), as
sessions and presets read and set them, by ``objectName``, checked before they are set."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from posenc_gui.choices import format_number
from posenc_gui.controls import SliderControl

Value = int | float | bool | str
# Widgets whose value is a setting (a session saves them); checkable buttons such as Play are
# actions, not settings.
_SETTING_TYPES = (SliderControl, QComboBox, QCheckBox, QSpinBox, QDoubleSpinBox, QLineEdit)


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
    assert isinstance(widget, SliderControl | QSpinBox | QDoubleSpinBox)
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
        if isinstance(widget, SliderControl | QDoubleSpinBox) and not isinstance(value, str):
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
        assert isinstance(widget, SliderControl | QSpinBox | QDoubleSpinBox)
        assert isinstance(value, int | float)
        if isinstance(widget, QSpinBox):
            widget.setValue(round(value))
        else:
            widget.setValue(value)


def check_holds(widget: QWidget, key: str, value: object) -> None:
    """ValueError naming ``key`` unless the number control ``widget`` can hold ``value``
    exactly: a number within its range, with no more decimals than it shows."""
    assert isinstance(widget, SliderControl | QSpinBox | QDoubleSpinBox)
    box = widget.box if isinstance(widget, SliderControl) else widget
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
