"""A small tab registered from the test suite: proof that one registry line is all a new
encoding needs to appear in the command line, export, sessions, Compare and the storm."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from PySide6.QtWidgets import QWidget

from posenc_gui.comparison import Curve as CompareCurve
from posenc_gui.comparison import Entry, Inputs, Setting
from posenc_gui.controls import IntControl
from posenc_gui.encodings import binning
from posenc_gui.encodings.window import Window, full
from posenc_gui.tab import Tab, TabContext
from posenc_gui.tabspec import TabSpec
from posenc_gui.views import Curve, CurvesView


@dataclass(frozen=True)
class DummyParams:
    seq_len: int
    scale: int
    x: Window | None = None


@dataclass(frozen=True)
class DummyFrame:
    params: DummyParams
    x: np.ndarray
    y: np.ndarray


def compute_dummy(p: DummyParams, device: torch.device) -> DummyFrame:
    """``y = scale · x / seq_len`` at the centre of each pixel."""
    x = binning.centres(full(p.x, 0, p.seq_len))
    return DummyFrame(p, x.numpy(), (p.scale * x / p.seq_len).numpy())


def dummy_curves(inputs: Inputs) -> tuple[CompareCurve, ...]:
    """Similarity ``1 / (1 + k / slope)`` at each pixel's centre distance: 1 at distance 0."""
    slope = inputs.settings["dummy_slope"]
    k = inputs.starts + (inputs.counts - 1) / 2
    values = (1.0 / (1.0 + k / slope)).numpy()
    return (CompareCurve("dummy", "dummy, slope {s}", values, {"s": slope}),)


class DummyTab(Tab):
    spec = TabSpec("dummy", "tests.dummy_tab:DummyTab", {"line": None}, "Dummy")
    compute = staticmethod(compute_dummy)
    compare = (
        Entry(
            "Dummy",
            ("a test tab", "none", "free", "tests", "trivial"),
            dummy_curves,
            (Setting("dummy_slope", "dummy slope", 1, 100, 10),),
        ),
    )

    def __init__(self, context: TabContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.scale = IntControl("scale", 1, 10, 2)
        self.controls.addRow("scale", self.scale)
        self.line_view = CurvesView("Dummy line", "position", "value")
        self.add_view("line", self.line_view, 0, 0)
        for signal in (self.scale.valueChanged, self.line_view.viewport.changed):
            signal.connect(self.refresh)

    def request(self) -> DummyParams:
        seq_len = self.parameters.seq_len.value()
        return DummyParams(seq_len, int(self.scale.value()), self.line_view.x_window(0, seq_len))

    def draw(self, frame: DummyFrame) -> None:
        curve = Curve("scale · x / seq_len", frame.x, frame.y)
        self.line_view.set_curves([curve], x_extent=(0, frame.params.seq_len))

    def caption_parameters(self) -> str:
        return f"scale {self.scale.value()}"
