"""Guard for PySide6 6.12.0 on Python ≤ 3.11, which drops a reference to None on every void
call until the interpreter aborts ("deallocating None"); pyproject pins around it."""

import sys

from PySide6.QtWidgets import QSlider


def test_void_calls_do_not_leak_references_to_none(qtbot):
    slider = QSlider()
    qtbot.addWidget(slider)
    slider.setRange(0, 100)
    before = sys.getrefcount(None)
    for i in range(20_000):
        slider.setValue(i % 100)
        slider.update()
    after = sys.getrefcount(None)
    # Python ≥ 3.12 reports a constant for the immortal None; older ones must not fall.
    assert after >= before - 10
