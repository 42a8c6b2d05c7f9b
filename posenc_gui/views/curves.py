"""A curves view: named y(x) lines, shaded bands and reference lines on one plot."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal

from posenc_gui.encodings.window import Window
from posenc_gui.views.ahead import MadeAhead
from posenc_gui.views.axes import fit_height, style_plot
from posenc_gui.views.bands import BandFill, band_fill, update_band_fill
from posenc_gui.views.curve_specs import (
    MANY_LINES_Z,
    Band,
    Curve,
    Line,
    Span,
    Style,
    draw_styled,
    stacking,
)
from posenc_gui.views.data_bounds import BoundedViewBox, DataBounds, mapped
from posenc_gui.views.deferred import DeferredDrawing, when_shown
from posenc_gui.views.legend import (
    LegendFit,
    add_fill_entry,
    add_legend,
    entries_changing,
    remove_entries,
    remove_entry,
    rename_entry,
    show_entries,
)
from posenc_gui.views.many_lines import LinesItem, apart_and_together
from posenc_gui.views.reference_line import ReferenceLine
from posenc_gui.views.spans import SpanRegions
from posenc_gui.views.style import current_look, number_text
from posenc_gui.views.unchanged import same_input
from posenc_gui.views.viewport import Viewport
from posenc_gui.views.wide_lines import CurveItem

MAX_READ_CURVES = 8  # curves named in a hover readout
MIN_PLOT_HEIGHT = 60  # px of data, times the look's scale
AHEAD_BATCH = 8  # curve items made ahead per turn of the event loop: 4 ms


class CurvesView(DeferredDrawing, pg.PlotWidget):
    """Draws what it is handed; long curves are shown as min/max envelopes per pixel. Hovering
    reads the nearest point of each curve (``hovered``; empty when the cursor leaves)."""

    hovered = Signal(str)

    def __init__(
        self,
        title: str,
        x_label: str,
        y_label: str,
        *,
        legend: bool = True,
        min_plot_height: int = MIN_PLOT_HEIGHT,
        ahead: int = 0,
        parent: pg.QtWidgets.QWidget | None = None,
    ) -> None:
        """The legend sits under the plot, never on the data, in as many columns as fit.
        ``legend`` False: none is drawn (the title names the curves); the curves keep their
        names for export. The plot keeps ``min_plot_height`` px of data (times the look's
        scale) whatever its title and legend take. Items for up to ``ahead`` curves are made
        in idle time from the turn of the event loop after the view is built, and again once
        a frame used some (``MadeAhead``)."""
        view_box = BoundedViewBox(DataBounds())
        super().__init__(parent, viewBox=view_box)
        self._bounds = view_box.bounds  # what the range fits: the arrays handed to the items
        self.plot = self.getPlotItem()
        style_plot(self.plot, title, x_label, y_label)
        self.plot.setClipToView(True)
        self.plot.setDownsampling(auto=True, mode="peak")  # envelopes, never a strided sample
        self.legend = add_legend(self.plot, current_look().font_size(10))
        self.curve_items: list[pg.PlotDataItem] = []
        # items of curves no longer drawn (or made ahead): in the plot, hidden and empty, as
        # adding an item to a plot costs twice what styling it does (0.3 ms)
        self._set_aside: list[pg.PlotDataItem] = []
        self._ahead = MadeAhead(
            self,
            lambda: self._set_aside.append(self._new_item()),
            lambda: ahead - len(self.curve_items) - len(self._set_aside),
            batch=AHEAD_BATCH,
        )
        # many unnamed lines (ALiBi's heads) are drawn by one item (views.many_lines), made
        # when first needed, under the named ones (a backdrop to them: Compare's 128 heads)
        self._together: LinesItem | None = None
        self.bands: list[tuple[str, BandFill]] = []
        self.lines: list[ReferenceLine] = []
        self._spans = SpanRegions(self.plot, self.legend)
        self._band_keys: list[tuple[str, int]] = []
        self._line_keys: list[tuple[bool, int]] = []
        self._log = self._next_log = (False, False)  # the axes drawn, and from the next curves
        self._drawn: tuple[object, ...] | None = None  # what set_curves drew last
        self._curves: tuple[Curve, ...] = ()  # and its curves
        self._styles: list[Style | None] = []  # how each curve item is drawn now
        self._ticks: tuple[tuple[str, ...] | None, ...] = (None, None)  # x's and y's
        self.viewport = Viewport(self.plot.vb, points=True)
        self.plot.vb.setAutoVisible(y=True)  # y fits the curves' visible part
        # never squeezed flat by its title and legend (the view keeps the room: fit_height)
        self.plot.vb.setMinimumHeight(min_plot_height * current_look().scale)
        # the legend refits whenever its room changes (the view resized, an export's size, the
        # y axis widened for its labels)
        self._fit_legend = LegendFit(self, self.plot, self.legend, shown=legend)
        self._ahead.start()  # a page not shown yet draws its first frame with them made
        self.scene().sigMouseMoved.connect(self._on_mouse_moved)
        # Labels hang where fewer points lie under them. New data or a new range: placed once
        # the range is fitted, as the view is about to paint (a frame moves the range several
        # times on its way there). A new size: placed at once, before the paint it brings.
        self._labels_due = False
        self.plot.vb.sigRangeChanged.connect(self._labels_moved)
        self.scene().sigPrepareForPaint.connect(self._place_due_labels)
        self.plot.vb.sigResized.connect(self._place_labels)

    def x_window(self, lo: int, hi: int) -> Window:
        """The visible window of the integer x extent ``lo … hi-1``, at screen resolution
        (the whole extent until ``set_curves`` drew it with ``x_extent=(lo, hi)``)."""
        return self.viewport.windows((lo, hi))[0]

    def set_log(self, *, x: bool = False, y: bool = False) -> None:
        """Logarithmic axes (data must then be positive on that axis) from the next
        ``set_curves`` on: the window to compute (``x_window``) is on the new scale at once,
        while the curves on screen keep their axes (drawn on the new ones they would be wrong
        until their frame comes)."""
        self._next_log = (x, y)
        if self.viewport.log_x != x:
            self.viewport.log_x = x
            self.viewport.extent = None  # show the whole extent on the new scale

    def _apply_log(self) -> None:
        if self._next_log == self._log:
            return  # unchanged: the items keep their data mapped as they are
        self._log = self._next_log
        self._bounds.set_log(self._log)
        for item in self.curve_items + self._set_aside:
            item.map_with_next_data = True  # mapped for the new axes with their next data
        self.plot.setLogMode(*self._log)

    @when_shown
    def set_curves(
        self,
        curves: Sequence[Curve],
        *,
        bands: Sequence[Band] = (),
        lines: Sequence[Line] = (),
        spans: Sequence[Span] = (),
        x_labels: Sequence[str] | None = None,
        y_labels: Sequence[str] | None = None,
        x_extent: tuple[int, int] | None = None,
    ) -> None:
        """Draw ``curves`` over ``bands``, with reference ``lines``, replacing what was drawn.

        ``x_labels`` label x = 0, 1, … (``y_labels`` y = 0, 1, …). With ``x_extent`` the
        curves are a window of data over that x range: x keeps the user's zoom (see
        ``x_window``) and only y fits the data.
        """
        given: tuple[object, ...] = (curves, bands, lines, spans, x_labels, y_labels, x_extent)
        given += (self._next_log, current_look())
        if same_input(given, self._drawn):
            return  # nothing to draw anew (see posenc_gui.views.unchanged)
        self._drawn, self._curves = given, tuple(curves)
        self._apply_log()  # the axes these curves are for
        apart, together = apart_and_together(curves)
        if together and self._together is None:
            self._together = LinesItem()
            self._together.setZValue(MANY_LINES_Z)
            self.plot.addItem(self._together)
        if self._together is not None:  # (lines as drawn are left as they are)
            self._together.set_lines(together, self._log)
        # Items are kept and updated where the same kinds come again (a new frame of the same
        # view): creating pyqtgraph items costs more than drawing a frame's data, and styling
        # one (pens, symbols) more than handing it new data.
        names = [curve.name for curve, _ in apart]
        old_names = [item.name() or "" for item in self.curve_items]
        # the same number of curves, named where they were: renamed in place
        renamed = names != old_names and [bool(n) for n in names] == [bool(n) for n in old_names]
        rebuild = names != old_names and not renamed
        same_spans = self._spans.same_entries(spans, names, old_names)
        same_bands = [(b.name, b.color) for b in bands] == self._band_keys
        if not same_spans:
            self._spans.remove_entries(old_names)
        if not same_bands:
            for name, fill in self.bands:
                if name:
                    remove_entry(self.legend, name)
                self.plot.removeItem(fill)
        if rebuild:
            self._reuse_items(names)
        elif renamed:
            for item, name in zip(self.curve_items, names, strict=True):
                if item.name() != name:
                    item.opts["name"] = name  # what PlotDataItem.name() reads; it has no setter
                    rename_entry(self.legend, item, name)
        self._spans.draw(spans, self._log[0])
        if not same_spans:
            self._spans.add_entries(names)
        if same_bands:
            for (name, fill), band in zip(self.bands, bands, strict=True):
                update_band_fill(fill, band, self._log)
                if rebuild and name:  # its entry went with the curves' (_reuse_items)
                    add_fill_entry(self.legend, fill.brush().color(), name)
        else:
            self.bands = [(band.name, self._band(band)) for band in bands]
        self._band_keys = [(band.name, band.color) for band in bands]
        for index, (item, (curve, style)) in enumerate(zip(self.curve_items, apart, strict=True)):
            if style != self._styles[index]:
                draw_styled(item, curve, style)
                self._styles[index] = style
            # a curve as drawn is left as it is: a control often changes a few curves of many
            # (Compare: one encoding's), and each handed anew costs pyqtgraph ~0.3 ms
            elif not same_input((curve.x, curve.y), item.getOriginalDataset()):
                item.setData(curve.x, curve.y)
            else:
                item.follow_log_mode()  # the same data, perhaps on new axes
            if item.zValue() != (z := stacking(curve, style, index)):  # a name may change
                item.setZValue(z)
        if [(line.vertical, line.color) for line in lines] == self._line_keys:
            for reference, line in zip(self.lines, lines, strict=True):
                # each set re-lays the label's text out: only what changed
                if reference.value() != (position := self._line_position(line)):
                    reference.set_value(position)
                if reference.label.format != line.label:
                    reference.label.setFormat(line.label)
        else:
            for item in (item for reference in self.lines for item in reference.items):
                self.plot.removeItem(item)
            self.lines = [self._line(line) for line in lines]
        self._line_keys = [(line.vertical, line.color) for line in lines]
        self._bounds.set(
            [
                (curve.x, curve.y, item.pixelPadding(), item)
                for (curve, _), item in zip(apart, self.curve_items, strict=True)
            ]
            + ([] if self._together is None else self._together.bounded(together))
            + [(band.x, edge, 0.0, None) for band in bands for edge in (band.low, band.high)],
            (
                [line.value for line in lines if line.vertical]
                + [end for span in spans for end in (span.start, span.end)],
                [line.value for line in lines if not line.vertical],
            ),
        )
        self._labels_due = True  # the data moved under them (the range may not have)
        if rebuild or renamed or not (same_spans and same_bands):  # new legend entries
            self._fit_legend()
        self._fit_view()
        ticks = tuple(None if labels is None else tuple(labels) for labels in (x_labels, y_labels))
        if ticks != self._ticks:  # new ticks make the axes lay their texts out again
            for axis, labels in zip(("bottom", "left"), ticks, strict=True):
                self.plot.getAxis(axis).setTicks(
                    None if labels is None else [list(enumerate(labels))]
                )
            self._ticks = ticks
        # positions, distances, heads: ticks at whole numbers, never between them
        integers = bool(curves) and all(curve.x.dtype.kind in "iu" for curve in curves)
        self.plot.getAxis("bottom").whole_numbers = x_extent is not None or integers
        if x_extent is None:
            self.plot.enableAutoRange()  # the markers' room: DataBounds, as for y
        else:
            # the markers' reach past their points (the curve's pixelPadding is its pen's)
            marked = (item for item in self.curve_items if item.opts["symbol"] is not None)
            room = max((item.scatter.pixelPadding() for item in marked), default=0.0)
            self.viewport.show_extent(x_extent, room_px=room)
            self.plot.enableAutoRange(axis="y")
        self._ahead.start()

    @property
    def spans(self) -> list[pg.LinearRegionItem]:
        """The regions of the spans drawn, in their order."""
        return self._spans.regions

    def drew_nothing(self) -> bool:
        """Whether no curve of the last frame has a point (its title says why)."""
        return not any(len(curve.x) for curve in self._curves)

    def drawn_curves(self) -> list[Curve]:
        """The curves drawn, in their order (those drawn together by one item too)."""
        return list(self._curves)

    def _reuse_items(self, names: Sequence[str]) -> None:
        """Curve items for ``names`` (another number of curves, or named elsewhere): the
        drawn ones stay in their places with their looks, extra ones are set aside, missing
        ones come from those set aside or are made. The legend holds the named ones' entries
        in order, and nothing after them (the caller adds the bands' and spans')."""
        count = len(names)
        leaving = self.curve_items[count:]
        with entries_changing(self.legend):
            remove_entries(self.legend, [e for e in self.legend.items if e[0].item in leaving])
            for item in leaving:
                item.hide()  # no export or range sees it
                item.clear()
                item.opts["name"] = None
            self._set_aside += leaving
            self._styles = self._styles[:count]
            self.curve_items = self.curve_items[:count]
            while len(self.curve_items) < count:
                item = self._set_aside.pop() if self._set_aside else self._new_item()
                item.show()
                self.curve_items.append(item)
                self._styles.append(None)  # its look is not known here: styled when drawn
            named = list(zip(self.curve_items, names, strict=True))
            for item, name in named:
                item.opts["name"] = name or None  # what PlotDataItem.name() reads; no setter
            # the entries of the curves that kept their places stay
            show_entries(self.legend, [(item, name) for item, name in named if name])

    def _new_item(self) -> pg.PlotDataItem:
        """An item in the plot, hidden, empty and unnamed (so the plot gives it no entry)."""
        item = CurveItem()
        item.hide()
        self.plot.addItem(item)
        # hidden or shown again from its legend entry: the range fits what is shown
        item.visibleChanged.connect(self.plot.vb.queueUpdateAutoRange)
        return item

    def resizeEvent(self, event: pg.QtGui.QResizeEvent) -> None:
        super().resizeEvent(event)  # lays the plot out at the view's size: the legend follows
        self._fit_view()

    def _fit_view(self) -> None:
        """The plot at the view's size again: while its legend was wider than the view, Qt
        held the plot at the legend's size (an export lays it out at its own size instead)."""
        if self.centralWidget is not None:
            if self.centralWidget.geometry() != self.range:
                self.centralWidget.setGeometry(self.range)
            fit_height(self, self.centralWidget)

    def describe(self, x: float) -> str:
        """Readout for data coordinate ``x``: each curve's point nearest to it (x and y)."""
        parts = []
        for item in [item for item in self.curve_items if item.name()][:MAX_READ_CURVES]:
            xs, ys = item.getOriginalDataset()
            if xs is None or len(xs) == 0:
                continue
            index = int(np.nanargmin(np.abs(np.asarray(xs, float) - x)))
            parts.append(f"{item.name()}: {number_text(xs[index])}, {number_text(ys[index])}")
        return " · ".join(parts)

    def _on_mouse_moved(self, scene_pos: pg.QtCore.QPointF) -> None:
        if not self.plot.vb.sceneBoundingRect().contains(scene_pos):
            self.hovered.emit("")
            return
        x = self.plot.vb.mapSceneToView(scene_pos).x()
        self.hovered.emit(self.describe(10.0**x if self._log[0] else x))

    def leaveEvent(self, event: pg.QtCore.QEvent) -> None:
        self.hovered.emit("")
        super().leaveEvent(event)

    def _band(self, band: Band) -> BandFill:
        fill = band_fill(band, self._log)
        self.plot.addItem(fill)
        if band.name:  # an unnamed band goes with its curve's entry
            add_fill_entry(self.legend, fill.brush().color(), band.name)
        return fill

    def _line_position(self, line: Line) -> float:
        on_log_axis = self._log[0] if line.vertical else self._log[1]
        return float(mapped(line.value, on_log_axis))

    def _line(self, line: Line) -> ReferenceLine:
        return ReferenceLine(self.plot, self._line_position(line), line)

    def _labels_moved(self) -> None:
        self._labels_due = True

    def _place_due_labels(self) -> None:
        if self._labels_due:
            self._labels_due = False
            self._place_labels()

    def _place_labels(self) -> None:
        for reference in self.lines:
            reference.place_label(self._bounds, self.plot.vb)
