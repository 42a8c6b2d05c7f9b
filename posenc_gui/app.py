"""QApplication set-up: the application object, its fonts (Chinese included), its palette in
the current look, and what Ctrl+C does (the ``posenc-gui`` entry point is
``posenc_gui.cli.main``)."""

from __future__ import annotations

import ctypes.util
import os
import signal
import socket
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress

from PySide6.QtCore import (
    QMessageLogContext,
    QSocketNotifier,
    Qt,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtGui import QColor, QFont, QFontDatabase, QFontInfo, QPainter, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QProxyStyle,
    QStyle,
    QStyleOption,
    QStyleOptionComboBox,
    QWidget,
)

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


# What the offscreen platform says of every window: nothing a user can act on.
PLATFORM_NOISE = ("This plugin does not support propagateSizeHints()",)
XCB_CURSOR_HINT = (
    "posenc-gui: Qt's X11 plugin needs libxcb-cursor0 (and on some systems libxcb-icccm4 and "
    "libxcb-keysyms1): sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 "
    "(Fedora: sudo dnf install xcb-util-cursor xcb-util-wm xcb-util-keysyms)"
)
NO_DISPLAY_HINT = (
    "posenc-gui: no display to open a window on (DISPLAY is not set): start it on a desktop, "
    "or make figures headless with posenc-gui export (see posenc-gui --help)"
)
_handlers: list[Callable[[QtMsgType, QMessageLogContext, str], None]] = []  # kept alive


def missing_platform_library(
    environ: Mapping[str, str] = os.environ,
    find_library: Callable[[str], str | None] = ctypes.util.find_library,
    platform: str = sys.platform,
) -> str | None:
    """The line that fixes a Linux start where Qt's X11 plugin cannot load — no display, or a
    bare desktop without libxcb-cursor (Qt 6.5 and newer need it) — or None when all is well."""
    qt_platform = environ.get("QT_QPA_PLATFORM", "")
    on_x11 = qt_platform == "xcb" or (
        qt_platform == "" and environ.get("XDG_SESSION_TYPE") != "wayland"
    )
    if not platform.startswith("linux") or not on_x11:
        return None
    if not environ.get("DISPLAY"):
        return NO_DISPLAY_HINT
    return None if find_library("xcb-cursor") else XCB_CURSOR_HINT


def quiet_platform_messages() -> None:
    """Keep the platform plugin's notices (``PLATFORM_NOISE``) off the terminal; every other
    Qt message still goes to stderr."""

    def handler(_kind: QtMsgType, _context: QMessageLogContext, message: str) -> None:
        if message not in PLATFORM_NOISE:
            print(message, file=sys.stderr)

    _handlers.append(handler)
    qInstallMessageHandler(handler)


def application() -> QApplication:
    """The QApplication (made once), named and with its fonts installed. Where Qt is about
    to fail for want of a system library, the line that fixes it comes first."""
    existing = QApplication.instance()
    if existing is None and (hint := missing_platform_library()):
        print(hint, file=sys.stderr)
    app = existing or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName("posenc-gui")
    install_fonts(app)
    return app


class InterfaceStyle(QProxyStyle):
    """Qt's Fusion style, with a combo box's text ended by "…" where the box is too narrow for
    it (Fusion cuts it off mid-letter; the list it opens shows every choice whole)."""

    def __init__(self) -> None:
        super().__init__("Fusion")

    def drawControl(
        self,
        element: QStyle.ControlElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        if element == QStyle.ControlElement.CE_ComboBoxLabel and isinstance(
            option, QStyleOptionComboBox
        ):
            field = self.subControlRect(
                QStyle.ComplexControl.CC_ComboBox,
                option,
                QStyle.SubControl.SC_ComboBoxEditField,
                widget,  # type: ignore[arg-type]  # Qt takes None (a combo painted alone)
            )
            option = QStyleOptionComboBox(option)
            option.currentText = option.fontMetrics.elidedText(  # Qt draws it 1 px in each side
                option.currentText, Qt.TextElideMode.ElideRight, field.width() - 2
            )
        super().drawControl(element, option, painter, widget)


TERMINAL_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def closed_by_terminal_signals(app: QApplication) -> Iterator[None]:
    """While inside: Ctrl+C in the terminal (SIGINT) or SIGTERM closes the windows as their
    close button does, the session kept (not a KeyboardInterrupt traceback in whatever Python
    code ran next, the window left open), and a second one acts as it did before (it stops a
    close that waits on a computation). Python marks a signal and runs its handler once it runs
    code, so the signal's number, written to a socket (``signal.set_wakeup_fd``), wakes Qt's
    event loop; the windows close from there, never from inside a drawing."""
    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)
    before_fd = signal.set_wakeup_fd(writer.fileno())
    before = {number: signal.signal(number, lambda *_: None) for number in TERMINAL_SIGNALS}

    def restore() -> None:
        for number, handler in before.items():
            signal.signal(number, handler)

    def on_signal() -> None:
        with suppress(BlockingIOError):
            if any(number in TERMINAL_SIGNALS for number in reader.recv(64)):
                restore()
                app.closeAllWindows()

    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read)
    notifier.activated.connect(on_signal)
    try:
        yield
    finally:
        notifier.setEnabled(False)
        signal.set_wakeup_fd(before_fd)
        restore()
        reader.close()
        writer.close()


def apply_palette(look: Look) -> None:
    """Qt's Fusion style in the look's theme, so widgets match the plots."""
    app = QApplication.instance()
    assert isinstance(app, QApplication), "apply_palette needs the QApplication"
    app.setStyle(InterfaceStyle())
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
        # Disabled controls (a held seq_len, say) must look disabled on a dark ground too.
        for role in (
            QPalette.ColorRole.WindowText,
            QPalette.ColorRole.Text,
            QPalette.ColorRole.ButtonText,
        ):
            palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#6f6f6f"))
        palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Base, QColor("#2b2b2b"))
    app.setPalette(palette)
    font = app.font()
    font.setPointSizeF(BASE_POINTS * look.scale)
    app.setFont(font)


def install_fonts(app: QApplication) -> None:
    """Chinese glyphs (for 我爱你，中国。 and the 简体中文 interface) from a system CJK font when
    one is installed, else from the bundled Droid Sans Fallback."""
    font = app.font()
    # The family Latin text is drawn in now (DejaVu Sans, Segoe UI), named: a generic "Sans
    # Serif" followed by fallbacks resolves to a fallback, which drew Latin in the CJK font's
    # narrower glyphs (an SVG's words, drawn by a viewer's own sans, ran into each other).
    # Not a hidden system family (macOS's ".AppleSystemUIFont": Qt warns when it is named).
    drawn = QFontInfo(font).family()
    if drawn and not drawn.startswith("."):
        font.setFamily(drawn)
    QFontDatabase.addApplicationFont(str(resource_path("fonts", "DroidSansFallbackFull.ttf")))
    app.setFont(with_cjk_fonts(font, QFontDatabase.families()))  # plots take the app's font


def with_cjk_fonts(font: QFont, installed: Sequence[str]) -> QFont:
    """``font`` falling back to the installed SYSTEM_CJK_FONTS, then to the bundled font."""
    cjk = [name for name in SYSTEM_CJK_FONTS if name in installed]
    own = [f for f in font.families() if f not in (*SYSTEM_CJK_FONTS, CJK_FALLBACK)]
    font = QFont(font)
    font.setFamilies([*(own or [font.family()]), *cjk, CJK_FALLBACK])
    return font
