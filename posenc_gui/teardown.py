"""Windows kept until closed, and deleted at exit while Python still runs.

A top-level window belongs to its Python wrapper, and a wrapper outlives the window Qt deleted
with everything its attributes hold (tabs, views, their frames). So a window nothing else owns
(the one a rebuild opens, the app's own) is kept here until it is closed: it is then deleted
and released, Python side included (``keep_until_closed``).

Left to PySide's own clean-up, a window's Qt objects are destroyed after the interpreter has
begun to finalise, and a pyqtgraph item's Python method called from a destructor then crashes
the process. This module's exit handler (it runs before PySide's, which was registered
earlier) lets each window finish its work (``before_exit``) and deletes it.
"""

from __future__ import annotations

import atexit
import weakref

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

_WINDOWS: weakref.WeakSet[QWidget] = weakref.WeakSet()
_KEPT: dict[int, QWidget] = {}  # by id: the windows kept until Qt deletes them


def keep_until_closed(window: QWidget) -> None:
    """Own ``window`` until it is closed; closing deletes it, and then it is let go."""
    key = id(window)
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    _KEPT[key] = window
    # the key, not the window: a connection holding the window would keep it alive
    window.destroyed.connect(lambda *_: _KEPT.pop(key, None))


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
