"""Stopping a computation whose result nobody will see (Qt-free: compute modules use it).

The engine's worker runs each request with a check of whether a newer request of its channel
is waiting (``running``); a computation calls ``checkpoint()`` between its chunks of work and
ends there, raising ``Superseded``, once it is.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class Superseded(Exception):
    """A newer request replaced the one being computed, or its engine stopped."""


_RUNNING = threading.local()  # this thread's check for the request it computes


@contextmanager
def running(stale: Callable[[], bool]) -> Iterator[None]:
    """Within: ``checkpoint()`` on this thread raises ``Superseded`` once ``stale()``."""
    _RUNNING.stale = stale
    try:
        yield
    finally:
        _RUNNING.stale = None


def checkpoint() -> None:
    """Between chunks of a computation: end it (``Superseded``) when its request is stale.
    A no-op outside ``running`` (a compute called directly, by a test or the benchmark)."""
    stale = getattr(_RUNNING, "stale", None)
    if stale is not None and stale():
        raise Superseded
