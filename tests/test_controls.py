"""Controls hold only valid values and speak their parameter's units."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication

from posenc_gui.controls import IntControl, LogControl, index_list, parse_indices


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


def type_into(control, qtbot, text: str) -> None:
    """Select the number box's text, type ``text`` key by key, press Enter."""
    line = control.box.lineEdit()
    line.selectAll()
    qtbot.keyClicks(line, text)
    assert line.text() == text  # every keystroke arrived
    qtbot.keyClick(line, Qt.Key.Key_Return)


def test_typing_an_odd_number_is_refused_next_to_the_control(d_model, qtbot):
    type_into(d_model, qtbot, "513")
    assert d_model.value() == 128  # refused, not rounded to 512
    assert d_model.refusal.text() == "d_model must be a multiple of 2, got 513"
    assert not d_model.refusal.isHidden()
    type_into(d_model, qtbot, "1,024")
    assert d_model.value() == 1024 and d_model.refusal.isHidden()


@pytest.fixture
def theta(qtbot):
    control = LogControl("theta", 10.0, 1e7, 10000.0)
    qtbot.addWidget(control)
    return control


@pytest.mark.parametrize(
    ("typed", "value"),
    [
        ("1e7", 1e7),
        ("2.5e5", 250000.0),
        ("20,000", 20000.0),
        ("500 000", 500000.0),
        ("12.5", 12.5),
    ],
)
def test_theta_takes_what_a_person_types(theta, qtbot, typed, value):
    type_into(theta, qtbot, typed)
    assert theta.value() == value and theta.refusal.isHidden()


@pytest.mark.parametrize(
    ("typed", "value"),
    [("２０，０００", 20000.0), ("１．５ｅ４", 15000.0), ("５００\u3000０００", 500000.0)],
)
def test_theta_takes_what_a_chinese_input_method_types(theta, qtbot, typed, value):
    """Full-width digits, commas, points and spaces, committed one by one as an input method
    commits them."""
    line = theta.box.lineEdit()
    commit(line, typed)
    assert line.text() == typed  # every character arrived
    qtbot.keyClick(line, Qt.Key.Key_Return)
    assert theta.value() == value and theta.refusal.isHidden()


def commit(line, text: str) -> None:
    """``text`` committed character by character, as an input method commits it."""
    line.selectAll()
    for character in text:
        committed = QInputMethodEvent()
        committed.setCommitString(character)
        QApplication.sendEvent(line, committed)


def test_a_superscript_is_not_read_as_a_digit(theta):
    commit(theta.box.lineEdit(), "10²")
    assert theta.box.lineEdit().text() == "10"  # not 102: the ² is no part of a number


def test_a_number_out_of_range_is_refused_whole(theta, qtbot):
    type_into(theta, qtbot, "20000000")
    assert theta.value() == 10000.0
    assert theta.refusal.text() == "theta must be in [10, 1e+07], got 2e+07"
    seq_len = IntControl("seq_len", 1, 1 << 20, 64, log=True)
    qtbot.addWidget(seq_len)
    type_into(seq_len, qtbot, "2000000")
    assert seq_len.value() == 64
    assert seq_len.refusal.text() == "seq_len must be in [1, 1,048,576], got 2e+06"


def test_letters_are_not_numbers(theta, qtbot):
    line = theta.box.lineEdit()
    line.selectAll()
    qtbot.keyClicks(line, "1x")
    assert line.text() == "1"  # the letter is not a number's part


def test_log_sliders_stop_at_round_values(theta):
    for position in range(1, theta.slider.maximum(), 37):
        theta.slider.setValue(position)
        assert float(f"{theta.value():.2g}") == theta.value(), theta.value()
    theta.slider.setValue(theta.slider.maximum())
    assert theta.value() == 1e7


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


@pytest.mark.parametrize(
    ("decimals", "value", "shown"),
    [(0, 40960, "40960"), (0, 10485760, "10485760"), (4, 0.707, "0.707"), (2, 1e6, "1000000")],
)
def test_a_number_box_shows_its_value_whole_without_trailing_decimal_zeros(
    qtbot, decimals, value, shown
):
    control = LogControl("context", 0.001, 2.0**24, 1.0, decimals=decimals)
    qtbot.addWidget(control)
    control.setValue(value)
    assert control.box.text() == shown


@pytest.mark.parametrize("typed", ["0, 2, 8, 32", "0 2 8 32", "０，２，８，３２", "0、2、8、32"])
def test_index_lists_take_commas_spaces_and_chinese_punctuation(typed):
    assert parse_indices("dimensions", typed) == [0, 2, 8, 32]


def test_an_index_list_shows_what_was_typed_in_ascii_once_typed(qtbot):
    box = index_list("dimensions", "0, 2")
    qtbot.addWidget(box)
    box.setText("０，２、８")
    box.editingFinished.emit()
    assert box.text() == "0,2,8"


def test_a_number_too_large_for_a_float_is_refused_saying_so(theta, qtbot):
    type_into(theta, qtbot, "1e400")
    assert theta.value() == 10000.0
    assert theta.refusal.text() == "theta must be in [10, 1e+07], got inf"


def test_a_refusal_goes_once_the_slider_sets_a_value(theta, qtbot):
    type_into(theta, qtbot, "5")
    assert not theta.refusal.isHidden()
    theta.slider.setValue(theta.slider.value() + 10)
    assert theta.value() != 10000.0 and theta.refusal.isHidden()


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (1_048_576, "1,048,576"),
        (1e7, "1e+07"),
        (2.5e7, "2.5e+07"),
        (16_777_216, "16,777,216"),  # not 1.67772e+07, a bound no one could type back
        (2**31 - 1, "2,147,483,647"),
        (0.125, "0.125"),
    ],
)
def test_numbers_are_written_short_but_never_rounded_when_whole(value, shown):
    from posenc_gui.choices import format_number

    assert format_number(value) == shown


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (6.283185, "6.283"),  # a wavelength in a rotation panel's title
        (999.96, "1,000"),
        (14_903.7, "14,904"),  # not 1.49e+04 beside 4080
        (2.5604e6, "2,560,400"),
        (82_772.43, "82,772"),  # an NTK-scaled effective base
        (1e6, "1,000,000"),  # not 1e+06 beside θ 1,000,000
        (4.078e12, "4.078e+12"),  # θ 10¹²'s slowest pair, in a narrow panel
        (1e12, "1e+12"),
    ],
)
def test_derived_magnitudes_read_as_theta_does(value, shown):
    from posenc_gui.choices import rounded_number

    assert rounded_number(value) == shown
