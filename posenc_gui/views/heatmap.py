"""A heatmap view: a float array drawn with a colormap and colorbar, hover reads the numbers."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Signal
from PySide6.QtGui import QColor, QFontMetricsF
from PySide6.QtWidgets import QGraphicsGridLayout, QGraphicsWidget, QSizePolicy

from posenc_gui.encodings.window import Window
from posenc_gui.i18n import tr
from posenc_gui.views.axes import CompactAxis, fit_height, style_plot, without_si_prefixes
from posenc_gui.views.deferred import DeferredDrawing, when_shown
from posenc_gui.views.style import (
    CYCLIC,
    DIVERGING,
    SEQUENTIAL,
    colormap,
    current_look,
    number_text,
    tick_font,
    with_minus_sign,
)
from posenc_gui.views.unchanged import same_input
from posenc_gui.views.viewport import Viewport

LABEL_ROW_PX = 16  # a left tick label's height (times the look's scale): fewer rows labelled
ROOM_FOR_ROWS = 8  # labelled rows a view keeps room for (more: every n-th is labelled)


def _edges(edges: np.ndarray | None, count: int) -> np.ndarray:
    return np.arange(count + 1) if edges is None else np.asarray(edges)


class HeatmapView(DeferredDrawing, pg.GraphicsLayoutWidget):
    """Draws ``values[row, col]`` with rows down the left axis and columns along the bottom.

    The image item keeps the float array itself (not pre-coloured RGB), so tests and the hover
    readout get exact numbers. The view draws what it is handed and decides nothing.
    """

    hovered = Signal(str)
    _rooms: Sequence[QGraphicsWidget] = ()  # until __init__ (Qt resizes the view while built)

    def __init__(
        self,
        title: str,
        x_name: str,
        y_name: str,
        value_name: str,
        *,
        colormap_role: str = DIVERGING,
        square: bool = False,
        parent: pg.QtWidgets.QWidget | None = None,
    ) -> None:
        """``square``: both axes are positions, and cells are drawn square."""
        super().__init__(parent)
        self._names = (x_name, y_name, value_name)
        self.plot = self.addPlot()
        style_plot(self.plot, title, x_name, y_name)
        self.plot.showGrid(x=False, y=False)  # an opaque grid would hide cells of the data
        for side in ("bottom", "left"):  # no grid: the axis lines over the image's edge
            self.plot.getAxis(side).setZValue(0.5)
        self.plot.invertY(True)  # position 0 at the top, as in the papers' figures
        # Square cells: the view shows the whole image and widens the other axis's range
        # (so the data's range cannot also be its limits: the viewport leaves them open).
        # Where the view's shape differs from the image's, empty room beside the plot (or
        # above and below it) narrows the figure to the image instead (``_hug_image``).
        self.plot.vb.setAspectLocked(square)
        self._aspect = 1.0  # the whole array's width over its height, in cells
        self._drawn: tuple[object, ...] | None = None  # what set_data drew last
        self._rooms = _rooms_around(self.ci.layout, self.plot) if square else []
        self.plot.titleLabel.wrap_in_figure = square
        self.image = pg.ImageItem(axisOrder="row-major")
        self.plot.addItem(self.image)
        self.mask = pg.ImageItem(axisOrder="row-major")
        self.mask.setZValue(1)
        self.plot.addItem(self.mask)
        self._role = colormap_role
        self.colorbar = self.plot.addColorBar(
            self.image,
            colorMap=colormap(colormap_role),
            values=(-1, 1),
            label=value_name,
            interactive=False,
        )
        self._compact_colorbar_axis()
        # The title spans the colorbar's columns too: over the image column alone its width
        # would set the plot's minimum width and push the colorbar out of a narrow view.
        layout = self.plot.layout
        layout.removeItem(self.plot.titleLabel)
        layout.addItem(self.plot.titleLabel, 0, 1, 1, layout.columnCount() - 1)
        self.x_edges = self.y_edges = np.arange(2)  # data coordinates of the drawn cells
        self._row_labels: list[str] | None = None
        self._col_labels: list[str] | None = None
        self._levels: tuple[float, float] | None = None
        self._mask_drawn: tuple[np.ndarray, str] | None = None  # the NaN cells and their grey
        self._ticks: tuple[list | None, list | None] | None = None
        self.plot.vb.sigResized.connect(self._set_ticks)
        # square cells: a resize reaches the image through the range the aspect lock sets
        self.plot.vb.sigRangeChanged.connect(self._set_ticks)
        self.viewport = Viewport(
            self.plot.vb,
            points=False,
            bounded=not square,
            lengths=self._image_size if square else None,
        )
        if square:  # the box follows the figure's size (the view's, or an export's)
            self.plot.vb.sigResized.connect(lambda: self._hug_image())
            self.ci.geometryChanged.connect(self.plot.titleLabel.rewrap)
        self.scene().sigMouseMoved.connect(self._on_mouse_moved)

    def windows(self, cols: int, rows: int) -> tuple[Window, Window]:
        """The visible (column, row) windows of a ``cols × rows`` array, at screen resolution.

        After ``set_data`` drew an array of that size, this follows the user's zoom and pan;
        for a new size it is the whole array.
        """
        x, y = self.viewport.windows((0, cols), (0, rows))
        assert y is not None  # asked with a row extent
        return x, y

    @when_shown
    def set_data(
        self,
        values: np.ndarray,
        *,
        x_edges: np.ndarray | None = None,
        y_edges: np.ndarray | None = None,
        levels: tuple[float, float] | None = None,
        row_labels: Sequence[str] | None = None,
        col_labels: Sequence[str] | None = None,
        extent: tuple[int, int] | None = None,
    ) -> None:
        """Draw ``values`` ``[rows, cols]``; row ``r`` covers ``y_edges[r] … y_edges[r+1]``.

        ``extent`` ``(cols, rows)`` is the size of the whole array when ``values`` is a window
        of it (default: the edges' end). ``levels`` default to ``±max|values|`` (centred for the
        diverging colormap); ``row_labels`` replace the left axis ticks (one per row),
        ``col_labels`` the bottom axis ticks (one per column).
        """
        given = (values, x_edges, y_edges, levels, row_labels, col_labels, extent, current_look())
        if same_input(given, self._drawn):
            return  # nothing to draw anew (see posenc_gui.views.unchanged)
        rows, cols = values.shape
        for name, labels, count in (("row", row_labels, rows), ("col", col_labels, cols)):
            if labels is not None and len(labels) != count:
                raise ValueError(f"{name}_labels: one label a {name} ({count}), got {len(labels)}")
        self._drawn = given
        # edges and labels together: a range change below redraws the ticks from both
        self.x_edges, self.y_edges = _edges(x_edges, cols), _edges(y_edges, rows)
        self._row_labels = None if row_labels is None else list(row_labels)
        self._col_labels = None if col_labels is None else list(col_labels)
        # room for every row's label (a strip of a few rows); none asked for without labels
        labelled = 0 if row_labels is None else min(len(row_labels), ROOM_FOR_ROWS)
        need = LABEL_ROW_PX * current_look().scale * labelled
        if self.plot.vb.minimumHeight() != need:
            self.plot.vb.setMinimumHeight(need)
            self.plot.updateGeometry()  # the plot's size hints anew, now: then the view's
            fit_height(self, self.centralWidget)
        if levels is None:
            levels = self._levels_for(values)
        self.image.setImage(values, autoLevels=False)
        # NaN marks "no value here" (e.g. masked future keys): grey, not a colour of the scale.
        masked = np.isnan(values)
        self.mask.setVisible(bool(masked.any()))
        mask = (masked, current_look().no_value)
        # made again only where other cells are NaN (a causal mask stays while its values move)
        if masked.any() and not same_input(mask, self._mask_drawn):
            self._mask_drawn = mask
            grey = np.array(QColor(mask[1]).getRgb())
            self.mask.setImage(np.where(masked[..., None], grey, 0).astype(np.uint8))
        if levels != self._levels:  # set only when they change: each set re-lays the bar out
            self._levels = levels
            self.colorbar.setLevels(levels)
        x0, x1 = float(self.x_edges[0]), float(self.x_edges[-1])
        y0, y1 = float(self.y_edges[0]), float(self.y_edges[-1])
        self.image.setRect(QRectF(x0, y0, x1 - x0, y1 - y0))
        self.mask.setRect(QRectF(x0, y0, x1 - x0, y1 - y0))
        cols_total, rows_total = extent or (int(x1), int(y1))
        if self._rooms and cols_total / rows_total != self._aspect:
            self._aspect = cols_total / rows_total
            self._hug_image()
        self.viewport.show_extent((0, cols_total), (0, rows_total))
        self._set_ticks()

    def _compact_colorbar_axis(self) -> None:
        """The colorbar's value axis as a CompactAxis (tick labels kept apart and within the
        bar's ends, where they would run into the title), set up as pyqtgraph set its own."""
        bar = self.colorbar
        bar.setAxisItems({"right": CompactAxis("right")})
        axis = bar.axis = bar.getAxis("right")
        axis.setZValue(0.5)
        axis.setStyle(showValues=True)
        axis.unlinkFromView()
        axis.setRange(*bar.values)
        axis.setTickFont(tick_font())
        without_si_prefixes(bar)

    def resizeEvent(self, event: pg.QtGui.QResizeEvent) -> None:
        if self._rooms and event.oldSize().isValid():
            # the rooms for the new size before the layout hands it out: the box would take
            # a change whole first (the rooms are at their maximum), then give it back
            grown = event.size() - event.oldSize()
            self._hug_image(grown.width(), grown.height())
        super().resizeEvent(event)
        if self.centralWidget is not None:  # None once closed
            fit_height(self, self.centralWidget)

    def _hug_image(self, wider: float = 0.0, taller: float = 0.0) -> None:
        """Square cells leave the box room beside the image or above it: the rooms either
        side of the plot take it (up to their maximum, set here from the box's room, or
        from the room it is about to have: ``wider``, ``taller`` px more), so that the box is
        the image's shape, its axes span the data only and the colorbar sits next to it.
        Maximum sizes only: the figure never needs more than the view."""
        if self.plot.vb.geometry().isEmpty():
            return  # not laid out yet: the box's first resize comes back here
        left, right, above, below = self._rooms
        wide, tall = self._room_for_image()
        wide, tall = wide + wider, tall + taller
        spare_across = max(0.0, wide - tall * self._aspect) / 2
        spare_down = max(0.0, tall - wide / self._aspect) / 2
        if (
            abs(spare_across - left.maximumWidth()) >= 0.5  # not for rounding: each change
            or abs(spare_down - above.maximumHeight()) >= 0.5  # lays the figure out
        ):
            for room in (left, right):
                room.setMaximumWidth(spare_across)
            for room in (above, below):
                room.setMaximumHeight(spare_down)

    def _room_for_image(self) -> tuple[float, float]:
        """The box's width and height with the rooms beside it and above it given back: what
        a square view's image can take, px."""
        box = self.plot.vb.geometry()
        left, right, above, below = self._rooms
        return (
            box.width() + left.size().width() + right.size().width(),
            box.height() + above.size().height() + below.size().height(),
        )

    def _image_size(
        self, x_extent: tuple[int, int], y_extent: tuple[int, int] | None
    ) -> tuple[float, float]:
        """A square view's image of an array of these extents on screen, px: the box holds it
        at its shape once the rooms took the rest (``_hug_image``), so a frame asked for before
        they did is asked at the size it will be drawn."""
        if self.plot.vb.geometry().isEmpty() or y_extent is None:
            return self.plot.vb.width(), self.plot.vb.height()
        wide, tall = self._room_for_image()
        aspect = (x_extent[1] - x_extent[0]) / (y_extent[1] - y_extent[0])
        return min(wide, tall * aspect), min(tall, wide / aspect)

    def _set_ticks(self) -> None:
        """Cell-centred ticks, every n-th where the view is too small for all (recomputed on
        resize); set only when they change."""
        scale = current_look().scale
        if self._col_labels is None:  # indices: 8 px a digit and a gap
            label_px = (8 * len(str(int(self.x_edges[-1]))) + 8) * scale
        else:  # the widest label as drawn and a gap
            metrics = QFontMetricsF(tick_font())
            label_px = max(map(metrics.horizontalAdvance, self._col_labels), default=0.0)
            label_px += 4 * scale
        width, height = self._drawn_size()
        left = _centre_ticks(self.y_edges, self._row_labels, _stride(height, LABEL_ROW_PX * scale))
        bottom = _centre_ticks(self.x_edges, self._col_labels, _stride(width, label_px))
        if (left, bottom) != self._ticks:
            self._ticks = (left, bottom)
            self.plot.getAxis("left").setTicks(left)
            self.plot.getAxis("bottom").setTicks(bottom)

    def cell_span(self) -> tuple[int, int]:
        """The most rows and the most columns of data one drawn cell holds (1, 1 unpooled)."""
        return int(np.diff(self.y_edges).max()), int(np.diff(self.x_edges).max())

    def _drawn_size(self) -> tuple[float, float]:
        """The image's width and height on screen, in pixels (less than the plot's when
        square cells leave room beside it)."""
        box = self.plot.vb
        (x0, x1), (y0, y1) = box.viewRange()
        width = box.width() * (self.x_edges[-1] - self.x_edges[0]) / max(x1 - x0, 1e-12)
        height = box.height() * (self.y_edges[-1] - self.y_edges[0]) / max(y1 - y0, 1e-12)
        return min(width, box.width()), min(height, box.height())

    def _levels_for(self, values: np.ndarray) -> tuple[float, float]:
        """Levels from the data, and a map by what it is: signed data on the diverging map
        centred at 0, one-sided data on the sequential map from its least to its largest value
        (a cyclic view keeps its map)."""
        finite = values[np.isfinite(values)]
        low, high = (float(finite.min()), float(finite.max())) if finite.size else (-1.0, 1.0)
        # signed data, or all 0 (every distance at one position), on the diverging map
        signed = (low < 0 < high or low == high == 0) and self._role != CYCLIC
        if not high > low:  # one value: a unit range on it
            low, high = low - 0.5, high + 0.5
        if self._role != CYCLIC:
            self.set_colormap(DIVERGING if signed else SEQUENTIAL)
        if signed:
            peak = max(-low, high)
            return (-peak, peak)
        return (low, high)

    def set_colormap(self, role: str) -> None:
        """Colour with the map playing ``role`` (e.g. CYCLIC for angles)."""
        if role != self._role:
            self._role = role
            self.colorbar.setColorMap(colormap(role))

    def describe(self, x: float, y: float) -> str:
        """Readout text for data coordinates ``(x, y)``; empty outside the image."""
        data = self.image.image
        if data is None:
            return ""
        col = int(np.searchsorted(self.x_edges, x, side="right")) - 1
        row = int(np.searchsorted(self.y_edges, y, side="right")) - 1
        if not (0 <= row < data.shape[0] and 0 <= col < data.shape[1]):
            return ""
        x_name, y_name, value_name = self._names
        value = data[row, col]
        shown = tr("masked") if np.isnan(value) else number_text(value)
        return (
            f"{y_name} {_span(self.y_edges, row)} · {x_name} {_span(self.x_edges, col)}"
            f" · {value_name} {shown}"
        )

    def leaveEvent(self, event: pg.QtCore.QEvent) -> None:
        self.hovered.emit("")
        super().leaveEvent(event)

    def _on_mouse_moved(self, scene_pos: QPointF) -> None:
        if self.plot.sceneBoundingRect().contains(scene_pos):
            point = self.plot.vb.mapSceneToView(scene_pos)
            self.hovered.emit(self.describe(point.x(), point.y()))
        else:  # the room beside a square image: nothing under the cursor
            self.hovered.emit("")


ROOM_STRETCH = 1000  # the rooms around a square image's plot take room (to their maximum) first


def _rooms_around(layout: QGraphicsGridLayout, plot: pg.PlotItem) -> list[QGraphicsWidget]:
    """Empty items left, right, above and below ``plot`` in ``layout`` (the figure's): none
    until ``_hug_image`` gives them a maximum."""
    layout.removeItem(plot)
    layout.addItem(plot, 1, 1)
    layout.setSpacing(0)
    rooms = []
    for row, col in ((1, 0), (1, 2), (0, 1), (2, 1)):
        room = QGraphicsWidget()
        room.setMinimumSize(0, 0)
        room.setPreferredSize(0, 0)
        room.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        if row == 1:
            room.setMaximumWidth(0)
        else:
            room.setMaximumHeight(0)
        layout.addItem(room, row, col)
        rooms.append(room)
    for index in (0, 2):
        layout.setColumnStretchFactor(index, ROOM_STRETCH)
        layout.setRowStretchFactor(index, ROOM_STRETCH)
    layout.setColumnStretchFactor(1, 1)
    layout.setRowStretchFactor(1, 1)
    return rooms


def _stride(pixels: float, label_px: float) -> Callable[[int], int]:
    """For ``count`` labels across ``pixels``: label every n-th cell (n 1, 2, 5, 10, 20, …)
    so that labels stay ``label_px`` apart."""

    def every(count: int) -> int:
        needed = label_px * count / max(pixels, 1.0)
        for n in (1, 2, 5, 10, 20, 50, 100, 200, 500):
            if n >= needed:
                return n
        return 1000

    return every


def _centre_ticks(
    edges: np.ndarray, labels: Sequence[str] | None, every: Callable[[int], int]
) -> list | None:
    """Ticks at cell centres: the given labels, or the index of each of a few unit cells (None
    for pyqtgraph's automatic ticks otherwise), every ``every(cells)``-th."""
    cells = len(edges) - 1
    if labels is None:
        if cells > 128 or not np.all(np.diff(edges) == 1):
            return None
        labels = [with_minus_sign(number_text(edge, ".0f")) for edge in edges[:-1]]
    step = every(cells)
    return [[(float(edges[i]) + 0.5, labels[i]) for i in range(0, cells, step)]]


def _span(edges: np.ndarray, index: int) -> str:
    first, last = int(edges[index]), int(edges[index + 1]) - 1
    return str(first) if last <= first else f"{first}–{last} (mean)"
