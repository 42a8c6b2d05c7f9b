"""Compute engine: torch on one worker thread, Qt signals in and out, device choice."""

from posenc_gui.engine.device import available_devices, check_device, default_device
from posenc_gui.engine.engine import NOT_COMPUTED_MS, Engine, Request

__all__ = [
    "NOT_COMPUTED_MS",
    "Engine",
    "Request",
    "available_devices",
    "check_device",
    "default_device",
]
