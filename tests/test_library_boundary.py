"""posenc_gui.encodings is the Qt-free library API; every tab's compute module (and the module
of each curve it adds to the Compare tab) is Qt-free and the views never need torch — checked
by importing each module alone in a fresh interpreter (the import-linter contracts in
pyproject.toml check the import graph as well)."""

import pkgutil
import subprocess
import sys

import pytest

import posenc_gui.encodings
import posenc_gui.views
from posenc_gui import registry

QT = ("PySide6", "pyqtgraph")


def loaded_after_import(module: str, prefixes: tuple[str, ...]) -> list[str]:
    """The modules starting with ``prefixes`` that importing ``module`` alone loads."""
    code = (
        f"import sys, {module}; "
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {prefixes!r}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    return eval(result.stdout)  # a printed list of module names


ENCODINGS = [
    f"posenc_gui.encodings.{m.name}" for m in pkgutil.iter_modules(posenc_gui.encodings.__path__)
]
COMPUTES = sorted(
    {tab.compute.__module__ for tab in registry.tab_classes()}
    | {entry.curves.__module__ for tab in registry.tab_classes() for entry in tab.compare}
)
VIEWS = [f"posenc_gui.views.{m.name}" for m in pkgutil.iter_modules(posenc_gui.views.__path__)]


def test_the_walk_finds_every_module():
    assert {"posenc_gui.encodings.rope", "posenc_gui.encodings.window"} <= set(ENCODINGS)
    assert {tab.compute.__module__ for tab in registry.tab_classes()} <= set(COMPUTES)
    assert "posenc_gui.tabs.relative.compare" in COMPUTES
    assert "posenc_gui.views.heatmap" in VIEWS


@pytest.mark.slow
@pytest.mark.parametrize("module", ["posenc_gui.encodings", *ENCODINGS, *COMPUTES])
def test_the_library_and_every_compute_never_import_qt(module):
    assert loaded_after_import(module, QT) == []


@pytest.mark.slow
@pytest.mark.parametrize("module", ["posenc_gui.encodings.window", *VIEWS])
def test_views_and_windows_never_import_torch(module):
    assert loaded_after_import(module, ("torch",)) == []
