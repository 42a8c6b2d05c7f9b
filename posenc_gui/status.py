"""The status bar's texts that change while the user works (a frame's compute time, the
hover readout), without re-laying the window out.

A QLabel asks its layout again at every new text, and the status bar's layout asks the
window's: the dock and the tabs placed anew, the dock's separator repainted, about a
millisecond of every frame and of every mouse move over a plot.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QWidget


class SteadyLabel(QWidget):
    """One line of text, as wide as the widest it has shown and an em after it (the gap to
    the next text in the bar, where the window leaves the room): a new text no wider
    repaints the label alone, a wider one lays the status bar out again. Elided at the right
    where the window leaves it less room."""

    def __init__(self, *, objectName: str) -> None:
        super().__init__()
        self.setObjectName(objectName)
        self._text = ""
        self._width = 0  # px: the widest text shown

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:
        if text == self._text:
            return
        self._text = text
        width = self.fontMetrics().horizontalAdvance(text)
        if width > self._width:
            self._width = width
            self.updateGeometry()
        self.update()

    def clear(self) -> None:
        self.setText("")

    def sizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        return QSize(self._width + metrics.horizontalAdvance("M"), metrics.height())

    def minimumSizeHint(self) -> QSize:
        return QSize(0, self.fontMetrics().height())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:  # the widest text in the new font
            self._width = self.fontMetrics().horizontalAdvance(self._text)
            self.updateGeometry()
        super().changeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)  # the widget's font and text colour
        metrics, text = self.fontMetrics(), self._text
        if metrics.horizontalAdvance(text) > self.width():  # (elidedText measures finer)
            text = metrics.elidedText(text, Qt.TextElideMode.ElideRight, self.width())
        painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignVCenter), text)
        painter.end()
