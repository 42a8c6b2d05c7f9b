"""The context-extension tab. Its spec: what the command line knows of it without loading it."""

from posenc_gui.choices import ROPE_KINDS
from posenc_gui.tabspec import TabSpec
from posenc_gui.translatable import N_

SPEC = TabSpec(
    "extension",
    "posenc_gui.tabs.extension.tab:ExtensionTab",
    {
        "wavelength": "frequencies",
        "ratio": "frequencies",
        "decay": "context",
        "angle": "context",
        "dynamic": "dynamic",
        "layer_wavelength": "layers",
        "layer_pattern": "layers",
    },
    N_("Context extension"),
    ROPE_KINDS,
)
