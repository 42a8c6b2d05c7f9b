"""The registry of tabs: the one list the window, menus, command line, export, sessions, the
Compare tab, the benchmark and the tests iterate. A new encoding adds one line to ``BUILT_IN``.

The names are known without importing anything, so the command line can check ``--tab``
before Qt and torch load; the classes are imported when first asked for.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from posenc_gui.comparison import Entry
    from posenc_gui.presets import Preset
    from posenc_gui.tab import Tab

# Tab name → "module:class", in the order the window shows them.
BUILT_IN = {
    "absolute": "posenc_gui.tabs.absolute.tab:AbsoluteTab",
    "relative": "posenc_gui.tabs.relative.tab:RelativeTab",
    "rope": "posenc_gui.tabs.rope.tab:RopeTab",
    "extension": "posenc_gui.tabs.extension.tab:ExtensionTab",
    "compare": "posenc_gui.tabs.compare.tab:CompareTab",
}
_added: list[type[Tab]] = []


def names() -> tuple[str, ...]:
    """The registered tabs' names (the command line's ``--tab`` choices); imports nothing."""
    return (*BUILT_IN, *(tab.name for tab in _added))


def tab_classes() -> tuple[type[Tab], ...]:
    """Every registered tab class, in the order the window shows them."""
    built_in = []
    for where in BUILT_IN.values():
        module, name = where.split(":")
        built_in.append(getattr(import_module(module), name))
    return (*built_in, *_added)


def register(tab_class: type[Tab]) -> None:
    """Add a tab (after the built-in ones); ValueError if its name is taken."""
    if tab_class.name in names():
        raise ValueError(f"a tab named {tab_class.name!r} is registered already")
    _added.append(tab_class)


def unregister(tab_class: type[Tab]) -> None:
    """Remove a tab added by ``register``."""
    _added.remove(tab_class)


def preset_kinds() -> tuple[str, ...]:
    """Every preset kind some tab takes settings from."""
    return tuple(dict.fromkeys(kind for tab in tab_classes() for kind in tab.preset_kinds))


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
