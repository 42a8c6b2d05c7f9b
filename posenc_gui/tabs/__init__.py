"""One tab per encoding: its controls and which views, nothing else."""

from posenc_gui.tabs.absolute import AbsoluteTab
from posenc_gui.tabs.base import Tab
from posenc_gui.tabs.compare import CompareTab
from posenc_gui.tabs.extension import ExtensionTab
from posenc_gui.tabs.relative import RelativeTab
from posenc_gui.tabs.rope import RopeTab

__all__ = ["AbsoluteTab", "CompareTab", "ExtensionTab", "RelativeTab", "RopeTab", "Tab"]
