"""posenc-gui: see and tune Transformer positional encodings."""

__version__ = "0.1.0"
