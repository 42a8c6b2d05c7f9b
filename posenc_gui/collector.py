"""Python's cycle collector: on the GUI thread only, and not at all during start-up.

Python collects reference cycles in whichever thread happens to allocate past a generation's
threshold. A cycle that holds a Qt object (a plot item a view let go, the widgets of a closed
window) collected on the engine's worker thread destroys that object there while the GUI thread
paints the same scene: an intermittent crash. So automatic collection is turned off, and a timer
of the application collects each generation on the GUI thread once its count is past Python's
own threshold (pyqtgraph's ``GarbageCollector``).

Importing torch, Qt and pyqtgraph and building the window make about 300,000 objects that live
as long as the app. A full pass walks them all: three passes during start-up (140–200 ms of the
first frame on 2 CPUs), then one about every two minutes of use (100 ms, the interface frozen).
So start-up runs without collection, and then freezes what it made out of every later pass
(``gc.freeze``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

COLLECT_EVERY_S = 1.0  # cycles freed at most this late
_collector: list[Any] = []  # the one GUI-thread collector, once installed


def collect_garbage_on_this_thread() -> None:
    """From now on, collect cycles only on the calling (GUI) thread, from its event loop.
    Once per process; without a QCoreApplication (no event loop) Python's own stays on."""
    from pyqtgraph.util.garbage_collector import GarbageCollector
    from PySide6.QtCore import QCoreApplication

    app = QCoreApplication.instance()
    if _collector or app is None:
        return
    collector = GarbageCollector(interval=COLLECT_EVERY_S)  # turns Python's own off
    collector.timer.setParent(app)  # destroyed with the application, never after it
    _collector.append(collector)


@contextmanager
def without_collector() -> Iterator[None]:
    """No cycle collection inside (start-up's imports and window); what exists at the end is
    frozen out of later passes. Python's own collection then runs again if it ran before,
    unless the GUI thread's took its place inside."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled and not _collector:
            gc.enable()
