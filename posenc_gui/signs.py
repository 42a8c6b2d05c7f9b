"""Signs about a tab's views (busy, not current): one line each, side by side in a strip.

A sign that comes and goes (busy, not current) must not move the views: a view that changes
size repaints whole and, at large sizes, asks for a new frame. In the window the strip sits in
the tab bar's corner, which the views never share; a tab on its own keeps it above its views,
as tall as a sign whether one shows or not. A long text is elided to the room there is (the
whole text is its tooltip).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QStyle,
    QStyleOption,
    QTabWidget,
    QWidget,
)

from posenc_gui.views.legend import QWIDGETSIZE_MAX

CORNER_GAP_PX = 12  # between the last tab and a sign in the tab bar's corner
SHOWN_AT_LEAST = 9  # characters of a sign's text that it keeps however narrow the room


class Sign(QLabel):
    """A one-line label on a coloured ground (``background`` a CSS colour), its text elided
    at the right where the strip is narrower than it."""

    def __init__(self, text: str, *, background: str, objectName: str) -> None:
        super().__init__(text)
        self.setObjectName(objectName)
        self.setStyleSheet(
            f"background: {background}; color: white; padding: 4px 8px; border-radius: 4px;"
        )
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setToolTip(text)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(text)

    def minimumSizeHint(self) -> QSize:
        """Room for its first few characters and "…": it elides rather than widening the page,
        but a sign squeezed to a sliver of colour would say nothing."""
        text = self.text()
        shown = text if len(text) <= SHOWN_AT_LEAST else text[:SHOWN_AT_LEAST].rstrip() + "…"
        hint, metrics = self.sizeHint(), self.fontMetrics()
        padding = hint.width() - metrics.horizontalAdvance(text)
        return QSize(padding + metrics.horizontalAdvance(shown), hint.height())

    def paintEvent(self, event: QPaintEvent) -> None:
        option = QStyleOption()
        option.initFrom(self)
        painter = QPainter(self)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_Widget, option, painter, self)
        room = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, room.width())
        painter.drawText(
            room, int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft), text
        )
        painter.end()


class SignStrip(QWidget):
    """The signs side by side at its right end, as tall as one sign: the first keeps the room
    it needs where there is little (the others elide first).

    In a tab bar's corner it is as wide as the room the tabs leave, whatever it shows: a sign
    that comes, goes or says something new (a percentage) re-lays the strip out, not the tab
    widget, which repaints whole when its corner changes size (2–3 ms a time)."""

    def __init__(self, *signs: Sign) -> None:
        super().__init__()
        self._holder: QTabWidget | None = None  # the tab widget whose corner it is in, if any
        self.setObjectName("signs")
        shown = QWidget()  # as wide as the signs shown: the last elides first, the first last
        row = QHBoxLayout(shown)
        row.setContentsMargins(0, 0, 0, 0)
        for index, sign in enumerate(signs):
            row.addWidget(sign, 1 if index == len(signs) - 1 else 0)
        row.addStretch(0)
        strip = QHBoxLayout(self)
        strip.setContentsMargins(0, 0, 0, 0)
        strip.addStretch(1)
        strip.addWidget(shown)
        self.setFixedHeight(max(sign.sizeHint().height() for sign in signs))

    def event(self, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.ParentChange:
            if self._holder is not None:
                self._holder.removeEventFilter(self)
            holder = self.parentWidget()
            self._holder = holder if isinstance(holder, QTabWidget) else None
            self._fit_room()
        elif self._holder is not None and kind in (QEvent.Type.Show, QEvent.Type.Hide):
            # the holder's resizes followed only while this tab's strip is the one in its corner
            self._holder.removeEventFilter(self)
            if kind == QEvent.Type.Show:
                self._holder.installEventFilter(self)
                self._fit_room()
        return super().event(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._holder and event.type() == QEvent.Type.Resize:
            self._fit_room()
        return False

    def _fit_room(self) -> None:
        """In a tab bar's corner: as wide as the room the tabs leave (QTabWidget gives a corner
        widget all it asks for, and would squeeze the tabs); elsewhere as its layout says."""
        if self._holder is None:
            self.setMinimumWidth(0)
            self.setMaximumWidth(QWIDGETSIZE_MAX)
            return
        tabs = self._holder.tabBar().sizeHint().width()
        self.setFixedWidth(max(0, self._holder.width() - tabs - CORNER_GAP_PX))

    def sizeHint(self) -> QSize:
        """As tall as a sign, shown or not; in a tab bar's corner as wide as its room."""
        hint = super().sizeHint()
        hint.setHeight(self.minimumHeight())
        if self._holder is not None:
            hint.setWidth(self.maximumWidth())
        return hint
