"""QApplication set-up: the application object, its fonts (Chinese included) and its palette
in the current look. ``main`` is the ``posenc-gui`` entry point (``posenc_gui.cli``)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from PySide6.QtGui import QColor, QFont, QFontDatabase, QPalette
from PySide6.QtWidgets import QApplication

from posenc_gui.paths import resource_path
from posenc_gui.views.style import Look

CJK_FALLBACK = "Droid Sans Fallback"  # bundled in resources/fonts
# Simplified-Chinese fonts a system may have (fonts-noto-cjk on Debian/Ubuntu, macOS, Windows,
# fonts-wqy-microhei): the first present draws Chinese, ahead of the bundled fallback.
SYSTEM_CJK_FONTS = (
    "Noto Sans CJK SC",
    "Source Han Sans SC",
    "Noto Sans SC",
    "PingFang SC",
    "Microsoft YaHei",
    "WenQuanYi Micro Hei",
)
BASE_POINTS = 10  # interface font size (×1.5 in presentation mode)


def application() -> QApplication:
    """The QApplication (made once), named and with its fonts installed."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName("posenc-gui")
    install_fonts(app)
    return app


def apply_palette(look: Look) -> None:
    """Qt's Fusion style in the look's theme, so widgets match the plots."""
    app = QApplication.instance()
    assert isinstance(app, QApplication), "apply_palette needs the QApplication"
    app.setStyle("Fusion")
    palette = app.style().standardPalette()
    if look.theme == "dark":
        colours = {
            QPalette.ColorRole.Window: "#2b2b2b",
            QPalette.ColorRole.WindowText: look.foreground,
            QPalette.ColorRole.Base: look.background,
            QPalette.ColorRole.AlternateBase: "#2b2b2b",
            QPalette.ColorRole.Text: look.foreground,
            QPalette.ColorRole.Button: "#353535",
            QPalette.ColorRole.ButtonText: look.foreground,
            QPalette.ColorRole.ToolTipBase: "#353535",
            QPalette.ColorRole.ToolTipText: look.foreground,
            QPalette.ColorRole.Highlight: "#0072B2",
            QPalette.ColorRole.HighlightedText: "#ffffff",
            QPalette.ColorRole.PlaceholderText: "#999999",
        }
        for role, colour in colours.items():
            palette.setColor(role, QColor(colour))
    app.setPalette(palette)
    font = app.font()
    font.setPointSizeF(BASE_POINTS * look.scale)
    app.setFont(font)


def install_fonts(app: QApplication) -> None:
    """Chinese glyphs (for 我爱你，中国。 and the 简体中文 interface) from a system CJK font when
    one is installed, else from the bundled Droid Sans Fallback."""
    QFontDatabase.addApplicationFont(str(resource_path("fonts", "DroidSansFallbackFull.ttf")))
    font = app.font()
    app.setFont(with_cjk_fonts(font, QFontDatabase.families()))  # plots take the app's font


def with_cjk_fonts(font: QFont, installed: Sequence[str]) -> QFont:
    """``font`` falling back to the installed SYSTEM_CJK_FONTS, then to the bundled font."""
    cjk = [name for name in SYSTEM_CJK_FONTS if name in installed]
    own = [f for f in font.families() if f not in (*SYSTEM_CJK_FONTS, CJK_FALLBACK)]
    font = QFont(font)
    font.setFamilies([*(own or [font.family()]), *cjk, CJK_FALLBACK])
    return font


def main(argv: Sequence[str] | None = None) -> int:
    """Run posenc-gui with ``argv`` (default: the process's); returns the exit code."""
    from posenc_gui.cli import main as run  # the command line builds on this module

    return run(argv)
