"""A legend under the plot, in as many columns as the view's width holds."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontMetricsF

from posenc_gui.views.axes import fit_height
from posenc_gui.views.style import tick_font

QWIDGETSIZE_MAX = (1 << 24) - 1  # Qt's "no maximum"
MAX_LEGEND_SHARE = 0.3  # of the view's height
LEGEND_ROW = 4  # of the plot's layout: under the x axis (rows 0–3: title, top axis, plot, x axis)


def add_legend(plot: pg.PlotItem, text_size: str) -> pg.LegendItem:
    """A legend in the plot's layout under the x axis; curves created with a name get an
    entry. It fits itself to the view (``fit_legend``), never widens it."""
    legend = pg.LegendItem(labelTextSize=text_size)
    plot.legend = legend
    plot.layout.addItem(legend, LEGEND_ROW, 1)
    legend.setMinimumWidth(0)
    return legend


@contextmanager
def entries_changing(legend: pg.LegendItem) -> Iterator[None]:
    """Add and remove ``legend``'s entries inside: it measures its size once, at the end, not
    after each (pyqtgraph's ``updateSize``, 0.2 ms a time: 9 times for a Compare step that
    swaps four heads' entries)."""
    legend.updateSize = _unchanged_size  # an instance attribute: pyqtgraph calls it by name
    try:
        yield
    finally:
        del legend.updateSize
        legend.updateSize()


def _unchanged_size() -> None:
    pass


def add_entry(legend: pg.LegendItem, item: pg.GraphicsObject, name: str) -> None:
    """An entry for ``item`` named ``name`` at the end of ``legend``, one set aside before
    (``remove_entries``) where there is one. Making one (its sample, its label's text layout,
    their place in the scene) made a frame that adds it draw in 2.0 ms instead of 1.7, each
    time a curve named only while it has points (Extension's unseen angles) came back."""
    spares = _spares(legend)
    if not spares:
        legend.addItem(item, name)
        return
    sample, label = spares.pop()
    sample.item = item  # what the sample draws (pen, brush, symbol) and hides on a click
    label.setToolTip("")
    label.setText(name)
    legend.items.append((sample, label))
    legend._addItemToLayout(sample, label)
    sample.show()
    label.show()
    legend.updateSize()


def remove_entries(legend: pg.LegendItem, entries: Sequence[tuple[Any, Any]]) -> None:
    """Take ``entries`` (of ``legend.items``) out of the legend, set aside for ``add_entry``
    (hidden, in the scene: pyqtgraph's ``removeItem`` closes an entry and drops it)."""
    if not entries:
        return
    for sample, label in list(entries):
        legend.items.remove((sample, label))
        for part in (sample, label):
            legend.layout.removeItem(part)
            part.hide()
        _spares(legend).append((sample, label))
    legend.updateSize()


def show_entries(legend: pg.LegendItem, wanted: Sequence[tuple[Any, str]]) -> None:
    """Make the legend's entries those of ``wanted`` (item, name) in order: the leading ones
    in place already stay, renamed where their names changed; the others, and any after them,
    are set aside, and the missing ones added (``add_entry``)."""
    kept = 0
    for (sample, _), (item, _) in zip(legend.items, wanted, strict=False):
        if sample.item is not item:
            break
        kept += 1
    remove_entries(legend, legend.items[kept:])
    for item, name in wanted[:kept]:
        rename_entry(legend, item, name)
    for item, name in wanted[kept:]:
        add_entry(legend, item, name)


def add_fill_entry(legend: pg.LegendItem, colour: QColor, name: str) -> None:
    """An entry for a band or span of ``colour``: it draws a proxy item of that colour (an
    entry of the fill itself crashes when removed), kept for the entry's name and colour
    (making one costs ~0.5 ms: Compare's band entry came back with a new one at each
    ``n_heads`` step). It comes back shown: a click on its sample hides the proxy only."""
    proxies: dict[tuple[int, str], pg.PlotDataItem] = legend.__dict__.setdefault("_proxies", {})
    proxy = proxies.get((colour.rgba(), name))
    if proxy is None:
        proxy = pg.PlotDataItem(pen=None, fillLevel=0, fillBrush=colour)
        proxies[colour.rgba(), name] = proxy
    proxy.show()
    add_entry(legend, proxy, name)


def _spares(legend: pg.LegendItem) -> list[tuple[Any, Any]]:
    spares: list[tuple[Any, Any]] = legend.__dict__.setdefault("_spare_entries", [])
    return spares


def rename_entry(legend: pg.LegendItem, item: pg.PlotDataItem, name: str) -> None:
    """Give ``item``'s entry a new name (its full name is the entry's tooltip)."""
    label = legend.getLabel(item)
    if label is not None and (label.toolTip() or label.text) != name:
        label.setToolTip(name)
        label.setText(name)


def fit_legend(
    view: pg.GraphicsView, plot: pg.PlotItem, legend: pg.LegendItem, *, shown: bool
) -> None:
    """Show ``legend`` (when ``shown`` and it has entries) in as many columns as the plot's
    width holds, names too long for it elided (the full name is the entry's tooltip); an
    empty or hidden legend takes no room."""
    shown = shown and bool(legend.items)
    legend.setVisible(shown)
    # a hidden item keeps its size in a graphics layout: a hidden legend is made flat
    legend.setMaximumHeight(QWIDGETSIZE_MAX if shown else 0)
    if not shown:
        plot.layout.setRowFixedHeight(LEGEND_ROW, 0)
        return
    # The plot's width: the view's, or the size an export lays it out at.
    room = max(plot.width() - plot.getAxis("left").width() - 8, 40.0)
    metrics = QFontMetricsF(tick_font())
    names = []
    for _, label in legend.items:
        if not label.toolTip():
            label.setToolTip(label.text)
        names.append(label.toolTip())
    first_sample, first_label = legend.items[0]
    # an entry: its sample, the spacing, the label's frame around its text, the text
    frame = first_label.itemRect().width() - metrics.horizontalAdvance(first_label.text)
    overhead = first_sample.boundingRect().width() + 12 + frame
    widths = [overhead + metrics.horizontalAdvance(name) for name in names]
    columns = len(widths)
    while columns > 1 and _row_width(widths, columns) > room:
        columns -= 1
    # More columns of shorter names rather than a legend taller than its share, while each
    # name keeps a few letters.
    row_height = first_label.itemRect().height()
    most_rows = max(1, int(view.height() * MAX_LEGEND_SHARE // row_height))
    narrowest = overhead + metrics.horizontalAdvance("abcdefgh…")
    columns = max(1, min(max(columns, -(-len(widths) // most_rows)), int(room // narrowest)))
    columns = min(columns, len(widths))
    limit = room / columns - overhead
    for (_, label), name in zip(legend.items, names, strict=True):
        shown_name = name
        if _row_width(widths, columns) > room:
            shown_name = metrics.elidedText(name, Qt.TextElideMode.ElideRight, limit)
        if label.text != shown_name:
            label.setText(shown_name)
    if columns != legend.columnCount:
        legend.setColumnCount(columns)
    legend.layout.activate()
    legend.updateSize()
    plot.layout.setRowFixedHeight(LEGEND_ROW, legend.boundingRect().height())
    plot.layout.activate()
    fit_height(view, plot)


class LegendFit:
    """Fits a view's legend (``fit_legend``) when called and whenever its room changes: the
    plot's size (the view resized, an export's size) and the y axis's width (labels that
    need more room take it from the legend's row without resizing the plot)."""

    def __init__(
        self, view: pg.GraphicsView, plot: pg.PlotItem, legend: pg.LegendItem, *, shown: bool
    ) -> None:
        self._view, self._plot, self._legend, self._shown = view, plot, legend, shown
        self._axis_width = 0.0  # the y axis's width at the last fit
        self()
        plot.geometryChanged.connect(self)
        plot.getAxis("left").geometryChanged.connect(self._axis_moved)

    def __call__(self) -> None:
        self._axis_width = self._plot.getAxis("left").width()
        fit_legend(self._view, self._plot, self._legend, shown=self._shown)

    def _axis_moved(self) -> None:
        if self._plot.getAxis("left").width() != self._axis_width:  # not its height: more
            self()  # rows of legend move it every frame


def _row_width(widths: Sequence[float], columns: int) -> float:
    """The width of a legend laid out in ``columns``: the widest entry of each column."""
    return sum(max(widths[start::columns]) for start in range(columns))


def remove_entry(legend: pg.LegendItem, name: str) -> None:
    """Remove the entries named ``name`` (also where their shown names are elided)."""
    remove_entries(legend, [e for e in legend.items if (e[1].toolTip() or e[1].text) == name])
