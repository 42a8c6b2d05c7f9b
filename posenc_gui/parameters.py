"""The parameters every tab shares: sequence length, model and head dimensions, base θ."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFormLayout, QWidget

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
        form = QFormLayout(self)
        form.addRow(tr("seq_len (positions)"), self.seq_len)
        form.addRow(tr("d_model (even)"), self.d_model)
        form.addRow(tr("head_dim (RoPE, even)"), self.head_dim)
        form.addRow(tr("base θ (log scale)"), self.theta)
        for control in (self.seq_len, self.d_model, self.head_dim, self.theta):
            control.setToolTip(
                f"{control.objectName()}: {control.box.minimum():g} … {control.box.maximum():g}"
            )
            control.valueChanged.connect(self.changed)
