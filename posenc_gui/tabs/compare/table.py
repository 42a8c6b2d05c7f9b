"""The Compare tab's table: one column per encoding, one row per criterion, every name whole."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QHeaderView, QTableWidget, QTableWidgetItem

TOP_LEFT = Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft


class ComparisonTable(QTableWidget):
    """Cells of wrapped text under the encodings' names, beside the criteria. The names are on
    one line where the table's width holds every column so, else broken at a space onto two
    (presentation mode's "Implementation / difficulty", "2-D axial / RoPE"): the table scrolls
    across only where even those do not fit."""

    def __init__(
        self, criteria: Sequence[str], names: Sequence[str], cells: Sequence[Sequence[str]]
    ) -> None:
        super().__init__(len(criteria), len(names))
        self.setObjectName("comparison")
        self._labels = {
            lines: ([_broken(c, lines) for c in criteria], [_broken(n, lines) for n in names])
            for lines in (1, 2)
        }
        for column, texts in enumerate(cells):
            for row, text in enumerate(texts):
                item = QTableWidgetItem(text)
                item.setTextAlignment(TOP_LEFT)
                self.setItem(row, column, item)
        self.setWordWrap(True)
        # Rows taller than the room the table has (a small window, presentation mode) read
        # from their first line, criterion and cells alike, and scroll by pixels to the rest.
        self.verticalHeader().setDefaultAlignment(TOP_LEFT)
        self.setVerticalScrollMode(QTableWidget.ScrollMode.ScrollPerPixel)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self._lines = 0  # the headers' lines now
        self._needs: dict[int, int] = {}  # the width all columns need, by lines: measured once
        self._show_labels(1)  # shown, in the fonts of its style

    def _show_labels(self, lines: int) -> int:
        """Label the headers on ``lines`` lines; the width every column whole then needs."""
        rows, columns = self._labels[lines]
        self._lines = lines
        self.setVerticalHeaderLabels(rows)
        self.setHorizontalHeaderLabels(columns)
        header = self.horizontalHeader()
        widest = max(header.sectionSizeFromContents(c).width() for c in range(len(columns)))
        header.setMinimumSectionSize(widest)  # every encoding's name whole
        return self.verticalHeader().sizeHint().width() + widest * len(columns)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_headers()

    def _fit_headers(self) -> None:
        """Names on one line where the columns fit so, else on two."""
        if not self.isVisible():
            return  # measured in the fonts of its style once shown
        if not self._needs:
            self._needs = {lines: self._show_labels(lines) for lines in (2, 1)}
        room = self.width() - 2 * self.frameWidth() - self.verticalScrollBar().sizeHint().width()
        lines = 1 if self._needs[1] <= room else 2
        if lines != self._lines:
            self._show_labels(lines)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fit_headers()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._needs = {}  # measured again in the new font
            self._fit_headers()


def _broken(text: str, lines: int) -> str:
    """``text`` on one line, or broken onto two at its space nearest the middle (none: as it
    is)."""
    spaces = [at for at, char in enumerate(text) if char == " "]
    if lines == 1 or not spaces:
        return text
    at = min(spaces, key=lambda at: abs(2 * at - len(text)))
    return f"{text[:at]}\n{text[at + 1 :]}"
