"""What the benchmark compares the app with, measured in the same process.

- ``page_floor``: a page's views in bare pyqtgraph — per view one plot holding images (with
  colorbars) and curves of the same sizes — new data set and painted per step; with ``look``,
  the same plots with the page's look the plain pyqtgraph way (titles, axis labels, the grid,
  a legend naming each curve, 2 px lines), what drawing such a page costs without the app's
  ways around pyqtgraph's slow paths.
- ``seed_redraw``: the seed's way, numpy and matplotlib redrawing the Absolute tab's four panels
  (table heatmap with colorbar, waveforms, similarity matrix, distance curve) per step.
- ``command_line_times``: ``--help`` and a refused argument in a fresh interpreter.
"""

from __future__ import annotations

import math
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# A floor's widget, and what its steps set: each image with its two data variants, each curve
# with its x and its two y variants (pyqtgraph's items, numpy arrays)
FloorPage = tuple[Any, list[tuple[Any, list[Any]]], list[tuple[Any, Any, list[Any]]]]


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(times: Sequence[float]) -> dict[str, float]:
    return {"p50_ms": round(percentile(times, 0.5), 1), "p95_ms": round(percentile(times, 0.95), 1)}


@dataclass(frozen=True)
class Contents:
    """What one view draws: image shapes, colorbars and curve lengths."""

    images: tuple[tuple[int, ...], ...]
    colorbars: int
    curves: tuple[int, ...]


def contents(view) -> Contents:
    """The images, colorbars and curves a drawn view shows now (its scene's visible items)."""
    import pyqtgraph as pg

    items = [item for item in view.scene().items() if item.isVisible()]
    images = tuple(
        item.image.shape[:2]
        for item in items
        if isinstance(item, pg.ImageItem) and item.image is not None and item.image.ndim == 2
    )
    curves = tuple(
        len(item.xData)
        for item in items
        if isinstance(item, pg.PlotDataItem) and item.xData is not None and len(item.xData)
    )
    colorbars = sum(isinstance(item, pg.ColorBarItem) for item in items)
    return Contents(images, colorbars, curves)


# A title as long as a page's titles run, for the floor with the page's look.
LOOK_TITLE = "(a) Title of the view · θ 10,000 · d_model 512 · seq_len 4,096"
LOOK_LINE_PX = 2  # the app's lines (its long jagged ones are 1 px)


def page_floor(
    views: Sequence[Contents], size: tuple[int, int], steps: int, *, look: bool = False
) -> dict[str, float]:
    """The floor of a page: its views' contents in bare pyqtgraph plots on one widget of
    ``size`` (w, h), new data set and painted per step; p50/p95 ms. With ``look``, the plots
    have the page's look the plain pyqtgraph way (``floor_page``)."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication, QGraphicsView

    page, images, curves = floor_page(views, size, look=look)
    page.show()
    QApplication.processEvents()  # shown and laid out before the first step
    times = []
    for step in range(steps):
        start = time.perf_counter()
        for image, variants in images:
            image.setImage(variants[step % 2], autoLevels=False)
        for item, x, variants in curves:
            item.setData(x, variants[step % 2])
        QGraphicsView.viewport(page).repaint()
        times.append((time.perf_counter() - start) * 1e3)
    page.close()
    page.deleteLater()
    # processEvents never runs deferred deletions (an event loop does, on its way back): the
    # floors of every page at every size would otherwise stay, hundreds of MB by the end
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return summary(times)


def floor_page(
    views: Sequence[Contents], size: tuple[int, int], *, look: bool = False
) -> FloorPage:
    """A floor's widget of ``size`` and what its steps set: ``(page, [(image, two data
    variants)], [(curve, x, two y variants)])``. With ``look``, each plot has a title, axis
    labels, the app's grid (pyqtgraph draws it translucent), a legend naming each of its
    curves, and 2 px lines."""
    import numpy as np
    import pyqtgraph as pg

    from posenc_gui.views.axes import GRID_ALPHA

    page = pg.GraphicsLayoutWidget()
    page.resize(*size)
    columns = math.ceil(math.sqrt(len(views)))
    rng = np.random.default_rng(0)
    images, curves = [], []
    for index, view in enumerate(views):
        plot = page.addPlot(row=index // columns, col=index % columns)
        if look:
            plot.setTitle(LOOK_TITLE)
            plot.setLabels(bottom="position", left="value")
            plot.showGrid(x=True, y=True, alpha=GRID_ALPHA)
            if view.curves:
                plot.addLegend()
        for shape in view.images:
            image = pg.ImageItem(axisOrder="row-major")
            plot.addItem(image)
            variants = [rng.standard_normal(shape).astype(np.float32) for _ in range(2)]
            images.append((image, variants))
        for _ in range(min(view.colorbars, len(view.images))):
            plot.addColorBar(image, colorMap=pg.colormap.get("CET-D1"), values=(-1, 1))
        for k, length in enumerate(view.curves):
            if look:
                item = plot.plot(pen=pg.mkPen(k, width=LOOK_LINE_PX), name=f"curve {k + 1}")
            else:
                item = plot.plot(pen=k)
            x = np.arange(length, dtype=float)
            curves.append((item, x, [np.sin(x * (k + 1 + v) / length * 6) for v in range(2)]))
    return page, images, curves


def seed_redraw(steps: int, size: int = 512) -> dict[str, float] | None:
    """The seed's way at ``size`` positions × ``size`` dimensions: a numpy table, then
    matplotlib clearing and redrawing four panels (table heatmap with colorbar, four waveforms,
    similarity matrix with colorbar, similarity against distance); p50/p95 ms, or None without
    matplotlib."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        return None
    import numpy as np

    figure = Figure(figsize=(11, 9), dpi=100)
    canvas = FigureCanvasAgg(figure)
    positions, times = np.arange(size), []
    for step in range(steps):
        start = time.perf_counter()
        angles = positions[:, None] * (1e4 + step) ** (-np.arange(0, size, 2) / size)
        pe = np.empty((size, size))
        pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
        figure.clear()
        (table, waves), (similarity, distance) = figure.subplots(2, 2)
        figure.colorbar(table.imshow(pe, cmap="RdBu", aspect="auto"), ax=table)
        for dim in (0, 2, 4, 8):
            waves.plot(positions, pe[:, dim], label=f"dim {dim}")
        waves.legend()
        scores = pe @ pe.T
        figure.colorbar(similarity.imshow(scores, cmap="viridis"), ax=similarity)
        distance.plot(positions, scores[0])
        canvas.draw()
        times.append((time.perf_counter() - start) * 1e3)
    return summary(times)


# The command line answers before Qt and torch load: --help, and a refused argument.
COMMAND_LINES = (("--help",), ("--seq-len", "0"))


def command_line_times(repeats: int = 3) -> dict[str, float]:
    """Median wall time (s) of ``python -m posenc_gui ARGS`` in a fresh interpreter."""
    times = {}
    for args in COMMAND_LINES:
        runs = []
        for _ in range(repeats):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "posenc_gui", *args], capture_output=True)
            runs.append(time.perf_counter() - start)
        times[" ".join(args)] = round(statistics.median(runs), 3)
    return times
