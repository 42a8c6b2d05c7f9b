"""The parameters every tab shares: sequence length, model and head dimensions, base θ."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from posenc_gui.choices import D_MODEL_RANGE, HEAD_DIM_RANGE, SEQ_LEN_RANGE, THETA_RANGE
from posenc_gui.controls import IntControl, LogControl
from posenc_gui.i18n import tr


class ParameterPanel(QWidget):
    """Shared controls; ``changed`` fires once for any change of any of them."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("parameters")
        self.seq_len = IntControl("seq_len", *SEQ_LEN_RANGE, 64, log=True)
        self.d_model = IntControl("d_model", *D_MODEL_RANGE, 128, step=2, log=True)
        self.head_dim = IntControl("head_dim", *HEAD_DIM_RANGE, 128, step=2)
        self.theta = LogControl("theta", *THETA_RANGE, 10000.0)
        # One column per parameter, in a strip across the window: the figures keep its width.
        grid = QGridLayout(self)
        grid.setContentsMargins(8, 0, 8, 4)
        grid.setHorizontalSpacing(24)
        self.holds: dict[str, QLabel] = {}  # why a parameter is held, under its control
        for column, (label, control) in enumerate(
            (
                (tr("seq_len (positions)"), self.seq_len),
                (tr("d_model (even)"), self.d_model),
                (tr("head_dim (RoPE, even)"), self.head_dim),
                (tr("base θ (log scale)"), self.theta),
            )
        ):
            grid.addWidget(QLabel(label), 0, column)
            grid.addWidget(control, 1, column)
            hold = QLabel(objectName=f"{control.objectName()}_held", wordWrap=True, visible=False)
            grid.addWidget(hold, 2, column)
            grid.setColumnStretch(column, 1)
            self.holds[control.objectName()] = hold
        for control in (self.seq_len, self.d_model, self.head_dim, self.theta):
            control.setToolTip(
                f"{control.objectName()}: {control.box.minimum():g} … {control.box.maximum():g}"
            )
            control.valueChanged.connect(self.changed)

    def sizes(self) -> tuple[int, int, int]:
        """(seq_len, d_model, head_dim) as they are now."""
        return self.seq_len.value(), self.d_model.value(), self.head_dim.value()

    def hold(self, name: str, reason: str) -> None:
        """Hold parameter ``name`` where another setting put it, saying why under it (``""``
        releases it)."""
        getattr(self, name).setEnabled(not reason)
        self.holds[name].setText(reason)
        self.holds[name].setVisible(bool(reason))
