"""Stopping a computation whose result nobody will see, and saying how far one has got
(Qt-free: compute modules use it).

The engine's worker runs each request with a check of whether a newer request of its channel
is waiting, and a way to report progress (``running``); a computation calls
``checkpoint(done)`` between its chunks of work: it ends there, raising ``Superseded``, once
its request is stale, and otherwise reports the share ``done`` (0 … 1) of its work — of the
part it is in, when a caller marked one (``part``: a view within a frame, say).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class Superseded(Exception):
    """A newer request replaced the one being computed, or its engine stopped."""


_RUNNING = threading.local()  # this thread's check and progress report for its request


def _no_report(done: float) -> None:
    pass


@contextmanager
def running(
    stale: Callable[[], bool], report: Callable[[float], None] = _no_report
) -> Iterator[None]:
    """Within: ``checkpoint()`` on this thread raises ``Superseded`` once ``stale()``, and
    ``checkpoint(done)`` calls ``report(done)`` otherwise."""
    _RUNNING.stale, _RUNNING.report, _RUNNING.part = stale, report, (0.0, 1.0)
    try:
        yield
    finally:
        _RUNNING.stale = _RUNNING.report = None


@contextmanager
def part(first: float, last: float) -> Iterator[None]:
    """Within: the work from share ``first`` to ``last`` of the enclosing part (of the whole
    computation at the outside), so that ``checkpoint(done)`` reports ``first + done ·
    (last − first)`` of it."""
    outer = getattr(_RUNNING, "part", (0.0, 1.0))
    lo, hi = outer
    _RUNNING.part = (lo + first * (hi - lo), lo + last * (hi - lo))
    try:
        yield
    finally:
        _RUNNING.part = outer


def checkpoint(done: float | None = None) -> None:
    """Between chunks of a computation: end it (``Superseded``) when its request is stale;
    else report ``done``, the share of the work finished, if given. A no-op outside
    ``running`` (a compute called directly, by a test or the benchmark)."""
    stale = getattr(_RUNNING, "stale", None)
    if stale is None:
        return
    if stale():
        raise Superseded
    if done is not None:
        lo, hi = _RUNNING.part
        _RUNNING.report(lo + done * (hi - lo))
