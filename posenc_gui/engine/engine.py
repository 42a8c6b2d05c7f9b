"""The compute engine: one worker thread, latest request wins, stale results dropped.

How a slider move becomes a frame:
1. GUI thread: a tab calls ``submit(channel, compute, params, on_frame)``; the request gets the
   next id and becomes its channel's latest.
2. If the worker is busy, the request waits in the pending slot of its channel, replacing any
   older one there: a replaced request is never computed.
3. Worker thread: takes pending requests one by one, runs ``compute(params, device)`` and emits
   the result (or the error) with the time it took.
4. GUI thread: ``_deliver`` drops a result whose id is no longer its channel's latest; otherwise
   it calls ``on_frame(result)`` to draw and emits ``frame_drawn``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch
from PySide6.QtCore import QObject, QThread, Signal, Slot

from posenc_gui.engine.device import check_device, default_device

Compute = Callable[[Any, torch.device], Any]


@dataclass(frozen=True)
class Request:
    """One computation: ``compute(params, device)``, drawn by ``on_frame`` if still current."""

    id: int
    channel: str
    compute: Compute
    params: Any
    device: str
    on_frame: Callable[[Any], None]


class _PendingRequests:
    """At most one waiting request per channel, shared by both threads under a lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str, Request] = {}
        self._worker_busy = False

    def put(self, request: Request) -> bool:
        """Queue ``request``; True when the worker is idle and must be woken."""
        with self._lock:
            self._waiting.pop(request.channel, None)  # latest wins: the older one is dropped
            self._waiting[request.channel] = request
            wake = not self._worker_busy
            self._worker_busy = True
            return wake

    def take(self) -> Request | None:
        """The oldest waiting request, or None (and the worker counts as idle again)."""
        with self._lock:
            if not self._waiting:
                self._worker_busy = False
                return None
            channel = next(iter(self._waiting))
            return self._waiting.pop(channel)

    def clear(self) -> None:
        with self._lock:
            self._waiting.clear()


class _Worker(QObject):
    computed = Signal(object, object, float, str)  # request, result, compute ms, error text

    def __init__(self, pending: _PendingRequests) -> None:
        super().__init__()
        self._pending = pending

    @Slot()
    def drain(self) -> None:
        while (request := self._pending.take()) is not None:
            start = time.perf_counter()
            result, error = None, ""
            try:
                with torch.inference_mode():
                    result = request.compute(request.params, torch.device(request.device))
            except Exception as exc:  # shown in the status bar; the app carries on
                error = f"{type(exc).__name__}: {exc}"
            self.computed.emit(request, result, (time.perf_counter() - start) * 1e3, error)


class Engine(QObject):
    """Runs tab computations on one dedicated QThread; lives in the GUI thread."""

    frame_drawn = Signal(str, int, float)  # channel, request id, compute ms
    failed = Signal(str, str)  # channel, message
    device_changed = Signal(str)
    _wake = Signal()

    def __init__(self, device: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._device = check_device(device) if device else default_device()
        self._pending = _PendingRequests()
        self._latest: dict[str, int] = {}
        self._next_id = 0
        self._thread = QThread()
        self._thread.setObjectName("posenc-engine")
        self._worker = _Worker(self._pending)
        self._worker.moveToThread(self._thread)
        self._wake.connect(self._worker.drain)
        # A bound method of this GUI-thread object, so delivery runs on the GUI thread.
        self._worker.computed.connect(self._deliver)
        self._thread.start()

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
        self, channel: str, compute: Compute, params: Any, on_frame: Callable[[Any], None]
    ) -> int:
        """Ask for ``compute(params, device)``; returns the request id. Never blocks."""
        self._next_id += 1
        request = Request(self._next_id, channel, compute, params, self._device, on_frame)
        self._latest[channel] = request.id
        if self._pending.put(request):
            self._wake.emit()
        return request.id

    def is_running(self) -> bool:
        """Whether the worker thread is alive (False after ``shutdown``)."""
        return self._thread.isRunning()

    def is_current(self, channel: str, request_id: int) -> bool:
        return self._latest.get(channel) == request_id

    @Slot(object, object, float, str)
    def _deliver(self, request: Request, result: Any, compute_ms: float, error: str) -> None:
        if not self.is_current(request.channel, request.id):
            return  # a newer request for this channel exists: never draw a stale frame
        if error:
            self.failed.emit(request.channel, error)
            return
        request.on_frame(result)
        self.frame_drawn.emit(request.channel, request.id, compute_ms)

    def shutdown(self) -> None:
        """Drop waiting requests and stop the worker thread (waits for a running one)."""
        self._pending.clear()
        if self._thread.isRunning():
            self._thread.quit()
            self._thread.wait()
