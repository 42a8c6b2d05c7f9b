"""The registry of tabs: the one list the window, menus, command line, export, sessions, the
Compare tab, the benchmark and the tests iterate. A new encoding adds one line to ``BUILT_IN``.

Each tab package's ``SPEC`` (``posenc_gui.tabspec``) loads without Qt or torch, so the command
line checks ``--tab``, ``--page`` and ``--view`` and lists the views at once, and the window
lists the tabs and presets; a tab's class is imported when first asked for (``tab_class``).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from posenc_gui.tabspec import TabSpec

if TYPE_CHECKING:
    from posenc_gui.comparison import Entry
    from posenc_gui.presets import Preset
    from posenc_gui.tab import Tab

# The tab packages under posenc_gui.tabs, in the order the window shows them.
BUILT_IN = ("absolute", "relative", "rope", "extension", "multimodal", "compare")
_added: list[type[Tab]] = []


def specs() -> tuple[TabSpec, ...]:
    """Every registered tab's spec, in order; loads neither Qt nor torch."""
    built_in = [import_module(f"posenc_gui.tabs.{package}").SPEC for package in BUILT_IN]
    return (*built_in, *(tab.spec for tab in _added))


def names() -> tuple[str, ...]:
    """The registered tabs' names (the command line's ``--tab`` choices)."""
    return tuple(spec.name for spec in specs())


def spec(name: str) -> TabSpec:
    """The spec of the tab called ``name``."""
    return next(spec for spec in specs() if spec.name == name)


def tab_class(name: str) -> type[Tab]:
    """The class of the tab called ``name``, its module imported now if it was not yet (the
    window imports a tab's when it builds it)."""
    added = next((tab for tab in _added if tab.name == name), None)
    if added is not None:
        return added
    module, class_name = spec(name).tab.split(":")
    found: type[Tab] = getattr(import_module(module), class_name)
    return found


def tab_classes() -> tuple[type[Tab], ...]:
    """Every registered tab class, in the order the window shows them."""
    return tuple(tab_class(name) for name in names())


def register(tab_class: type[Tab]) -> None:
    """Add a tab (after the built-in ones); ValueError if its name is taken."""
    if tab_class.name in names():
        raise ValueError(f"a tab named {tab_class.name!r} is registered already")
    _added.append(tab_class)


def unregister(tab_class: type[Tab]) -> None:
    """Remove a tab added by ``register``."""
    _added.remove(tab_class)


def preset_kinds() -> tuple[str, ...]:
    """Every preset kind some tab takes settings from (from the specs: no tab loads)."""
    return tuple(dict.fromkeys(kind for spec in specs() for kind in spec.preset_kinds))


def compare_entries() -> tuple[Entry, ...]:
    """Every tab's encodings on the Compare tab, in registry order."""
    return tuple(entry for tab in tab_classes() for entry in tab.compare)


def tab_for_preset(preset: Preset) -> type[Tab]:
    """The tab to show after applying ``preset``."""
    return next(tab for tab in tab_classes() if tab.shows_preset(preset))


def preset_parameters(preset: Preset) -> dict[str, float]:
    """The shared parameters ``preset`` sets, as the tabs that take its kind read them."""
    shared: dict[str, float] = {}
    for tab in tab_classes():
        if preset.kind in tab.preset_kinds:
            shared |= tab.preset_parameters(preset)
    return shared
