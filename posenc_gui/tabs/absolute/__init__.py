"""The Absolute tab. Its spec: what the command line knows of it without loading it."""

from posenc_gui.tabspec import TabSpec
from posenc_gui.translatable import N_

SPEC = TabSpec(
    "absolute",
    "posenc_gui.tabs.absolute.tab:AbsoluteTab",
    {"table": None, "wave": None, "similarity": None, "offset": None},
    N_("Absolute"),
    ("sinusoidal",),
)
