"""What ran the benchmark, and the memory it took."""

from __future__ import annotations

import os
import platform
import resource
import sys


def peak_rss_mb() -> float:
    """The process's largest resident memory so far, MB."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def machine(device: str) -> str:
    """What ran the benchmark: CPUs, Python, the GPU on CUDA, and whether Python writes no
    bytecode (PYTHONDONTWRITEBYTECODE: each launch then compiles the modules it has none of,
    which the first frame pays for)."""
    no_bytecode = ", no bytecode written" if sys.dont_write_bytecode else ""
    return (
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
        + _gpu_name(device)
        + no_bytecode
    )


def _gpu_name(device: str) -> str:
    """ ", <the GPU's name>" on CUDA, else nothing."""
    import torch

    return f", {torch.cuda.get_device_name()}" if device == "cuda" else ""


def peak_gpu_mb(device: str) -> float | None:
    """The most GPU memory the frames' tensors held at once, in MB (CUDA only; else None)."""
    import torch

    return round(torch.cuda.max_memory_allocated() / 2**20, 1) if device == "cuda" else None
