"""One package per tab: ``compute.py`` (its Params, Frame and compute(), Qt-free) and
``tab.py`` (its controls and which views). ``posenc_gui.registry`` lists them."""
