"""Small multiples of 2D rotations: one panel per RoPE channel pair."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QTextDocument, QTextOption

from posenc_gui.views.ahead import MadeAhead
from posenc_gui.views.axes import without_si_prefixes
from posenc_gui.views.deferred import DeferredDrawing, settle, when_shown
from posenc_gui.views.style import current_look, pen, set_title, wrap_title
from posenc_gui.views.unchanged import same_input

CIRCLE = np.exp(1j * np.linspace(0, 2 * np.pi, 181))
TITLE_POINTS = 10  # a panel's title (scaled in presentation mode)
PANEL_MARGIN = 12  # px a panel's cell gives its plot's margins and the layout's spacing
MIN_SIDE = 56  # px (scaled in presentation): a circle no smaller; the page scrolls instead
REARRANGE_GAIN = 1.1  # new columns must give the circles this much more room: no flicker


@dataclass(frozen=True)
class RotationPanel:
    """One pair: ``trail[-1]`` is the vector now (the arrow), ``trail`` where it has been."""

    title: str
    trail: np.ndarray  # [n, 2]


# a panel's plot, its circle, trail and shaft, and the arrow's head
Panel = tuple[pg.PlotItem, pg.PlotDataItem, pg.PlotCurveItem, pg.PlotCurveItem, pg.ArrowItem]


class RotationView(DeferredDrawing, pg.GraphicsLayoutWidget):
    """Each panel: the circle the pair's vector runs on, the vector as an arrow, its trail."""

    def __init__(
        self,
        parent: pg.QtWidgets.QWidget | None = None,
        *,
        ahead: int = 0,
        labels: tuple[str, str, str] = ("", "", ""),
    ) -> None:
        """``ahead``: panels made in idle time from the turn of the event loop after the view
        is built (``MadeAhead``), so that its first frame and a larger count later make none.
        ``labels``: what the panels show together (title, x, y), for its exported numbers."""
        super().__init__(parent)
        self.labels = labels
        self.panels: list[Panel] = []  # the panels shown
        self._made: list[Panel] = []  # every panel made: making one costs more than a frame
        self._ahead = MadeAhead(
            self, lambda: self._made.append(self._new_panel()), lambda: ahead - len(self._made)
        )
        # each panel's radius drawn: its circle and range are set only when it changes (θ and
        # the position turn the vector, not its length; a third of a frame's draw)
        self._radius: dict[pg.PlotItem, float] = {}
        self._drawn: tuple[object, ...] | None = None  # what set_panels drew last
        self._columns = 0  # of the panels' grid
        self._titles: tuple[str, ...] = ()  # the panels' titles now (their grid fits them)
        # A new width re-wraps the titles when the layout next runs, and with them the height
        # the rows need: the view asks for it once that has run (``settle``), not inside its
        # own resize, which that may resize again.
        self._refit = QTimer(self, singleShot=True, interval=0)
        self._refit.timeout.connect(lambda: settle([self]))
        self._ahead.start()  # a page not shown yet draws its first frame with them made

    @when_shown
    def set_panels(self, panels: Sequence[RotationPanel]) -> None:
        """Draw one panel per entry, left to right, top to bottom."""
        given = (panels, current_look())
        if same_input(given, self._drawn):
            return  # nothing to draw anew (see posenc_gui.views.unchanged)
        self._drawn = given
        titles = tuple(panel.title for panel in panels)
        if titles != self._titles:  # the grid fits the titles (and the view: resizeEvent)
            self._titles = titles
            self._arrange(force=len(panels) != len(self.panels))
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
            set_title(plot, panel.title, TITLE_POINTS)
        self._ahead.start()

    def resizeEvent(self, ev: pg.QtGui.QResizeEvent) -> None:
        super().resizeEvent(ev)
        if getattr(self, "panels", None):  # pyqtgraph resizes the view while making it
            self._arrange(force=False)
            self._refit.start()

    def _arrange(self, *, force: bool) -> None:
        """Lay the panels out in the columns that give their circles the most room; only
        where their number changed (``force``) or other columns give clearly more."""
        if not self._titles:
            self._lay_out(0, 1)
            return
        sides = self._circle_sides(self._titles)
        best = max(sides, key=sides.__getitem__)
        if force or sides[best] > REARRANGE_GAIN * sides.get(self._columns, 0.0):
            self._lay_out(len(self._titles), best)

    def _circle_sides(self, titles: Sequence[str]) -> dict[int, float]:
        """Per column count, the side of the panels' circles in this view, px: a cell of the
        grid holds the title, wrapped at word breaks to its width, over the circle. Where the
        view is too short for circles of ``MIN_SIDE`` its page scrolls, which counts as its
        grid shrunk to the view's height. Columns narrower than that or than a word of the
        titles give none. The longest title stands for all (a row is as tall as its tallest)."""
        least = MIN_SIDE * current_look().scale
        document = QTextDocument()
        document.setDefaultFont(self.font())
        document.setDefaultTextOption(QTextOption(Qt.AlignmentFlag.AlignCenter))  # word wrap
        size = current_look().font_size(TITLE_POINTS)
        document.setHtml(f"<span style='font-size: {size}'>{max(titles, key=len)}</span>")
        document.setTextWidth(0)
        narrowest = max(least, document.idealWidth())  # each break taken: its longest word
        width, height = self.viewport().width(), self.viewport().height()
        count, sides = len(titles), {}
        for columns in range(1, count + 1):
            rows = math.ceil(count / columns)
            if columns > 1 and rows == math.ceil(count / (columns - 1)):
                continue  # as many rows as with a column fewer: narrower panels only
            cell = width / columns - PANEL_MARGIN
            document.setTextWidth(max(cell, 1.0))
            title = document.size().height()
            side = min(cell, height / rows - PANEL_MARGIN - title)
            if side < least:  # the view asks for rows of that size, and scrolls
                side = least * height / (rows * (title + least + PANEL_MARGIN))
            sides[columns] = side if cell >= narrowest else 0.0
        return sides

    def _lay_out(self, count: int, columns: int) -> None:
        """Show ``count`` panels in ``columns``, reusing the panels made before; the others
        stay in the scene, hidden. Placed in the grid's own layout, which lays them out once:
        pyqtgraph's ``GraphicsLayout.addItem`` lays the whole grid out at each panel it adds
        (16 panels: 25 ms), and its ``removeItem`` takes a panel out of the scene."""
        grid = self.ci.layout
        for plot, *_ in self.panels:
            grid.removeItem(plot)
        self._made += [self._new_panel() for _ in range(count - len(self._made))]
        self.panels = self._made[:count]
        self._columns = columns
        for index, (plot, *_) in enumerate(self.panels):
            grid.addItem(plot, index // columns, index % columns)  # in the grid's scene
            plot.show()
        for plot, *_ in self._made[count:]:
            plot.hide()

    def _new_panel(self) -> Panel:
        plot = pg.PlotItem()
        plot.setAspectLocked(True)
        plot.vb.setMinimumHeight(MIN_SIDE * current_look().scale)
        plot.hideButtons()
        wrap_title(plot)
        plot.setMouseEnabled(x=False, y=False)
        plot.setMenuEnabled(False, enableViewBoxMenu=None)  # as style_plot's: no transforms
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
