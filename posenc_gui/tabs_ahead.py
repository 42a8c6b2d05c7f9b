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
   come when it is shown.

Shown later, such a page costs what showing it again does: its frame of the settings then,
drawn over views already made. A change of the controls stops a frame computed ahead (it is
not drawn; its page is drawn ahead at the next quiet moment). A tab or page behind asks for no
frame of its own: it computes its frame when shown, as any tab behind does.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, Qt, QTimer
from PySide6.QtGui import QPixmap, QRegion
from PySide6.QtWidgets import QApplication, QWidget

from posenc_gui.tab import Tab
from posenc_gui.views.deferred import draw_pending, settle

if TYPE_CHECKING:
    from posenc_gui.window import MainWindow

QUIET_MS = 1500  # no change and no frame for this long: the user reads, work may be done ahead
NEXT_MS = 100  # between one piece of work ahead and the next, while still quiet
TRIES = 3  # a page whose frame came stale or failed this often is left to be drawn when shown
AHEAD = "ahead"  # the engine channel of the frames drawn ahead (none is the tab's own)

Page = tuple[str, str | None]  # a tab's name, and its page's (None: a tab without pages)


class TabsBuiltAhead(QObject):
    """Builds ``window``'s unbuilt tabs and draws the pages it never showed, one each time the
    app has been quiet for QUIET_MS (NEXT_MS after the last while it stays quiet), from now on;
    it stops once every tab is built and every page drawn (or with the window)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window, self._engine = window, window.engine
        self._drawn: set[Page] = set()  # shown, drawn ahead, or given up on
        self._tries: dict[Page, int] = {}  # frames ahead that came stale or failed
        self._computing: Page | None = None  # the page whose frame is computed ahead now
        self._quiet = QTimer(self, singleShot=True)
        self._quiet.timeout.connect(self._next)
        # what the user does shows as a change of the controls or a frame: the wait begins anew
        window.parameters.changed.connect(self._wait)
        self._engine.frame_drawn.connect(self._on_frame)
        self._engine.failed.connect(self._on_failure)
        self._wait()

    def done(self) -> bool:
        """Whether every tab is built and every page shown or drawn ahead."""
        return not self._unbuilt() and self._undrawn() is None

    def _wait(self, interval: int = QUIET_MS) -> None:
        if interval == QUIET_MS:  # the user did something: a frame ahead is of settings gone
            self._engine.expect(AHEAD)
        if not self.done():
            self._quiet.start(interval)

    def _on_frame(self, channel: str) -> None:
        if channel == AHEAD:
            return
        shown = self._window.tabs.currentWidget()
        if isinstance(shown, Tab) and channel.partition(".")[0] == shown.name:
            self._drawn.add((shown.name, shown.current_page()))  # on screen: drawn
        self._wait()

    def _on_failure(self, channel: str) -> None:
        """A frame ahead failed to compute or to draw: said when its page is shown, if again."""
        if channel == AHEAD and self._computing is not None:
            page, self._computing = self._computing, None
            self._tried(page)

    def _tried(self, page: Page) -> None:
        """A frame ahead of ``page`` came stale or failed: tried again, TRIES times in all."""
        self._tries[page] = self._tries.get(page, 0) + 1
        if self._tries[page] >= TRIES:
            self._drawn.add(page)
        self._wait(NEXT_MS)

    def _unbuilt(self) -> list[int]:
        tabs = self._window.tabs
        return [index for index in range(tabs.count()) if not isinstance(tabs.widget(index), Tab)]

    def _undrawn(self) -> tuple[Tab, str | None] | None:
        """The next page to draw ahead: the shown tab's first, each tab's page in front first."""
        built = self._window.built_tabs()
        shown = self._window.tabs.currentWidget()
        for tab in sorted(built, key=lambda tab: tab is not shown):
            names = tab.page_names()
            current = tab.current_page()
            for page in [current, *(name for name in names if name != current)]:
                if (tab.name, page) not in self._drawn:
                    return tab, page
        return None

    def _quiet_now(self) -> bool:
        """No frame of the shown tab on its way, none ahead, no mouse button held."""
        shown = self._window.tab_at(self._window.tabs.currentIndex())
        self._drawn.add((shown.name, shown.current_page()))  # on screen
        busy = shown.is_waiting() or self._engine.is_coming(AHEAD)
        return not busy and QApplication.mouseButtons() == Qt.MouseButton.NoButton

    def _next(self) -> None:
        if not self._quiet_now():
            self._quiet.start(QUIET_MS)  # a frame on its way, or a drag held still
            return
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
        with _kept_behind(tab):
            widget = _laid_out(self._window, tab, page)
        try:
            request = tab.request(page)
        except ValueError:  # settings that do not fit: said when the tab is shown
            self._drawn.add((tab.name, page))
            self._wait(NEXT_MS)
            return
        self._computing = (tab.name, page)
        draw = functools.partial(self._draw_ahead, tab, page, widget, request)
        self._engine.submit(AHEAD, type(tab).compute, request, draw, background=True)

    def _draw_ahead(
        self, tab: Tab, page: str | None, widget: QWidget, request: object, frame: object
    ) -> None:
        """Draw ``frame`` on ``page``'s views, behind, and paint them once off screen. Not
        where the page was shown meanwhile (its own frame is coming), nor while the user acts
        (tried again when quiet), nor where its request is no longer the one of now (a control
        of the tab changed, the window was resized: tried again, TRIES times in all)."""
        try:
            current = tab.request(page) == request
        except ValueError:
            current = False
        if widget.isVisible():
            self._drawn.add((tab.name, page))
        elif not self._quiet_now():
            self._wait()
        elif not current:
            self._tried((tab.name, page))
        else:
            with _kept_behind(tab):
                tab.draw(frame)  # (another page's views the same frame draws too: as drawn)
                for name, view in tab.view_names().items():
                    if tab.spec.views[name] == page:
                        draw_pending(view)
                settle(tab.view_names().values())  # the shown views it drew, if any
                widget.grab()
            self._drawn.add((tab.name, page))
            self._wait(NEXT_MS)
        self._computing = None


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
