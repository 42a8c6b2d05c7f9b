"""Recording the axes of a plot that set their label's HTML anew (each costs a text layout)."""

from __future__ import annotations

import pyqtgraph as pg


def label_sets(plot: pg.PlotItem) -> list[str]:
    """A list that gets the side of each axis of ``plot`` setting its label, from now on."""
    sets: list[str] = []
    for side in plot.axes:
        label = plot.getAxis(side).label
        original = label.setHtml

        def recorded(html: str, side: str = side, original=original) -> None:
            sets.append(side)
            original(html)

        label.setHtml = recorded
    return sets
