"""A view title's note of how much each drawn cell or pixel averages, shared by the tabs."""

from __future__ import annotations

from posenc_gui.choices import format_number
from posenc_gui.i18n import N_, tr


def pooled_note(rows: int, cols: int, columns_name: str) -> str:
    """`` · a cell: the mean of R positions × C <columns_name>`` once a cell averages more
    than one value (``""`` before); ``rows``, ``cols``: the most a cell holds
    (``HeatmapView.cell_span``)."""
    if cols == 1:
        return tr(" · a cell: the mean of {0} positions").format(format_number(rows)) * (rows > 1)
    if rows == 1:  # not "the mean of 1 positions × 44 dimensions"
        return tr(" · a cell: the mean of {0} {1}").format(format_number(cols), columns_name)
    return tr(" · a cell: the mean of {0} positions × {1} {2}").format(
        format_number(rows), format_number(cols), columns_name
    )


def distances_note(per_pixel: int) -> str:
    """`` · a pixel: the mean of N distances`` for a curve over distance whose pixels average
    ``per_pixel`` of them at most (``""`` for one: each pixel is a distance)."""
    return tr(" · a pixel: the mean of {0} distances").format(format_number(per_pixel)) * (
        per_pixel > 1
    )


POSITIONS_BAND = N_(" · {0} positions a pixel: mean, and min–max band")
TOKENS_BAND = N_(" · {0} tokens a pixel: mean, and min–max band")


def band_note(per_pixel: int, note: str = POSITIONS_BAND) -> str:
    """`` · N positions a pixel: mean, and min–max band`` (``note``: TOKENS_BAND for tokens)
    for curves whose pixels hold up to ``per_pixel`` of them, drawn as means inside their
    min–max envelopes (``""`` for one)."""
    return tr(note).format(format_number(per_pixel)) * (per_pixel > 1)
