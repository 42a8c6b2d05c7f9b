"""Drawing a view only when it can be seen, settling its ranges before it paints, and
painting it once when shown, a frame's views in one repaint of their window.

A tab's frame feeds every view of every page, but only the page in front is on screen: a view
hidden behind another page keeps the last call of each drawing method and makes those calls
when it is shown (or when something reads it: ``draw_pending``). A view in a window that is not
shown (tests, the command line before showing) draws at once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QShowEvent

from posenc_gui.views.axes import CompactAxis, fit_height

P = ParamSpec("P")
V = TypeVar("V", bound="DeferredDrawing")
LAYOUT_PASSES = 3  # nested grids: a plot's, the layout holding it, the page's
LABEL_ROUNDS = 2  # tick labels laid out, the layout; again where that resized an axis


class DeferredDrawing:
    """Mixed into a view (before its pyqtgraph class): methods marked ``when_shown`` wait for
    the view to be shown. Its scene is never activated: Qt activates a view's scene when the
    view is shown (its page brought to the front, the window activated), and every plot, axis
    and legend of an activated scene repaints, so a page brought to the front painted each of
    its views up to three times in one turn of the event loop (the others for nothing: plots
    look the same active or not; hover, zoom, pan and menus work without it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        view = cast(pg.GraphicsView, self)  # the pyqtgraph view it is mixed into
        self._never_activated = _NeverActivated(view)
        view.scene().installEventFilter(self._never_activated)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)  # type: ignore[misc]
        draw_pending(self)


def when_shown(
    method: Callable[Concatenate[V, P], None],
) -> Callable[Concatenate[V, P], None]:
    """Mark a drawing method of a ``DeferredDrawing`` view: while the view is hidden in a
    shown window only its last call is kept (a later call of another marked method comes
    after it, as it would have)."""

    @functools.wraps(method)
    def draw(self: V, *args: P.args, **kwargs: P.kwargs) -> None:
        pending = _pending(self)
        pending.pop(method.__name__, None)
        if self.isVisible() or not self.window().isVisible():  # type: ignore[attr-defined]
            method(self, *args, **kwargs)
        else:
            pending[method.__name__] = functools.partial(method, self, *args, **kwargs)

    return draw


def draw_pending(view: object) -> None:
    """Make the drawing calls ``view`` kept while hidden (none: nothing happens)."""
    pending = _pending(view)
    while pending:
        pending.pop(next(iter(pending)))()


def settle(views: Iterable[object]) -> None:
    """Let each shown view fit its ranges and lay itself out now, before its paint. Ranges
    fitted while a view paints (auto-range, labels following the new range) and sizes a frame
    changed (a title's text, tick labels' widths) laid out after it painted both make it paint
    twice; so tick labels are laid out here, then the sizes, then the ranges of resized views —
    and once more where that resized an axis, whose labels then need laying out again (a view
    a new height gives other ticks, wider ones perhaps), or where titles wrapped anew by the
    layout changed the height a view needs."""
    shown = [view for view in views if isinstance(view, pg.GraphicsView) and view.isVisible()]
    axes = [
        item
        for view in shown
        for item in view.scene().items()
        if isinstance(item, CompactAxis) and item.isVisible()
    ]
    for view in shown:
        view.scene().prepareForPaint()
    for axis in axes:
        axis.hold_room()  # room an axis would give back waits: a frame came
    for _ in range(LABEL_ROUNDS):
        # tick labels of the fitted ranges: the room they need, and the height the views'
        # texts need, before the layout
        for axis in axes:
            axis.prepare_labels()
        for view in shown:
            fit_height(view, view.centralWidget)
        # The layout requests posted: a plot's own grid first, then the grid holding the plot
        # if that changed its size (Qt leaves requests posted meanwhile for the next pass).
        for _ in range(LAYOUT_PASSES):
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        for view in shown:
            view.scene().prepareForPaint()  # the ranges of views the layout resized
        # titles the layout re-wrapped to new widths change the height a view needs
        refitted = [fit_height(view, view.centralWidget) for view in shown]
        if not any(refitted) and all(axis.picture is not None for axis in axes):
            break  # no axis resized since its labels were laid out, no view's height changed
    paint_together(shown)


def paint_together(views: list[pg.GraphicsView]) -> None:
    """Hand each window the changes of all of its ``views`` before any of them paints, so the
    window repaints once, every view in it, in the next turn of the event loop. A scene
    handing its views their changes makes their window repaint at once (Qt's
    ``QGraphicsScenePrivate::_q_processDirtyItems`` ends in ``dispatchPendingUpdateRequests``):
    the views of a frame painted one after another, each in a repaint and flush of the window
    of its own, so that a frame's four views could reach the screen a display refresh apart.
    The window's update request is held meanwhile, and posted again in the next turn of the
    loop (a single shot at 0 ms): a frame's drawing and its paint are two turns, and input and
    timers due between them wait for one of the two only (an Absolute frame at 512 positions
    held the loop 20–22 ms in one turn, in two 12–13 ms at most)."""
    for window in {view.window() for view in views}:
        held = _HeldUpdateRequest(window)
        try:
            for view in views:
                if view.window() is window:
                    QCoreApplication.sendPostedEvents(view.scene(), QEvent.Type.MetaCall)
        finally:
            QTimer.singleShot(0, window, held.release)  # dropped if the window goes first


class HeldPaint(QObject):
    """A window's repaint held back while a page brought to the front waits for its frame, at
    most ``limit_ms``: the page paints once, with the frame of the settings now. Shown at
    once, it painted the frame of other settings (or, never drawn, empty plots), then again,
    often twice for its layout, 40 ms of the turn of the event loop, with the frame after."""

    def __init__(self, owner: QObject, limit_ms: int) -> None:
        super().__init__(owner)
        self._held: _HeldUpdateRequest | None = None
        self._limit = QTimer(self, singleShot=True, interval=limit_ms)
        self._limit.timeout.connect(self.release)

    def hold(self, window: QObject) -> None:
        """Hold ``window``'s repaint from now until ``release``, or ``limit_ms`` after the hold
        began (pages flicked through faster still repaint that often)."""
        if self._held is None:
            self._held = _HeldUpdateRequest(window)
            self._limit.start()

    def release(self) -> None:
        """Let the window repaint (a repaint held is posted now)."""
        self._limit.stop()
        held, self._held = self._held, None
        if held is not None:
            held.release()


class _HeldUpdateRequest(QObject):
    """Holds ``window``'s update requests until ``release``, which posts one if any came."""

    def __init__(self, window: QObject) -> None:
        super().__init__()
        self._window, self._held = window, False
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.UpdateRequest:  # installed on the window alone
            self._held = True
            return True
        return False

    def release(self) -> None:
        self._window.removeEventFilter(self)
        if self._held:  # Qt still counts it as sent: no other comes until it is handled
            request, low = QEvent(QEvent.Type.UpdateRequest), Qt.EventPriority.LowEventPriority
            QCoreApplication.postEvent(self._window, request, low.value)


class _NeverActivated(QObject):
    """Drops the (de)activation Qt sends a view's scene."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        return event.type() in (QEvent.Type.WindowActivate, QEvent.Type.WindowDeactivate)


def _pending(view: object) -> dict[str, Callable[[], Any]]:
    found: dict[str, Callable[[], Any]] | None = view.__dict__.get("_pending_draws")
    if found is None:
        found = view.__dict__["_pending_draws"] = {}
    return found
