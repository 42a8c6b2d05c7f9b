"""Small multiples of 2D rotations: one panel per RoPE channel pair."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg

from posenc_gui.views.axes import without_si_prefixes
from posenc_gui.views.deferred import DeferredDrawing, when_shown
from posenc_gui.views.style import current_look, pen, set_title, wrap_title
from posenc_gui.views.unchanged import same_input

CIRCLE = np.exp(1j * np.linspace(0, 2 * np.pi, 181))


@dataclass(frozen=True)
class RotationPanel:
    """One pair: ``trail[-1]`` is the vector now (the arrow), ``trail`` where it has been."""

    title: str
    trail: np.ndarray  # [n, 2]


# a panel's plot, its circle, trail and shaft, and the arrow's head
Panel = tuple[pg.PlotItem, pg.PlotDataItem, pg.PlotCurveItem, pg.PlotCurveItem, pg.ArrowItem]


class RotationView(DeferredDrawing, pg.GraphicsLayoutWidget):
    """Each panel: the circle the pair's vector runs on, the vector as an arrow, its trail."""

    def __init__(self, parent: pg.QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.panels: list[Panel] = []  # the panels shown
        self._made: list[Panel] = []  # every panel made: making one costs more than a frame
        # each panel's radius drawn: its circle and range are set only when it changes (θ and
        # the position turn the vector, not its length; a third of a frame's draw)
        self._radius: dict[pg.PlotItem, float] = {}
        self._drawn: tuple[object, ...] | None = None  # what set_panels drew last

    @when_shown
    def set_panels(self, panels: Sequence[RotationPanel]) -> None:
        """Draw one panel per entry, left to right, top to bottom."""
        given = (panels, current_look())
        if same_input(given, self._drawn):
            return  # nothing to draw anew (see posenc_gui.views.unchanged)
        self._drawn = given
        if len(panels) != len(self.panels):
            self._lay_out(len(panels))
        for (plot, circle, trail, shaft, head), panel in zip(self.panels, panels, strict=True):
            radius = float(np.hypot(*panel.trail[0]))
            if self._radius.get(plot) != radius:
                self._radius[plot] = radius
                circle.setData(radius * CIRCLE.real, radius * CIRCLE.imag)
                limit = 1.15 * max(radius, 1e-12)
                plot.setRange(xRange=(-limit, limit), yRange=(-limit, limit), padding=0)
            trail.setData(panel.trail[:, 0], panel.trail[:, 1])
            x, y = panel.trail[-1]
            shaft.setData([0.0, x], [0.0, y])
            head.setPos(x, y)
            # turned as an item: a new angle in the arrow's style makes its path anew
            head.setRotation(180 - float(np.degrees(np.arctan2(y, x))))
            set_title(plot, panel.title, 10)

    def _lay_out(self, count: int) -> None:
        """Show ``count`` panels in a near-square grid, reusing the panels made before."""
        for plot, *_ in self.panels:
            self.ci.removeItem(plot)
        self._made += [self._new_panel() for _ in range(count - len(self._made))]
        self.panels = self._made[:count]
        columns = math.ceil(math.sqrt(count))
        for index, (plot, *_) in enumerate(self.panels):
            self.ci.addItem(plot, row=index // columns, col=index % columns)

    def _new_panel(self) -> Panel:
        plot = pg.PlotItem()
        plot.setAspectLocked(True)
        plot.hideButtons()
        wrap_title(plot)
        plot.setMouseEnabled(x=False, y=False)
        plot.hideAxis("left")  # the circle is the scale; axes would crowd the small multiples
        plot.hideAxis("bottom")
        without_si_prefixes(plot)
        circle = plot.plot(pen=pg.mkPen(current_look().muted, width=1))
        # the trail and shaft as bare curves: a PlotDataItem's own layer (symbols, clipping,
        # log axes, none used here) made handing them a frame's data cost twice as much
        trail, shaft = pg.PlotCurveItem(pen=pen(6)), pg.PlotCurveItem(pen=pen(2, width=3))
        plot.addItem(trail)
        plot.addItem(shaft)
        head = pg.ArrowItem(  # pointing left: each frame turns the item (``setRotation``)
            angle=0, headLen=14 * current_look().scale, brush=current_look().colour(2), pen=None
        )
        plot.addItem(head)
        return plot, circle, trail, shaft, head
