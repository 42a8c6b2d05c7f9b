"""The RoPE tab. Its spec: what the command line knows of it without loading it."""

from posenc_gui.choices import ROPE_KINDS
from posenc_gui.tabspec import TabSpec
from posenc_gui.translatable import N_

SPEC = TabSpec(
    "rope",
    "posenc_gui.tabs.rope.tab:RopeTab",
    {
        "table": "tables",
        "spectrum": "tables",
        "rotation": "rotation",
        "invariance": "invariance",
        "decay": "invariance",
        "layout": "layouts",
        "permutation": "layouts",
        "error": "precision",
        "error_curve": "precision",
    },
    N_("RoPE"),
    ROPE_KINDS,
)
