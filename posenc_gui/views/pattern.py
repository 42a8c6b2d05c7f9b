"""A pattern view: one row per category, a mark at each position of it (which layers are of
which type, which pairs carry which axis)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg

from posenc_gui.views.axes import END_ROOM_PX
from posenc_gui.views.curve_specs import Curve
from posenc_gui.views.curves import CurvesView
from posenc_gui.views.deferred import when_shown
from posenc_gui.views.style import current_look


@dataclass(frozen=True)
class Row:
    """A category: its label on the left axis, its positions, a palette ``color`` index."""

    label: str
    positions: Sequence[int]
    color: int


class PatternView(CurvesView):
    """Rows of marks, row 0 on top, no taller than its rows need (the other views get the rest);
    with ``rows_held``, as tall as that many rows whatever it shows: a frame of fewer rows (a
    scheme of fewer axes) spreads them out instead of re-laying the page out."""

    def __init__(
        self,
        title: str,
        x_label: str,
        *,
        rows_held: int = 0,
        parent: pg.QtWidgets.QWidget | None = None,
    ) -> None:
        # the left axis names the rows: no legend; the curves keep the names for export
        super().__init__(title, x_label, "", legend=False, parent=parent)
        self._rows_held = rows_held
        # no axis label left of the row names, which would start at the view's edge
        _, top, right, bottom = self.plot.layout.getContentsMargins()
        self.plot.layout.setContentsMargins(END_ROOM_PX * current_look().scale, top, right, bottom)
        self.plot.setMouseEnabled(y=False)  # rows are categories
        self.plot.invertY(True)

    @when_shown
    def set_rows(
        self,
        rows: Sequence[Row],
        *,
        x_extent: tuple[float, float] | None = None,
        x_labels: Sequence[str] | None = None,
    ) -> None:
        """Draw one row of marks per category (``x_extent``: the x range to show; ``x_labels``
        as ``CurvesView.set_curves``, ``[]`` for none, and none while no row has a mark)."""
        if not any(len(row.positions) for row in rows):
            x_labels = []  # an empty row: no made-up positions (0.1, 0.2, …) under it
        self.set_curves(
            [
                Curve(
                    row.label,
                    np.asarray(row.positions, dtype=np.int64),  # indices: ticks at whole ones
                    np.full(len(row.positions), float(index)),
                    scatter=True,
                    color=row.color,
                )
                for index, row in enumerate(rows)
            ],
            x_labels=x_labels,
            y_labels=[row.label for row in rows],
        )
        rows_tall = max(len(rows), self._rows_held)
        self.setMaximumHeight(int((120 + 34 * rows_tall) * current_look().scale))
        self.plot.setYRange(-0.6, len(rows) - 0.4, padding=0)
        if x_extent is not None:
            self.plot.setXRange(*x_extent, padding=0.02)
