"""The requests of the compute engine, and those waiting for its worker: at most one per
channel, shared by the GUI thread (which puts them) and the worker (which takes them)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

Compute = Callable[[Any, torch.device], Any]


@dataclass(frozen=True)
class Request:
    """One computation: ``compute(params, device)``. It refers to no Qt object (the Engine
    keeps what draws it): the worker thread may drop the last reference to a request, and a Qt
    object freed there would be destroyed off the GUI thread."""

    id: int
    channel: str
    compute: Compute
    params: Any
    device: str
    light: bool = False  # expected to compute within a few ms: on one CPU thread
    background: bool = False  # work ahead (``Engine.submit``): any other request comes first


class Idle:
    """What ``PendingRequests.take`` returns when no request came for the time it was given."""


IDLE = Idle()


class PendingRequests:
    """At most one waiting request per channel, shared by both threads under a condition."""

    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._waiting: dict[str, Request] = {}
        self._withdrawn: set[str] = set()  # channels whose running request is not wanted
        self._preferred: str | None = None
        self._held = False  # requests wait, none is taken (``Engine.hold``)
        self.stopped = False

    def put(self, request: Request) -> None:
        """Queue ``request`` (latest wins: an older one of its channel is dropped)."""
        with self._ready:
            if self.stopped:
                return
            self._waiting.pop(request.channel, None)
            self._waiting[request.channel] = request
            self._withdrawn.discard(request.channel)  # the running one is replaced anyway
            self._ready.notify()

    def prefer(self, channel: str | None) -> None:
        """Serve ``channel`` first while it has a request waiting."""
        with self._ready:
            self._preferred = channel

    def take(self, idle_after_s: float | None = None) -> Request | Idle | None:
        """The next request to compute (waits for one); None once stopped; ``IDLE`` once none
        came for ``idle_after_s`` (if given)."""
        deadline = None if idle_after_s is None else time.monotonic() + idle_after_s
        with self._ready:
            while (not self._waiting or self._held) and not self.stopped:
                if deadline is None:
                    self._ready.wait()
                elif not self._ready.wait(max(0.0, deadline - time.monotonic())):
                    return None if self.stopped else IDLE
            if self.stopped:
                return None
            channel = self._preferred
            if channel not in self._waiting:
                # the newest, what was just asked for; work in the background last
                foreground = [name for name in self._waiting if not self._waiting[name].background]
                channel = foreground[-1] if foreground else next(reversed(self._waiting))
            self._withdrawn.discard(channel)
            return self._waiting.pop(channel)

    def hold(self, held: bool) -> None:
        """Keep every request waiting (True), or let the worker take them again (False)."""
        with self._ready:
            self._held = held
            self._ready.notify()

    def withdraw(self, channel: str) -> None:
        """Drop ``channel``'s waiting request; its running one stops at its next checkpoint."""
        with self._ready:
            self._waiting.pop(channel, None)
            self._withdrawn.add(channel)

    def replaced(self, request: Request) -> bool:
        """Whether ``request`` is no longer worth finishing: a newer one of its channel waits
        (of a background request: any other request waits), it was withdrawn, or the engine
        stopped."""
        with self._ready:
            return (
                self.stopped
                or request.channel in self._waiting
                or request.channel in self._withdrawn
                or (request.background and bool(self._waiting))
            )

    def resume_later(self, request: Request) -> None:
        """Queue a background ``request`` stopped for another one again, behind it: it was
        not replaced, only interrupted (a withdrawn or replaced one is not wanted)."""
        with self._ready:
            wanted = request.channel not in self._waiting and request.channel not in self._withdrawn
            if request.background and wanted and not self.stopped:
                self._waiting[request.channel] = request
                self._ready.notify()

    def unless_stopped(self, send: Callable[..., object], *args: object) -> None:
        """``send(*args)`` unless stopped (atomically: ``stop`` cannot come in between)."""
        with self._ready:
            if not self.stopped:
                send(*args)

    def stop(self) -> None:
        """Drop every waiting request and let ``take`` return None from now on."""
        with self._ready:
            self._waiting.clear()
            self.stopped = True
            self._ready.notify_all()
