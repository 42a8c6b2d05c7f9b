"""The command line: ``posenc-gui [options]`` starts the app; ``posenc-gui export`` writes one
view of a tab to a file headless; ``--list-views`` and ``--screenshot`` are headless too.

Bad arguments exit with status 2 and a one-line message naming the option.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSize, QTimer
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QApplication

from posenc_gui import __version__, registry
from posenc_gui.app import application
from posenc_gui.controls import apply_settings, format_number
from posenc_gui.engine import available_devices, check_device
from posenc_gui.export import FORMATS, SCALES, export_view
from posenc_gui.files import check_writable_folder, read_file, write_atomic
from posenc_gui.i18n import LANGUAGES, tr
from posenc_gui.parameters import EVEN_PARAMETERS, SHARED_RANGES
from posenc_gui.session import last_session, parse_session
from posenc_gui.session import look as session_look
from posenc_gui.views.style import THEMES
from posenc_gui.window import MainWindow, open_window

SCREENSHOT_DELAY_MS = 600
EXPORT_WINDOW_SIZE = QSize(2400, 1500)


class UsageError(ValueError):
    """A command-line value that cannot be used: exit status 2."""


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
        choices=registry.names(),
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
    try:
        _check(args, export)
    except ValueError as exc:
        parser.error(str(exc))
    return args


def _check(args: argparse.Namespace, export: bool) -> None:
    """What argparse cannot check itself; ValueError naming the option."""
    if args.device is not None:
        try:
            check_device(args.device)
        except ValueError as exc:
            raise ValueError(f"--{exc}") from None
    for flag, path in (("--screenshot", args.screenshot), ("--out", getattr(args, "out", None))):
        if path:
            try:
                check_writable_folder(path)
            except ValueError as exc:
                raise ValueError(f"{flag}: {exc}") from None
    if export and Path(args.out).suffix.lower() not in FORMATS:
        raise ValueError(f"--out: the format comes from the suffix, one of {', '.join(FORMATS)}")
    for name, (low, high) in SHARED_RANGES.items():
        value = getattr(args, name)
        flag = f"--{name.replace('_', '-')}"
        if value is not None and not low <= value <= high:
            raise ValueError(
                f"{flag} must be in [{format_number(low)}, {format_number(high)}], "
                f"got {format_number(value)}"
            )
        if name in EVEN_PARAMETERS and value is not None and value % 2:
            raise ValueError(f"{flag} must be even, got {value}")


def _with_options(session: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
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


def _open(args: argparse.Namespace, interactive: bool) -> MainWindow:
    """The window: from ``--session``, else (interactive only) the last session, else the
    defaults. A kept session that no longer fits is reported and the defaults are used."""
    try:
        chosen = (
            parse_session(read_file(args.session), Path(args.session).name)
            if args.session
            else None
        )
        kept = last_session() if interactive and chosen is None else None
        try:
            return open_window(_with_options(chosen or kept or {}, args), device=args.device)
        except ValueError as exc:
            if kept is None:
                raise
            window = open_window(_with_options({}, args), device=args.device)
            message = tr("Last session not restored: {reason}").format(reason=exc)
            window.statusBar().showMessage(message, 15_000)
            return window
    except ValueError as exc:
        raise UsageError(f"--session: {exc}") from None


def _apply_options(window: MainWindow, args: argparse.Namespace) -> None:
    """Parameters, preset, config, tab, page and tokens from the command line, in that order;
    UsageError naming the option that does not fit."""
    for name in SHARED_RANGES:
        if getattr(args, name) is not None:
            getattr(window.parameters, name).setValue(getattr(args, name))
    if args.preset:
        names = {preset.name: preset for preset in window.presets}
        if args.preset not in names:
            raise UsageError(f"preset must be one of: {', '.join(names)}; got {args.preset!r}")
        window.apply_preset(names[args.preset])
    if args.config:
        window.import_config(read_file(args.config), Path(args.config).name)
    if args.tab:
        window.tabs.setCurrentWidget(window.tab(args.tab))
    if args.page:
        try:
            window.tab_at(window.tabs.currentIndex()).show_page(args.page)
        except ValueError as exc:
            raise UsageError(f"--{exc}") from None
    if args.tokens:  # the Absolute tab's own option
        apply_settings(window.tab("absolute"), {"label_tokens": True})
    views = window.tab(args.tab).view_names() if args.tab else {}
    if getattr(args, "view", None) and args.view not in views:
        raise UsageError(
            f"--view must be one of {', '.join(sorted(views))} on the {args.tab} tab, "
            f"got {args.view!r}"
        )


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


def save_png(image: QPixmap, path: Path) -> None:
    """Encode ``image`` as PNG at ``path``; OSError if Qt cannot."""
    if not image.save(str(path), "PNG"):
        raise OSError(f"Qt could not write a PNG to {path}")


def _headless(app: QApplication, window: MainWindow, args: argparse.Namespace) -> int:
    """``--screenshot`` or ``export``: write once the first frame is drawn, then quit."""
    if args.screenshot:
        target = args.screenshot
        return _after_first_frame(
            app,
            window,
            lambda: write_atomic(target, lambda temporary: save_png(window.grab(), temporary)),
        )
    tab = window.tab_at(window.tabs.currentIndex())
    view = tab.show_view(args.view)
    caption = tab.caption() if args.caption else None
    return _after_first_frame(
        app, window, lambda: export_view(view, args.out, scale=args.scale, caption=caption)
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the app; returns the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    export = bool(argv) and argv[0] == "export"
    args = parse_args(argv[1:] if export else argv, export=export)
    list_views = getattr(args, "list_views", False)
    if export or list_views:  # headless by design
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = application()
    # A plain start restores the last session; exports and screenshots start from the defaults
    # (or --session) so the same command line always makes the same figure.
    interactive = not (export or list_views or args.screenshot)
    try:
        window = _open(args, interactive)
    except UsageError as exc:
        print(f"posenc-gui: error: {exc}", file=sys.stderr)
        return 2
    if list_views:
        for index in range(window.tabs.count()):
            tab = window.tab_at(index)
            print("\n".join(f"{tab.name} {view}" for view in sorted(tab.view_names())))
        window.close()
        return 0
    try:
        _apply_options(window, args)
    except ValueError as exc:  # UsageError, or a preset or config that does not fit
        print(f"posenc-gui: error: {exc}", file=sys.stderr)
        window.close()
        return 2
    if export:  # room for every view: figures at about 800 × 600 whatever the page's grid
        window.resize(EXPORT_WINDOW_SIZE)
    window.show()
    if args.screenshot or export:
        return _headless(app, window, args)
    window.remember = interactive  # only a session that started cleanly is kept
    return app.exec()
