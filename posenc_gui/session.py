"""Sessions: the look, the language, the window's place and every tab's settings as versioned
JSON.

A file is read whole and checked before anything changes; a corrupt or foreign file raises
ValueError with the reason. The last session lives in QSettings between runs.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMainWindow

from posenc_gui.choices import format_number
from posenc_gui.files import parse_json
from posenc_gui.i18n import LANGUAGES
from posenc_gui.views.style import Look

FORMAT = "posenc-gui session"
VERSION = 1
_LAST = "last_session"
KEYS = frozenset({"format", "version", "language", "look", "tab", "window", "parameters", "tabs"})


def session_bytes(session: dict[str, Any]) -> bytes:
    """A session as UTF-8 JSON (indented, so it diffs and reads well)."""
    return json.dumps(session, ensure_ascii=False, indent=2).encode("utf-8") + b"\n"


def parse_session(data: bytes, source: str = "session") -> dict[str, Any]:
    """The session in ``data``; ValueError naming ``source`` and the reason if it is not one
    this version of posenc-gui can read."""
    session = parse_json(data, source)
    if not isinstance(session, dict) or session.get("format") != FORMAT:
        raise ValueError(f'{source}: not a posenc-gui session (no "format": "{FORMAT}")')
    unknown = sorted(set(session) - KEYS)
    if unknown:
        raise ValueError(f"{source}: no session key named {', '.join(map(repr, unknown))}")
    version = session.get("version")
    if isinstance(version, bool) or version != VERSION:  # True == 1 in Python: not a version
        raise ValueError(
            f"{source}: session version {version!r} cannot be read "
            f"(this posenc-gui reads version {VERSION})"
        )
    try:
        look(session)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{source}: look: {exc}") from None
    name = session.get("language", "en")
    if not isinstance(name, str) or name not in LANGUAGES:
        raise ValueError(f"{source}: language must be one of {', '.join(LANGUAGES)}, got {name!r}")
    for key in ("parameters", "tabs"):
        if not isinstance(session.get(key, {}), dict):
            raise ValueError(f"{source}: {key} must be an object")
    for name, state in session.get("tabs", {}).items():
        if not isinstance(state, dict) or not isinstance(state.get("controls", {}), dict):
            raise ValueError(f"{source}: tabs.{name} must be an object with controls")
    return session


def changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What differs between two sessions' settings, as ``name old → new`` (a tab's settings
    prefixed by the tab's name), in the order the sessions list them."""
    pairs = [("", before.get("parameters", {}), after.get("parameters", {}))]
    for name, state in after.get("tabs", {}).items():
        old = before.get("tabs", {}).get(name, {}).get("controls", {})
        pairs.append((f"{name}.", old, state.get("controls", {})))
    return [
        f"{prefix}{key} {_shown(old.get(key))} → {_shown(value)}"
        for prefix, old, new in pairs
        for key, value in new.items()
        if key in old and old[key] != value
    ]


def _shown(value: object) -> str:
    """A setting as the status bar says it: 1,048,576, not 1.04858e+06 (six digits)."""
    return format_number(value) if isinstance(value, float) else str(value)


def look(session: dict[str, Any]) -> Look:
    """The session's look (the default look where it has none)."""
    fields = session.get("look", {})
    if not isinstance(fields, dict):
        raise ValueError("must be an object")
    known = [field.name for field in dataclasses.fields(Look)]
    unknown = sorted(set(fields) - set(known))
    if unknown:
        raise ValueError(
            f"no setting named {', '.join(map(repr, unknown))} (it has {', '.join(known)})"
        )
    return Look(**fields)


def _settings() -> QSettings:
    return QSettings(
        QSettings.Format.IniFormat, QSettings.Scope.UserScope, "posenc-gui", "posenc-gui"
    )


def remember(session: dict[str, Any]) -> None:
    """Keep ``session`` for the next start."""
    settings = _settings()
    settings.setValue(_LAST, session_bytes(session).decode("utf-8"))
    settings.sync()


def last_session() -> dict[str, Any] | None:
    """The session of the last run, or None if none was kept; ValueError with the reason when
    what was kept cannot be read (a damaged or hand-edited settings file)."""
    text = _settings().value(_LAST)
    if text is None:
        return None
    if not isinstance(text, str):
        raise ValueError(f"the settings file holds a {type(text).__name__}, not a session")
    return parse_session(text.encode("utf-8"), "last session")


def placement(window: QMainWindow) -> dict[str, Any]:
    """Where ``window`` is and how large, as a session keeps it (the normal geometry of a
    maximised window, so un-maximising restores it)."""
    normal = window.normalGeometry() if window.isMaximized() else window.geometry()
    return {
        "x": normal.x(),
        "y": normal.y(),
        "width": normal.width(),
        "height": normal.height(),
        "maximized": window.isMaximized(),
    }


def fit_on_screen(window: QMainWindow) -> None:
    """Fit ``window`` (its frame) to the screen it opens on and move it onto it: a session
    saved on a larger or another monitor would open it partly or wholly off screen."""
    screen = window.screen().availableGeometry()
    frame, inner = window.frameGeometry(), window.geometry()
    window.resize(
        min(inner.width(), screen.width() - (frame.width() - inner.width())),
        min(inner.height(), screen.height() - (frame.height() - inner.height())),
    )
    frame = window.frameGeometry()  # no smaller than the window's least size
    window.move(
        max(screen.left(), min(frame.x(), screen.left() + screen.width() - frame.width())),
        max(screen.top(), min(frame.y(), screen.top() + screen.height() - frame.height())),
    )


MAX_WINDOW_SIDE = 16_384


def place(window: QMainWindow, data: object) -> None:
    """Apply ``placement()`` data to ``window``; ValueError naming the field that does not fit."""
    if not isinstance(data, dict):
        raise ValueError("window must be an object with x, y, width, height and maximized")
    fields = {"x": (-100_000, 100_000), "y": (-100_000, 100_000)}
    # sides no desktop exceeds (four 4K screens in a row: 15,360): a window of 100,000 px a
    # side asked Qt for a backing store of gigabytes and stalled the app for a minute
    fields |= {"width": (200, MAX_WINDOW_SIDE), "height": (150, MAX_WINDOW_SIDE)}
    for key, (low, high) in fields.items():
        value = data.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"window.{key} must be a whole number in [{low}, {high}]")
    if not isinstance(data.get("maximized", False), bool):
        raise ValueError("window.maximized must be true or false")
    window.setGeometry(data["x"], data["y"], data["width"], data["height"])
    state = window.windowState() & ~Qt.WindowState.WindowMaximized
    if data.get("maximized"):
        state |= Qt.WindowState.WindowMaximized
    window.setWindowState(state)
