"""Axes that read at every size: short tick labels kept apart and within the axis's ends, room
for them that grows at once and shrinks when quiet, grids in opaque pre-blended colours; and
the styling every plot gets (``style_plot``)."""

from __future__ import annotations

import math
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen, QPicture

from posenc_gui.views.axis_specs import draw_specs, tick_values
from posenc_gui.views.log_ticks import SUPERSCRIPT, log_labels, log_levels
from posenc_gui.views.style import (
    current_look,
    number_text,
    pre_blended,
    set_title,
    tick_font,
    with_minus_sign,
    wrap_title,
)

END_ROOM_PX = 10  # room past an axis's ends for its end tick labels (× the look's scale)
SHRINK_AFTER_MS = 800  # an axis gives back room its labels no longer need once this long quiet
ROOM_SLACK_PX = 10  # pyqtgraph's own: an axis keeps room a few px wider than its labels need
FAINTEST_GRID_ALPHA = 3  # of 255: fainter grid lines (about 1 %) are not drawn
LABEL_FRAME_PX = 12  # what an axis label's text frame takes of its length
MOST_PLACES = 6  # decimals a tick label is written with at most (0.000001); finer: 1e-07
ZERO_OF_SPACING = 1e-9  # a tick this close to 0, relative to the spacing, is 0
FLOAT_DIGITS = 17  # the significant digits a float64 holds: no label needs more
COMPACT_FROM = 10_000  # an axis reaching this far writes its labels compact (20k)
COMPACT_DIGITS = 3  # significant digits of a compact label where its ticks need no more
GRID_ALPHA = 0.15  # how strongly the grid shows (drawn in opaque colours blended beforehand)


class CompactAxis(pg.AxisItem):
    """Tick labels that stay short at a million positions: 250k, 1.05M. Grid lines and ticks
    in opaque colours blended with the background beforehand: Qt's raster engine draws
    translucent lines many times slower (tens of milliseconds a frame for a grid). Room for
    the labels grows at once and shrinks only once the axis is quiet (``_updateMaxTextSize``)."""

    def __init__(self, orientation: str) -> None:
        super().__init__(orientation)
        # pyqtgraph drops a label that reaches past the axis's ends (past the plot, where
        # it draws a grid); ``generateDrawSpecs`` allows END_ROOM_PX, which style_plot keeps
        self.setStyle(hideOverlappingLabels=math.ceil(END_ROOM_PX * current_look().scale))
        self._background = QColor(current_look().background)
        self._opaque: dict[int, QPen] = {}  # by the translucent colour's ARGB
        self._needed = 0  # px across the axis the labels of its last paint needed
        self._sized = False  # whether a frame's labels sized the room (pyqtgraph starts at 30)
        self._shrink = QTimer(self, singleShot=True, interval=SHRINK_AFTER_MS)
        self._shrink.timeout.connect(self._give_back_room)
        self.whole_numbers = False  # ticks at whole numbers only (positions, distances)

    def _updateMaxTextSize(self, x: int) -> None:
        """Called from each paint with the room its labels need: grown at once (no label is
        ever cut), given back once SHRINK_AFTER_MS passed with no frame (``hold_room``) after
        a paint that needed less, if its view is on screen then. While a control moves, labels
        a little narrower, then wider again, would otherwise re-lay the view out and paint it
        twice a frame."""
        self._needed = x
        if x > self._room():
            self._shrink.stop()
            self._set_room(x)
        elif x < self._room() - ROOM_SLACK_PX:
            self._shrink.start()

    def hold_room(self) -> None:
        """A frame came to the view: room to give back waits for SHRINK_AFTER_MS of quiet again.
        Else a view a control leaves unchanged would re-lay itself out and paint mid-drag."""
        if self._shrink.isActive():
            self._shrink.start()

    def prepare_labels(self) -> None:
        """Lay out the tick labels now, as the next paint would (pyqtgraph keeps the result
        for it): labels that need more room widen the axis before the view paints, so the
        layout changes once, not after a paint that a second one then replaces. The first
        frame's labels take the room they need, narrower too: pyqtgraph starts with 30 px (18
        across), which a page shown for the first time gave back 0.8 s later, its plots moved
        and painted thrice."""
        if self.isVisible():
            self._record()
            if not self._sized:
                self._sized = True
                if self._needed < self._room():  # (a wider need: the record grew it)
                    self._shrink.stop()
                    self._set_room(self._needed)

    def paint(self, p: QPainter, opt: Any, widget: Any) -> None:
        self._record().play(p)

    def _record(self) -> QPicture:
        """pyqtgraph's ``AxisItem.paint`` up to playing its picture: the ticks and labels
        recorded for the paints to come, anew where the range or size changed since."""
        if self.picture is not None:
            return self.picture
        picture = QPicture()
        painter = QPainter(picture)
        try:
            if self.style["tickFont"]:
                painter.setFont(self.style["tickFont"])
            specs = self.generateDrawSpecs(painter)
            if specs is not None:
                self.drawPicture(painter, *specs)
        finally:
            painter.end()
        self.picture: QPicture | None = picture
        return picture

    def _give_back_room(self) -> None:
        scene = self.scene()
        if scene is None or not any(view.isVisible() for view in scene.views()):
            return  # behind another page: its next paint, once shown, decides again
        if self._needed < self._room() - ROOM_SLACK_PX:
            self._set_room(self._needed)

    def _room(self) -> float:
        return self.textWidth if self.orientation in ("left", "right") else self.textHeight

    def _set_room(self, x: int) -> None:
        if self.orientation in ("left", "right"):
            self.textWidth = x
        else:
            self.textHeight = x
        if self.style["autoExpandTextSpace"]:
            self._adjustSize()

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list:
        """pyqtgraph's tick levels (``axis_specs.tick_values``; on an axis of ``whole_numbers``,
        those of whole steps, or each whole number where the axis spans a few), with two fixes
        for grids drawn in opaque pre-blended pens, where a line drawn later replaces the pixels
        of one drawn before:

        - On a log axis its minor level (1 … 9 in each decade) repeats the decades of the
          levels above; drawn after them in its fainter colour, it covered the decade lines.
          Those values are left to the levels above (``log_ticks.log_levels``).
        - A level pyqtgraph fades below FAINTEST_GRID_ALPHA (its lines 1-4 px apart: no labels
          at such density) is left out, with the finer levels after it. Such lines come out
          in the background's colour or next to it, and where they lie closer than a pixel
          (9·10ᵏ next to 10ᵏ⁺¹ over 19 decades) they covered the lines of the levels above.
          Over 19 decades that was 171 minor lines: measuring their labels took most of the
          axis's 5.7 ms a paint (now 2.0 ms).
        """
        levels = tick_values(self, minVal, maxVal, size)
        if self.logMode:
            levels = log_levels(self, levels, minVal, maxVal, size)
        elif self.whole_numbers:
            levels = _whole(levels, minVal, maxVal)
        if self.grid is False or self.style["tickAlpha"] is not None:
            return levels  # ticks, not a grid: pyqtgraph draws them opaque
        for level, (_, values) in enumerate(levels):
            fading = min(max(0.05 * size / (len(values) + 1), 0.0), 1.0)
            alpha = int(255 / (level + 1) * (self.grid / 255.0 * fading))  # pyqtgraph's, as it
            if level > 0 and alpha < FAINTEST_GRID_ALPHA:  # computes and rounds it
                return levels[:level]
        return levels

    def generateDrawSpecs(self, p: QPainter) -> tuple | None:
        specs = draw_specs(self, p)  # pyqtgraph's, in half the time
        if specs is None:
            return None
        axis, ticks, texts = specs
        # No label more than half past the axis's ends: the plot keeps that much room around
        # its data (style_plot), further it would run into the title or out of the view.
        ends = self.mapRectFromParent(self.geometry())
        horizontal = self.orientation in ("top", "bottom")
        inside = [
            (rect, flags, text)
            for rect, flags, text in texts
            if (
                ends.left() <= rect.center().x() <= ends.right()
                and ends.left() - END_ROOM_PX * current_look().scale <= rect.left()
                and rect.right() <= ends.right() + END_ROOM_PX * current_look().scale
                if horizontal
                else ends.top() - END_ROOM_PX * current_look().scale <= rect.top()
                and rect.bottom() <= ends.bottom() + END_ROOM_PX * current_look().scale
            )
        ]
        return axis, [(self._opaque_pen(pen), a, b) for pen, a, b in ticks], apart(inside)

    def _opaque_pen(self, pen: QPen) -> QPen:
        colour = pen.color()
        if colour.alpha() == 255:
            return pen
        key = colour.rgba()
        if key not in self._opaque:
            opaque = QPen(pen)
            opaque.setColor(pre_blended(colour, colour.alphaF(), self._background))
            self._opaque[key] = opaque
        return self._opaque[key]

    def labelString(self) -> str:
        """The axis label elided to the axis's length, the full label its tooltip (no label
        where only "…" would fit)."""
        style = ";".join(f"{key}: {value}" for key, value in self.labelStyle.items())
        return f"<span style='{style}'>{self._fitted_label()}</span>"

    def _label_metrics(self) -> QFontMetricsF:
        font = tick_font()
        points = str(self.labelStyle.get("font-size", "")).removesuffix("pt")
        if points:
            font.setPointSizeF(float(points))
        return QFontMetricsF(font)

    def _updateWidth(self) -> None:
        """pyqtgraph's width for the tick labels, and a side axis never shorter than its label:
        its view grows (a page scrolls) rather than cut the label short (a slide has no
        tooltip)."""
        super()._updateWidth()
        if self.labelText and self.label.isVisible():
            text = math.ceil(self._label_metrics().horizontalAdvance(self.labelText))
            need = text + LABEL_FRAME_PX
            if self.minimumHeight() != need:
                self.setMinimumHeight(need)

    def _fitted_label(self) -> str:
        length = self.width() if self.orientation in ("top", "bottom") else self.height()
        if length <= 0:
            return self.labelText
        room = length - LABEL_FRAME_PX
        fitted = self._label_metrics().elidedText(self.labelText, Qt.TextElideMode.ElideRight, room)
        self.setToolTip(self.labelText if fitted != self.labelText else "")
        # a lone "…" names nothing (a strip two rows high): no label, the tooltip has it all
        return "" if fitted == "…" else fitted

    def resizeEvent(self, ev: Any = None) -> None:
        if self.label is not None and self.labelText:
            self.label.setHtml(self.labelString())
        super().resizeEvent(ev)

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        """Labels of one tick level: log ones; compact ones (250k) on an axis reaching
        COMPACT_FROM (every level of it: not 5000 beside 10k); the others with the decimals
        of the level's spacing, 0 included (0.0 beside 0.5); minus signs as "−"."""
        if self.logMode:
            return log_labels(values, self.range)
        scaled = [v * scale for v in values]
        reach = max((abs(v) * scale for v in (*values, *self.range)), default=0.0)
        if reach < COMPACT_FROM:
            return _fixed_point(scaled, spacing * scale)
        return [with_minus_sign(_compact(v, spacing * scale)) for v in scaled]


def apart(texts: list[tuple[QRectF, Any, str]]) -> list[tuple[QRectF, Any, str]]:
    """Tick labels without those that would overlap one drawn before them (pyqtgraph lists
    the major ticks' labels first, so those stay; log axes label minor ticks too)."""
    kept: list[tuple[QRectF, Any, str]] = []
    for text in texts:
        if not any(text[0].intersects(other[0]) for other in kept):
            kept.append(text)
    return kept


def _fixed_point(values: list[float], spacing: float) -> list[str]:
    """Labels of values ``spacing`` apart, all with the decimals that spacing needs (−1.0,
    −0.5, 0.0, 0.5; 1.000000000 beside 1.000000002), as pyqtgraph writes them but for 0:
    pyqtgraph wrote it "0" beside 0.5, and a tick's rounding error (5.6e-17 for 0 at a
    spacing of 0.1) in scientific notation. Values below 1 at a spacing finer than
    MOST_PLACES decimals: short forms with the digits that tell them apart (−4e−20, 1e−07)."""
    places = max(0, math.ceil(-math.log10(spacing))) if 0 < spacing < math.inf else 0
    largest = max((abs(v) for v in values), default=0.0)
    whole_digits = math.floor(math.log10(largest)) + 1 if 0 < largest < math.inf else 1
    if places <= MOST_PLACES or largest >= 1:
        spec = f".{max(0, min(places, FLOAT_DIGITS - max(whole_digits, 1)))}f"
    else:
        spec = f".{min(max(places + whole_digits, 1), FLOAT_DIGITS)}g"
    # a tick at 0 off by rounding is 0
    return [
        with_minus_sign(number_text(0.0 if abs(v) < ZERO_OF_SPACING * spacing else v, spec))
        for v in values
    ]


def _compact(value: float, spacing: float) -> str:
    """A tick label of a large value: 250k, 1.05M, 60T; from 10¹⁵ on 6×10¹⁵ (Python's 6e+15,
    or a suffix past T, reads as a typo on a slide). Three significant digits, or as many as
    ticks ``spacing`` apart need to differ (500.05k beside 500.1k, zoomed in)."""
    digits = COMPACT_DIGITS
    if value and 0 < spacing < math.inf and math.isfinite(value):
        needed = math.floor(math.log10(abs(value))) - math.floor(math.log10(spacing)) + 1
        digits = min(max(digits, needed), FLOAT_DIGITS)
    if abs(value) >= 1e15:
        mantissa, exponent = f"{value:.{digits}g}".split("e")
        return f"{mantissa}×10{str(int(exponent)).translate(SUPERSCRIPT)}"
    for limit, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= limit:
            return f"{value / limit:.{digits}g}{suffix}"
    return f"{value:.{digits}g}"


def fit_height(view: pg.GraphicsView, item: pg.GraphicsWidget) -> bool:
    """Keep ``view`` no shorter than its ``item`` needs for its texts (title, axes, legend):
    a page that cannot give it that much stacks or scrolls rather than clipping them. Whether
    that changed the view's least height."""
    need = math.ceil(item.effectiveSizeHint(Qt.SizeHint.MinimumSize).height())
    if view.minimumHeight() == need:
        return False
    view.setMinimumHeight(need)
    return True


def _whole(levels: list, low: float, high: float) -> list:
    """The tick levels of whole steps (spacing 1 or more); each whole number in ``low …
    high`` where there are none (an axis over 0 and 1 has no 0.5 or 0.2)."""
    whole = [(spacing, values) for spacing, values in levels if spacing >= 1]
    return whole or [(1.0, list(range(math.ceil(low), math.floor(high) + 1)))]


def style_plot(plot: pg.PlotItem, title: str, x_label: str, y_label: str) -> None:
    """Title, axis labels and readable tick fonts for one plot. Its right-click menu keeps the
    view's range and mouse mode and the export, without pyqtgraph's "Plot Options": their
    transforms (log axes, FFT, dy/dx) and display changes (points, downsampling, averaging)
    re-derive the drawn data behind the view's back, which holds per-pixel means and ranges
    computed for the view's own axes (log axes set there left the data bounds and the lines
    drawn together linear: a range to 10⁶⁰)."""
    plot.setMenuEnabled(False, enableViewBoxMenu=None)
    wrap_title(plot)
    set_title(plot, title)
    plot.layout.setRowSpacing(0, END_ROOM_PX * current_look().scale)  # for end tick labels
    plot.setAxisItems({"bottom": CompactAxis("bottom"), "left": CompactAxis("left")})
    for side, label in (("bottom", x_label), ("left", y_label)):
        axis = plot.getAxis(side)
        axis.setLabel(label, **{"font-size": current_look().font_size(11)})
        axis.setTickFont(tick_font())
    without_si_prefixes(plot)
    plot.showGrid(x=True, y=True, alpha=GRID_ALPHA)
    for side in ("bottom", "left"):  # the axes draw the grid: behind the data, not over it
        plot.getAxis(side).setZValue(-1)


def without_si_prefixes(plot: pg.PlotItem) -> None:
    """No axis of ``plot`` scales its values by an SI prefix: "×0.001" confuses more than it
    helps, and an axis that has one sets its label's HTML anew at each change of its range,
    hidden axes too (a few a frame)."""
    for side in plot.axes:
        plot.getAxis(side).enableAutoSIPrefix(False)
