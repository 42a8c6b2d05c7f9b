"""Signs about a tab's views (busy, not current): one line each, side by side in a strip.

A sign that comes and goes (busy, not current) must not move the views: a view that changes
size repaints whole and, at large sizes, asks for a new frame. In the window the strip sits in
the tab bar's corner, which the views never share; a tab on its own keeps it above its views,
as tall as a sign whether one shows or not. A long text is elided to the room there is (the
whole text is its tooltip).
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
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
    """The signs side by side, as tall as one sign: the first keeps the room it needs where
    there is little (the others elide first), the last takes the room left."""

    def __init__(self, *signs: Sign) -> None:
        super().__init__()
        self.setObjectName("signs")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for index, sign in enumerate(signs):
            row.addWidget(sign, 1 if index == len(signs) - 1 else 0)
        row.addStretch(0)
        self.setFixedHeight(max(sign.sizeHint().height() for sign in signs))

    def sizeHint(self) -> QSize:
        """As wide as the signs shown; in a tab bar's corner, no wider than the room the tabs
        leave (QTabWidget gives a corner widget all it asks for, and would squeeze the tabs)."""
        hint = super().sizeHint()
        holder = self.parentWidget()
        if isinstance(holder, QTabWidget):
            room = holder.width() - holder.tabBar().sizeHint().width() - CORNER_GAP_PX
            hint.setWidth(max(0, min(hint.width(), room)))
        return hint
