"""Counting the events of one type an object gets (an event filter): paints of a widget's
viewport, layout requests of a window."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject


class EventCount(QObject):
    def __init__(self, kind: QEvent.Type) -> None:
        super().__init__()
        self.kind = kind
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        self.count += event.type() == self.kind
        return False


class PaintCount(EventCount):
    def __init__(self) -> None:
        super().__init__(QEvent.Type.Paint)

    @property
    def paints(self) -> int:
        return self.count
