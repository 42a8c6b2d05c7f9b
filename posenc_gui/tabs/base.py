"""What every tab shares: a controls column, a grid of views, and one engine channel."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFormLayout, QGridLayout, QHBoxLayout, QLabel, QWidget

from posenc_gui.engine import Engine
from posenc_gui.engine.engine import Compute
from posenc_gui.parameters import ParameterPanel


class Tab(QWidget):
    """A tab composes controls and views; subclasses say what to compute and how to draw it.

    ``objectName`` is the tab's name and its engine channel.
    """

    hovered = Signal(str)
    compute: Compute

    def __init__(
        self, name: str, engine: Engine, parameters: ParameterPanel, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.engine, self.parameters = engine, parameters
        self.controls = QFormLayout()
        self.message = QLabel()
        self.message.setObjectName("message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b00020;")
        column = QWidget()
        column.setLayout(self.controls)
        column.setFixedWidth(340)
        self.views = QGridLayout()
        layout = QHBoxLayout(self)
        layout.addWidget(column)
        layout.addLayout(self.views, 1)

    def add_view(self, view: QWidget, row: int, col: int) -> None:
        self.views.addWidget(view, row, col)
        if hasattr(view, "hovered"):
            view.hovered.connect(self.hovered)

    def refresh(self) -> None:
        """Ask the engine for a new frame of the current parameters (never blocks)."""
        self.engine.submit(self.objectName(), type(self).compute, self.request(), self.draw)

    def request(self) -> Any:
        """The immutable parameters of the next frame."""
        raise NotImplementedError

    def draw(self, frame: Any) -> None:
        """Hand a computed frame's arrays to the views."""
        raise NotImplementedError
