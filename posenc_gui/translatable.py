"""``N_``: marks interface text for translation where it is defined, without Qt, so Qt-free
modules can declare it too (``posenc_gui.i18n.tr`` translates it where it is shown)."""


def N_(text: str) -> str:
    """Mark ``text`` for translation where it is defined; ``tr`` it where it is shown."""
    return text
