"""The Relative tab. Its spec: what the command line knows of it without loading it."""

from posenc_gui.tabspec import TabSpec
from posenc_gui.translatable import N_

SPEC = TabSpec(
    "relative",
    "posenc_gui.tabs.relative.tab:RelativeTab",
    {
        "distance": "distances",
        "table": "distances",
        "bucket": "t5",
        "bucket_curve": "t5",
        "alibi": "alibi",
        "alibi_curve": "alibi",
        "slope": "alibi",
        "content": "scores",
        "bias": "scores",
        "total": "scores",
        "attention": "scores",
    },
    N_("Relative"),
    ("t5", "alibi"),
)
