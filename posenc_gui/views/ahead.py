"""Plot items made ahead of need, in idle time.

Making a pyqtgraph item costs more than handing it a frame's data (a rotation panel 7.6 ms, a
curve item 0.5 ms): a view whose frames may ask for more items than it shows makes them once it
has drawn, a batch per turn of the event loop, so that a frame asking for more finds them made
instead of making them while the user waits.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer


class MadeAhead:
    """Calls ``make`` (one item more) ``batch`` times a turn of the event loop while
    ``missing()`` (how many more are wanted) is above 0, from ``start`` on."""

    def __init__(
        self, owner: QObject, make: Callable[[], None], missing: Callable[[], int], batch: int = 1
    ) -> None:
        self._make, self._missing, self._batch = make, missing, batch
        self._timer = QTimer(owner, singleShot=True, interval=0)  # stops with its owner
        self._timer.timeout.connect(self._turn)

    def start(self) -> None:
        """Make what is missing from the next turn of the event loop on (already making, or
        nothing missing: nothing to do)."""
        if self._missing() > 0 and not self._timer.isActive():
            self._timer.start()

    def _turn(self) -> None:
        missing = self._missing()
        for _ in range(min(self._batch, missing)):
            self._make()
        if self._missing() < missing:  # a ``make`` that made nothing would turn for ever
            self.start()
