"""Argument checks shared by the encodings: each raises ValueError naming the parameter."""

from __future__ import annotations

import math
import numbers
from typing import TypeVar

Dtype = TypeVar("Dtype")

MAX_DIM = 1 << 16  # model, head and rotary dimensions (real models stay under 2^14)
MAX_ELEMENTS = 1 << 28  # in one table: 2 GiB of float64, refused before it is allocated


def check_int(name: str, value: object, low: int, high: int | None = None) -> int:
    """Return ``value`` as int if it is an integer in ``[low, high]``, else raise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    value = int(value)
    upper = "∞" if high is None else str(high)
    if value < low or (high is not None and value > high):
        raise ValueError(f"{name} must be in [{low}, {upper}], got {value}")
    return value


def check_even(name: str, value: object, low: int = 2, high: int | None = None) -> int:
    """Return ``value`` if it is an even integer in ``[low, high]``, else raise."""
    value = check_int(name, value, low, high)
    if value % 2:
        raise ValueError(f"{name} must be even, got {value}")
    return value


def check_base(name: str, value: object) -> float:
    """Return ``value`` as float if it is a finite number > 1 (a RoPE / sinusoid base)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value) or value <= 1.0:
        raise ValueError(f"{name} must be a finite number > 1, got {value}")
    return value


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of ``choices``, else raise."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")
    return str(value)


def check_elements(what: str, count: int) -> None:
    """Raise if a table of ``count`` numbers (``what``: its shape in words) is too large."""
    if count > MAX_ELEMENTS:
        raise ValueError(f"{what} is {count:,} numbers, more than the {MAX_ELEMENTS:,} allowed")


def check_float_dtype(name: str, value: Dtype) -> Dtype:
    """Return ``value`` if it is a torch floating dtype (``torch.bfloat16`` … ``torch.float64``;
    not the string ``"float32"``, which torch would read as a device), else raise. Known by
    its ``is_floating_point`` flag: this module imports no torch (``window`` uses it)."""
    floating = getattr(value, "is_floating_point", None)
    if not isinstance(floating, bool):  # a string, a tensor (a method there), None
        raise TypeError(f"{name} must be a torch dtype such as torch.float32, got {value!r}")
    if not floating:
        raise ValueError(
            f"{name} must be a floating dtype (torch.bfloat16 … torch.float64), got {value}"
        )
    return value
