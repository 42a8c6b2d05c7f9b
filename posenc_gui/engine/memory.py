"""Giving freed memory back to the system after a computation.

A frame at 2^20 positions allocates and frees hundreds of megabytes in pieces below glibc's
mmap threshold; freed, they stay in the process's heap (and count as resident) until
``malloc_trim`` returns them. Elsewhere (macOS, Windows, musl) this is a no-op.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # no libc by that name, or not glibc
        return None
    return trim


def release_freed_memory() -> None:
    """Return the heap's free pages to the system (glibc's ``malloc_trim(0)``), if it can."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
