"""Export a view: PNG of the figure (at 1×, 2× or 4× resolution), CSV or .npy of its numbers.
Every file is written atomically (``files.write_atomic``)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pyqtgraph.exporters
from PySide6.QtWidgets import QWidget

from posenc_gui.files import write_atomic
from posenc_gui.views import CurvesView, HeatmapView
from posenc_gui.views.rotation import RotationView

FORMATS = (".png", ".csv", ".npy")
SCALES = (1, 2, 4)


def view_data(view: QWidget) -> np.ndarray:
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
        series = [(item.name() or "", *item.getOriginalDataset()) for item in view.items]
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


def _figure_item(view: QWidget) -> pg.GraphicsObject:
    return view.plotItem if isinstance(view, CurvesView) else view.ci


def export_view(view: QWidget, path: str | Path, *, scale: int = 1) -> Path:
    """Write ``view`` to ``path``; the format comes from the suffix (see FORMATS).

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
                writer.writerow(table.dtype.names)
                writer.writerows(table.tolist())
        else:
            exporter = pg.exporters.ImageExporter(_figure_item(view))
            exporter.parameters()["width"] = int(view.width() * scale)
            image = exporter.export(toBytes=True)
            if image.isNull() or not image.save(str(temporary), "PNG"):
                raise OSError(f"Qt could not render a PNG of {type(view).__name__}")

    return write_atomic(target, write)
