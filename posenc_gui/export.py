"""Export a view: PNG (at 1×, 2× or 4× resolution) or SVG of the figure, optionally captioned,
CSV or .npy of its numbers; or copy the figure to the clipboard.
Every file is written atomically (``files.write_atomic``)."""

from __future__ import annotations

import csv
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pyqtgraph.exporters
from PySide6.QtCore import QBuffer, QIODevice, QRect, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QApplication

from posenc_gui.choices import FORMATS, SCALES
from posenc_gui.files import write_atomic
from posenc_gui.views import CurvesView, HeatmapView
from posenc_gui.views.rotation import RotationView
from posenc_gui.views.style import current_look, tick_font

CAPTION_POINTS = 10


def view_data(view: pg.GraphicsView) -> np.ndarray:
    """The numbers a view draws as one structured array (long format: a row per value)."""
    if isinstance(view, HeatmapView):
        values = view.image.image
        rows, cols = np.indices(values.shape)
        table = np.zeros(
            values.size,
            dtype=[
                ("y_start", "f8"),
                ("y_stop", "f8"),
                ("x_start", "f8"),
                ("x_stop", "f8"),
                ("value", "f8"),
            ],
        )
        y, x = np.asarray(view.y_edges, float), np.asarray(view.x_edges, float)
        table["y_start"], table["y_stop"] = y[rows.ravel()], y[rows.ravel() + 1]
        table["x_start"], table["x_stop"] = x[cols.ravel()], x[cols.ravel() + 1]
        table["value"] = values.ravel()
        return table
    if isinstance(view, CurvesView):
        series = [(item.name() or "", *item.getOriginalDataset()) for item in view.curve_items]
    elif isinstance(view, RotationView):
        series = [
            (plot.titleLabel.text.replace("<br>", " "), *trail.getOriginalDataset())
            for plot, _circle, trail, _shaft, _head in view.panels
        ]
    else:
        raise ValueError(f"view: cannot export a {type(view).__name__}")
    width = max([len(name) for name, _, _ in series] + [1])
    table = np.zeros(
        sum(len(x) for _, x, _ in series), dtype=[("curve", f"U{width}"), ("x", "f8"), ("y", "f8")]
    )
    start = 0
    for name, x, y in series:
        table["curve"][start : start + len(x)] = name
        table["x"][start : start + len(x)], table["y"][start : start + len(x)] = x, y
        start += len(x)
    return table


def _figure_item(view: pg.GraphicsView) -> pg.GraphicsObject:
    return view.plotItem if isinstance(view, CurvesView) else view.ci


def _caption_height(caption: str | None, scale: float) -> int:
    return round(CAPTION_POINTS * 2.4 * current_look().scale * scale) if caption else 0


def _draw_caption(painter: QPainter, width: int, top: int, caption: str, scale: float) -> None:
    """``caption`` centred in a strip from ``top`` down, in the look's colours."""
    height = _caption_height(caption, scale)
    painter.fillRect(0, top, width, height, QColor(current_look().background))
    font = tick_font()
    font.setPixelSize(round(CAPTION_POINTS * 4 / 3 * current_look().scale * scale))
    painter.setFont(font)
    painter.setPen(QColor(current_look().foreground))
    painter.drawText(
        QRect(0, top, width, height),
        Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
        caption,
    )


def view_image(view: pg.GraphicsView, *, scale: int = 1, caption: str | None = None) -> QImage:
    """The figure of ``view`` (plots, colorbar, legend) at ``scale``× its size on screen, with
    ``caption`` in a strip below it when given."""
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {', '.join(map(str, SCALES))}, got {scale}")
    exporter = pg.exporters.ImageExporter(_figure_item(view))
    exporter.parameters()["width"] = int(view.width() * scale)
    # Legends ignore the exporter's scaling (they keep their screen size): scale them for it.
    legends = [item for item in view.scene().items() if isinstance(item, pg.LegendItem)]
    for legend in legends:
        legend.setScale(scale)
    try:
        figure = exporter.export(toBytes=True)
    finally:
        for legend in legends:
            legend.setScale(1.0)
    if figure.isNull():
        raise OSError(f"Qt could not render {type(view).__name__}")
    if not caption:
        return figure
    image = QImage(
        figure.width(), figure.height() + _caption_height(caption, scale), figure.format()
    )
    painter = QPainter(image)
    painter.drawImage(0, 0, figure)
    _draw_caption(painter, image.width(), figure.height(), caption, scale)
    painter.end()
    return image


def _write_svg(view: pg.GraphicsView, path: Path, caption: str | None) -> None:
    """Vector lines and text; heatmaps are embedded as images at their data resolution.

    QSvgGenerator is used because pyqtgraph's SVGExporter fails on image items."""
    size = view.size()
    buffer = QBuffer()  # Qt's own file writing would not say when the disk is full
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setResolution(view.logicalDpiX())  # keeps embedded images and lines aligned
    generator.setSize(QSize(size.width(), size.height() + _caption_height(caption, 1)))
    generator.setViewBox(QRect(0, 0, size.width(), size.height() + _caption_height(caption, 1)))
    generator.setTitle(caption or type(view).__name__)
    painter = QPainter(generator)
    view.render(painter)
    if caption:
        _draw_caption(painter, size.width(), size.height(), caption, 1)
    if not painter.end():
        raise OSError(f"Qt could not draw an SVG of {type(view).__name__}")
    svg = bytes(buffer.data().data())
    try:
        ET.fromstring(svg)  # whole and well-formed before anything is written
    except ET.ParseError as exc:
        raise OSError(f"Qt made an incomplete SVG of {type(view).__name__} ({exc})") from None
    path.write_bytes(svg)


def copy_view(view: pg.GraphicsView, *, scale: int = 1, caption: str | None = None) -> None:
    """Put the figure of ``view`` on the clipboard as an image."""
    QApplication.clipboard().setImage(view_image(view, scale=scale, caption=caption))


def export_view(
    view: pg.GraphicsView, path: str | Path, *, scale: int = 1, caption: str | None = None
) -> Path:
    """Write ``view`` to ``path``; the format comes from the suffix (see FORMATS).

    ``scale`` multiplies a PNG's resolution; ``caption`` is drawn under the figure (PNG, SVG).
    ValueError names the problem (format, scale, an unwritable destination); on failure no
    file is left behind.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(
            f"out: the format comes from the suffix, one of {', '.join(FORMATS)}; "
            f"got {target.name!r}"
        )
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {', '.join(map(str, SCALES))}, got {scale}")

    def write(temporary: Path) -> None:
        if suffix == ".npy":
            with temporary.open("wb") as handle:
                np.save(handle, view_data(view))
        elif suffix == ".csv":
            table = view_data(view)
            with temporary.open("w", newline="", encoding="utf-8") as handle:
                writer = csv.writer(handle)
                writer.writerow(table.dtype.names or ())
                writer.writerows(table.tolist())
        elif suffix == ".svg":
            _write_svg(view, temporary, caption)
        else:
            image = view_image(view, scale=scale, caption=caption)
            # PySide6 takes the format as str; its stub says bytes.
            if not image.save(str(temporary), "PNG"):  # type: ignore[call-overload]
                raise OSError(f"Qt could not write a PNG of {type(view).__name__}")

    return write_atomic(target, write)
