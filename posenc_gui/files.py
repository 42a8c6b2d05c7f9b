"""Reading files with a clear refusal, and writing them so that a failure leaves nothing behind
(a temporary file, then a rename)."""

from __future__ import annotations

import glob
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable
from itertools import accumulate
from pathlib import Path
from typing import Any

from posenc_gui.choices import MAX_JSON_BYTES, MAX_JSON_DEPTH


def check_writable_folder(path: str | Path) -> Path:
    """``path`` if its folder exists; ValueError naming it otherwise."""
    target = Path(path)
    if str(path).endswith(("/", os.sep)):  # Path drops the slash: it would write dir.png
        raise ValueError(f"{path}: names a folder, not a file")
    try:
        if not target.parent.is_dir():
            raise ValueError(f"{target}: the folder {target.parent} does not exist")
        if target.is_dir():
            raise ValueError(f"{target}: is a folder, not a file name")
    except OSError as exc:  # a name too long, a folder that may not be searched
        raise ValueError(f"{target}: cannot be written ({exc.strerror})") from None
    return target


def write_atomic(path: str | Path, write: Callable[[Path], object]) -> Path:
    """Call ``write(temporary_path)`` and rename the result to ``path``.

    The temporary file sits beside ``path`` (same file system, so the rename is atomic). Any
    failure — no permission, a full disk, a failing writer — raises ValueError naming the file
    and the reason, and leaves neither a partial ``path`` nor the temporary file. A symbolic
    link stays one: the file it points to is written.
    """
    target = check_writable_folder(path)
    if target.is_symlink():  # renaming onto the link would replace it with a plain file
        target = check_writable_folder(target.resolve())
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".part", dir=target.parent
        )
    except OSError as exc:
        raise ValueError(f"{target}: cannot be written ({exc.strerror})") from None
    os.close(handle)
    try:
        write(Path(temporary))
        with open(temporary, "rb+") as written:  # on disk before it takes the target's name
            os.fsync(written.fileno())
        os.chmod(temporary, 0o666 & ~_umask())  # as an ordinary new file: mkstemp made it 0600
        os.replace(temporary, target)
    except (OSError, ValueError) as exc:
        Path(temporary).unlink(missing_ok=True)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ValueError(f"{target}: cannot be written ({reason})") from None
    for stale in target.parent.glob(f".{glob.escape(target.name)}.*.part"):
        stale.unlink(missing_ok=True)  # left by an earlier run that was killed mid-write
    return target


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def read_file(path: str | Path, limit: int = MAX_JSON_BYTES) -> bytes:
    """The bytes of a config.json or session; ValueError with the reason if it is missing,
    not a regular file (a FIFO would block, /dev/zero never end) or larger than ``limit``
    (checked before reading, and never more than ``limit + 1`` bytes read)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise ValueError(f"{path}: not a regular file")
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise ValueError(f"{path}: {exc.strerror}") from None
    if len(data) > limit:
        raise ValueError(f"{path}: larger than {limit:,} bytes: not a config or a session")
    return data


def parse_json(data: bytes, source: str) -> Any:
    """UTF-8 JSON (a byte-order mark allowed) of at most ``MAX_JSON_BYTES``; ValueError naming
    ``source`` if it is too large, not UTF-8, not valid JSON, or nested too deeply."""
    if len(data) > MAX_JSON_BYTES:
        raise ValueError(f"{source}: {len(data):,} bytes is too large (at most {MAX_JSON_BYTES:,})")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{source}: not UTF-8 text (byte {exc.start})") from None
    if _nesting_depth(text) > MAX_JSON_DEPTH:
        raise ValueError(
            f"{source}: nested too deeply to be a config or a session "
            f"(more than {MAX_JSON_DEPTH} levels)"
        )
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except ValueError:  # Python reads whole numbers of at most so many digits
        raise ValueError(
            f"{source}: holds a whole number of more than {sys.get_int_max_str_digits():,} digits"
        ) from None


def _nesting_depth(text: str) -> int:
    """The most arrays and objects open at once in JSON ``text`` (brackets in strings aside).

    Checked before parsing: how deep the parser itself may go depends on the Python (3.11
    raises RecursionError past ~1000 levels, 3.12 parses far deeper), and what is parsed is
    walked again by code with its own recursion limits."""
    # a string runs to its closing quote, or to the end when there is none (invalid JSON then:
    # the parser says where), so that no quote is looked at twice
    brackets = re.sub(r"[^\[\]{}]+", "", re.sub(r'"(?:[^"\\]|\\.)*"?', "", text))
    return max(accumulate(1 if c in "[{" else -1 for c in brackets), default=0)
