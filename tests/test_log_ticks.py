"""A log axis labels its decades, reads within a decade, and writes its labels in one form."""

from __future__ import annotations

import math

import numpy as np
import pytest

from posenc_gui.views import Curve, CurvesView
from posenc_gui.views.log_ticks import log_labels
from tests.shown_view import shown_view
from tests.text_boxes import drawn_tick_labels

SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def drawn_labels(view: CurvesView) -> list[str]:
    """The labels the view's left axis draws."""
    return drawn_tick_labels(view.plot.getAxis("left"))


def log_view(qtbot, low: float, high: float, height: int = 500) -> CurvesView:
    """A 700 px wide view of y from ``low`` to ``high`` on a log axis."""
    view = shown_view(qtbot, 700, height)
    view.set_log(y=True)
    x = np.arange(400.0)
    view.set_curves([Curve("a", x, np.geomspace(low, high, len(x)))])
    qtbot.wait(50)
    return view


def value_of(label: str) -> float:
    """A label's number: 0.002, 50k, 2×10⁻⁵, 10⁶."""
    if "10" in label and any(c in label for c in "⁰¹²³⁴⁵⁶⁷⁸⁹"):
        mantissa, _, power = label.rpartition("10")
        return float(mantissa.rstrip("×") or 1) * 10.0 ** int(power.translate(SUPERSCRIPT_DIGITS))
    return float(label[:-1]) * 1e3 if label.endswith("k") else float(label)


@pytest.mark.parametrize(("low", "height"), [(0.002, 400), (0.0015, 600)])
def test_an_axis_over_two_decades_labels_both_of_its_decades(qtbot, low, height):
    # pyqtgraph lists decades among the minor values there: 0.009, drawn first, pushed 0.01 out
    # (RoPE's bfloat16 error at 64 positions)
    labels = drawn_labels(log_view(qtbot, low, 0.19, height))
    assert {"0.01", "0.1"} <= set(labels)


def test_an_axis_within_a_decade_reads_by_round_values(qtbot):
    # bfloat16's worst error at a million positions: 1.44 … 2 had a single label, "2"
    labels = drawn_labels(log_view(qtbot, 1.44, 2.0))
    values = [value_of(label) for label in labels]
    assert len(values) >= 4 and len(set(values)) == len(values)
    assert all(1.4 <= v <= 2.05 for v in values), labels
    assert all(round(v, 2) == v for v in values), labels  # round: 1.5, 1.6, …


@pytest.mark.parametrize(
    ("low", "high", "form"),
    [
        (6.0, 60.0, "written"),  # was 6·10¹ … 2·10¹ beside 10¹, 9, 8
        (1e-3, 0.5, "written"),
        (20.0, 30_000.0, "written"),
        (1e-5, 1e5, "powers"),  # was 10⁵ … 10¹, 1, 0.1 … 0.0001, 10⁻⁵
        (3.0, 1e7, "powers"),
    ],
)
def test_an_axis_writes_every_label_in_one_form(qtbot, low, high, form):
    labels = drawn_labels(log_view(qtbot, low, high))
    assert len(labels) >= 3
    powers = [any(c in label for c in "⁰¹²³⁴⁵⁶⁷⁸⁹") for label in labels]
    assert all(powers) if form == "powers" else not any(powers), labels
    for label in labels:  # and each reads as a value on the axis
        assert low / 1.5 <= value_of(label) <= high * 1.5, label


@pytest.mark.parametrize(
    ("value", "written", "power"),
    [
        (0.002, "0.002", "2×10⁻³"),
        (1.5, "1.5", "1.5×10⁰"),
        (60.0, "60", "6×10¹"),
        (1.0, "1", "10⁰"),
        (50_000.0, "50k", "5×10⁴"),
        (9.9999999999, "10", "10¹"),  # rounding reaches the next decade
    ],
)
def test_log_labels_read_as_a_person_writes_them(value, written, power):
    log = math.log10(value)
    assert log_labels([log], (-1.0, 1.0) if value < 1e4 else (2.0, 4.8)) == [written]
    assert log_labels([log], (-6.0, 6.0)) == [power]
