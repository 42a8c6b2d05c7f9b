"""Pure-math positional encodings (torch only, never Qt): the public library API.

>>> from posenc_gui.encodings import sinusoidal
>>> sinusoidal.table(8, 16).shape
torch.Size([8, 16])
"""

from posenc_gui.encodings import binning, sinusoidal

__all__ = ["binning", "sinusoidal"]
