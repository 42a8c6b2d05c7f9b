"""Tabs built ahead of their first showing, while the app is quiet.

A tab's views are built when it is first shown or asked for (``MainWindow.tab_at``): building
all of them up front was most of the start-up time. Built at the first click instead, a tab
froze the window for 120-300 ms (the Relative tab's 19 plots, 2 CPUs). An interactive window
therefore builds the tabs not built yet one at a time, each once the app has been quiet for
QUIET_MS: no control changed, no frame drawn or computing, no mouse button held. A hidden tab
built so asks for no frame: it computes its first one when shown, as any tab behind does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication

from posenc_gui.tab import Tab

if TYPE_CHECKING:
    from posenc_gui.window import MainWindow

QUIET_MS = 1500  # no change and no frame for this long: the user reads, a tab may be built


class TabsBuiltAhead(QObject):
    """Builds ``window``'s unbuilt tabs, one each time the app has been quiet for QUIET_MS,
    from now on; it stops once every tab is built (or with the window)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window
        self._quiet = QTimer(self, singleShot=True, interval=QUIET_MS)
        self._quiet.timeout.connect(self._build_next)
        # what the user does shows as a change of the controls or a frame: the wait begins anew
        window.parameters.changed.connect(self._wait)
        window.engine.frame_drawn.connect(self._wait)
        self._wait()

    def _wait(self) -> None:
        if self._unbuilt():
            self._quiet.start()

    def _unbuilt(self) -> list[int]:
        tabs = self._window.tabs
        return [index for index in range(tabs.count()) if not isinstance(tabs.widget(index), Tab)]

    def _build_next(self) -> None:
        shown = self._window.tab_at(self._window.tabs.currentIndex())
        if shown.is_waiting() or QApplication.mouseButtons() != Qt.MouseButton.NoButton:
            self._quiet.start()  # a frame on its way, or a drag held still: not quiet yet
            return
        unbuilt = self._unbuilt()
        if unbuilt:
            self._window.tab_at(unbuilt[0])
            self._wait()
