"""Giving freed memory back to the system once the computations pause (the engine's worker
calls ``release_freed_memory`` after ``engine.TRIM_AFTER_IDLE_S`` without a request).

A frame at 2^20 positions allocates and frees hundreds of megabytes in pieces below glibc's
mmap threshold; freed, they stay in the process's heap (and count as resident) until
``malloc_trim`` returns them. Returned pages are faulted back in by the next computation that
needs them: after every frame at 512 positions that made the next one's compute half as slow
again (8.8 ms against 5.8), so the heap is trimmed only once it keeps more than
``TRIM_ABOVE_BYTES`` freed. Elsewhere (macOS, Windows, musl) this is a no-op.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Callable

TRIM_ABOVE_BYTES = 64 * 2**20  # freed memory the heap may keep resident for the next frames


class _MallInfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (2.33 and later)."""

    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            *("arena", "ordblks", "smblks", "hblks", "hblkhd"),
            *("usmblks", "fsmblks", "uordblks", "fordblks", "keepcost"),
        )
    ]


@functools.cache
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name) if name else None
    except OSError:
        return None


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    return getattr(_libc(), "malloc_trim", None)  # not glibc: none


@functools.cache
def _mallinfo2() -> Callable[[], _MallInfo2] | None:
    mallinfo2 = getattr(_libc(), "mallinfo2", None)  # glibc 2.33 and later
    if mallinfo2 is not None:
        mallinfo2.restype = _MallInfo2
    return mallinfo2


def freed_bytes() -> int | None:
    """Bytes freed but kept by the heap, all threads' arenas (glibc's ``mallinfo2``); None
    where it cannot tell."""
    mallinfo2 = _mallinfo2()
    return None if mallinfo2 is None else int(mallinfo2().fordblks)


def release_freed_memory() -> None:
    """Return the heap's free pages to the system (glibc's ``malloc_trim(0)``) once it keeps
    over ``TRIM_ABOVE_BYTES`` of them, or when it cannot tell how many it keeps."""
    trim = _malloc_trim()
    held = freed_bytes()
    if trim is not None and (held is None or held > TRIM_ABOVE_BYTES):
        trim(0)
