"""The interface language: English source strings, 简体中文 from resources/translations; Qt's
own texts (dialog buttons, file dialogs) from Qt's catalogs, and the texts of pyqtgraph's plot
menu from the app's catalog."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from posenc_gui.choices import LANGUAGES
from posenc_gui.paths import resource_path
from posenc_gui.translatable import N_

__all__ = ["LANGUAGES", "N_", "language", "set_language", "tr"]

_installed: list[QTranslator] = []
_language = ["en"]

# pyqtgraph's plot menu looks its texts up under its own contexts ("X axis" is "X" and "axis")
LIBRARY_CONTEXTS = ("ViewBox", "Form")
LIBRARY_TEXTS = (
    N_("View All"),
    N_("axis"),
    N_("Mouse Mode"),
    N_("3 button"),
    N_("1 button"),
    N_("Link Axis:"),
    N_("Auto"),
    N_("Manual"),
    N_("Invert Axis"),
    N_("Mouse Enabled"),
    N_("Visible Data Only"),
    N_("Auto Pan Only"),
    # the axis panel's tooltips, without the rich-text frame pyqtgraph writes round each
    N_(
        "Links this axis with another view. When linked, both views will display the same data "
        "range."
    ),
    N_(
        "Percent of data to be visible when auto-scaling. It may be useful to decrease this value "
        "for data with spiky noise."
    ),
    N_("Automatically resize this axis whenever the displayed data is changed."),
    N_("Set the range for this axis manually. This disables automatic scaling."),
    N_("Minimum value to display for this axis."),
    N_("Maximum value to display for this axis."),
    N_("Inverts the display of this axis. (+y points downward instead of upward)"),
    N_("Enables mouse interaction (panning, scaling) for this axis."),
    N_(
        "When checked, the axis will only auto-scale to data that is visible along the orthogonal "
        "axis."
    ),
    N_(
        "When checked, the axis will automatically pan to center on the current data, but the "
        "scale along this axis will not change."
    ),
)
# pyqtgraph's tooltips: <html><head/><body><p>TEXT</p></body></html>
_RICH_TEXT_FRAME = re.compile(r"(<html><head/><body><p>)(.*?)(\s*</p></body></html>)", re.S)


class _LibraryTexts(QTranslator):
    """Translates pyqtgraph's LIBRARY_TEXTS from the app's catalog. Anything else gets None,
    Qt's null string, which lets the next translator answer (an empty string would be taken
    as the translation)."""

    def __init__(self, catalog: QTranslator) -> None:
        super().__init__()
        self._catalog = catalog

    def translate(
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str | None:
        if context not in LIBRARY_CONTEXTS:
            return None
        framed = _RICH_TEXT_FRAME.fullmatch(source)
        text = framed[2] if framed else source
        if text not in LIBRARY_TEXTS:
            return None
        translated = self._catalog.translate("", text, disambiguation, n)
        if not translated:  # the catalog lacks it (a language not finished): the English
            return None
        return f"{framed[1]}{translated}{framed[3]}" if framed else translated


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
        _installed.extend([translator, _LibraryTexts(translator)])
        qt = QTranslator()  # Qt's own texts: its catalog shipped with Qt, else they stay English
        if qt.load(f"qtbase_{name}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
            _installed.append(qt)
        for installed in _installed:
            app.installTranslator(installed)
    QLocale.setDefault(QLocale(name))
    _language[0] = name
