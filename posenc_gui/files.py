"""Reading files with a clear refusal, and writing them so that a failure leaves nothing behind
(a temporary file, then a rename)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def check_writable_folder(path: str | Path) -> Path:
    """``path`` if its folder exists; ValueError naming it otherwise."""
    target = Path(path)
    if not target.parent.is_dir():
        raise ValueError(f"{target}: the folder {target.parent} does not exist")
    if target.is_dir():
        raise ValueError(f"{target}: is a folder, not a file name")
    return target


def write_atomic(path: str | Path, write: Callable[[Path], object]) -> Path:
    """Call ``write(temporary_path)`` and rename the result to ``path``.

    The temporary file sits beside ``path`` (same file system, so the rename is atomic). Any
    failure — no permission, a full disk, a failing writer — raises ValueError naming the file
    and the reason, and leaves neither a partial ``path`` nor the temporary file.
    """
    target = check_writable_folder(path)
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".part", dir=target.parent
        )
    except OSError as exc:
        raise ValueError(f"{target}: cannot be written ({exc.strerror})") from None
    os.close(handle)
    try:
        write(Path(temporary))
        os.chmod(temporary, 0o666 & ~_umask())  # as an ordinary new file: mkstemp made it 0600
        os.replace(temporary, target)
    except (OSError, ValueError) as exc:
        Path(temporary).unlink(missing_ok=True)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ValueError(f"{target}: cannot be written ({reason})") from None
    return target


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def read_file(path: str | Path) -> bytes:
    """The bytes of a config.json or session; ValueError with the reason if unreadable."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise ValueError(f"{path}: {exc.strerror}") from None
