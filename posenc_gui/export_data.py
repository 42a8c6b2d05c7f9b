"""The numbers a view draws, in the shapes the data formats hold them.

- ``.npy`` (``view_table``): a heatmap's 2-D array of values as drawn (rows × columns); for
  curves that share their x values, one column of x and then one per curve.
- ``.npz`` (``view_arrays``): a heatmap's ``values`` with its ``y_edges`` and ``x_edges``; the
  curves as ``names`` and ``x_<n>``, ``y_<n>`` per curve; the title and axis labels as strings.
- ``.csv`` (``view_rows``): long format under a header, one row per drawn value.
"""

from __future__ import annotations

import html
import re

import numpy as np
import pyqtgraph as pg

from posenc_gui.views import CurvesView, HeatmapView
from posenc_gui.views.rotation import RotationView

Series = tuple[str, np.ndarray, np.ndarray]  # a curve's name, x and y
Row = tuple[str | float, ...]


def _plain(text: str) -> str:
    """Rich text (a title with coloured names, line breaks) as plain text."""
    return html.unescape(re.sub(r"<[^>]*>", "", text.replace("<br>", " "))).strip()


def _series(view: pg.GraphicsView) -> list[Series]:
    """Each curve a curve view draws, as its original (not log-scaled) data."""
    if isinstance(view, CurvesView):
        return [(curve.name, curve.x, curve.y) for curve in view.drawn_curves()]
    if isinstance(view, RotationView):
        return [
            (_plain(plot.titleLabel.text), *trail.getData())
            for plot, _circle, trail, _shaft, _head in view.panels
        ]
    raise ValueError(f"view: cannot export the numbers of a {type(view).__name__}")


def _labels(view: pg.GraphicsView) -> dict[str, np.ndarray]:
    """The view's title and axis labels, as plain text."""
    if isinstance(view, RotationView):  # panels of their own, one meaning together
        title, x_label, y_label = view.labels
    else:
        plot = view.plot
        title, x_label, y_label = (
            plot.titleLabel.text,
            plot.getAxis("bottom").labelText,
            plot.getAxis("left").labelText,
        )
    return {
        "title": np.array(_plain(title)),
        "x_label": np.array(_plain(x_label)),
        "y_label": np.array(_plain(y_label)),
    }


def view_table(view: pg.GraphicsView) -> np.ndarray:
    """What ``.npy`` holds: a heatmap's values ``[rows, cols]`` as drawn; for curves that
    share x, ``[points, 1 + curves]`` (x, then each curve's y). ValueError for curves
    that do not share x (``.npz`` and ``.csv`` hold those)."""
    if isinstance(view, HeatmapView):
        return np.asarray(view.image.image, dtype=float)
    series = _series(view)
    if not series:
        raise ValueError(f"{type(view).__name__}: no curves drawn to export")
    x = series[0][1]
    if any(len(other) != len(x) or not np.array_equal(other, x) for _, other, _ in series):
        raise ValueError(
            f"the curves of {str(_labels(view)['title'])!r} do not share x values, so they "
            f"make no single table: export .npz (x and y per curve) or .csv instead"
        )
    return np.column_stack([x, *(y for _, _, y in series)]).astype(float)


def view_arrays(view: pg.GraphicsView) -> dict[str, np.ndarray]:
    """What ``.npz`` holds: ``values``, ``y_edges``, ``x_edges`` (row ``r`` covers
    ``y_edges[r] … y_edges[r+1]``) and the labels of a heatmap; ``names`` and ``x_<n>``,
    ``y_<n>`` for curve ``n``, with the title and axis labels."""
    if isinstance(view, HeatmapView):
        bar = view.colorbar  # pyqtgraph labels a colorbar on its other side from the ticks
        value_axis = bar.getAxis("bottom" if bar.horizontal else "left")
        return {
            "values": view_table(view),
            "y_edges": np.asarray(view.y_edges, dtype=float),
            "x_edges": np.asarray(view.x_edges, dtype=float),
            **_labels(view),
            "value_label": np.array(_plain(value_axis.labelText)),
        }
    series = _series(view)
    arrays = {"names": np.array([name for name, _, _ in series], dtype=str)}
    for index, (_, x, y) in enumerate(series):
        arrays[f"x_{index}"] = np.asarray(x, dtype=float)
        arrays[f"y_{index}"] = np.asarray(y, dtype=float)
    return arrays | _labels(view)


def view_rows(view: pg.GraphicsView) -> tuple[list[str], list[Row]]:
    """What ``.csv`` holds: a header and one row per drawn value — a heatmap cell with its
    position range, or a curve point with the curve's name."""
    if isinstance(view, HeatmapView):
        values = view_table(view)
        y, x = np.asarray(view.y_edges, float), np.asarray(view.x_edges, float)
        rows, cols = (index.ravel() for index in np.indices(values.shape))
        table = zip(y[rows], y[rows + 1], x[cols], x[cols + 1], values.ravel(), strict=True)
        header = ["y_start", "y_stop", "x_start", "x_stop", "value"]
        cells: list[Row] = [tuple(map(float, row)) for row in table]
        return header, cells
    points: list[Row] = [
        (name, float(a), float(b))
        for name, x, y in _series(view)
        for a, b in zip(x, y, strict=True)
    ]
    return ["curve", "x", "y"], points
