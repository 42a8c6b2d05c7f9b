"""QApplication set-up, the main window and the command-line entry point."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QColor,
    QFont,
    QFontDatabase,
    QIcon,
    QImage,
    QPalette,
    QPixmap,
)
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFileDialog,
    QFormLayout,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QTabWidget,
    QWidget,
)

from posenc_gui import __version__
from posenc_gui.controls import apply_settings, format_number, settings
from posenc_gui.engine import Engine, available_devices, check_device
from posenc_gui.export import FORMATS, SCALES, copy_view, export_view
from posenc_gui.files import check_writable_folder, write_atomic
from posenc_gui.i18n import LANGUAGES, N_, language, set_language, tr
from posenc_gui.parameters import EVEN_PARAMETERS, SHARED_RANGES, ParameterPanel
from posenc_gui.paths import resource_path
from posenc_gui.presets import Preset, load_presets, read_config_json
from posenc_gui.session import FORMAT, VERSION, last_session, parse_session, remember, session_bytes
from posenc_gui.session import look as session_look
from posenc_gui.tabs import AbsoluteTab, CompareTab, ExtensionTab, RelativeTab, RopeTab, Tab
from posenc_gui.views.style import COLORMAPS, THEMES, Look, current_look, set_look

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
THEME_LABELS = {"light": N_("&Light theme"), "dark": N_("&Dark theme")}
COLORMAP_LABELS = {
    "sequential": N_("Sequential colormap"),
    "diverging": N_("Diverging colormap"),
    "cyclic": N_("Cyclic colormap"),
}
SCREENSHOT_DELAY_MS = 600
EXPORT_WINDOW_SIZE = QSize(2400, 1500)
# The tab a preset shows: its encoding's, or the extension tab for scaled RoPE.
PRESET_TABS: dict[str, Callable[[Preset], str]] = {
    "sinusoidal": lambda p: "absolute",
    "t5": lambda p: "relative",
    "alibi": lambda p: "relative",
    "rope": lambda p: "rope" if p.rope.method == "default" else "extension",
}


def preset_parameters(preset: Preset) -> dict[str, float]:
    """The shared parameters a preset sets (d_model, head_dim, θ as the app names them)."""
    config = preset.config
    if preset.kind == "rope":
        return {"head_dim": preset.rope.head_dim, "theta": preset.rope.base}
    if preset.kind == "sinusoidal":
        return {"d_model": config["d_model"], "theta": config.get("rope_theta", 10000.0)}
    if preset.kind == "t5":
        return {"d_model": config["d_model"]}
    return {}


TABS = (AbsoluteTab, RelativeTab, RopeTab, ExtensionTab, CompareTab)


class MainWindow(QMainWindow):
    """One tab per encoding, the shared parameters on the left, readouts in the status bar."""

    def __init__(self, device: str | None = None, *, look: Look | None = None) -> None:
        """A window in ``look`` (default: the light look) and the current language."""
        super().__init__()
        set_look(look or Look())
        apply_palette(current_look())
        self.remember = False  # keep the session for the next start when this window closes
        self.successor: MainWindow | None = None  # the window that replaced this one
        self.setWindowTitle(tr("posenc-gui — positional encodings"))
        self.setWindowIcon(QIcon(str(resource_path("icons", "posenc-gui.svg"))))
        self.engine = Engine(device, parent=self)
        self.presets = load_presets()
        self.parameters = ParameterPanel()
        dock = QDockWidget(tr("Shared parameters"), self, objectName="parameters_dock")
        dock.setWidget(self.parameters)
        dock.setFeatures(QDockWidget.DockWidgetFeature.NoDockWidgetFeatures)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)

        self.tabs = QTabWidget(objectName="tabs")
        for tab_class in TABS:
            self.tabs.addTab(tab_class(self.engine, self.parameters), tr(tab_class.title))
        self.setCentralWidget(self.tabs)

        self.hover_label = QLabel(objectName="hover")
        self.timing_label = QLabel(objectName="timing")
        self.device_label = QLabel(objectName="device_label")
        self.statusBar().addWidget(self.hover_label, 1)
        self.statusBar().addPermanentWidget(self.timing_label)
        self.statusBar().addPermanentWidget(self.device_label)
        self._build_menus()

        for index in range(self.tabs.count()):
            self.tab_at(index).hovered.connect(self.hover_label.setText)
        self.parameters.changed.connect(self.refresh)
        self.tabs.currentChanged.connect(self.refresh)
        self.engine.frame_drawn.connect(self._on_frame)
        self.engine.failed.connect(self._on_failure)
        self.engine.device_changed.connect(self._on_device)
        self._on_device(self.engine.device)
        self.resize(1500, 950)
        self.refresh()

    def _action(
        self, menu: QMenu, label: str, name: str, handler: Callable[[], object], **options: object
    ) -> QAction:
        action = QAction(label, self, objectName=name, **options)
        action.triggered.connect(lambda _=False: handler())
        menu.addAction(action)
        return action

    def _choices(
        self,
        menu: QMenu,
        name: str,
        choices: dict[str, str],
        current: str,
        choose: Callable[[str], object],
    ) -> None:
        """A group of checkable actions, one per choice (``name_<key>``)."""
        group = QActionGroup(self)
        for key, label in choices.items():
            action = self._action(
                menu, label, f"{name}_{key}", lambda k=key: choose(k), checkable=True
            )
            action.setChecked(key == current)
            group.addAction(action)

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(tr("&File"))
        self._action(file_menu, tr("&Open config.json…"), "open_config", self._open_config)
        self._action(file_menu, tr("&Paste config.json…"), "paste_config", self._paste_config)
        file_menu.addSeparator()
        self._action(file_menu, tr("Open &session…"), "open_session", self._open_session)
        self._action(file_menu, tr("&Save session as…"), "save_session", self._save_session)
        file_menu.addSeparator()
        self._action(
            file_menu, tr("&Export or copy a view…"), "export", self._export, shortcut="Ctrl+E"
        )
        file_menu.addSeparator()
        self._action(file_menu, tr("&Quit"), "quit", self.close, shortcut="Ctrl+Q")
        preset_menu = self.menuBar().addMenu(tr("&Presets"))
        for preset in self.presets:
            self._action(
                preset_menu,
                preset.name,
                f"preset_{preset.name}",
                lambda p=preset: self._report(self.apply_preset, p),
            )
        look = current_look()
        view_menu = self.menuBar().addMenu(tr("&View"))
        self._choices(
            view_menu,
            "theme",
            {t: tr(THEME_LABELS[t]) for t in THEMES},
            look.theme,
            lambda t: self.change_look(theme=t),
        )
        view_menu.addSeparator()
        presentation = self._action(
            view_menu,
            tr("&Presentation mode (larger fonts, thicker lines)"),
            "presentation",
            lambda: self.change_look(presentation=not current_look().presentation),
            checkable=True,
            shortcut="F5",
        )
        presentation.setChecked(look.presentation)
        for role, names in COLORMAPS.items():
            submenu = view_menu.addMenu(tr(COLORMAP_LABELS[role]))
            self._choices(
                submenu,
                f"colormap_{role}",
                {n: n for n in names},
                getattr(look, role),
                lambda n, r=role: self.change_look(**{r: n}),
            )
        language_menu = self.menuBar().addMenu(tr("&Language"))
        self._choices(language_menu, "language", LANGUAGES, language(), self.change_language)
        device_menu = self.menuBar().addMenu(tr("&Device"))
        self._choices(
            device_menu,
            "device",
            {n: n for n in available_devices()},
            self.engine.device,
            self.engine.set_device,
        )
        help_menu = self.menuBar().addMenu(tr("&Help"))
        self._action(help_menu, tr("&About posenc-gui"), "about", self._about)

    def _about(self) -> None:
        QMessageBox.about(
            self,
            tr("About posenc-gui"),
            f"<b>posenc-gui {__version__}</b><p>"
            + tr(
                "Transformer positional encodings made visible: absolute sinusoidal, "
                "relative and rotary."
            )
            + "</p>",
        )

    def session(self) -> dict[str, object]:
        """Everything a session file holds: look, language, shown tab and every setting."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "language": language(),
            "look": dataclasses.asdict(current_look()),
            "tab": self.tabs.currentWidget().objectName(),
            "parameters": settings(self.parameters),
            "tabs": {self.tab_at(i).name: self.tab_at(i).state() for i in range(self.tabs.count())},
        }

    def apply_session(self, session: dict[str, object]) -> None:
        """Apply a session's settings (its look and language are the window's to be built
        with, see ``open_window``). All or nothing: on ValueError nothing has changed."""
        before = self.session()
        try:
            self._set_session(session)
        except ValueError:
            self._set_session(before)
            raise

    def _set_session(self, session: dict[str, object]) -> None:
        try:
            apply_settings(self.parameters, session.get("parameters", {}))
        except ValueError as exc:
            raise ValueError(f"parameters: {exc}") from None
        tabs = {self.tab_at(i).name: self.tab_at(i) for i in range(self.tabs.count())}
        unknown = sorted(set(session.get("tabs", {})) - set(tabs))
        if unknown:
            raise ValueError(f"tabs: no tab named {', '.join(unknown)}")
        for name, state in session.get("tabs", {}).items():
            tabs[name].set_state(state)
        if session.get("tab") is not None:
            if session["tab"] not in tabs:
                raise ValueError(f"tab must be one of {', '.join(tabs)}, got {session['tab']!r}")
            self.tabs.setCurrentWidget(tabs[session["tab"]])

    def change_look(self, **changes: object) -> MainWindow:
        """Rebuild the window with the look changed (views are drawn in the look they were
        built with); returns the new window."""
        session = self.session()
        session["look"] = dataclasses.asdict(current_look().with_changes(**changes))
        return self._rebuild(session)

    def change_language(self, name: str) -> MainWindow:
        """Rebuild the window in language ``name``; returns the new window."""
        session = self.session()
        session["language"] = name
        return self._rebuild(session)

    def _rebuild(self, session: dict[str, object]) -> MainWindow:
        window = open_window(session, device=self.engine.device)
        window.remember = self.remember
        window.setGeometry(self.geometry())
        window.show()
        self.successor = window
        self.close()
        return window

    def _open_session(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, tr("Open a session"), "", tr("posenc-gui session (*.json);;All files (*)")
        )
        if path:
            self._report(self.load_session, path)

    def load_session(self, path: str | Path) -> str:
        """Apply the session file at ``path`` (rebuilding the window when its look or language
        differ); ValueError with the reason, and nothing changes, if it cannot be used."""
        session = parse_session(read_file(path), Path(path).name)
        if session_look(session) != current_look() or session.get("language", "en") != language():
            self._rebuild(session)
        else:
            self.apply_session(session)
        return tr("Loaded session {name}").format(name=Path(path).name)

    def _save_session(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, tr("Save the session"), "session.json", tr("posenc-gui session (*.json)")
        )
        if path:
            self._report(self.save_session, path)

    def save_session(self, path: str | Path) -> str:
        """Write the session to ``path`` atomically; ValueError if the folder is unwritable."""
        check_writable_folder(path)
        data = session_bytes(self.session())
        write_atomic(path, lambda temporary: temporary.write_bytes(data))
        return tr("Saved session {name}").format(name=Path(path).name)

    def _export(self) -> None:
        ExportDialog(self.tab_at(self.tabs.currentIndex()), self).exec()

    def apply_preset(self, preset: Preset) -> str:
        """Set every tab from a model preset; returns what was done.

        Values outside the app's ranges are refused (ValueError) before anything changes.
        """
        shared = preset_parameters(preset)
        for name, value in shared.items():
            low, high = SHARED_RANGES[name]
            if not low <= value <= high:
                key = "rope_theta" if name == "theta" else name  # as config.json names it
                raise ValueError(
                    f"{preset.name}: {key} {value:g} is outside the app's range {low:g} … {high:g}"
                )
        for name, value in shared.items():
            getattr(self.parameters, name).setValue(value)
        for index in range(self.tabs.count()):
            self.tab_at(index).apply_preset(preset)
        self.tabs.setCurrentWidget(self.tab(PRESET_TABS[preset.kind](preset)))
        return tr("Loaded {0}").format(preset.name)

    def import_config(self, data: bytes, source: str = "config.json") -> str:
        """Apply a model's config.json to the RoPE and extension tabs; returns a summary.

        Anything invalid raises ValueError naming the key and the reason, and nothing changes.
        """
        config, scaling = read_config_json(data)
        self.apply_preset(Preset(source, "rope", config, "half", {"config": source}))
        summary = tr("Loaded {0}: {1} RoPE, head_dim {2}, θ {3:g}").format(
            source, scaling.method, scaling.head_dim, scaling.base
        )
        ignored = scaling.ignored_keys
        return summary + (tr("; ignored keys: {0}").format(", ".join(ignored)) if ignored else "")

    def _report(self, action: Callable[..., str], *args: object) -> None:
        """Run a user action: its summary in the status bar, or its refusal in a dialog."""
        try:
            self.statusBar().showMessage(action(*args), 15_000)
        except ValueError as exc:
            QMessageBox.warning(self, tr("Not done"), str(exc))

    def _open_config(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, tr("Open a model's config.json"), "", tr("JSON (*.json);;All files (*)")
        )
        if path:
            self._report(lambda: self.import_config(read_file(path), Path(path).name))

    def _paste_config(self) -> None:
        text, ok = QInputDialog.getMultiLineText(
            self, tr("Paste config.json"), tr("A model's config.json (JSON):")
        )
        if ok and text.strip():
            self._report(self.import_config, text.encode("utf-8"), tr("pasted config.json"))

    def tab(self, name: str) -> Tab:
        """The tab whose objectName is ``name``."""
        for index in range(self.tabs.count()):
            if self.tab_at(index).objectName() == name:
                return self.tab_at(index)
        raise KeyError(name)

    def tab_at(self, index: int) -> Tab:
        widget = self.tabs.widget(index)
        assert isinstance(widget, Tab)
        return widget

    def refresh(self) -> None:
        """Recompute the visible tab (hidden tabs catch up when shown)."""
        self.tab_at(self.tabs.currentIndex()).refresh()

    def _on_frame(self, channel: str, request_id: int, compute_ms: float) -> None:
        self.timing_label.setText(tr("{0}: compute {1:.1f} ms").format(channel, compute_ms))

    def _on_failure(self, channel: str, message: str) -> None:
        self.statusBar().showMessage(
            tr("{0}: computation failed — {1}").format(channel, message), 10_000
        )

    def _on_device(self, name: str) -> None:
        self.device_label.setText(tr("device: {0}").format(name))
        for action in self.findChildren(QAction):
            if action.objectName() == f"device_{name}":
                action.setChecked(True)
        self.refresh()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.remember and self.successor is None:
            remember(self.session())
        for timer in self.findChildren(QTimer):  # animations of a window replaced by a rebuild
            timer.stop()
        self.engine.shutdown()
        super().closeEvent(event)


def open_window(
    session: dict[str, object] | None = None, *, device: str | None = None
) -> MainWindow:
    """A main window in the session's language and look, with its settings applied.

    On ValueError (a setting that does not fit) no window is left and the language and look
    are as they were.
    """
    session = session or {}
    before = (language(), current_look())
    set_language(session.get("language", "en"))
    window = MainWindow(device, look=session_look(session))
    try:
        window.apply_session(session)
    except ValueError:
        window.close()
        set_language(before[0])
        set_look(before[1])
        apply_palette(before[1])
        raise
    return window


def apply_palette(look: Look) -> None:
    """Qt's Fusion style in the look's theme, so widgets match the plots."""
    app = QApplication.instance()
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


class ExportDialog(QDialog):
    """Export one view of a tab: PNG (1×, 2×, 4×), SVG, CSV or .npy; or copy its image."""

    def __init__(self, tab: Tab, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Export or copy a view"))
        self.tab = tab
        self.view = QComboBox(objectName="view")
        self.view.addItems(sorted(tab.view_names()))
        self.scale = QComboBox(objectName="scale")
        for factor in SCALES:
            self.scale.addItem(f"{factor}×", factor)
        self.caption = QCheckBox(tr("caption with the parameters"), objectName="caption")
        form = QFormLayout(self)
        form.addRow(tr("view"), self.view)
        form.addRow(tr("PNG resolution"), self.scale)
        form.addRow("", self.caption)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        save = buttons.addButton(tr("Save…"), QDialogButtonBox.ButtonRole.ActionRole)
        copy = buttons.addButton(tr("Copy image"), QDialogButtonBox.ButtonRole.ActionRole)
        save.clicked.connect(self.save)
        copy.clicked.connect(self.copy)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def options(self) -> dict[str, object]:
        """The chosen scale and caption, as ``export_view`` takes them."""
        return {
            "scale": self.scale.currentData(),
            "caption": self.tab.caption() if self.caption.isChecked() else None,
        }

    def chosen_view(self) -> QWidget:
        return self.tab.show_view(self.view.currentText())

    def copy(self) -> None:
        """Put the chosen view's image on the clipboard and say so."""
        copy_view(self.chosen_view(), **self.options())
        self.setWindowTitle(tr("Copied {0} to the clipboard").format(self.view.currentText()))

    def save(self) -> None:
        """Ask where, then write the chosen view there (a refusal is shown in a dialog)."""
        filters = ";;".join(f"{suffix[1:].upper()} (*{suffix})" for suffix in FORMATS)
        path, _ = QFileDialog.getSaveFileName(
            self, tr("Export the view"), f"{self.tab.name}-{self.view.currentText()}.png", filters
        )
        if path:
            try:
                export_view(self.chosen_view(), path, **self.options())
            except (OSError, ValueError) as exc:
                QMessageBox.warning(self, tr("Not exported"), str(exc))


def _after_first_frame(app: QApplication, window: MainWindow, write: Callable[[], object]) -> int:
    """Run ``write`` once the shown tab's first frame is drawn, then quit; the exit code."""
    exit_code = [0]

    def write_now() -> None:
        try:
            write()
        except ValueError as exc:
            print(f"posenc-gui: error: {exc}", file=sys.stderr)
            exit_code[0] = 1
        window.close()

    def on_frame(channel: str, request_id: int, _ms: float) -> None:
        if channel == window.tabs.currentWidget().objectName() and window.engine.is_current(
            channel, request_id
        ):
            window.engine.frame_drawn.disconnect(on_frame)
            QTimer.singleShot(SCREENSHOT_DELAY_MS, write_now)  # let layouts and paints settle

    window.engine.frame_drawn.connect(on_frame)
    app.exec()
    return exit_code[0]


def save_png(image: QPixmap | QImage, path: Path) -> None:
    """Encode ``image`` as PNG at ``path``; OSError if Qt cannot."""
    if not image.save(str(path), "PNG"):
        raise OSError(f"Qt could not write a PNG to {path}")


def read_file(path: str | Path) -> bytes:
    """The bytes of a config.json or session; ValueError with the reason if unreadable."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise ValueError(f"{path}: {exc.strerror}") from None


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


def parse_args(argv: Sequence[str] | None, *, export: bool = False) -> argparse.Namespace:
    """The command line; with ``export`` the arguments of ``posenc-gui export``."""
    parser = argparse.ArgumentParser(
        prog="posenc-gui export" if export else "posenc-gui", description=__doc__
    )
    if export:
        parser.add_argument("--view", required=True, help="the view (see --list-views)")
        parser.add_argument(
            "--out",
            required=True,
            help=f"output file; format from the suffix ({', '.join(FORMATS)})",
        )
        parser.add_argument(
            "--scale", type=int, default=1, choices=SCALES, help="PNG resolution factor"
        )
        parser.add_argument(
            "--caption", action="store_true", help="draw the parameters under the figure"
        )
    else:
        parser.add_argument(
            "--list-views",
            action="store_true",
            help="print every view as a 'TAB VIEW' pair and exit",
        )
    parser.add_argument("--version", action="version", version=f"posenc-gui {__version__}")
    parser.add_argument("--device", help=f"compute device ({', '.join(available_devices())})")
    parser.add_argument(
        "--tab",
        choices=[tab.name for tab in TABS],
        required=export,
        help="tab shown first (exported from, with export)",
    )
    parser.add_argument("--page", help="page of the tab shown first (e.g. rotation on rope)")
    parser.add_argument("--session", metavar="JSON", help="apply a saved session file")
    parser.add_argument("--theme", choices=THEMES, help="light or dark figures and interface")
    parser.add_argument("--lang", choices=LANGUAGES, help="interface language")
    parser.add_argument(
        "--presentation", action="store_true", help="larger fonts and thicker lines for slides"
    )
    parser.add_argument("--preset", help="apply a model preset by name (see the Presets menu)")
    parser.add_argument("--config", metavar="JSON", help="apply a model's config.json")
    parser.add_argument("--seq-len", type=int, help="sequence length")
    parser.add_argument("--d-model", type=int, help="model dimension (even)")
    parser.add_argument("--head-dim", type=int, help="RoPE head dimension (even)")
    parser.add_argument("--theta", type=float, help="base θ")
    parser.add_argument(
        "--tokens", action="store_true", help="label positions with the sentence's characters"
    )
    parser.add_argument(
        "--screenshot",
        metavar="PNG",
        help="save the window once the first frame is drawn, then quit",
    )
    args = parser.parse_args(argv)
    if args.device is not None:
        try:
            check_device(args.device)
        except ValueError as exc:
            parser.error(f"--{exc}")
    if args.screenshot:
        try:
            check_writable_folder(args.screenshot)
        except ValueError as exc:
            parser.error(f"--screenshot: {exc}")
    if export:
        try:
            check_writable_folder(args.out)
        except ValueError as exc:
            parser.error(f"--out: {exc}")
        if Path(args.out).suffix.lower() not in FORMATS:
            parser.error(f"--out: the format comes from the suffix, one of {', '.join(FORMATS)}")
    for name, (low, high) in SHARED_RANGES.items():
        value = getattr(args, name)
        flag = f"--{name.replace('_', '-')}"
        if value is not None and not low <= value <= high:
            parser.error(
                f"{flag} must be in [{format_number(low)}, {format_number(high)}], "
                f"got {format_number(value)}"
            )
        if name in EVEN_PARAMETERS and value is not None and value % 2:
            parser.error(f"{flag} must be even, got {value}")
    return args


def _with_options(session: dict[str, object], args: argparse.Namespace) -> dict[str, object]:
    """``session`` with the look and language the command line asks for."""
    changes = {"theme": args.theme, "presentation": args.presentation or None}
    look = session_look(session).with_changes(
        **{key: value for key, value in changes.items() if value is not None}
    )
    return {
        **session,
        "look": dataclasses.asdict(look),
        "language": args.lang or session.get("language", "en"),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the app; returns the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    export = bool(argv) and argv[0] == "export"
    args = parse_args(argv[1:] if export else argv, export=export)
    if export or args.list_views:  # headless by design
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("posenc-gui")
    install_fonts(app)
    # A plain start restores the last session; exports and screenshots start from the defaults
    # (or --session) so the same command line always makes the same figure.
    interactive = not (export or getattr(args, "list_views", False) or args.screenshot)
    try:
        chosen = (
            parse_session(read_file(args.session), Path(args.session).name)
            if args.session
            else None
        )
    except ValueError as exc:
        print(f"posenc-gui: error: --session: {exc}", file=sys.stderr)
        return 2
    kept = last_session() if interactive and chosen is None else None
    try:
        window = open_window(_with_options(chosen or kept or {}, args), device=args.device)
    except ValueError as exc:
        if kept is None:
            print(f"posenc-gui: error: --session: {exc}", file=sys.stderr)
            return 2
        window = open_window(_with_options({}, args), device=args.device)
        message = tr("Last session not restored: {reason}").format(reason=exc)
        window.statusBar().showMessage(message, 15_000)
    if getattr(args, "list_views", False):
        for index in range(window.tabs.count()):
            tab = window.tab_at(index)
            print("\n".join(f"{tab.name} {view}" for view in sorted(tab.view_names())))
        window.close()
        return 0
    for name in SHARED_RANGES:
        if getattr(args, name) is not None:
            getattr(window.parameters, name).setValue(getattr(args, name))
    try:
        if args.preset:
            names = {preset.name: preset for preset in window.presets}
            if args.preset not in names:
                raise ValueError(f"preset must be one of: {', '.join(names)}; got {args.preset!r}")
            window.apply_preset(names[args.preset])
        if args.config:
            window.import_config(read_file(args.config), Path(args.config).name)
    except ValueError as exc:
        print(f"posenc-gui: error: {exc}", file=sys.stderr)
        window.close()
        return 2
    if args.tab:
        window.tabs.setCurrentWidget(window.tab(args.tab))
    if args.page:
        try:
            window.tab_at(window.tabs.currentIndex()).show_page(args.page)
        except ValueError as exc:
            print(f"posenc-gui: error: --{exc}", file=sys.stderr)
            window.close()
            return 2
    if args.tokens:
        window.tab("absolute").label_tokens.setChecked(True)
    if getattr(args, "view", None) and args.view not in window.tab(args.tab).view_names():
        names = ", ".join(sorted(window.tab(args.tab).view_names()))
        print(
            f"posenc-gui: error: --view must be one of {names} on the {args.tab} tab, "
            f"got {args.view!r}",
            file=sys.stderr,
        )
        window.close()
        return 2
    if export:  # room for every view: figures at about 800 × 600 whatever the page's grid
        window.resize(EXPORT_WINDOW_SIZE)
    window.show()
    if args.screenshot:
        return _after_first_frame(
            app,
            window,
            lambda: write_atomic(
                args.screenshot, lambda temporary: save_png(window.grab(), temporary)
            ),
        )
    if getattr(args, "view", None):
        tab = window.tabs.currentWidget()
        view = tab.show_view(args.view)
        caption = tab.caption() if args.caption else None
        return _after_first_frame(
            app, window, lambda: export_view(view, args.out, scale=args.scale, caption=caption)
        )
    window.remember = interactive  # only a session that started cleanly is kept
    return app.exec()
