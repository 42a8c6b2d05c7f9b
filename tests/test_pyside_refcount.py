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


def test_a_translator_answering_none_does_not_leak_references_to_none(qapp):
    """The plot menu's translator (posenc_gui.i18n) answers None, Qt's null string, for every
    text not its own: each lookup of the Chinese interface passes through it."""
    from PySide6.QtCore import QCoreApplication

    from posenc_gui.i18n import set_language

    set_language("zh_CN")
    before = sys.getrefcount(None)
    for i in range(20_000):
        QCoreApplication.translate("", f"no such text {i % 7}")
    after = sys.getrefcount(None)
    set_language("en")
    assert after >= before - 10
