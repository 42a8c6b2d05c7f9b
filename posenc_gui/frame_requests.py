"""A tab's frames on their way: coarse first when frames are heavy, the exact one once the
controls rest, and a sign for the views: busy with the percent done, or showing a coarse frame.

Coarse, then exact: a request whose frame is expected to take longer than COARSE_AFTER_MS to
compute is first computed coarse — its views at 1/COARSE_FACTOR of their pixels along each
axis (``encodings.window.coarsened``) — and the exact one is asked for once no newer change
came for EXACT_AFTER_IDLE_MS: a slider being dragged gets coarse frames only, never an exact
one it would have to abandon. The expected time is judged by the change (the parameters that
differ from the exact frame on screen: one control's views can be heavy while another's are
kept): the longer of its last CHANGE_MEMORY exact frames at these sizes, so that a light
control stays exact beside a heavy one; a change not seen at these sizes expects the longest
of the tab's last HEAVY_MEMORY exact frames at these sizes or smaller ones. A request equal to
the exact one being computed on the same device (a control that changed none of its
parameters) leaves that computation running. A change whose own last frame at these sizes
(for a change not seen at them, the tab's last frame at them) computed within LIGHT_BELOW_MS is
computed light: on one CPU thread (``Engine.submit``).
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer

from posenc_gui.encodings.window import coarsened
from posenc_gui.engine import NOT_COMPUTED_MS, Engine
from posenc_gui.i18n import N_, tr
from posenc_gui.signs import Sign

BUSY_AFTER_MS = 150  # a frame later than this says it is coming
BUSY_TEXT = N_("computing… the views show the previous settings")
BUSY_PERCENT = N_("computing… {0} % — the views show the previous settings")
COARSE_TEXT = N_("coarse: fewer pixels until the exact frame is computed")
COARSE_AFTER_MS = 70.0  # drawing and painting take 15–30 ms more: a frame within 100 ms
LIGHT_BELOW_MS = 10.0  # a change whose last frame computed for less runs on one CPU thread
COARSE_FACTOR = 4
EXACT_AFTER_IDLE_MS = 120
HEAVY_MEMORY = 8
CHANGE_MEMORY = 2


class FrameRequests(QObject):
    """Submits a tab's requests to the engine and shows each frame with ``show(frame)``."""

    def __init__(
        self,
        engine: Engine,
        channel: str,
        show: Callable[[Any], None],
        sizes: Callable[[], tuple[int, ...]],
        over: QObject,
    ) -> None:
        """``sizes``: the shared sizes now (times at other sizes say nothing of these);
        ``show(frame)`` draws a frame; ``busy`` is the sign for the caller to place by the
        views: it says when work is under way, how far it got, and when a frame is coarse."""
        super().__init__(over)
        self._engine, self._channel = engine, channel
        self._compute: Callable[[Any, Any], Any] = lambda params, device: None
        self._show_frame, self._sizes_now = show, sizes
        self.coarse = False  # whether the frame shown is a coarse one (the exact one follows)
        self._exact_ms: deque[float] = deque(maxlen=HEAVY_MEMORY)  # of the last exact frames
        self._last_ms: float | None = None  # the last exact frame's, at these sizes only
        self._ms_by_change: dict[frozenset[str], deque[float]] = {}  # … by what changed
        self._submitted_change: frozenset[str] = frozenset()  # what the exact request changed
        self._sizes: tuple[int, ...] = ()  # … at these shared sizes
        self._warm = False  # after the first exact frame
        self._exact: Any = None  # the request whose exact frame is wanted
        self._exact_id = 0  # the engine's id of it, once submitted
        self._light = False  # whether it is expected to compute within LIGHT_BELOW_MS
        self._shown: Any = None  # the request whose exact frame is on screen
        self._exact_after = QTimer(self, singleShot=True, interval=EXACT_AFTER_IDLE_MS)
        self._exact_after.timeout.connect(self._submit_exact)
        # Shown while a frame takes longer than BUSY_AFTER_MS: work is under way.
        self.busy = Sign(tr(BUSY_TEXT), background="#0072B2", objectName="busy")
        self.busy.hide()
        self._busy_after = QTimer(self, singleShot=True, interval=BUSY_AFTER_MS)
        self._busy_after.timeout.connect(self.busy.show)
        engine.frame_drawn.connect(self._on_drawn)
        engine.progress.connect(self._on_progress)

    def submit(self, compute: Callable[[Any, Any], Any], request: Any) -> None:
        """Ask for ``compute(request, device)``'s frame: coarse first when frames are heavy
        (never blocks)."""
        same = request == self._exact and compute == self._compute
        if same and self._engine.is_coming(self._channel, self._exact_id):
            return  # its frame is being computed: starting again would only lose that work
        self._exact_after.stop()
        sizes = self._sizes_now()
        if sizes != self._sizes:
            # times at sizes no larger than these are a lower bound of theirs (a size the tab
            # does not use changed, or one grew): kept; after any size shrank they say nothing
            if len(sizes) != len(self._sizes) or any(
                now < before for now, before in zip(sizes, self._sizes, strict=True)
            ):
                self._exact_ms.clear()
            self._ms_by_change.clear()  # a change's own times are of these sizes only
            self._last_ms = None
            self._sizes = sizes
        # what the caches hold is the exact frame on screen: the change is measured from it
        change = changed_fields(self._shown, request)
        # the frame on screen already is this request's exact one: nothing to preview
        heavy = self._expected_ms(change) > COARSE_AFTER_MS and request != self._shown
        # One CPU thread unless the last frame of this change at these sizes (of a change not
        # seen at them: the tab's last frame at them) computed for LIGHT_BELOW_MS or more. A
        # second thread gains little on a light frame and costs the drawing (Engine); on two
        # cores its operations also wait on each other while the GUI thread runs: frames of
        # 3–6 ms took 10–40 ms on two. One frame decides, both ways: a change grown heavy gets
        # every thread from its next frame on, one slowed by the second thread goes back.
        known = self._ms_by_change.get(change)
        last = known[-1] if known else self._last_ms
        self._light = last is not None and last < LIGHT_BELOW_MS
        self._compute, self._exact = compute, request
        coarse = coarsened(request, COARSE_FACTOR) if heavy else request
        if coarse != request:
            self._engine.submit(self._channel, self._compute, coarse, self._show_coarse)
        else:
            self._submit_exact()
        if not self._busy_after.isActive():  # from the first request not yet drawn
            self._busy_after.start()

    def is_waiting(self) -> bool:
        """Whether a frame was asked for and its exact frame is not drawn yet."""
        return self._busy_after.isActive() or self.busy.isVisible() or self.coarse

    def stop(self) -> None:
        """No frame is coming (refused settings, a failed computation, or the exact frame is
        drawn): no busy sign, and no exact frame asked for after a coarse one."""
        self._exact_after.stop()
        self.coarse = False
        self._busy_after.stop()
        self.busy.hide()
        self.busy.setText(tr(BUSY_TEXT))

    def abandon(self) -> None:
        """The controls do not fit together: no frame is coming, and one being computed (of
        the settings before) is not drawn."""
        self._engine.expect(self._channel)
        self.stop()

    def _submit_exact(self) -> None:
        self._exact_id = self._engine.submit(
            self._channel, self._compute, self._exact, self._show_exact, light=self._light
        )
        self._submitted_change = changed_fields(self._shown, self._exact)  # its time's key

    def _on_progress(self, channel: str, done: float) -> None:
        if channel == self._channel:
            self.busy.setText(tr(BUSY_PERCENT).format(round(100 * done)))

    def _on_drawn(self, channel: str, request_id: int, compute_ms: float) -> None:
        if channel == self._channel and request_id == self._exact_id:
            if self._warm and compute_ms != NOT_COMPUTED_MS:  # a time measured
                self._exact_ms.append(compute_ms)
                self._last_ms = compute_ms
                known = self._ms_by_change.setdefault(
                    self._submitted_change, deque(maxlen=CHANGE_MEMORY)
                )
                known.append(compute_ms)
            self._warm = True  # a tab's first frame also pays for imports and warm-up

    def _expected_ms(self, change: frozenset[str]) -> float:
        """How long the exact frame of a request that changed ``change`` should take."""
        known = self._ms_by_change.get(change)
        if known:
            return max(known)
        return max(self._exact_ms, default=0.0)  # a change not seen yet: the worst of late

    def _show_coarse(self, frame: Any) -> None:
        self._engine.expect(self._channel)  # not the current frame: the exact one will be
        self.coarse = True
        self._show_frame(frame)
        self._busy_after.stop()
        self.busy.setText(tr(COARSE_TEXT))  # the sign says what the views show until then
        self.busy.show()
        self._exact_after.start()

    def _show_exact(self, frame: Any) -> None:
        self.coarse = False  # as it is drawn
        self._shown = self._exact  # delivered only while current: the latest request's frame
        self._show_frame(frame)
        self.stop()


def changed_fields(before: Any, after: Any) -> frozenset[str]:
    """The names of the fields that differ between two requests of one dataclass (empty when
    either is not one, or they are of different types: a change not told apart)."""
    if type(before) is not type(after) or not dataclasses.is_dataclass(after):
        return frozenset()
    return frozenset(
        field.name
        for field in dataclasses.fields(after)
        if getattr(before, field.name) != getattr(after, field.name)
    )
