"""Signs over a tab's views: one line each, in a strip of fixed height.

A sign that comes and goes (busy, not current) must not move the views: a view that changes
size repaints whole and, at large sizes, asks for a new frame. So the strip keeps its height
whether a sign shows or not, and a long text is elided to the room there is (the whole text
is its tooltip).
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
    QWidget,
)


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
        return QSize(0, self.sizeHint().height())  # it elides rather than widening the page

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


def sign_strip(*signs: Sign) -> QWidget:
    """The signs side by side (the last takes the room left) in a strip as tall as one sign,
    shown or not."""
    strip = QWidget()
    strip.setObjectName("signs")
    row = QHBoxLayout(strip)
    row.setContentsMargins(0, 0, 0, 0)
    for index, sign in enumerate(signs):
        row.addWidget(sign, 1 if index == len(signs) - 1 else 0)
    row.addStretch(0)
    strip.setFixedHeight(max(sign.sizeHint().height() for sign in signs))
    return strip
