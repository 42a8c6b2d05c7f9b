"""What the command line and the window know of a tab before any of it loads (no Qt, no torch):
its name, title and preset kinds, where its class lives, and its views with the page each sits
on. The tab places exactly these (``Tab.add_view`` and ``add_page`` refuse any other), so the
two cannot drift apart; its class takes its name, title and preset kinds from here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class TabSpec:
    name: str  # objectName, engine channel and command-line name
    tab: str  # "module:Class" of its Tab subclass
    views: Mapping[str, str | None]  # exportable view → its page (None: a tab without pages)
    title: str  # shown on the tab (marked for translation)
    preset_kinds: tuple[str, ...] = ()  # presets this tab takes settings from

    def pages(self) -> list[str]:
        """The tab's pages in order (empty for a tab without a page bar)."""
        return [page for page in dict.fromkeys(self.views.values()) if page is not None]
