"""Windows deleted at exit while Python still runs.

Left to PySide's own clean-up, a window's Qt objects are destroyed after the interpreter has
begun to finalise, and a pyqtgraph item's Python method called from a destructor then crashes
the process. This module's exit handler (it runs before PySide's, which was registered
earlier) lets each window finish its work (``before_exit``) and deletes it.
"""

from __future__ import annotations

import atexit
import weakref

import shiboken6
from PySide6.QtWidgets import QWidget

_WINDOWS: weakref.WeakSet[QWidget] = weakref.WeakSet()


def delete_at_exit(window: QWidget) -> None:
    """Delete ``window`` at exit, after calling its ``before_exit()`` if it has one."""
    _WINDOWS.add(window)


@atexit.register
def _delete_windows() -> None:
    for window in list(_WINDOWS):
        if not shiboken6.isValid(window):
            continue  # deleted already
        before = getattr(window, "before_exit", None)
        if before is not None:
            before()
        shiboken6.delete(window)
