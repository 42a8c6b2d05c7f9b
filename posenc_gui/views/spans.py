"""A curves view's shaded ranges of x (``Span``): a region each, and its legend entry."""

from __future__ import annotations

from collections.abc import Sequence

import pyqtgraph as pg

from posenc_gui.views.curve_specs import Span
from posenc_gui.views.data_bounds import mapped
from posenc_gui.views.legend import add_fill_entry, remove_entry
from posenc_gui.views.style import current_look

SPAN_ALPHA = 45  # of 255: the data shows through


class SpanRegions:
    """The regions of a plot's spans. They stay in their places, moved and recoloured (making
    one costs ~1 ms); those no longer drawn are set aside for the frames that draw them again.
    One legend entry per label, none where a curve has that name."""

    def __init__(self, plot: pg.PlotItem, legend: pg.LegendItem) -> None:
        self._plot, self._legend = plot, legend
        self.regions: list[pg.LinearRegionItem] = []  # one per span drawn, in their order
        self._aside: list[pg.LinearRegionItem] = []
        self._spans: tuple[Span, ...] = ()

    def same_entries(self, spans: Sequence[Span], names: list[str], drawn: list[str]) -> bool:
        """Whether ``spans`` beside curves named ``names`` have the entries the spans drawn
        beside curves named ``drawn`` have (an entry depends on the curves' names)."""
        return names == drawn and _keys(spans) == _keys(self._spans)

    def remove_entries(self, drawn: list[str]) -> None:
        """Remove the entries of the spans drawn beside curves named ``drawn``."""
        for label in {span.label for span in self._spans} - set(drawn):
            remove_entry(self._legend, label)

    def draw(self, spans: Sequence[Span], log_x: bool) -> None:
        """A region for each of ``spans``, on a log x axis where ``log_x``."""
        for region in self.regions[len(spans) :]:
            self._plot.removeItem(region)
        self._aside += self.regions[len(spans) :]
        del self.regions[len(spans) :]
        for index, span in enumerate(spans):
            if index == len(self.regions):
                self.regions.append(self._aside.pop() if self._aside else _region())
                self._plot.addItem(self.regions[index])
            region, colour = self.regions[index], _span_colour(span)
            if region.brush.color() != colour:
                region.setBrush(colour)
            region.setRegion([float(mapped(end, log_x)) for end in (span.start, span.end)])
        self._spans = tuple(spans)

    def add_entries(self, names: list[str]) -> None:
        """The entries of the spans drawn, beside curves named ``names``."""
        for index, span in enumerate(self._spans):
            if span.label not in names and span.label not in {s.label for s in self._spans[:index]}:
                add_fill_entry(self._legend, _span_colour(span), span.label)


def _span_colour(span: Span) -> pg.QtGui.QColor:
    """A span's fill: its colour (a palette index or a name), translucent."""
    colour = pg.mkColor(
        span.color if isinstance(span.color, str) else current_look().colour(span.color)
    )
    colour.setAlpha(SPAN_ALPHA)
    return colour


def _region() -> pg.LinearRegionItem:
    region = pg.LinearRegionItem(movable=False, pen=pg.mkPen(None))
    region.setZValue(-1)
    return region


def _keys(spans: Sequence[Span]) -> list[tuple[str, int | str]]:
    """What a span's item and legend entry show besides its ends."""
    return [(span.label, span.color) for span in spans]
