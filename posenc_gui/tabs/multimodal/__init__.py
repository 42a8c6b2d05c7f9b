"""The multimodal tab: RoPE over several position axes (M-RoPE, 2-D axial) and mixed layer
stacks. Its spec: what the command line knows of it without loading it."""

from posenc_gui.choices import ROPE_KINDS
from posenc_gui.tabspec import TabSpec
from posenc_gui.translatable import N_

SPEC = TabSpec(
    "multimodal",
    "posenc_gui.tabs.multimodal.tab:MultimodalTab",
    {
        "axis_map": "pairs",
        "pair_frequency": "pairs",
        "layer_strip": "pairs",
        "id_strip": "sequence",
        "id_curves": "sequence",
        "patch_scores": "scores",
        "patch_profile": "scores",
    },
    N_("Multimodal RoPE"),
    ROPE_KINDS,
)
