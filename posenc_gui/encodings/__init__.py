"""Pure-math positional encodings (torch only, never Qt): the public library API.

One module per family: ``sinusoidal``, ``relative``, ``rope``, ``rope_scaling``;
``model_config`` reads a released model's config.json per layer type; ``multimodal`` turns
pairs by several axes (M-RoPE, 2-D axial RoPE); ``binning`` for exact display-resolution
means, ``run_sums`` for their sums over frequencies, and ``window`` (torch-free) for the axis
windows views ask for. Import the module you need:

>>> from posenc_gui.encodings import sinusoidal
>>> sinusoidal.table(8, 16).shape
torch.Size([8, 16])
"""

__all__ = [
    "binning",
    "model_config",
    "multimodal",
    "relative",
    "rope",
    "rope_scaling",
    "run_sums",
    "sinusoidal",
    "window",
]
