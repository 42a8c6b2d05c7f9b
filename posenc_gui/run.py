"""Running what the command line asked for (``posenc_gui.cli`` parsed it): the interactive
app, ``--screenshot`` or an export. Qt and torch load here."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSize, QTimer
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QApplication

from posenc_gui.app import application, closed_by_terminal_signals, quiet_platform_messages
from posenc_gui.choices import SHARED_RANGES
from posenc_gui.collector import without_collector
from posenc_gui.control_settings import apply_settings
from posenc_gui.engine import check_device
from posenc_gui.export import export_view
from posenc_gui.files import read_file, write_atomic
from posenc_gui.i18n import tr
from posenc_gui.presets import find_preset
from posenc_gui.session import fit_on_screen, last_session, parse_session, remember
from posenc_gui.session import look as session_look
from posenc_gui.teardown import keep_until_closed
from posenc_gui.window import MainWindow, open_window

SCREENSHOT_DELAY_MS = 600
EXPORT_WINDOW_SIZE = QSize(2400, 1500)


class UsageError(ValueError):
    """A command-line value that cannot be used: exit status 2."""


def _with_options(session: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """``session`` with the look and language the command line asks for; a headless run
    keeps its own window size (figures do not depend on where a window once was)."""
    changes = {"theme": args.theme, "presentation": args.presentation or None}
    look = session_look(session).with_changes(
        **{key: value for key, value in changes.items() if value is not None}
    )
    if args.export or args.screenshot:
        session = {key: value for key, value in session.items() if key != "window"}
    return {
        **session,
        "look": dataclasses.asdict(look),
        "language": args.lang or session.get("language", "en"),
    }


def _open(args: argparse.Namespace, interactive: bool) -> MainWindow:
    """The window: from ``--session``, else (interactive only) the last session, else the
    defaults. A kept session that cannot be read or no longer fits is reported once and
    replaced by the defaults."""
    if args.session:
        try:
            chosen = parse_session(read_file(args.session), Path(args.session).name)
            return open_window(_with_options(chosen, args), device=args.device)
        except ValueError as exc:
            raise UsageError(f"--session: {exc}") from None
    try:
        kept = last_session() if interactive else None
        return open_window(_with_options(kept or {}, args), device=args.device)
    except ValueError as exc:
        window = open_window(_with_options({}, args), device=args.device)
        remember(window.session())  # said once: the next start is a clean one
        message = tr("Last session not restored: {reason}").format(reason=exc)
        window.statusBar().showMessage(message, 15_000)
        return window


def _apply_options(window: MainWindow, args: argparse.Namespace) -> None:
    """Preset or config, parameters, tab, page and tokens from the command line, in that
    order: a value given explicitly wins over the preset's (``cli`` checked the names
    already); ValueError naming what does not fit."""
    if args.preset:
        window.apply_preset(find_preset(window.presets, args.preset))
    if args.config:
        name = Path(args.config).name
        try:
            window.import_config(read_file(args.config), name)
        except ValueError as exc:  # the key and the reason, of this file (named once)
            reason = str(exc).removeprefix(f"{name}: ")
            raise UsageError(f"--config: {args.config}: {reason}") from None
    for name in SHARED_RANGES:
        if getattr(args, name) is not None:
            getattr(window.parameters, name).setValue(getattr(args, name))
    if args.tab:
        window.tabs.setCurrentWidget(window.tab(args.tab))
    if args.page:
        try:
            window.tab_at(window.tabs.currentIndex()).show_page(args.page)
        except ValueError as exc:
            raise UsageError(f"--{exc}") from None
    if args.tokens:  # the Absolute tab's own option
        apply_settings(window.tab("absolute"), {"label_tokens": True})


def _after_first_frame(app: QApplication, window: MainWindow, write: Callable[[], object]) -> int:
    """Run ``write`` once the shown tab's first frame is drawn, then quit; the exit code. A
    frame that cannot be computed (settings that do not fit, a failed computation) ends the
    run at once with the reason and status 1."""
    exit_code = [0]
    channel = window.tabs.currentWidget().objectName()

    def write_now() -> None:
        # what the tab's message by the controls says (list entries out of range and skipped,
        # positions a dtype cannot hold): a file written without a word would hide it
        for note in filter(None, window.tab(channel).message.text().splitlines()):
            print(f"posenc-gui: note: {channel}: {note}", file=sys.stderr)
        try:
            write()
        except ValueError as exc:
            print(f"posenc-gui: error: {exc}", file=sys.stderr)
            exit_code[0] = 1
        window.close()

    def give_up(message: str) -> None:
        if exit_code[0]:
            return  # said once (the refusal comes as a signal and from asking again)
        print(f"posenc-gui: error: {channel}: no frame to write: {message}", file=sys.stderr)
        exit_code[0] = 1
        QTimer.singleShot(0, window.close)  # inside the event loop, so that it ends

    def on_failure(failed_channel: str, message: str) -> None:
        if failed_channel == channel:
            give_up(message)

    window.engine.failed.connect(on_failure)
    window.tab(channel).refused.connect(give_up)

    def on_frame(channel: str, request_id: int, _ms: float) -> None:
        if channel == window.tabs.currentWidget().objectName() and window.engine.is_current(
            channel, request_id
        ):
            window.engine.frame_drawn.disconnect(on_frame)
            QTimer.singleShot(SCREENSHOT_DELAY_MS, write_now)  # let layouts and paints settle

    window.engine.frame_drawn.connect(on_frame)
    try:  # settings refused before this was listening: no frame is on its way
        window.tab(channel).request()
    except ValueError as exc:
        give_up(str(exc))
    app.exec()
    return exit_code[0]


def save_png(image: QPixmap, path: Path) -> None:
    """Encode ``image`` as PNG at ``path``; OSError if Qt cannot."""
    if not image.save(str(path), "PNG"):
        raise OSError(f"Qt could not write a PNG to {path}")


def _headless(app: QApplication, window: MainWindow, args: argparse.Namespace) -> int:
    """``--screenshot`` or ``export``: write once the first frame is drawn, then quit, with
    one line naming the file and its size."""
    if args.screenshot:
        target = Path(args.screenshot)

        def write() -> Path:
            try:
                return write_atomic(target, lambda temporary: save_png(window.grab(), temporary))
            except ValueError as exc:
                raise ValueError(f"--screenshot: {exc}") from None
    else:
        tab = window.tab_at(window.tabs.currentIndex())
        view = tab.show_view(args.view)
        caption = tab.caption() if args.caption else None

        def write() -> Path:
            return export_view(view, args.out, scale=args.scale, caption=caption, size=args.size)

    def write_and_say() -> None:
        written = write()
        print(f"posenc-gui: wrote {written} ({written.stat().st_size:,} bytes)")

    return _after_first_frame(app, window, write_and_say)


def _start(args: argparse.Namespace) -> tuple[QApplication, MainWindow] | int:
    """The app and its window on screen, as ``args`` ask; or the exit code of a refusal."""
    headless = args.export or args.screenshot
    if args.export:  # no window on screen by design
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if headless:
        quiet_platform_messages()
    app = application()
    if args.device is not None:
        try:
            check_device(args.device)
        except ValueError as exc:
            print(f"posenc-gui: error: --{exc}", file=sys.stderr)
            return 2
    # A plain start restores the last session; exports and screenshots start from the defaults
    # (or --session) so the same command line always makes the same figure.
    try:
        window = _open(args, interactive=not headless)
    except UsageError as exc:
        print(f"posenc-gui: error: {exc}", file=sys.stderr)
        return 2
    try:
        _apply_options(window, args)
    except ValueError as exc:  # UsageError, or a preset or config that does not fit
        print(f"posenc-gui: error: {exc}", file=sys.stderr)
        window.close()
        return 2
    if args.export:  # room for every view: figures at about 800 × 600 whatever the page's grid
        window.resize(EXPORT_WINDOW_SIZE)
    if not headless:  # the last session may come from a larger screen
        fit_on_screen(window)
    window.show()
    if not headless:  # and again for the frame, known once the window is shown
        fit_on_screen(window)
    return app, window


def run(args: argparse.Namespace) -> int:
    """Do what ``args`` (from ``cli.parse_args``) ask; returns the process exit code."""
    with without_collector():  # the window is built (see posenc_gui.collector)
        started = _start(args)
    if isinstance(started, int):
        return started
    app, window = started
    del started  # no reference to the window but keep_until_closed's (below)
    if args.export or args.screenshot:
        return _headless(app, window, args)
    window.keep_interactive()  # only a session that started cleanly is kept
    keep_until_closed(window)
    del window  # released (its frames too) once a rebuild replaces it
    with closed_by_terminal_signals(app):
        return app.exec()
