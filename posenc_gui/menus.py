"""The main window's menus: File (configs, sessions, export), Presets, View, Language, Device
and Help. Each action's objectName says what it does, so tests can trigger it by name."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from pyqtgraph import GraphicsView
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMenu, QMessageBox

from posenc_gui import __version__
from posenc_gui.engine import available_devices
from posenc_gui.export_dialog import ExportDialog
from posenc_gui.files import read_file
from posenc_gui.i18n import LANGUAGES, N_, language, tr
from posenc_gui.tab import Tab
from posenc_gui.views.style import COLORMAPS, THEMES, current_look

if TYPE_CHECKING:
    from posenc_gui.window import MainWindow

THEME_LABELS = {"light": N_("&Light theme"), "dark": N_("&Dark theme")}
COLORMAP_LABELS = {
    "sequential": N_("Sequential colormap"),
    "diverging": N_("Diverging colormap"),
    "cyclic": N_("Cyclic colormap"),
}


def _action(
    window: MainWindow,
    menu: QMenu,
    label: str,
    name: str,
    handler: Callable[[], object],
    **options: object,
) -> QAction:
    action = QAction(label, window, objectName=name, **options)
    action.triggered.connect(lambda _=False: handler())
    menu.addAction(action)
    return action


def _choices(
    window: MainWindow,
    menu: QMenu,
    name: str,
    choices: dict[str, str],
    current: str,
    choose: Callable[[str], object],
) -> None:
    """A group of checkable actions, one per choice (``name_<key>``). A choice that cannot be
    made is refused in a dialog and the check goes back to the current choice."""
    group = QActionGroup(window)
    actions: dict[str, QAction] = {}
    chosen = [current]

    def pick(key: str) -> None:
        try:
            choose(key)
        except ValueError as exc:
            actions[chosen[0]].setChecked(True)
            QMessageBox.warning(window, tr("Not done"), str(exc))
        else:
            chosen[0] = key

    for key, label in choices.items():
        actions[key] = _action(window, menu, label, f"{name}_{key}", partial(pick, key))
        actions[key].setCheckable(True)
        actions[key].setChecked(key == current)
        group.addAction(actions[key])


def build_menus(window: MainWindow) -> None:
    """File, Presets, View, Language, Device and Help menus of ``window``."""
    file_menu = window.menuBar().addMenu(tr("&File"))
    _action(
        window, file_menu, tr("&Open config.json…"), "open_config", lambda: _open_config(window)
    )
    _action(
        window, file_menu, tr("&Paste config.json…"), "paste_config", lambda: _paste_config(window)
    )
    _action(window, file_menu, tr("&Import report…"), "import_report", window.show_import_report)
    file_menu.addSeparator()
    _action(
        window,
        file_menu,
        tr("Open &session…"),
        "open_session",
        lambda: _open_session(window),
        shortcut="Ctrl+O",
    )
    _action(
        window,
        file_menu,
        tr("&Save session as…"),
        "save_session",
        lambda: _save_session(window),
        shortcut="Ctrl+Shift+S",
    )
    file_menu.addSeparator()
    _action(
        window,
        file_menu,
        tr("&Export or copy a view…"),
        "export",
        lambda: _export(window),
        shortcut="Ctrl+E",
    )
    file_menu.addSeparator()
    _action(window, file_menu, tr("&Quit"), "quit", window.close, shortcut="Ctrl+Q")
    preset_menu = window.menuBar().addMenu(tr("&Presets"))
    for preset in window.presets:
        _action(
            window,
            preset_menu,
            preset.name,
            f"preset_{preset.name}",
            partial(_report, window, window.apply_preset, preset),
        )
    look = current_look()
    view_menu = window.menuBar().addMenu(tr("&View"))
    _choices(
        window,
        view_menu,
        "theme",
        {t: tr(THEME_LABELS[t]) for t in THEMES},
        look.theme,
        lambda t: window.change_look(theme=t),
    )
    view_menu.addSeparator()
    presentation = _action(
        window,
        view_menu,
        tr("&Presentation mode (larger fonts, thicker lines)"),
        "presentation",
        lambda: _toggle_presentation(window, presentation),
        checkable=True,
        shortcut="F5",
    )
    presentation.setChecked(look.presentation)
    for role, names in COLORMAPS.items():
        submenu = view_menu.addMenu(tr(COLORMAP_LABELS[role]))
        _choices(
            window,
            submenu,
            f"colormap_{role}",
            {n: n for n in names},
            getattr(look, role),
            partial(_change_colormap, window, role),
        )
    language_menu = window.menuBar().addMenu(tr("&Language"))
    _choices(window, language_menu, "language", LANGUAGES, language(), window.change_language)
    device_menu = window.menuBar().addMenu(tr("&Device"))
    _choices(
        window,
        device_menu,
        "device",
        {n: n for n in available_devices()},
        window.engine.device,
        window.engine.set_device,
    )
    help_menu = window.menuBar().addMenu(tr("&Help"))
    _action(window, help_menu, tr("&About posenc-gui"), "about", lambda: _about(window))


def _change_colormap(window: MainWindow, role: str, name: str) -> None:
    window.change_look(**{role: name})


def _toggle_presentation(window: MainWindow, action: QAction) -> None:
    try:
        window.change_look(presentation=not current_look().presentation)
    except ValueError as exc:
        action.setChecked(current_look().presentation)
        QMessageBox.warning(window, tr("Not done"), str(exc))


def _about(window: MainWindow) -> None:
    QMessageBox.about(
        window,
        tr("About posenc-gui"),
        f"<b>posenc-gui {__version__}</b><p>"
        + tr(
            "Transformer positional encodings made visible: absolute sinusoidal, "
            "relative and rotary."
        )
        + "</p>",
    )


def _open_session(window: MainWindow) -> None:
    path, _ = QFileDialog.getOpenFileName(
        window, tr("Open a session"), "", tr("posenc-gui session (*.json);;All files (*)")
    )
    if path:
        _report(window, window.load_session, path)


def _save_session(window: MainWindow) -> None:
    path, _ = QFileDialog.getSaveFileName(
        window, tr("Save the session"), "session.json", tr("posenc-gui session (*.json)")
    )
    if path:
        _report(window, window.save_session, path)


def _export(window: MainWindow) -> None:
    """The export dialog on the shown tab, one of the views in front chosen."""
    tab = window.tab_at(window.tabs.currentIndex())
    shown = sorted(name for name, view in tab.view_names().items() if view.isVisible())
    ExportDialog(tab, window, view=shown[0] if shown else "").exec()


def offer_export(window: MainWindow, tab: Tab) -> None:
    """Each plot view's right-click "Export..." opens the export dialog on that view, in place
    of pyqtgraph's own dialog (untranslated, without the sizes, caption and exact SVG text of
    posenc_gui.export, and offering exporters that need packages the app does not have)."""
    for name, view in tab.view_names().items():
        if isinstance(view, GraphicsView):  # a view of another kind has no such menu
            (action,) = view.scene().contextMenu  # pyqtgraph's one: "Export..."
            action.triggered.disconnect()
            action.setText(tr("Export or copy this view…"))
            action.triggered.connect(
                lambda _=False, name=name: ExportDialog(tab, window, view=name).exec()
            )


def _report(window: MainWindow, action: Callable[..., str], *args: object) -> bool:
    """Run a user action: its summary in the status bar, or its refusal in a dialog; whether
    it was done."""
    try:
        window.statusBar().showMessage(action(*args), 15_000)
    except ValueError as exc:
        QMessageBox.warning(window, tr("Not done"), str(exc))
        return False
    return True


def _import(window: MainWindow, data: Callable[[], bytes], source: str) -> None:
    """Import a config.json and show what was read of it and what was ignored."""
    if _report(window, lambda: window.import_config(data(), source)):
        window.show_import_report()


def _open_config(window: MainWindow) -> None:
    path, _ = QFileDialog.getOpenFileName(
        window, tr("Open a model's config.json"), "", tr("JSON (*.json);;All files (*)")
    )
    if path:
        _import(window, lambda: read_file(path), Path(path).name)


def _paste_config(window: MainWindow) -> None:
    text, ok = QInputDialog.getMultiLineText(
        window, tr("Paste config.json"), tr("A model's config.json (JSON):")
    )
    if ok and text.strip():
        _import(window, lambda: text.encode("utf-8"), tr("pasted config.json"))
