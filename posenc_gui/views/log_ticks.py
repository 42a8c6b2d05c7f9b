"""Ticks and labels of a log axis (values are log10 of what is shown).

pyqtgraph lists a log axis's decades with its minor values (2 … 9 in each decade) where the
axis spans less than about three decades, so a minor label drawn before a decade's pushed it
out (0.009 beside 0.01: no 0.01 and no 0.1 on an axis over 0.002 … 0.2); an axis inside one
decade got one label or none (1.44 … 2.0: "2"); and its labels mixed forms on one axis
("6·10¹" beside "9", "0.0001" beside "10⁻⁵").
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg

from posenc_gui.views.axis_specs import linear_tick_values

# Labels are written out (0.002, 250, 50k) where all of an axis's values lie in this range,
# as powers of ten (2×10⁻⁵, 10⁶) otherwise.
WRITTEN_OUT = (1e-4, 1e5)
SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
MOST_DIGITS = 12  # significant digits a label may need to differ from its neighbours


def log_levels(axis: pg.AxisItem, levels: list, low: float, high: float, size: float) -> list:
    """pyqtgraph's levels of a log axis over ``low … high`` (log10), its decades first, in a
    level of their own, and left out of the minor values; where fewer than two values fall
    on the axis (within about a decade), round values of its linear range (1.5, 1.6 …)."""
    low, high = sorted((low, high))
    major = [(spacing, values) for spacing, values in levels if spacing is not None]
    minor = [value for spacing, values in levels if spacing is None for value in values]
    if not major:
        first, last = math.ceil(low - 1e-9), math.floor(high + 1e-9)
        major = [(1.0, [float(k) for k in range(first, last + 1)])] if first <= last else []
    decades = {round(value) for _, values in major for value in values}
    minor = [value for value in minor if not _is_decade(value, decades)]
    if len(decades) + len(minor) < 2 and high > low:
        linear = linear_tick_values(axis, 10.0**low, 10.0**high, size)
        return [(None, [math.log10(v) for v in values if v > 0]) for _, values in linear]
    return [*major, (None, minor)] if minor else major


def _is_decade(value: float, decades: set[int]) -> bool:
    """Whether the log-axis tick ``value`` (a log10) is one of the whole ``decades``."""
    return abs(value - round(value)) < 1e-9 and round(value) in decades


def log_labels(values: list[float], axis_range: tuple[float, float]) -> list[str]:
    """Labels of log-axis ticks at ``values`` (log10), all in one form: written out where the
    axis's range (log10) lies within WRITTEN_OUT, powers of ten otherwise; with four significant
    digits, more where ticks within a decade need them to differ (1.0001, 1.0002)."""
    low, high = sorted(axis_range)
    written_out = math.log10(WRITTEN_OUT[0]) <= low and high < math.log10(WRITTEN_OUT[1])
    for digits in range(4, MOST_DIGITS + 1):
        labels = [_written(10.0**v, digits) if written_out else _power(v, digits) for v in values]
        if len(set(labels)) == len(labels):
            break
    return labels


def _written(value: float, digits: int) -> str:
    """0.002, 1.5, 250, 50k: ``digits`` significant digits at most, trailing zeros dropped."""
    rounded = float(np.format_float_positional(value, precision=digits, fractional=False))
    if rounded >= 1e4:  # rounded first: 9,999.99 is 10k, beside 20k
        return f"{_written(rounded / 1e3, digits)}k"
    return str(
        np.format_float_positional(
            rounded, precision=digits, unique=False, fractional=False, trim="-"
        )
    )


def _power(log_value: float, digits: int) -> str:
    """10⁶, 2×10⁻⁵, 1.5×10³."""
    exponent = math.floor(log_value + 1e-9)
    mantissa = _written(10.0 ** (log_value - exponent), digits)
    if mantissa == "10":  # rounded up to the next decade
        mantissa, exponent = "1", exponent + 1
    power = "10" + str(exponent).translate(SUPERSCRIPT)
    return power if mantissa == "1" else f"{mantissa}×{power}"
