"""A labelled reference line of a curves view (a context length, a ratio of 1, …)."""

from __future__ import annotations

import pyqtgraph as pg

from posenc_gui.views.curve_specs import NO_PEN, Line
from posenc_gui.views.data_bounds import DataBounds
from posenc_gui.views.style import current_look, pen

# The dashes under the curves, the labels over them (see curve_specs: CURVE_Z, DASHED_Z).
STROKE_Z, LABEL_Z = 1, 3
# Where a label hangs (its place along the line, 0 … 1 of the view, and its text's anchors):
# near the line's far end, else near its start, on the side of the plot's centre, the text
# hanging towards the inside, never past the plot's edges onto the ticks or the title.
LABEL_ENDS = {
    False: ((0.97, [(1, 0), (1, 1)]), (0.03, [(0, 0), (0, 1)])),  # horizontal: right, left
    True: ((0.92, [(0, 0), (1, 0)]), (0.08, [(0, 1), (1, 1)])),  # vertical: top, bottom
}


class ReferenceLine:
    """A reference line as two items: its dashes under the curves (points lying on it stay
    whole), and an invisible twin above them (``LABEL_Z``) carrying the label, so that a curve
    crossing the label does not cross its text (a label is its line's child and stacks with
    it). The label hangs at the end of the line where fewer points lie under it."""

    def __init__(self, plot: pg.PlotItem, position: float, line: Line) -> None:
        angle = 90 if line.vertical else 0
        self.vertical = line.vertical
        self.stroke = pg.InfiniteLine(
            pos=position, angle=angle, pen=pen(line.color, dashed=True, width=1.5)
        )
        self.stroke.setZValue(STROKE_Z)
        self.end = 0  # which of LABEL_ENDS the label hangs at
        along, anchors = LABEL_ENDS[line.vertical][self.end]
        self.labelled = pg.InfiniteLine(
            pos=position,
            angle=angle,
            pen=NO_PEN,
            label=line.label,
            labelOpts={
                "position": along,
                "anchors": anchors,
                "color": current_look().colour(line.color),
                "fill": current_look().legend_background,
            },
        )
        self.labelled.setZValue(LABEL_Z)
        plot.addItem(self.stroke)
        plot.addItem(self.labelled)
        self.label = self.labelled.label

    @property
    def items(self) -> tuple[pg.InfiniteLine, pg.InfiniteLine]:
        return self.stroke, self.labelled

    def value(self) -> float:
        return float(self.stroke.value())

    def set_value(self, position: float) -> None:
        for item in self.items:
            item.setValue(position)

    def place_label(self, bounds: DataBounds, view_box: pg.ViewBox) -> None:
        """Hang the label at the end of the line where fewer of ``bounds``' points lie under
        it: the far end unless the start is strictly freer (the same data, the same place, on
        screen and in an export)."""
        covered = [self._points_under(bounds, view_box, end) for end in (0, 1)]
        end = 1 if covered[1] < covered[0] else 0
        if end != self.end:
            self.end = end
            along, self.label.anchors = LABEL_ENDS[self.vertical][end]
            self.label.setPosition(along)  # lays the label out again

    def _points_under(self, bounds: DataBounds, view_box: pg.ViewBox, end: int) -> int:
        """The points the label would cover hanging at ``end`` (view coordinates)."""
        (x0, x1), (y0, y1) = view_box.viewRange()
        pixel_x, pixel_y = view_box.viewPixelSize()
        size = self.label.boundingRect()
        width, height = size.width() * pixel_x, size.height() * pixel_y
        along = LABEL_ENDS[self.vertical][end][0]
        value = self.value()
        if self.vertical:  # beside the line, towards the centre; down from the top, up from below
            at = y0 + along * (y1 - y0)
            ys = (at - height, at) if end == 0 else (at, at + height)
            xs = (value, value + width) if value < (x0 + x1) / 2 else (value - width, value)
        else:  # under or over the line, towards the centre; in from its right or left end
            at = x0 + along * (x1 - x0)
            xs = (at - width, at) if end == 0 else (at, at + width)
            ys = (value - height, value) if value > (y0 + y1) / 2 else (value, value + height)
        return bounds.points_within(xs, ys)
