"""The registry of tabs: the one list the window, menus, command line, export, sessions, the
Compare tab, the benchmark and the tests iterate. A new encoding adds one line here.
"""

from __future__ import annotations

from posenc_gui.comparison import Entry
from posenc_gui.presets import Preset
from posenc_gui.tab import Tab
from posenc_gui.tabs.absolute.tab import AbsoluteTab
from posenc_gui.tabs.compare.tab import CompareTab
from posenc_gui.tabs.extension.tab import ExtensionTab
from posenc_gui.tabs.relative.tab import RelativeTab
from posenc_gui.tabs.rope.tab import RopeTab

_TABS: list[type[Tab]] = [AbsoluteTab, RelativeTab, RopeTab, ExtensionTab, CompareTab]


def tab_classes() -> tuple[type[Tab], ...]:
    """Every registered tab class, in the order the window shows them."""
    return tuple(_TABS)


def register(tab_class: type[Tab]) -> None:
    """Add a tab (after the built-in ones); ValueError if its name is taken."""
    if any(existing.name == tab_class.name for existing in _TABS):
        raise ValueError(f"a tab named {tab_class.name!r} is registered already")
    _TABS.append(tab_class)


def unregister(tab_class: type[Tab]) -> None:
    """Remove a tab added by ``register``."""
    _TABS.remove(tab_class)


def names() -> tuple[str, ...]:
    """The registered tabs' names (the command line's ``--tab`` choices)."""
    return tuple(tab.name for tab in _TABS)


def preset_kinds() -> tuple[str, ...]:
    """Every preset kind some tab takes settings from."""
    return tuple(dict.fromkeys(kind for tab in _TABS for kind in tab.preset_kinds))


def compare_entries() -> tuple[Entry, ...]:
    """Every tab's encodings on the Compare tab, in registry order."""
    return tuple(entry for tab in _TABS for entry in tab.compare)


def tab_for_preset(preset: Preset) -> type[Tab]:
    """The tab to show after applying ``preset``."""
    return next(tab for tab in _TABS if tab.shows_preset(preset))


def preset_parameters(preset: Preset) -> dict[str, float]:
    """The shared parameters ``preset`` sets, as the tabs that take its kind read them."""
    shared: dict[str, float] = {}
    for tab in _TABS:
        if preset.kind in tab.preset_kinds:
            shared |= tab.preset_parameters(preset)
    return shared
