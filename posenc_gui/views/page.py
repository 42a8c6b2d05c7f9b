"""A page of views laid out in a grid whose number of columns follows the page's shape, and
the tab widgets that hold pages."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QGridLayout, QTabWidget, QWidget

UNLIMITED = (1 << 24) - 1  # Qt's QWIDGETSIZE_MAX: a widget's height with no maximum set
STRIP_SHARE = 2  # a row of views takes this many times the share of a row of strips


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
        # Rows and columns share the page alike: by size hints alone, presentation mode's fonts
        # gave the lower row of Relative's score page three times the upper one's height. A
        # row of strips held to a height (Multimodal's id strip) takes half a row's share: by
        # size hints it took its most in presentation mode, by an equal share half the page.
        rows = -(-len(self._views) // columns)
        for row in range(len(self._views)):
            row_views = self._views[row * columns : (row + 1) * columns]
            held = all(view.maximumHeight() < UNLIMITED for view in row_views)
            self._grid.setRowStretch(row, 0 if row >= rows else 1 if held else STRIP_SHARE)
        for column in range(self._most):
            self._grid.setColumnStretch(column, int(column < columns))
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


# Events at which Qt lays a tab widget out itself, with no layout request: the next request
# is let through (what was recorded before may not be what it is laid out for now). Tabs and
# corner widgets that come and go also lay it out directly, and change what is recorded.
_LAID_OUT_DIRECTLY = {
    QEvent.Type.Resize,
    QEvent.Type.Show,
    QEvent.Type.StyleChange,
    QEvent.Type.FontChange,
}

_CORNERS = (Qt.Corner.TopLeftCorner, Qt.Corner.TopRightCorner)


class SteadyTabWidget(QTabWidget):
    """A QTabWidget that places its tab bar, corner and pages again, and repaints itself
    whole, only where what it lays out changed. Qt's does both at every layout request from
    a page: a view of a page whose plot laid out a line more of legend or title repainted the
    tab widget's frame and every page widget around the views (1.5–2 ms of such a frame)."""

    def __init__(self, *, objectName: str = "") -> None:
        super().__init__(objectName=objectName)
        self._placed: tuple[object, ...] | None = None  # what its parts were last placed for
        self._hints: tuple[QSize, QSize] | None = None  # its size hints then

    def event(self, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.LayoutRequest:
            placed, hints = self._placement(), (self.sizeHint(), self.minimumSizeHint())
            if placed == self._placed:  # no part to move, nothing to repaint …
                if hints != self._hints:  # … but its parent's layout reads new hints
                    self._hints = hints
                    self.updateGeometry()
                return True
            self._placed, self._hints = placed, hints
        elif kind in _LAID_OUT_DIRECTLY:
            self._placed = None  # Qt places its parts for these itself: the next request too
        return super().event(event)

    def _placement(self) -> tuple[object, ...]:
        """What Qt's layout of a tab widget places its parts by: its size, and its bar's and
        corner widgets' size hints."""
        bar = self.tabBar()
        placed = (self.cornerWidget(corner) for corner in _CORNERS)
        corners = [
            (corner, corner.isVisibleTo(self), QSize(corner.sizeHint()))
            for corner in placed
            if corner is not None
        ]
        return (QSize(self.size()), bar.isVisibleTo(self), QSize(bar.sizeHint()), *corners)
