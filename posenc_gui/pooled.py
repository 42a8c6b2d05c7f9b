"""A heatmap title's note of how much each drawn cell averages, shared by the tabs."""

from __future__ import annotations

from posenc_gui.choices import format_number
from posenc_gui.i18n import tr


def pooled_note(rows: int, cols: int, columns_name: str) -> str:
    """`` · a cell: the mean of R positions × C <columns_name>`` once a cell averages more
    than one value (``""`` before); ``rows``, ``cols``: the most a cell holds
    (``HeatmapView.cell_span``)."""
    if cols == 1:
        return tr(" · a cell: the mean of {0} positions").format(format_number(rows)) * (rows > 1)
    return tr(" · a cell: the mean of {0} positions × {1} {2}").format(
        format_number(rows), format_number(cols), columns_name
    )
