"""The main window: one tab per registered encoding, the shared parameters on the left,
readouts in the status bar; its session (every setting) and what presets and configs set."""

from __future__ import annotations

import dataclasses
import weakref
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QSignalBlocker, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QIcon
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QWidget

from posenc_gui import registry
from posenc_gui.app import apply_palette
from posenc_gui.choices import SHARED_RANGES
from posenc_gui.control_settings import apply_settings, settings
from posenc_gui.encodings.model_config import ModelRope
from posenc_gui.engine import NOT_COMPUTED_MS, Engine
from posenc_gui.files import check_writable_folder, read_file, write_atomic
from posenc_gui.i18n import language, set_language, tr
from posenc_gui.import_report import ImportReport, import_summary
from posenc_gui.menus import build_menus, offer_export
from posenc_gui.parameters import ParameterPanel
from posenc_gui.paths import resource_path
from posenc_gui.presets import Preset, load_presets, read_config_json
from posenc_gui.session import (
    FORMAT,
    VERSION,
    changes,
    fit_on_screen,
    parse_session,
    place,
    placement,
    remember,
    session_bytes,
)
from posenc_gui.session import look as session_look
from posenc_gui.status import SteadyLabel
from posenc_gui.tab import Tab, TabContext
from posenc_gui.tabs_ahead import AHEAD, TabsBuiltAhead
from posenc_gui.teardown import delete_at_exit, keep_until_closed
from posenc_gui.views.deferred import LAYOUT_PASSES
from posenc_gui.views.page import SteadyTabWidget
from posenc_gui.views.style import Look, current_look, set_look


class MainWindow(QMainWindow):
    """One tab per encoding, the shared parameters on the left, readouts in the status bar."""

    def __init__(self, device: str | None = None, *, look: Look | None = None) -> None:
        """A window in ``look`` (default: the light look) and the current language."""
        super().__init__()
        set_look(look or Look())
        apply_palette(current_look())
        self.remember = False  # keep the session for the next start when this window closes
        self._successor: weakref.ref[MainWindow] | None = None
        self.setWindowTitle(tr("posenc-gui — positional encodings"))
        self.setWindowIcon(QIcon(str(resource_path("icons", "posenc-gui.svg"))))
        self.engine = Engine(device, parent=self)
        self.engine.hold()  # until built, set and laid out: see _start_computing
        start = QTimer(self, singleShot=True, interval=0)  # a child: it does not keep self
        start.timeout.connect(self._start_computing)
        start.start()
        delete_at_exit(self)
        self.presets = load_presets(registry.preset_kinds())
        self.parameters = ParameterPanel()
        dock = QDockWidget(tr("Shared parameters"), self, objectName="parameters_dock")
        dock.setWidget(self.parameters)
        dock.setFeatures(QDockWidget.DockWidgetFeature.NoDockWidgetFeatures)
        self.addDockWidget(Qt.DockWidgetArea.TopDockWidgetArea, dock)

        self.tabs = SteadyTabWidget(objectName="tabs")
        self._context = TabContext(self.engine, self.parameters, registry.compare_entries)
        self._specs = registry.specs()  # each tab's class is imported when it is built
        self._defaults: dict[str, dict[str, Any]] = {}  # each tab's settings when it was built
        self.imported: tuple[str, ModelRope] | None = None  # the last config.json imported
        self.import_report: ImportReport | None = None
        for spec in self._specs:
            # A placeholder until the tab is first shown or asked for (``tab_at``): building
            # every tab's plots up front was most of the start-up time.
            self.tabs.addTab(QWidget(objectName=spec.name), tr(spec.title))
        self.setCentralWidget(self.tabs)

        self.hover_label = SteadyLabel(objectName="hover")
        self.timing_label = SteadyLabel(objectName="timing")
        self.device_label = QLabel(objectName="device_label")
        self.statusBar().addWidget(self.hover_label, 1)
        self.statusBar().addPermanentWidget(self.timing_label)
        self.statusBar().addPermanentWidget(self.device_label)
        build_menus(self)

        self.parameters.changed.connect(self.refresh)
        self.tabs.currentChanged.connect(self.refresh)
        self.tabs.currentChanged.connect(self.hover_label.clear)  # it read the tab left
        self.tabs.currentChanged.connect(self.show_signs)
        self.engine.frame_drawn.connect(self._on_frame)
        self.engine.failed.connect(self._on_failure)
        self.engine.device_changed.connect(self._on_device)
        self._show_device(self.engine.device)
        self.resize(1500, 950)
        self.refresh()  # the first frame: computed once the engine starts (_start_computing)
        self.show_signs()

    def _start_computing(self) -> None:
        """Let the engine compute. The window was built, set from its session and shown
        before the event loop ran, its views asking again at each layout step; once its
        layouts settled (each pass posts the next, which the event loop would leave for its
        next round) only the last request, for the windows the views show, is computed."""
        for _ in range(LAYOUT_PASSES):
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        self.engine.hold(False)

    def session(self) -> dict[str, Any]:
        """Everything a session file holds: look, language, shown tab and every setting."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "language": language(),
            "look": dataclasses.asdict(current_look()),
            "tab": self.tabs.currentWidget().objectName(),
            "window": placement(self),
            "parameters": settings(self.parameters),
            # A tab never built has its defaults: nothing to keep.
            "tabs": {tab.name: tab.state() for tab in self.built_tabs()},
        }

    def apply_session(self, session: dict[str, Any]) -> None:
        """Apply a session's settings (its look and language are the window's to be built
        with, see ``open_window``). All or nothing: on ValueError nothing has changed."""
        names = [spec.name for spec in self._specs]
        for name in session.get("tabs", {}):  # built first, so that a rollback covers them
            if name in names:
                self.tab(name)
        before = self.session()
        try:
            self._set_session(session)
        except ValueError:
            self._set_session(before)
            raise

    def _set_session(self, session: dict[str, Any]) -> None:
        if "window" in session:
            place(self, session["window"])
        try:
            apply_settings(self.parameters, session.get("parameters", {}))
        except ValueError as exc:
            raise ValueError(f"parameters: {exc}") from None
        names = [spec.name for spec in self._specs]
        unknown = sorted(set(session.get("tabs", {})) - set(names))
        if unknown:
            raise ValueError(f"tabs: no tab named {', '.join(unknown)}")
        for name, state in session.get("tabs", {}).items():
            self.tab(name).set_state(state)
        if session.get("tab") is not None:
            if session["tab"] not in names:
                raise ValueError(f"tab must be one of {', '.join(names)}, got {session['tab']!r}")
            self.tabs.setCurrentIndex(names.index(session["tab"]))

    @property
    def successor(self) -> MainWindow | None:
        """The window that replaced this one (a rebuild), while it is open."""
        return self._successor() if self._successor else None

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

    def _rebuild(self, session: dict[str, Any]) -> MainWindow:
        window = open_window(session, device=self.engine.device)
        if self.remember:
            window.keep_interactive()
        window.imported = self.imported  # its report stays at hand
        if "window" not in session:  # a session file without a placement: keep this one
            window.setGeometry(self.geometry())
        window.show()
        keep_until_closed(window)
        # Weakly: a chain of replaced windows would keep each one's frames alive.
        self._successor = weakref.ref(window)
        # Deleted, not just hidden: its signal connections (lambdas and bound methods) would
        # keep every replaced window and its frames alive.
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.close()
        return window

    def keep_interactive(self) -> None:
        """The app's window: its session is kept when it closes, and the tabs it does not
        show are built in its quiet moments (``TabsBuiltAhead``); a rebuild's window too."""
        self.remember = True
        TabsBuiltAhead(self)

    def load_session(self, path: str | Path) -> str:
        """Apply the session file at ``path`` (rebuilding the window when its look or language
        differ); ValueError with the reason, and nothing changes, if it cannot be used. A
        placement saved on a larger or another screen is fitted onto this one."""
        session = parse_session(read_file(path), Path(path).name)
        shown = self
        if session_look(session) != current_look() or session.get("language", "en") != language():
            shown = self._rebuild(session)
        else:
            self.apply_session(session)
        if "window" in session and shown.isVisible():
            fit_on_screen(shown)
        return tr("Loaded session {name}").format(name=Path(path).name)

    def save_session(self, path: str | Path) -> str:
        """Write the session to ``path`` atomically; ValueError if the folder is unwritable."""
        check_writable_folder(path)
        data = session_bytes(self.session())
        write_atomic(path, lambda temporary: temporary.write_bytes(data))
        return tr("Saved session {name}").format(name=Path(path).name)

    def apply_preset(self, preset: Preset) -> str:
        """Set every tab from a model preset; returns what was done.

        Values outside the app's ranges are refused (ValueError) before anything changes.
        """
        shared = registry.preset_parameters(preset)
        for name, value in shared.items():
            low, high = SHARED_RANGES[name]
            if not low <= value <= high:
                key = "rope_theta" if name == "theta" else name  # as config.json names it
                raise ValueError(
                    f"{preset.name}: {key} {value:g} is outside the app's range {low:g} … {high:g}"
                )
        taking = [spec.name for spec in self._specs if preset.kind in spec.preset_kinds]
        for name in taking:  # built first, so that a rollback covers them
            self.tab(name)
        before = self.session()
        try:
            for name, value in shared.items():
                getattr(self.parameters, name).setValue(value)
            for name in taking:
                tab = self.tab(name)
                tab.reset(self._defaults[name])  # nothing of an earlier preset stays
                tab.apply_preset(preset)
        except Exception:  # all or nothing, whatever went wrong
            self.apply_session(before)
            raise
        shown = registry.tab_for_preset(preset)
        self.tabs.setCurrentWidget(self.tab(shown.name))
        page = shown.preset_page(preset)
        if page is not None:
            self.tab(shown.name).show_page(page)
        for name in taking:  # what no control holds (a model's layer types) reaches the views
            self.tab(name).refresh()
        changed = changes(before, self.session())
        return tr("Loaded {0}: {1}").format(preset.name, ", ".join(changed) or tr("no change"))

    def import_config(self, data: bytes, source: str = "config.json") -> str:
        """Apply a model's config.json to the RoPE and extension tabs; returns a summary.

        Anything invalid raises ValueError naming the key and the reason, and nothing changes.
        """
        config, model = read_config_json(data)
        self.apply_preset(Preset(source, "rope", config, "half", {"config": source}))
        self.imported = (source, model)
        return import_summary(source, model)

    def show_import_report(self) -> None:
        """Show what the last import read and ignored (non-modal)."""
        if self.imported is None:
            self.statusBar().showMessage(
                tr("No config.json imported yet: File → Open config.json…"), 15_000
            )
            return
        self.import_report = ImportReport(*self.imported, parent=self)
        self.import_report.show()

    def tab(self, name: str) -> Tab:
        """The tab whose objectName is ``name`` (built now if it was not yet)."""
        for index, spec in enumerate(self._specs):
            if spec.name == name:
                return self.tab_at(index)
        raise KeyError(name)

    def tab_at(self, index: int) -> Tab:
        """The tab at ``index``, built now if it was not yet."""
        widget = self.tabs.widget(index)
        if isinstance(widget, Tab):
            return widget
        tab = registry.tab_class(self._specs[index].name)(self._context)
        self._defaults[tab.name] = settings(tab)
        tab.hovered.connect(self.hover_label.setText)
        offer_export(self, tab)
        # out of its layout now, not as they go to the tab bar's corner when it is first shown
        # (``show_signs``): laid out ahead, it is laid out as it will be shown
        tab.signs.setParent(self.tabs)  # hidden, as a reparented widget is
        current = self.tabs.currentIndex()
        with QSignalBlocker(self.tabs):  # the same tab stays shown: nothing changed for it
            self.tabs.removeTab(index)
            self.tabs.insertTab(index, tab, tr(type(tab).title))
            self.tabs.setCurrentIndex(current)
        if widget is not None:
            widget.deleteLater()
        return tab

    def built_tabs(self) -> list[Tab]:
        """The tabs built so far (shown or asked for), in order."""
        widgets = (self.tabs.widget(index) for index in range(self.tabs.count()))
        return [widget for widget in widgets if isinstance(widget, Tab)]

    def refresh(self) -> None:
        """Recompute the visible tab (hidden tabs catch up when shown), before any other."""
        tab = self.tab_at(self.tabs.currentIndex())
        self.engine.prefer(tab.name)
        tab.refresh()

    def show_signs(self) -> None:
        """The shown tab's signs (busy, not current) in the tab bar's corner: there they take
        no room from the views (the bar has room to spare) and move nothing as they come and
        go."""
        signs = self.tab_at(self.tabs.currentIndex()).signs
        if self.tabs.cornerWidget(Qt.Corner.TopRightCorner) is not signs:
            self.tabs.setCornerWidget(signs, Qt.Corner.TopRightCorner)  # hides the one before
            signs.show()

    def channel_title(self, channel: str) -> str:
        """An engine channel as the interface names it: ``rope.rotation`` → ``RoPE · Rotation``
        (the tab's title, and the page's: the channel's own page, or the page in front, the
        one a tab with pages computes)."""
        name, _, page = channel.partition(".")
        tab = next((tab for tab in self.built_tabs() if tab.name == name), None)
        if tab is None:
            return channel
        title = tr(tab.title)
        page = page or tab.current_page() or ""
        if page and tab.pages is not None and page in tab.page_names():
            page_title = tab.pages.tabText(tab.page_names().index(page)).replace("&&", "&")
            title = f"{title} · {page_title}"
        return title

    def _on_frame(self, channel: str, request_id: int, compute_ms: float) -> None:
        # what is on screen only: not a hidden tab catching up, nor a page behind (the RoPE
        # rotation panels asked for just before their page was left)
        shown = self.tabs.currentWidget()
        name, _, page = channel.partition(".")
        if not isinstance(shown, Tab) or name != shown.name:
            return
        if page and page in shown.page_names() and page != shown.current_page():
            return
        if compute_ms == NOT_COMPUTED_MS:
            text = tr("{0}: frame already on screen, nothing computed").format(
                self.channel_title(channel)
            )
        else:
            text = tr("{0}: compute {1:.1f} ms").format(self.channel_title(channel), compute_ms)
        self.timing_label.setText(text)

    def _on_failure(self, channel: str, message: str) -> None:
        if channel == AHEAD:
            return  # a page drawn ahead: the same failure is said when it is shown
        self.statusBar().showMessage(
            tr("{0}: computation failed — {1}").format(self.channel_title(channel), message),
            10_000,
        )

    def _on_device(self, name: str) -> None:
        self._show_device(name)
        self.refresh()

    def _show_device(self, name: str) -> None:
        self.device_label.setText(tr("device: {0}").format(name))
        for action in self.findChildren(QAction):
            if action.objectName() == f"device_{name}":
                action.setChecked(True)

    def before_exit(self) -> None:
        """At exit: let a computation in flight end before the window goes."""
        self.engine.shutdown(wait_s=None)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.remember and self.successor is None:
            remember(self.session())
        for timer in self.findChildren(QTimer):  # animations of a window replaced by a rebuild
            timer.stop()
        self.engine.shutdown()
        super().closeEvent(event)


def open_window(session: dict[str, Any] | None = None, *, device: str | None = None) -> MainWindow:
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
