"""Python's cycle collector on the GUI thread only.

Python collects reference cycles in whichever thread happens to allocate past a generation's
threshold. A cycle that holds a Qt object (a plot item a view let go, the widgets of a closed
window) collected on the engine's worker thread destroys that object there while the GUI thread
paints the same scene: an intermittent crash. So automatic collection is turned off, and a timer
of the application collects each generation on the GUI thread once its count is past Python's
own threshold (pyqtgraph's ``GarbageCollector``).
"""

from __future__ import annotations

from pyqtgraph.util.garbage_collector import GarbageCollector
from PySide6.QtCore import QCoreApplication

COLLECT_EVERY_S = 1.0  # cycles freed at most this late
_collector: list[GarbageCollector] = []  # the one collector, once installed


def collect_garbage_on_this_thread() -> None:
    """From now on, collect cycles only on the calling (GUI) thread, from its event loop.
    Once per process; without a QCoreApplication (no event loop) Python's own stays on."""
    app = QCoreApplication.instance()
    if _collector or app is None:
        return
    collector = GarbageCollector(interval=COLLECT_EVERY_S)
    collector.timer.setParent(app)  # destroyed with the application, never after it
    _collector.append(collector)
