"""Controls hold only valid values and speak their parameter's units."""

from __future__ import annotations

import pytest

from posenc_gui.controls import IntControl, LogControl


@pytest.fixture
def d_model(qtbot):
    control = IntControl("d_model", 2, 2048, 128, step=2)
    qtbot.addWidget(control)
    return control


def test_even_control_snaps_and_clamps(d_model):
    seen = []
    d_model.valueChanged.connect(seen.append)
    d_model.setValue(7)
    d_model.setValue(5000)
    d_model.setValue(-3)
    assert seen == [6, 2048, 2]
    d_model.setValue(2)
    assert seen == [6, 2048, 2]  # no echo without a change


def test_typing_an_odd_number_is_not_accepted(d_model, qtbot):
    d_model.box.lineEdit().selectAll()
    qtbot.keyClicks(d_model.box.lineEdit(), "513")
    d_model.box.interpretText()
    assert d_model.value() % 2 == 0
    assert d_model.value() == 512


def test_slider_moves_in_steps_of_the_parameter(d_model):
    d_model.slider.setValue(10)
    assert d_model.value() == 22
    d_model.setValue(1000)
    assert d_model.slider.value() == 499


def test_log_control_speaks_base_units(qtbot):
    theta = LogControl("theta", 10.0, 1e7, 10000.0)
    qtbot.addWidget(theta)
    theta.setValue(500.0)
    assert theta.value() == 500.0
    theta.slider.setValue(theta.slider.maximum())
    assert theta.value() == 1e7
    theta.slider.setValue(0)
    assert theta.value() == 10.0
    theta.setValue(float("nan"))
    assert theta.value() == 10.0
    theta.setValue(1e12)
    assert theta.value() == 1e7


def test_set_range_clamps_the_value(qtbot):
    control = IntControl("reference_position", 0, 100, 80)
    qtbot.addWidget(control)
    control.setRange(0, 9)
    assert control.value() == 9
    assert control.slider.maximum() == 9


def test_log_int_control_covers_a_million_positions(qtbot):
    seq_len = IntControl("seq_len", 1, 1 << 20, 64, log=True)
    qtbot.addWidget(seq_len)
    seq_len.slider.setValue(seq_len.slider.maximum())
    assert seq_len.value() == 1 << 20
    seq_len.slider.setValue(0)
    assert seq_len.value() == 1
    seq_len.setValue(777)  # any value, not just slider stops
    assert seq_len.value() == 777
    assert isinstance(seq_len.value(), int)
