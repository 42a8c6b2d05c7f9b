"""Tabs built, and pages drawn, ahead of their first showing while the app is quiet.

A tab's views are built when it is first shown or asked for (``MainWindow.tab_at``): building
all of them up front was most of the start-up time. Built at the first click instead, a tab
froze the window for 120-300 ms (the Relative tab's 19 plots, 2 CPUs). And a page shown for the
first time held the event loop for 40-75 ms in one turn: laid out, its curve items and legend
entries made, its labels laid out and its views painted for the first time, all then.

So an interactive window, once the app has been quiet for QUIET_MS (no control changed, no
frame drawn or computing, no mouse button held), does one piece of that work, and the next
NEXT_MS later while it stays quiet:

1. it builds a tab not built yet;
2. it draws a page never shown (the shown tab's pages first): laid out at the size the page in
   its place has, its frame computed for the settings of now on the AHEAD channel in the
   engine's background (any other request comes first), drawn, and painted once off screen.
   RoPE's rotation panels, computed on a channel of their own while their page is in front,
   come when it is shown;
3. it draws again a page of the shown tab behind the one in front whose settings changed since
   it was drawn (at most TRIES times between two things the user does).

Shown later, such a page has nothing new to draw: it paints (its frame is computed again, and
found the same). Shown at other settings, it costs what showing it again does: its frame of
the settings then, drawn over views already made. A change of the controls stops a frame
computed ahead (it is not drawn; its page is drawn ahead at the next quiet moment). A tab or
page behind asks for no frame of its own: it computes its frame when shown.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, Qt, QTimer
from PySide6.QtGui import QPixmap, QRegion
from PySide6.QtWidgets import QApplication, QWidget

from posenc_gui.engine import NOT_COMPUTED_MS
from posenc_gui.tab import Tab
from posenc_gui.views.deferred import draw_pending, settle

if TYPE_CHECKING:
    from posenc_gui.window import MainWindow

QUIET_MS = 1500  # no change and no frame for this long: the user reads, work may be done ahead
NEXT_MS = 100  # between one piece of work ahead and the next, while still quiet
TRIES = 3  # a page is drawn ahead at most this often between two things the user does
AHEAD = "ahead"  # the engine channel of the frames drawn ahead (none is the tab's own)

Page = tuple[str, str | None]  # a tab's name, and its page's (None: a tab without pages)


class TabsBuiltAhead(QObject):
    """Builds ``window``'s unbuilt tabs, draws the pages it never showed and keeps the shown
    tab's other pages at the settings of now: one piece of work each time the app has been
    quiet for QUIET_MS (NEXT_MS after the last while it stays quiet), from now on (until the
    window closes)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window, self._engine = window, window.engine
        self._drawn: dict[Page, object] = {}  # each page's request drawn last (or its frame's)
        self._tries: dict[Page, int] = {}  # pieces of work on a page since the user last acted
        self._computing: Page | None = None  # the page whose frame is computed ahead now
        self._quiet = QTimer(self, singleShot=True)
        self._quiet.timeout.connect(self._next)
        # what the user does shows as a change of the controls or a frame: the wait begins anew
        window.parameters.changed.connect(self._wait)
        self._engine.frame_drawn.connect(self._on_frame)
        self._engine.failed.connect(self._on_failure)
        self._wait()

    def done(self) -> bool:
        """Whether every tab is built, every page shown or drawn ahead, and the shown tab's
        other pages drawn at the settings of now (or tried TRIES times since the user acted),
        with no frame ahead on its way."""
        coming = self._engine.is_coming(AHEAD)
        return not coming and not self._unbuilt() and self._undrawn() is None

    def _wait(self, next_ms: int | None = None) -> None:
        """Do the next piece of work ``next_ms`` from now; without it, the user did something:
        a frame ahead is of settings gone, and the next piece waits for QUIET_MS of quiet."""
        if next_ms is None:
            self._engine.expect(AHEAD)
            self._tries.clear()
        self._quiet.start(QUIET_MS if next_ms is None else next_ms)

    def _on_frame(self, channel: str, request_id: int, compute_ms: float) -> None:
        if channel == AHEAD or compute_ms == NOT_COMPUTED_MS:
            return  # (the frame on screen delivered again: the user did nothing new)
        shown = self._shown()
        self._drawn[shown.name, shown.current_page()] = getattr(shown.frame, "params", None)
        self._wait()

    def _on_failure(self, channel: str) -> None:
        """A frame ahead failed to compute or to draw: said when its page is shown, if again."""
        if channel == AHEAD and self._computing is not None:
            self._computing = None
            self._wait(NEXT_MS)

    def _shown(self) -> Tab:
        return self._window.tab_at(self._window.tabs.currentIndex())

    def _unbuilt(self) -> list[int]:
        tabs = self._window.tabs
        return [index for index in range(tabs.count()) if not isinstance(tabs.widget(index), Tab)]

    def _undrawn(self) -> tuple[Tab, str | None] | None:
        """The next page to draw ahead: a page never drawn (the shown tab's first, each tab's
        page in front first), else one of the shown tab's other pages drawn at other settings."""
        built = self._window.built_tabs()
        shown = self._window.tabs.currentWidget()
        pages = [
            (tab, page)
            for tab in sorted(built, key=lambda tab: tab is not shown)
            for page in dict.fromkeys([tab.current_page(), *tab.page_names()])
            if self._tries.get((tab.name, page), 0) < TRIES
        ]
        never = ((tab, page) for tab, page in pages if (tab.name, page) not in self._drawn)
        stale = (
            (tab, page)
            for tab, page in pages
            if tab is shown and page != tab.current_page() and not self._current(tab, page)
        )
        return next(never, None) or next(stale, None)

    def _current(self, tab: Tab, page: str | None) -> bool:
        """Whether ``page`` shows the settings of now (settings that do not fit: as good)."""
        try:
            return self._drawn.get((tab.name, page)) == tab.request(page)
        except ValueError:
            return True  # said when the page is shown

    def _quiet_now(self) -> bool:
        """No frame of the shown tab on its way, none ahead, no mouse button held."""
        busy = self._shown().is_waiting() or self._engine.is_coming(AHEAD)
        return not busy and QApplication.mouseButtons() == Qt.MouseButton.NoButton

    def _next(self) -> None:
        if not self._quiet_now():
            self._quiet.start(QUIET_MS)  # a frame on its way, or a drag held still
            return
        shown = self._shown()
        self._drawn.setdefault((shown.name, shown.current_page()), None)  # on screen
        unbuilt = self._unbuilt()
        if unbuilt:
            self._window.tab_at(unbuilt[0])
            self._wait(NEXT_MS)
            return
        undrawn = self._undrawn()
        if undrawn is not None:
            self._compute_ahead(*undrawn)

    def _compute_ahead(self, tab: Tab, page: str | None) -> None:
        """Ask for ``page``'s frame (in the engine's background), laid out at the size it will
        be shown at first."""
        self._tries[tab.name, page] = self._tries.get((tab.name, page), 0) + 1
        try:
            tab.request(page)  # (its windows follow the layout; whether the settings fit not)
        except ValueError:  # settings that do not fit: said when the tab is shown
            self._drawn[tab.name, page] = None
            self._wait(NEXT_MS)
            return
        with _kept_behind(tab):
            widget = _laid_out(self._window, tab, page)
        request = tab.request(page)
        self._computing = (tab.name, page)
        draw = functools.partial(self._draw_ahead, tab, page, widget, request)
        self._engine.submit(AHEAD, type(tab).compute, request, draw, background=True)

    def _draw_ahead(
        self, tab: Tab, page: str | None, widget: QWidget, request: object, frame: object
    ) -> None:
        """Draw ``frame`` on ``page``'s views, behind, and paint them once off screen (its
        labels laid out now, not as it is shown). Not where the page was shown meanwhile (its
        own frame is coming), nor while the user acts, nor where its request is no longer the
        one of now (a control of the tab changed, the window was resized): tried again at the
        next quiet moment."""
        try:
            current = tab.request(page) == request
        except ValueError:
            current = False
        if current and not widget.isVisible() and self._quiet_now():
            with _kept_behind(tab):
                tab.draw(frame)  # (another page's views the same frame draws too: as drawn)
                for name, view in tab.view_names().items():
                    if tab.spec.views[name] == page:
                        draw_pending(view)
                settle(tab.view_names().values())  # the shown views it drew, if any
                widget.grab()
            self._drawn[tab.name, page] = request
        self._computing = None
        self._wait(NEXT_MS)


@contextmanager
def _kept_behind(tab: Tab) -> Iterator[None]:
    """``tab`` asks for no frame meanwhile: Qt counts a widget it lays out or renders off
    screen as shown, and a view resized or painted there would ask for the tab's frame."""
    tab.kept_behind = True
    try:
        yield
    finally:
        tab.kept_behind = False


def _laid_out(window: MainWindow, tab: Tab, page: str | None) -> QWidget:
    """``tab``'s ``page`` (None: the tab), laid out at the size of what is shown in its place:
    a widget never shown has Qt's default size, and its views would compute their windows for
    it. Returns the page's widget."""
    shown = window.tabs.currentWidget()
    if not tab.isVisible() and shown is not None:
        _lay_out_like(tab, shown)
    if page is None or tab.pages is None:
        return tab
    widget, in_front = tab.pages.widget(tab.page_names().index(page)), tab.pages.currentWidget()
    assert widget is not None and in_front is not None  # one of its pages, and the one in front
    if widget is not in_front:
        _lay_out_like(widget, in_front)
    return widget


def _lay_out_like(widget: QWidget, model: QWidget) -> None:
    """Give hidden ``widget`` the geometry of ``model`` and lay it out now: a hidden widget
    gets its resize events when shown or rendered, so one pixel of it is rendered."""
    widget.setGeometry(model.geometry())
    widget.render(QPixmap(1, 1), QPoint(), QRegion(0, 0, 1, 1))
