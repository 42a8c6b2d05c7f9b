"""The compute engine: one worker thread, latest request wins, stale results dropped.

How a slider move becomes a frame:
1. GUI thread: a tab calls ``submit(channel, compute, params, on_frame)``; the request gets the
   next id and becomes its channel's latest — unless it equals the latest one, not drawn yet:
   that one carries on (starting it again would only lose its work).
2. If the worker is busy, the request waits in the pending slot of its channel, replacing any
   older one there: a replaced request is never computed.
3. Worker thread: takes the waiting requests one by one — the preferred channel's (the visible
   tab's) first, then the newest, a background request only when no other waits — runs
   ``compute(params, device)`` (a light request on one CPU thread) and emits the result (or the
   error) with the time it took.
   A computation calls ``checkpoint(done)`` between its chunks of work: once a newer request
   of its channel waits (for a background request: any other request), or the engine stops,
   it ends there instead of finishing; otherwise,
   once it has run PROGRESS_AFTER_S, the share ``done`` reaches the GUI thread as ``progress``.
4. GUI thread: ``_deliver`` drops a result whose id is no longer its channel's latest; otherwise
   it calls ``on_frame(result)`` to draw and emits ``frame_drawn``.

Python's cycle collector runs only on the GUI thread (``collect``): Qt objects must never be
destroyed on the worker.
"""

from __future__ import annotations

import atexit
import functools
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

import torch
from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal, Slot

from posenc_gui.cancel import Superseded, running
from posenc_gui.collector import collect_garbage_on_this_thread
from posenc_gui.engine.device import check_device, default_device
from posenc_gui.engine.memory import release_freed_memory
from posenc_gui.engine.requests import Compute, Idle, PendingRequests, Request

NOT_COMPUTED_MS = 0.0  # the compute time reported for the frame drawn last, delivered again
PROGRESS_AFTER_S = 0.05  # a computation reports its progress once it has run this long
# The heap is trimmed once the worker has had no request for this long after a result: not
# while the GUI thread draws and paints it (on two CPUs the trim, 2-12 ms at 2^20 positions,
# made that twice as slow), nor between a coarse frame and its exact one (120 ms later), nor
# mid-drag, whose next frames reuse what the last one freed.
TRIM_AFTER_IDLE_S = 0.3


def _out_of_memory(exc: BaseException) -> bool:
    """CUDA's OutOfMemoryError, a RuntimeError saying so (MPS, older torch), or MemoryError."""
    if isinstance(exc, MemoryError | torch.cuda.OutOfMemoryError):
        return True
    return isinstance(exc, RuntimeError) and "out of memory" in str(exc).lower()


_WORKERS: weakref.WeakSet[_Worker] = weakref.WeakSet()


@atexit.register
def _finish_at_exit() -> None:
    """Stop every worker, letting a computation in flight end (see ``_Worker``)."""
    for worker in list(_WORKERS):
        worker.pending.stop()
        worker.serving.join()


class _Worker(QObject):
    """Computes requests on a daemon thread of its own until the queue stops.

    A Python thread rather than a QThread: closing the window must not wait for a long
    computation, and a QThread destroyed while running aborts the process. A daemon, so that an
    idle worker never keeps the process alive; but one inside torch when the interpreter
    finalises aborts it, so ``_finish_at_exit`` lets a running computation end first.
    """

    # request, result, compute ms, error text ("" if none), whether it ran out of memory
    computed = Signal(object, object, float, str, bool)
    progressed = Signal(object, float)  # request, share of its work done

    def __init__(self, pending: PendingRequests) -> None:
        super().__init__()
        self.pending = pending
        self.threads = torch.get_num_threads()  # for requests not light
        self._threads_set = 0  # what this thread last set (OpenMP's count is each thread's)
        self.serving = threading.Thread(target=self._serve, name="posenc-engine", daemon=True)
        _WORKERS.add(self)

    def _serve(self) -> None:
        trim_due = False  # a result was sent since the heap was last trimmed
        while (request := self.pending.take(TRIM_AFTER_IDLE_S if trim_due else None)) is not None:
            if isinstance(request, Idle):
                release_freed_memory()  # what the computations freed: no longer resident
                trim_due = False
                continue
            # A light request on one thread: torch's other CPU threads spin for several ms
            # after each operation before they sleep (GNU OpenMP), on two cores right when the
            # GUI thread draws the frame.
            threads = 1 if request.light else self.threads
            if threads != self._threads_set:
                torch.set_num_threads(threads)
                self._threads_set = threads
            start = time.perf_counter()
            result, error, out_of_memory = None, "", False
            try:
                with (
                    torch.inference_mode(),
                    running(lambda: self.pending.replaced(request), self._reporter(request, start)),
                ):
                    result = request.compute(request.params, torch.device(request.device))
            except Superseded:
                trim_due = True
                self.pending.resume_later(request)  # (work in the background, interrupted)
                continue  # a newer request of its channel waits: nothing to draw of this one
            # Shown in the status bar; the app carries on. BaseException too: a SystemExit
            # raised by a compute must not end the worker (KeyboardInterrupt only ever reaches
            # the main thread).
            except BaseException as exc:
                error, out_of_memory = f"{type(exc).__name__}: {exc}", _out_of_memory(exc)
            elapsed_ms = (time.perf_counter() - start) * 1e3
            # Emitted from this thread, queued to the Engine's slot on the GUI thread; never
            # once stopped: a result posted then would outlive the interpreter in Qt's event
            # queue (its Python objects freed after finalisation crash the process at exit).
            self.pending.unless_stopped(
                self.computed.emit, request, result, elapsed_ms, error, out_of_memory
            )
            trim_due = True

    def _reporter(self, request: Request, start: float) -> Callable[[float], None]:
        """``request``'s progress report: sent once it has run PROGRESS_AFTER_S. Each report
        wakes the GUI thread, which then waits for the interpreter lock this thread holds
        (and this thread for it): about 1 ms of a light frame's few, for a share no one sees
        (the busy sign shows only after ``frame_requests.BUSY_AFTER_MS``)."""

        def report(done: float) -> None:
            if time.perf_counter() - start >= PROGRESS_AFTER_S:
                self.pending.unless_stopped(self.progressed.emit, request, done)

        return report


def _same_computation(one: Request, other: Request) -> bool:
    return (one.compute, one.params, one.device) == (other.compute, other.params, other.device)


class Engine(QObject):
    """Runs tab computations on one worker thread; lives in the GUI thread."""

    # channel, request id, compute ms (NOT_COMPUTED_MS: the frame drawn last, delivered again)
    frame_drawn = Signal(str, int, float)
    progress = Signal(str, float)  # channel, share of its current request's work done
    failed = Signal(str, str)  # channel, message
    device_changed = Signal(str)

    def __init__(self, device: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._device = check_device(device) if device else default_device()
        self._pending = PendingRequests()
        self._latest: dict[str, int] = {}
        self._coming: dict[str, Request] = {}  # the latest request, until it is delivered
        self._on_frame: dict[str, Callable[[Any], None]] = {}  # draws the latest request's
        # the frame on screen: request, what drew it, result (asked for again with the same
        # drawer: delivered again, not computed)
        self._drawn: dict[str, tuple[Request, Callable[[Any], None], Any]] = {}
        self._next_id = 0
        collect_garbage_on_this_thread()
        self._worker = _Worker(self._pending)
        # A bound method of this GUI-thread object, so delivery runs on the GUI thread.
        self._worker.computed.connect(self._deliver)
        self._worker.progressed.connect(self._report)
        self._worker.serving.start()
        app = QCoreApplication.instance()
        if app is not None:  # a window destroyed without closing must still stop the thread
            app.aboutToQuit.connect(self.shutdown)

    @property
    def device(self) -> str:
        return self._device

    def set_device(self, name: str) -> None:
        """Compute on ``name`` from the next request on; raises ValueError if unavailable."""
        name = check_device(name)
        if name != self._device:
            self._device = name
            self.device_changed.emit(name)

    def submit(
        self,
        channel: str,
        compute: Compute,
        params: Any,
        on_frame: Callable[[Any], None],
        *,
        light: bool = False,
        background: bool = False,
    ) -> int:
        """Ask for ``compute(params, device)``; returns the request id (the one already coming
        when it is the same request). The frame drawn last, asked for again (a view's window
        that moved and came back), is delivered again without computing it: the same result
        object, so that a drawer can tell it is on screen already. A ``light`` request (one
        expected to take a few ms) computes on one CPU thread. A ``background`` one (work
        ahead of need) is computed only while no other request waits, interrupted by any that
        comes and then computed again; it is never kept to be delivered again, and running
        out of memory on it changes no device. Never blocks."""
        same = self._on_frame.get(channel) == on_frame
        if same and self.is_coming(channel):
            coming = self._coming[channel]
            if (coming.compute, coming.params) == (compute, params):
                return coming.id
        self._next_id += 1
        request = Request(self._next_id, channel, compute, params, self._device, light, background)
        self._latest[channel] = request.id
        self._coming[channel] = request
        self._on_frame[channel] = on_frame
        drawn = self._drawn.get(channel)
        if drawn and drawn[1] == on_frame and _same_computation(drawn[0], request):
            self._pending.withdraw(channel)  # what is computed for it now is not wanted
            again = functools.partial(self._deliver, request, drawn[2], NOT_COMPUTED_MS, "", False)
            QTimer.singleShot(0, self, again)  # after the drawing under way, as a frame would
        else:
            self._pending.put(request)
        return request.id

    def is_coming(self, channel: str, request_id: int | None = None) -> bool:
        """Whether ``channel``'s latest request (the one numbered ``request_id``, if given) is
        computed on the current device and not delivered yet."""
        coming = self._coming.get(channel)
        return (
            coming is not None
            and coming.device == self._device
            and request_id in (None, coming.id)
            and self.is_current(channel, coming.id)
        )

    def expect(self, channel: str) -> None:
        """Say a later request of ``channel`` will follow (the exact frame after a coarse one):
        from now on no frame of it is current until that request's, and one being computed
        stops at its next checkpoint."""
        self._next_id += 1
        self._latest[channel] = self._next_id
        self._coming.pop(channel, None)
        self._pending.withdraw(channel)

    def hold(self, held: bool = True) -> None:
        """Start no computation while ``held``: of the requests made meanwhile (a window
        being built, its settings applied, its views laid out as it is shown) only each
        channel's last is computed once released (``hold(False)``)."""
        self._pending.hold(held)

    def prefer(self, channel: str | None) -> None:
        """Compute ``channel``'s request (the visible tab's) before any other waiting one."""
        self._pending.prefer(channel)

    def is_running(self) -> bool:
        """Whether the engine still takes requests (False after ``shutdown``)."""
        return self._worker.serving.is_alive() and not self._pending.stopped

    def is_current(self, channel: str, request_id: int) -> bool:
        return self._latest.get(channel) == request_id

    @Slot(object, float)
    def _report(self, request: Request, done: float) -> None:
        if not self._pending.stopped and self.is_current(request.channel, request.id):
            self.progress.emit(request.channel, done)

    @Slot(object, object, float, str, bool)
    def _deliver(
        self, request: Request, result: Any, compute_ms: float, error: str, out_of_memory: bool
    ) -> None:
        if self._pending.stopped or not self.is_current(request.channel, request.id):
            return  # a newer request for this channel exists: never draw a stale frame
        self._coming.pop(request.channel, None)  # delivered
        if error:  # the last good frame stays on screen
            if out_of_memory and request.device != "cpu" and not request.background:
                error += f" — out of memory on {request.device}: computing on the CPU now"
                self.failed.emit(request.channel, error)
                self.set_device("cpu")  # listeners ask for the frame again
            else:
                self.failed.emit(request.channel, error)
            return
        draw = self._on_frame[request.channel]
        # from now on the frame on screen: a view whose range the drawing moves asks for its
        # window meanwhile, and one asking for this frame's again gets it delivered again
        if not request.background:
            self._drawn[request.channel] = (request, draw, result)
        try:
            draw(result)
        except Exception as exc:  # a drawing fault must not stop the frames that follow
            self._drawn.pop(request.channel, None)  # the views hold part of it: not that frame
            self.failed.emit(request.channel, f"drawing failed: {type(exc).__name__}: {exc}")
            return
        self.frame_drawn.emit(request.channel, request.id, compute_ms)

    def shutdown(self, wait_s: float | None = 0.15) -> None:
        """Drop waiting requests and stop the worker. Waits at most ``wait_s`` (None: until
        it ends) for a running computation: one still running finishes on its thread, and is
        never drawn."""
        self._pending.stop()
        self._drawn.clear()
        self._worker.serving.join(wait_s)
        # results posted before the stop and not yet delivered: freed now, while Python runs
        QCoreApplication.removePostedEvents(self)
