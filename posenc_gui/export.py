"""Export a view: PNG (at 1×, 2× or 4× resolution) or SVG of the figure, optionally captioned and
laid out at a chosen size, or its numbers (CSV, .npy, .npz, see ``export_data``); or copy the
figure to the clipboard. Every file is written atomically (``files.write_atomic``)."""

from __future__ import annotations

import csv
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QBuffer, QEvent, QIODevice, QPointF, QRect, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QApplication, QGraphicsItem

from posenc_gui.choices import FORMATS, SCALES, check_size
from posenc_gui.export_data import view_arrays, view_rows, view_table
from posenc_gui.files import write_atomic
from posenc_gui.svg import portable
from posenc_gui.views import CurvesView
from posenc_gui.views.axes import END_ROOM_PX
from posenc_gui.views.deferred import draw_pending
from posenc_gui.views.style import current_look, tick_font

CAPTION_POINTS = 10
CAPTION_FLAGS = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
SETTLE_PASSES = 2  # paints before an export at a new size: axes fit their labels, then the rest
FIT_PASSES = 3  # larger lay-outs tried for a figure that does not fit its size (legends rewrap)
Size = tuple[int, int]  # width, height in pixels at 1×


def _figure_item(view: pg.GraphicsView) -> pg.GraphicsObject:
    return view.plotItem if isinstance(view, CurvesView) else view.ci


def _caption_font(scale: float) -> QFont:
    font = tick_font()
    font.setPixelSize(round(CAPTION_POINTS * 4 / 3 * current_look().scale * scale))
    return font


def _strip_height(caption: str | None, width: int) -> int:
    """The caption strip's height at 1× (0 without a caption): a line with room around it, and
    a line more for each line the caption wraps onto at ``width``."""
    if not caption:
        return 0
    metrics = QFontMetrics(_caption_font(1))
    wrapped = metrics.boundingRect(QRect(0, 0, width, 1 << 20), CAPTION_FLAGS, caption)
    return round(CAPTION_POINTS * 2.4 * current_look().scale) + wrapped.height() - metrics.height()


def _sizes(view: pg.GraphicsView, size: Size | None, caption: str | None) -> tuple[Size, Size]:
    """The figure's size and the whole picture's, at 1×: the view's size on screen with the
    caption strip below it, or ``size`` in all with the strip taken from the figure. The
    figure leaves a margin at the picture's right edge, where on screen the page goes on: a
    line at the end of a range (a target context) was cut in half there."""
    margin = round(END_ROOM_PX * current_look().scale)
    if size is None:
        strip = _strip_height(caption, view.width())
        return (view.width() - margin, view.height()), (view.width(), view.height() + strip)
    width, height = size
    strip = _strip_height(caption, width)
    if strip > height / 2:  # a caption of many lines in a small picture: no room for the figure
        raise ValueError(
            f"size {width}x{height} leaves the figure {max(0, height - strip)} px above its "
            f"caption ({strip} px): it needs a height of at least {2 * strip} px, or no caption"
        )
    return (width - margin, height - strip), size


def _check(scale: int, size: Size | None) -> None:
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {', '.join(map(str, SCALES))}, got {scale}")
    if size is not None:
        try:
            check_size(size, scale)
        except ValueError as exc:
            raise ValueError(f"size {exc}") from None


def _draw_caption(painter: QPainter, strip: QRect, caption: str, scale: float) -> None:
    """``caption`` centred in ``strip``, in the look's colours."""
    painter.fillRect(strip, QColor(current_look().background))
    painter.setFont(_caption_font(scale))
    painter.setPen(QColor(current_look().foreground))
    painter.drawText(strip, CAPTION_FLAGS, caption)


def _settle(view: pg.GraphicsView, geometry: QRectF) -> None:
    """Lay the figure out at ``geometry`` as its items last asked: axes widen for their tick
    labels while they paint, and a layout waits for the event loop (run only its layout
    requests here; one of the window's could resize the view, hence the geometry again)."""
    item = _figure_item(view)
    for _ in range(SETTLE_PASSES):
        item.setGeometry(geometry)
        source = item.sceneBoundingRect()
        scratch = QImage(1, 1, QImage.Format.Format_ARGB32)  # the items paint, nothing is kept
        painter = QPainter(scratch)
        try:
            _paint(view, painter, QRectF(QPointF(0, 0), source.size()), source)
        finally:
            painter.end()
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)


@contextmanager
def _laid_out(view: pg.GraphicsView, size: Size) -> Iterator[QRectF]:
    """Inside: the figure of ``view`` laid out at ``size``; yields its rectangle in the scene.

    The figure item is resized, not the widget (so neither a hidden page nor the window's
    layout can undo it), and put back afterwards: nothing on screen changes. Its viewports see
    both resizes and may ask their tab for a frame; the last one is for the size on screen.
    """
    item = _figure_item(view)
    QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    before = item.geometry()
    if (before.width(), before.height()) == size:
        yield item.sceneBoundingRect()
        return
    geometry = QRectF(before.topLeft(), QSizeF(*size))
    item.setGeometry(geometry)
    try:
        _settle(view, geometry)
        # A figure that needs more room than ``size`` (presentation mode's fonts in a small
        # picture) is laid out larger in the same proportions and drawn scaled down, whole:
        # held at its least size, it was drawn into a corner, its legend over its caption.
        for _ in range(FIT_PASSES):
            laid = item.geometry().size()
            grow = max(laid.width() / geometry.width(), laid.height() / geometry.height())
            if grow <= 1.001:
                break
            geometry = QRectF(before.topLeft(), geometry.size() * grow)
            _settle(view, geometry)
        item.setGeometry(geometry)
        yield item.sceneBoundingRect()
    finally:
        item.setGeometry(before)
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)


def _paint(view: pg.GraphicsView, painter: QPainter, target: QRectF, source: QRectF) -> None:
    """Draw the scene's ``source`` into ``target`` as pyqtgraph's exporters do: every item in
    export mode, so scatter symbols are vector paths rather than stamps of a pixmap atlas."""
    scale = min(target.width() / source.width(), target.height() / source.height())
    items = view.scene().items()
    exporting = [item for item in items if hasattr(item, "setExportMode")]
    # Items drawn at a fixed screen size (legends, arrow heads) ignore the painter's scaling:
    # scale them for it.
    fixed = [
        (item, item.scale())
        for item in items
        if item.flags() & QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations
    ]
    options = {
        "antialias": True,
        "background": view.backgroundBrush().color(),
        "painter": painter,
        "resolutionScale": scale,
    }
    for item in exporting:
        item.setExportMode(True, options)
    for item, before in fixed:
        item.setScale(before * scale)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        view.scene().render(painter, target, source)
    finally:
        for item, before in fixed:
            item.setScale(before)
        for item in exporting:
            item.setExportMode(False)


def view_image(
    view: pg.GraphicsView,
    *,
    scale: int = 1,
    caption: str | None = None,
    size: Size | None = None,
) -> QImage:
    """The figure of ``view`` (plots, colorbar, legend) at ``scale``× resolution, with
    ``caption`` in a strip below it when given: ``size`` × ``scale`` pixels in all, the figure
    laid out for that size (default: its size on screen, the strip added below)."""
    _check(scale, size)
    draw_pending(view)  # what a view behind another page was handed
    (width, height), (total_width, total_height) = _sizes(view, size, caption)
    image = QImage(total_width * scale, total_height * scale, QImage.Format.Format_ARGB32)
    if image.isNull():
        raise OSError(f"Qt could not make a {image.width()}x{image.height()} image")
    image.fill(view.backgroundBrush().color())
    painter = QPainter(image)
    try:
        with _laid_out(view, (width, height)) as source:
            _paint(view, painter, QRectF(0, 0, width * scale, height * scale), source)
        if caption:
            strip = QRect(0, height * scale, image.width(), image.height() - height * scale)
            _draw_caption(painter, strip, caption, scale)
    finally:
        painter.end()
    return image


def view_svg(
    view: pg.GraphicsView, *, caption: str | None = None, size: Size | None = None
) -> bytes:
    """The figure of ``view`` as SVG, laid out as ``view_image`` does: lines, markers and
    text stay vectors, heatmaps are embedded images, and ``svg.portable`` makes it draw the
    same in renderers other than Qt's.

    QSvgGenerator is used because pyqtgraph's SVGExporter fails on image items.
    """
    _check(1, size)
    draw_pending(view)  # what a view behind another page was handed
    (width, height), (total_width, total_height) = _sizes(view, size, caption)
    buffer = QBuffer()  # Qt's own file writing would not say when the disk is full
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setResolution(view.logicalDpiX())  # keeps embedded images and lines aligned
    generator.setSize(QSize(total_width, total_height))
    generator.setViewBox(QRect(0, 0, total_width, total_height))
    generator.setTitle(caption or type(view).__name__)
    painter = QPainter(generator)
    try:
        painter.fillRect(QRect(0, 0, total_width, total_height), view.backgroundBrush().color())
        with _laid_out(view, (width, height)) as source:
            _paint(view, painter, QRectF(0, 0, width, height), source)
        if caption:
            strip = QRect(0, height, total_width, total_height - height)
            _draw_caption(painter, strip, caption, 1)
    finally:
        drawn = painter.end()
    if not drawn:
        raise OSError(f"Qt could not draw an SVG of {type(view).__name__}")
    try:  # whole and well-formed before anything is written
        return portable(bytes(buffer.data().data()))
    except ET.ParseError as exc:
        raise OSError(f"Qt made an incomplete SVG of {type(view).__name__} ({exc})") from None


def copy_view(
    view: pg.GraphicsView,
    *,
    scale: int = 1,
    caption: str | None = None,
    size: Size | None = None,
) -> None:
    """Put the figure of ``view`` on the clipboard as an image (see ``view_image``)."""
    QApplication.clipboard().setImage(view_image(view, scale=scale, caption=caption, size=size))


def export_view(
    view: pg.GraphicsView,
    path: str | Path,
    *,
    scale: int = 1,
    caption: str | None = None,
    size: Size | None = None,
) -> Path:
    """Write ``view`` to ``path``; the format comes from the suffix (see FORMATS).

    ``scale`` multiplies a PNG's resolution; ``size`` (width, height) lays the figure out at
    that size (PNG, SVG; default: as on screen); ``caption`` is drawn under the figure.
    ValueError names the problem (format, scale, size, numbers a format cannot hold, an
    unwritable destination, a view that drew nothing); on failure no file is left behind.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(
            f"out: the format comes from the suffix, one of {', '.join(FORMATS)}; "
            f"got {target.name!r}"
        )
    _check(scale, size)
    draw_pending(view)
    if isinstance(view, CurvesView) and view.drew_nothing():  # an empty plot, in any format
        raise ValueError(f"nothing drawn to export — {view.plot.titleLabel.text}")
    if suffix in (".png", ".svg"):
        _sizes(view, size, caption)  # a caption that leaves no room is refused before writing
    # the numbers are taken first: one a format cannot hold is refused before any file exists
    if suffix == ".npy":
        table = view_table(view)
    elif suffix == ".npz":
        arrays = view_arrays(view)
    elif suffix == ".csv":
        header, rows = view_rows(view)

    def write(temporary: Path) -> None:
        if suffix == ".npy":
            with temporary.open("wb") as handle:
                np.save(handle, table)
        elif suffix == ".npz":
            with temporary.open("wb") as handle:
                np.savez_compressed(handle, allow_pickle=False, **arrays)
        elif suffix == ".csv":
            with temporary.open("w", newline="", encoding="utf-8") as handle:
                writer = csv.writer(handle)
                writer.writerow(header)
                writer.writerows(rows)
        elif suffix == ".svg":
            temporary.write_bytes(view_svg(view, caption=caption, size=size))
        else:
            image = view_image(view, scale=scale, caption=caption, size=size)
            # PySide6 takes the format as str; its stub says bytes.
            if not image.save(str(temporary), "PNG"):  # type: ignore[call-overload]
                raise OSError(f"Qt could not write a PNG of {type(view).__name__}")

    return write_atomic(target, write)
