"""Whether a view is handed what it drew last: then it draws, and paints, nothing.

A frame draws every view of its page, while a control usually changes some of them only:
moving the Absolute tab's reference position changes view (d) alone, and the other three
views get the very arrays they drew (each view's arrays are cached by what they depend on).
Handing a plot the same data still re-lays its axes out and repaints it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np


def same_input(one: Any, other: Any) -> bool:
    """Equal drawing inputs: arrays by value (the same object at once; NaN equal to NaN),
    dataclasses field by field, lists and tuples item by item, anything else by ``==``."""
    if one is other:
        return True
    if isinstance(one, np.ndarray) or isinstance(other, np.ndarray):
        return (
            isinstance(one, np.ndarray)
            and isinstance(other, np.ndarray)
            and one.shape == other.shape
            and one.dtype == other.dtype
            and np.array_equal(one, other, equal_nan=np.issubdtype(one.dtype, np.inexact))
        )
    if dataclasses.is_dataclass(one) and not isinstance(one, type):
        return type(one) is type(other) and all(
            same_input(getattr(one, field.name), getattr(other, field.name))
            for field in dataclasses.fields(one)
        )
    if isinstance(one, list | tuple) and isinstance(other, list | tuple):
        return len(one) == len(other) and all(map(same_input, one, other))
    return type(one) is type(other) and bool(one == other)
