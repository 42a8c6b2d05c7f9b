"""The interface language: English source strings, 简体中文 from resources/translations."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

from posenc_gui.choices import LANGUAGES
from posenc_gui.paths import resource_path
from posenc_gui.translatable import N_

__all__ = ["LANGUAGES", "N_", "language", "set_language", "tr"]

_installed: list[QTranslator] = []
_language = ["en"]


def tr(text: str) -> str:
    """``text`` in the current language (the English source when it has no translation)."""
    return QCoreApplication.translate("", text)


def language() -> str:
    return _language[0]


def set_language(name: str) -> None:
    """Translate from now on into ``name`` (a key of LANGUAGES); ValueError otherwise."""
    if name not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}, got {name!r}")
    app = QCoreApplication.instance()
    assert app is not None, "set_language needs the QApplication"
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    if name != "en":
        translator = QTranslator()
        if not translator.load(str(resource_path("translations", f"posenc_gui_{name}.qm"))):
            raise ValueError(f"lang: the {name} translation is missing from resources/")
        app.installTranslator(translator)
        _installed.append(translator)
    QLocale.setDefault(QLocale(name))
    _language[0] = name
