"""A page of views laid out in a grid whose number of columns follows the page's shape."""

from __future__ import annotations

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QGridLayout, QWidget


class ViewPage(QWidget):
    """A page's views in a grid of at most ``columns``: fewer when the page is narrow
    (presentation mode, a small window), so that views stack rather than shrink past
    legibility. The number of columns is the one whose cells are largest at a 4:3 aspect."""

    def __init__(self, views: list[QWidget], columns: int, *, objectName: str) -> None:
        super().__init__(objectName=objectName)
        self._views, self._most = views, columns
        self._grid = QGridLayout(self)
        self.columns = 0
        self._place(columns)

    def _place(self, columns: int) -> None:
        for view in self._views:
            self._grid.removeWidget(view)
        for index, view in enumerate(self._views):
            self._grid.addWidget(view, index // columns, index % columns)
        self.columns = columns

    def _fitting_columns(self) -> int:
        def cell(columns: int) -> float:
            rows = -(-len(self._views) // columns)
            return min(self.width() / columns, self.height() / rows * 4 / 3)

        return max(range(1, self._most + 1), key=cell)

    def resizeEvent(self, event: QResizeEvent) -> None:
        columns = self._fitting_columns()
        if columns != self.columns:
            self._place(columns)
        super().resizeEvent(event)
