"""The one place that knows where resources/ lives (source tree or installed wheel)."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
# In the wheel, resources/ is mapped to posenc_gui/resources; in a checkout it sits beside it.
RESOURCES = next(p for p in (_PACKAGE / "resources", _PACKAGE.parent / "resources") if p.is_dir())


def resource_path(*parts: str) -> Path:
    """Path of a file under resources/, e.g. ``resource_path("icons", "posenc-gui.svg")``."""
    return RESOURCES.joinpath(*parts)
