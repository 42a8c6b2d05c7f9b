"""The benchmark's scripted steps: each control of a tab's page in front moved to another valid
value in turn, with a way back."""

from __future__ import annotations

from collections.abc import Callable

# A scripted change: returns False when nothing could change, else a way back.
Undo = Callable[[], object]
Step = Callable[[], "Undo | bool"]

# The sizes under test and the toggles that change them or start animations stay untouched.
UNTOUCHED = {"seq_len", "d_model", "head_dim", "label_tokens", "play", "sweep"}

GOLDEN = (5**0.5 - 1) / 2  # its multiples modulo 1 never repeat and fill the interval evenly


def controls_of(window, tab_name: str) -> list:
    """Every control a user can move on the tab's page in front, plus the shared base θ."""
    from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QSpinBox

    from posenc_gui.controls import IntControl, LogControl

    tab = window.tab(tab_name)
    found = [
        widget
        for kind in (IntControl, LogControl, QComboBox, QCheckBox, QSpinBox, QDoubleSpinBox)
        for widget in tab.findChildren(kind)
        if widget.objectName()
        and widget.objectName() not in UNTOUCHED
        and not isinstance(widget.parent(), IntControl | LogControl)
        and widget.isVisibleTo(tab)  # the page's own: another page's rows are hidden
    ]
    return [window.parameters.theta, *sorted(found, key=lambda w: w.objectName())]


def _change(control, k: int) -> Step:
    """An action that moves ``control`` to another valid value (a choice or check box to its
    next; a number to a share of its range given by ``k``, the step's number in the run); it
    returns False when nothing could change, else a way back. A range of few values repeats
    them: there are no others."""
    from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QSpinBox

    if isinstance(control, QComboBox):

        def choose() -> Undo:
            index = control.currentIndex()
            control.setCurrentIndex((index + 1) % control.count())
            return lambda: control.setCurrentIndex(index)

        return choose
    if isinstance(control, QCheckBox):

        def toggle() -> Undo:
            control.toggle()
            return control.toggle

        return toggle
    box = control if isinstance(control, QSpinBox | QDoubleSpinBox) else control.box
    low, high = box.minimum(), box.maximum()
    # a value each visit has not had, as a drag gives (two values in turn would be served from
    # the views' caches): shares of the middle of the range (geometric for log ranges) spread
    # by the golden ratio, k being the step's number in the whole run
    share = 0.2 + 0.6 * (k * GOLDEN % 1.0)
    value = low * (high / low) ** share if low > 0 else low + (high - low) * share

    def move() -> Undo | bool:
        before = control.value()
        for target in (value, low, high):  # the first that really changes it (after rounding)
            control.setValue(target)
            if control.value() != before:
                return lambda: control.setValue(before)
        return False  # a one-value range (one ALiBi head, say): nothing to time

    return move


def scripted_steps(window, tab_name: str, count: int, first: int) -> list[tuple[str, Step]]:
    """``count`` scripted (control name, change) steps walking through the tab's controls.

    ``first`` numbers the steps across the whole run, so consecutive steps differ.
    """
    controls = controls_of(window, tab_name)
    return [
        (controls[k % len(controls)].objectName(), _change(controls[k % len(controls)], k))
        for k in range(first, first + count)
    ]
