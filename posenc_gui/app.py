"""QApplication set-up, the main window and the command-line entry point."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QFontDatabase,
    QIcon,
    QImage,
    QPixmap,
)
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QTabWidget,
)

from posenc_gui import __version__
from posenc_gui.engine import Engine, available_devices, check_device
from posenc_gui.export import FORMATS, SCALES, export_view
from posenc_gui.files import check_writable_folder, write_atomic
from posenc_gui.parameters import EVEN_PARAMETERS, SHARED_RANGES, ParameterPanel
from posenc_gui.paths import resource_path
from posenc_gui.presets import Preset, load_presets, read_config_json
from posenc_gui.tabs import AbsoluteTab, ExtensionTab, RelativeTab, RopeTab, Tab
from posenc_gui.views.style import TICK_FONT, configure_pyqtgraph

CJK_FALLBACK = "Droid Sans Fallback"
SCREENSHOT_DELAY_MS = 600
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


TABS = (AbsoluteTab, RelativeTab, RopeTab, ExtensionTab)


class MainWindow(QMainWindow):
    """One tab per encoding, the shared parameters on the left, readouts in the status bar."""

    def __init__(self, device: str | None = None) -> None:
        super().__init__()
        configure_pyqtgraph()
        self.setWindowTitle("posenc-gui — positional encodings")
        self.setWindowIcon(QIcon(str(resource_path("icons", "posenc-gui.svg"))))
        self.engine = Engine(device, parent=self)
        self.presets = load_presets()
        self.parameters = ParameterPanel()
        dock = QDockWidget("Shared parameters", self, objectName="parameters_dock")
        dock.setWidget(self.parameters)
        dock.setFeatures(QDockWidget.DockWidgetFeature.NoDockWidgetFeatures)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)

        self.tabs = QTabWidget(objectName="tabs")
        for tab_class in TABS:
            self.tabs.addTab(tab_class(self.engine, self.parameters), tab_class.title)
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

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        for label, name, handler in (
            ("&Open config.json…", "open_config", self._open_config),
            ("&Paste config.json…", "paste_config", self._paste_config),
        ):
            action = QAction(label, self, objectName=name)
            action.triggered.connect(handler)
            file_menu.addAction(action)
        file_menu.addSeparator()
        quit_action = QAction("&Quit", self, objectName="quit", shortcut="Ctrl+Q")
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)
        preset_menu = self.menuBar().addMenu("&Presets")
        for preset in self.presets:
            action = QAction(preset.name, self, objectName=f"preset_{preset.name}")
            action.triggered.connect(lambda _=False, p=preset: self._report(self.apply_preset, p))
            preset_menu.addAction(action)
        device_menu = self.menuBar().addMenu("&Device")
        group = QActionGroup(self)
        for name in available_devices():
            action = QAction(name, self, checkable=True, objectName=f"device_{name}")
            action.setChecked(name == self.engine.device)
            action.triggered.connect(lambda _=False, n=name: self.engine.set_device(n))
            group.addAction(action)
            device_menu.addAction(action)
        help_menu = self.menuBar().addMenu("&Help")
        about = QAction("&About posenc-gui", self, objectName="about")
        about.triggered.connect(self._about)
        help_menu.addAction(about)

    def _about(self) -> None:
        QMessageBox.about(
            self,
            "About posenc-gui",
            f"<b>posenc-gui {__version__}</b><p>Transformer positional encodings "
            "made visible: absolute sinusoidal, relative and rotary.</p>",
        )

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
        return f"Loaded {preset.name}"

    def import_config(self, data: bytes, source: str = "config.json") -> str:
        """Apply a model's config.json to the RoPE and extension tabs; returns a summary.

        Anything invalid raises ValueError naming the key and the reason, and nothing changes.
        """
        config, scaling = read_config_json(data)
        self.apply_preset(Preset(source, "rope", config, "half", {"config": source}))
        summary = (
            f"Loaded {source}: {scaling.method} RoPE, head_dim {scaling.head_dim}, "
            f"θ {scaling.base:g}"
        )
        ignored = scaling.ignored_keys
        return summary + (f"; ignored keys: {', '.join(ignored)}" if ignored else "")

    def _report(self, action: Callable[..., str], *args: object) -> None:
        """Run a user action: its summary in the status bar, or its refusal in a dialog."""
        try:
            self.statusBar().showMessage(action(*args), 15_000)
        except ValueError as exc:
            QMessageBox.warning(self, "Not loaded", str(exc))

    def _open_config(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Open a model's config.json", "", "JSON (*.json);;All files (*)"
        )
        if path:
            self._report(lambda: self.import_config(read_config_file(path), Path(path).name))

    def _paste_config(self) -> None:
        text, ok = QInputDialog.getMultiLineText(
            self, "Paste config.json", "A model's config.json (JSON):"
        )
        if ok and text.strip():
            self._report(self.import_config, text.encode("utf-8"), "pasted config.json")

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
        self.timing_label.setText(f"{channel}: compute {compute_ms:.1f} ms")

    def _on_failure(self, channel: str, message: str) -> None:
        self.statusBar().showMessage(f"{channel}: computation failed — {message}", 10_000)

    def _on_device(self, name: str) -> None:
        self.device_label.setText(f"device: {name}")
        for action in self.findChildren(QAction):
            if action.objectName() == f"device_{name}":
                action.setChecked(True)
        self.refresh()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.engine.shutdown()
        super().closeEvent(event)


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


def read_config_file(path: str) -> bytes:
    """The bytes of a config.json; ValueError with the reason if it cannot be read."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise ValueError(f"{path}: {exc.strerror}") from None


def install_fonts(app: QApplication) -> None:
    """Add the bundled CJK font as a fallback after the system font (for 我爱你，中国。)."""
    QFontDatabase.addApplicationFont(str(resource_path("fonts", "DroidSansFallbackFull.ttf")))
    for font, setter in ((app.font(), app.setFont), (TICK_FONT, None)):
        families = [f for f in font.families() if f != CJK_FALLBACK] or [font.family()]
        font.setFamilies([*families, CJK_FALLBACK])
        if setter is not None:
            setter(font)


def _number(value: float) -> str:
    """1048576 → "1,048,576"; 1e7 → "1e+07"."""
    return f"{int(value):,}" if float(value).is_integer() and abs(value) < 1e7 else f"{value:g}"


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
                f"{flag} must be in [{_number(low)}, {_number(high)}], got {_number(value)}"
            )
        if name in EVEN_PARAMETERS and value is not None and value % 2:
            parser.error(f"{flag} must be even, got {value}")
    return args


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
    window = MainWindow(device=args.device)
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
            window.import_config(read_config_file(args.config), Path(args.config).name)
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
        return _after_first_frame(
            app, window, lambda: export_view(view, args.out, scale=args.scale)
        )
    return app.exec()
