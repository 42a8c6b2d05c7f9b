"""The Compare tab. Its spec: what the command line knows of it without loading it."""

from posenc_gui.tabspec import TabSpec
from posenc_gui.translatable import N_

SPEC = TabSpec(
    "compare",
    "posenc_gui.tabs.compare.tab:CompareTab",
    {"similarity": None},
    N_("Compare"),
)
