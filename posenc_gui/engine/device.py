"""Which torch device the engine computes on."""

from __future__ import annotations

import torch


def available_devices() -> list[str]:
    """Devices torch can use here, best first: ``cuda``, ``mps``, then always ``cpu``."""
    found = []
    if torch.cuda.is_available():
        found.append("cuda")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        found.append("mps")
    return [*found, "cpu"]


def default_device() -> str:
    """CUDA when torch sees one, else Apple MPS, else CPU."""
    return available_devices()[0]


def check_device(name: str) -> str:
    """Return ``name`` if torch can use it here, else raise ValueError listing the choices."""
    choices = available_devices()
    if name not in choices:
        raise ValueError(f"device must be one of {', '.join(choices)} here, got {name!r}")
    return name
