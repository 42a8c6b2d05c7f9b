"""Counting the paints a widget gets (an event filter on its viewport)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject


class PaintCount(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.paints = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        self.paints += event.type() == QEvent.Type.Paint
        return False
