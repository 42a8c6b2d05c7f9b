"""What a view draws as text, as boxes in the view's pixels, and what is wrong with them:
text outside the view (clipped), texts over each other, a legend over the plotted data."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

# Texts are drawn inside frames (a text document's margins): boxes shrink by this before
# they are compared, so frames may touch and only glyphs may not.
FRAME_PX = 2.0
TOLERANCE_PX = 1.0


@dataclass(frozen=True)
class TextBox:
    kind: str  # "title", "axis label", "tick", "legend", "line label"
    text: str
    rect: QRectF  # in the view's scene = its pixels
    owner: int  # the item the text belongs to: ticks of one axis are compared with each other


def drawn_tick_labels(axis: pg.AxisItem) -> list[str]:
    """The tick label texts pyqtgraph would paint on ``axis`` now."""
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        _, _, text_specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [text for _, _, text in text_specs]


def _shrunk(rect: QRectF, by: float) -> QRectF:
    return rect.adjusted(by, by, -by, -by)


def text_boxes(view: pg.GraphicsView) -> list[TextBox]:
    """Every visible text of ``view``: titles, axis labels, tick labels, legend entries and
    line labels."""
    boxes: list[TextBox] = []
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        for item in view.scene().items():
            if not item.isVisible() or not _shown(item):
                continue
            if isinstance(item, pg.AxisItem):
                shown = item.label.toPlainText().strip()  # as drawn: elided to fit, or nothing
                if item.label.isVisible() and shown:
                    margin = item.label.document().documentMargin()
                    rect = _shrunk(item.label.sceneBoundingRect(), margin)
                    boxes.append(TextBox("axis label", shown, rect, id(item.label)))
                specs = item.generateDrawSpecs(painter)
                for rect, _flags, text in specs[2] if specs else ():
                    boxes.append(TextBox("tick", text, item.mapRectToScene(rect), id(item)))
            elif isinstance(item, pg.LabelItem) and item.text:
                kind = "legend" if isinstance(item.parentItem(), pg.LegendItem) else "title"
                rect = item.item.sceneBoundingRect()
                boxes.append(TextBox(kind, item.text, _shrunk(rect, FRAME_PX), id(item)))
            elif isinstance(item, pg.TextItem) and item.toPlainText():
                rect = item.textItem.sceneBoundingRect()
                boxes.append(
                    TextBox("line label", item.toPlainText(), _shrunk(rect, FRAME_PX), id(item))
                )
    finally:
        painter.end()
    return boxes


def _shown(item) -> bool:
    """Visible all the way up (a hidden parent hides its children)."""
    while item is not None:
        if not item.isVisible():
            return False
        item = item.parentItem()
    return True


def layout_problems(view: pg.GraphicsView, *, line_labels: bool = True) -> list[str]:
    """What is wrong with the texts of ``view``, one sentence each (empty when nothing is)."""
    problems = []
    bounds = QRectF(0, 0, view.width(), view.height()).adjusted(
        -TOLERANCE_PX, -TOLERANCE_PX, TOLERANCE_PX, TOLERANCE_PX
    )
    boxes = [
        box
        for box in text_boxes(view)
        if (line_labels or box.kind != "line label") and box.text.strip("… ")
    ]
    for box in boxes:
        if not bounds.contains(box.rect):
            problems.append(f"{box.kind} {box.text!r} leaves the view: {_show(box.rect)}")
    for first, second in combinations(boxes, 2):
        if first.owner == second.owner and first.kind != "tick":
            continue
        overlap = first.rect.intersected(second.rect)
        if overlap.width() > TOLERANCE_PX and overlap.height() > TOLERANCE_PX:
            problems.append(
                f"{first.kind} {first.text!r} overlaps {second.kind} {second.text!r}: "
                f"{_show(first.rect)} and {_show(second.rect)}"
            )
    return problems + legend_problems(view)


def legend_problems(view: pg.GraphicsView) -> list[str]:
    """Each legend of ``view`` that lies on a plot's data area, as a sentence."""
    problems = []
    for legend in _legends(view):
        box = legend.sceneBoundingRect()
        for plot_area in _plot_areas(view):
            overlap = box.intersected(plot_area)
            if overlap.width() > TOLERANCE_PX and overlap.height() > TOLERANCE_PX:
                problems.append(f"legend {_show(box)} lies on the data {_show(plot_area)}")
    return problems


def _legends(view: pg.GraphicsView) -> list[pg.LegendItem]:
    return [
        item
        for item in view.scene().items()
        if isinstance(item, pg.LegendItem) and _shown(item) and item.items
    ]


def _plot_areas(view: pg.GraphicsView) -> list[QRectF]:
    return [
        item.sceneBoundingRect()
        for item in view.scene().items()
        if isinstance(item, pg.ViewBox) and _shown(item)
    ]


def _show(rect: QRectF) -> str:
    return f"({rect.left():.0f}, {rect.top():.0f})–({rect.right():.0f}, {rect.bottom():.0f})"
