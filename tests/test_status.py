"""SteadyLabel: the status bar's frame-by-frame texts repaint the label, not the window's
layout."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QLabel, QMainWindow

from posenc_gui.status import SteadyLabel
from tests.paint_count import EventCount


def status_bar_with(qtbot, label) -> tuple[QMainWindow, EventCount]:
    window = QMainWindow()
    qtbot.addWidget(window)
    window.statusBar().addPermanentWidget(label)
    window.resize(600, 200)
    window.show()
    qtbot.waitExposed(window)
    label.setText("Absolute: compute 12.3 ms")
    qtbot.wait(20)
    requests = EventCount(QEvent.Type.LayoutRequest)
    window.installEventFilter(requests)
    return window, requests


@pytest.mark.parametrize("kind", [QLabel, SteadyLabel])
def test_a_text_no_wider_than_before_lays_nothing_out(qtbot, kind):
    label = kind(objectName="timing")
    _window, requests = status_bar_with(qtbot, label)
    label.setText("Absolute: compute 1.0 ms")
    qtbot.wait(20)
    assert label.text() == "Absolute: compute 1.0 ms"
    # Qt's label asks the window's layout again at each text: the reason for SteadyLabel
    assert (requests.count == 0) == (kind is SteadyLabel)


def test_a_wider_text_widens_the_label_and_it_draws_its_text(qtbot):
    label = SteadyLabel(objectName="timing")
    _window, _ = status_bar_with(qtbot, label)
    narrow = label.width()
    label.setText("Relative · ALiBi: compute 12.3 ms")
    qtbot.waitUntil(lambda: label.width() > narrow)
    assert label.width() >= label.fontMetrics().horizontalAdvance(label.text())
    assert np.ptp(lightness(label)) > 100  # dark text on the light status bar
    label.clear()
    assert label.text() == "" and np.ptp(lightness(label)) == 0


def lightness(label: SteadyLabel) -> np.ndarray:
    image = label.grab().toImage()
    return np.array(
        [
            [image.pixelColor(x, y).lightness() for x in range(image.width())]
            for y in range(image.height())
        ]
    )


def test_the_widest_text_keeps_a_gap_to_the_next_label(qtbot):
    """At its widest the compute time still reads apart from the device label after it."""
    label = SteadyLabel(objectName="timing")
    window, _ = status_bar_with(qtbot, label)
    device = QLabel("device: cpu")
    window.statusBar().addPermanentWidget(device)
    label.setText("Relative · ALiBi: compute 12.3 ms")  # its widest text
    qtbot.waitUntil(lambda: device.x() > label.x() + label.fontMetrics().horizontalAdvance("R"))
    qtbot.wait(20)
    bar = window.statusBar().grab().toImage()
    inked = [
        x
        for x in range(bar.width())
        if any(bar.pixelColor(x, y).lightness() < 128 for y in range(bar.height()))
    ]
    text_end = max(x for x in inked if x < device.x())
    device_start = min(x for x in inked if x >= device.x())
    assert device_start - text_end >= label.fontMetrics().horizontalAdvance("M")
