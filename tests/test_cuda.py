"""The CUDA path: every page's frame computed on the GPU equals the CPU's, at every size the
benchmark measures, and a window on CUDA draws every tab. Skips where torch sees no GPU."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest
import torch

from posenc_gui.bench.driver import SIZES
from posenc_gui.tabs.rope.compute import compute_rotation
from tests.conftest import FRAME_TIMEOUT_MS

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")

# Allowed difference, relative to the largest |value| of the array on the CPU: float64 arrays
# differ by summation order only; float32 ones (the views' dtype) by a few ulp of their sums.
TOLERANCE = {np.dtype(np.float64): 1e-9, np.dtype(np.float32): 1e-4}


def differences(cpu: Any, gpu: Any, path: str) -> list[str]:
    """Every place where ``gpu`` (a frame, or part of one) is not ``cpu`` within TOLERANCE."""
    if dataclasses.is_dataclass(cpu) and not isinstance(cpu, type):
        return [
            found
            for field in dataclasses.fields(cpu)
            for found in differences(
                getattr(cpu, field.name), getattr(gpu, field.name), f"{path}.{field.name}"
            )
        ]
    if isinstance(cpu, (tuple, list)):
        if len(cpu) != len(gpu):
            return [f"{path}: {len(gpu)} items on CUDA, {len(cpu)} on the CPU"]
        return [
            d
            for i, (c, g) in enumerate(zip(cpu, gpu, strict=True))
            for d in differences(c, g, f"{path}[{i}]")
        ]
    if isinstance(cpu, dict):
        if cpu.keys() != gpu.keys():
            return [f"{path}: keys {sorted(gpu)} on CUDA, {sorted(cpu)} on the CPU"]
        return [d for key in cpu for d in differences(cpu[key], gpu[key], f"{path}[{key!r}]")]
    if isinstance(cpu, np.ndarray):
        if not isinstance(gpu, np.ndarray) or gpu.shape != cpu.shape or gpu.dtype != cpu.dtype:
            shape = getattr(gpu, "shape", type(gpu).__name__), getattr(gpu, "dtype", "")
            return [f"{path}: {shape} on CUDA, {(cpu.shape, cpu.dtype)} on the CPU"]
        if cpu.dtype.kind != "f":
            same = np.array_equal(cpu, gpu)
            return [] if same else [f"{path}: {np.count_nonzero(cpu != gpu)} values differ"]
        finite = np.isfinite(cpu)
        if not np.array_equal(cpu[~finite], gpu[~finite], equal_nan=True):
            return [f"{path}: NaN or ±inf at other places"]
        if not finite.any():
            return []
        scale = max(float(np.abs(cpu[finite]).max()), np.finfo(cpu.dtype).tiny)
        worst = float(np.abs(cpu[finite] - gpu[finite]).max()) / scale
        allowed = TOLERANCE[cpu.dtype]
        return [] if worst <= allowed else [f"{path}: {worst:.2e} of its scale (≤ {allowed:g})"]
    if isinstance(cpu, float):
        return [] if cpu == pytest.approx(gpu, rel=1e-9) else [f"{path}: {gpu} ≠ {cpu}"]
    return [] if cpu == gpu else [f"{path}: {gpu!r} on CUDA, {cpu!r} on the CPU"]


def both_devices(compute, request) -> list[str]:
    cpu = compute(request, torch.device("cpu"))
    gpu = compute(request, torch.device("cuda"))
    return differences(cpu, gpu, "frame")


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda size: "x".join(map(str, size)))
def test_every_page_on_cuda_equals_the_cpu(window, size):
    for name, value in zip(("seq_len", "d_model", "head_dim"), size, strict=True):
        getattr(window.parameters, name).setValue(value)
    found = []
    for index in range(window.tabs.count()):
        tab = window.tab_at(index)
        for page in tab.page_names() or [None]:
            if page is not None:
                tab.show_page(page)
            where = f"{tab.name}/{page or 'all'}"
            found += [f"{where} {d}" for d in both_devices(type(tab).compute, tab.request())]
        if tab.name == "rope":
            found += [
                f"rope/rotation {d}" for d in both_devices(compute_rotation, tab.rotation_request())
            ]
    assert not found, "\n".join(found)


def test_a_window_on_cuda_draws_every_tab(qtbot, owned):
    from posenc_gui.window import MainWindow

    win = owned(MainWindow(device="cuda"))
    win.show()
    assert win.engine.device == "cuda"
    for index in range(win.tabs.count()):
        tab = win.tab_at(index)
        win.tabs.setCurrentWidget(tab)
        qtbot.waitUntil(lambda tab=tab: tab.frame is not None, timeout=FRAME_TIMEOUT_MS)
        assert not tab.stale.isVisibleTo(tab), tab.stale.text()
    assert win.engine.device == "cuda"  # no failure sent it back to the CPU
