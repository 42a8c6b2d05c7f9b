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

# integers as wide as each float: floats compared bit for bit, so a NaN where one was drawn
# counts as the same at a plain comparison's cost (a NaN-aware one is ~10× slower: 0.9 ms for
# 1000 × 700, on the GUI thread, for every changed heatmap)
_BITS = {2: np.int16, 4: np.int32, 8: np.int64}


def same_input(one: Any, other: Any) -> bool:
    """Equal drawing inputs: arrays by value (the same object at once; floats bit for bit),
    dataclasses field by field, lists and tuples item by item, anything else by ``==``."""
    if one is other:
        return True
    if isinstance(one, np.ndarray) or isinstance(other, np.ndarray):
        if not (isinstance(one, np.ndarray) and isinstance(other, np.ndarray)):
            return False
        if one.shape != other.shape or one.dtype != other.dtype:
            return False
        bits = _BITS.get(one.dtype.itemsize) if one.dtype.kind == "f" else None
        return bool(
            np.array_equal(one.view(bits), other.view(bits)) if bits else np.array_equal(one, other)
        )
    if dataclasses.is_dataclass(one) and not isinstance(one, type):
        return type(one) is type(other) and all(
            same_input(getattr(one, field.name), getattr(other, field.name))
            for field in dataclasses.fields(one)
        )
    if isinstance(one, list | tuple) and isinstance(other, list | tuple):
        return len(one) == len(other) and all(map(same_input, one, other))
    return type(one) is type(other) and bool(one == other)
