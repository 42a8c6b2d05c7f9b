"""The context-extension tab. Its spec: what the command line knows of it without loading it."""

from posenc_gui.tabspec import TabSpec

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
)
