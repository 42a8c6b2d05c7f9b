"""One package per tab: ``compute.py`` (its Params, Frame and compute(), Qt-free; its Compare
entries too, or in a ``compare.py`` of their own) and ``tab.py`` (its controls and which views).
``posenc_gui.registry`` lists them."""
