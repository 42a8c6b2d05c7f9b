"""Bands painted column by column on raster devices (``views.bands``): the pixels of the filled
outline, drawn as lines; vector output keeps the outline."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator, QSvgRenderer

from posenc_gui.views.bands import BandFill

COLOUR = (86, 180, 233, 60)


def _band(qtbot, kind: type, x: np.ndarray, low, high, *, mirrored: bool = False):
    """A shown 420 × 260 px plot of nothing but a band (``kind``) over ``x``."""
    widget = pg.PlotWidget(background="w")
    qtbot.addWidget(widget)
    widget.resize(420, 260)
    widget.hideAxis("left")
    widget.hideAxis("bottom")
    widget.getViewBox().invertX(mirrored)
    band = kind(pg.PlotCurveItem(x, low), pg.PlotCurveItem(x, high), brush=COLOUR)
    widget.addItem(band)
    widget.setRange(xRange=(x[0] - 3, x[-1] + 3), yRange=(-1.2, 1.2), padding=0)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _pixels(widget) -> np.ndarray:
    image = QImage(420, 260, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    widget.render(painter)
    painter.end()
    return np.frombuffer(image.constBits(), np.uint8).reshape(260, 420, 4)[..., :3].astype(int)


@pytest.mark.parametrize("points", [1000, 40], ids=["jagged", "sparse"])
@pytest.mark.parametrize("mirrored", [False, True], ids=["x", "mirrored x"])
def test_columns_cover_the_pixels_the_filled_outline_covers(qtbot, points, mirrored):
    rng = np.random.default_rng(3)
    x = np.linspace(0, 400, points)
    mean = 0.6 * np.cos(x / 60)
    spread = 0.1 + 0.3 * rng.random(points)  # zig-zag edges: a standard deviation per pixel
    low, high = mean - spread, mean + spread
    fill = _pixels(_band(qtbot, pg.FillBetweenItem, x, low, high, mirrored=mirrored))
    columns = _pixels(_band(qtbot, BandFill, x, low, high, mirrored=mirrored))
    shaded = (fill < 250).any(-1)
    assert shaded.sum() > 10_000  # a band was drawn
    # the same colour where both shade; an antialiased outline differs at its edges only
    both = shaded & (columns < 250).any(-1)
    assert np.abs(columns[both] - fill[both]).max(-1).mean() < 4
    differ = (np.abs(columns - fill).max(-1) > 40).sum()
    assert differ / shaded.sum() < 0.05
    # every column as tall as the outline's: none missing, none cut short
    heights = (columns < 250).any(-1).sum(0) - shaded.sum(0)
    assert np.abs(heights).max() <= 3


def test_a_raster_paint_draws_one_line_per_device_column(qtbot, monkeypatch):
    x = np.linspace(0, 400, 1000)
    widget = _band(qtbot, BandFill, x, np.cos(x / 9) - 0.5, np.cos(x / 9) + 0.5)
    drawn: list[int] = []
    draw_lines = QPainter.drawLines

    def recording(painter, *args):
        drawn.append(args[1] if len(args) == 2 else len(args[0]))
        draw_lines(painter, *args)

    monkeypatch.setattr(QPainter, "drawLines", recording)
    _pixels(widget)
    view_width = widget.getViewBox().width()
    assert len(drawn) == 1 and abs(drawn[0] - view_width * 400 / 406) <= 2


def test_vector_output_keeps_the_outline(qtbot, tmp_path):
    x = np.linspace(0, 400, 1000)
    widget = _band(qtbot, BandFill, x, np.cos(x / 9) - 0.5, np.cos(x / 9) + 0.5)
    svg = QSvgGenerator()
    svg.setFileName(str(tmp_path / "band.svg"))
    svg.setSize(QSize(420, 260))
    painter = QPainter(svg)
    widget.render(painter)
    painter.end()
    text = (tmp_path / "band.svg").read_text()
    assert text.count("<path") >= 1 and text.count("<polyline") + text.count("<line ") < 50


def test_the_outline_is_made_only_for_a_paint_that_fills_it(qtbot, monkeypatch, tmp_path):
    x = np.linspace(0, 400, 1000)
    wave = 0.3 * np.cos(x / 9)  # the band: wave ± 0.2, within −0.5 … 0.5
    widget = _band(qtbot, BandFill, x, wave - 0.2, wave + 0.2)
    band = next(item for item in widget.getPlotItem().items if isinstance(item, BandFill))
    paths: list[int] = []  # an outline is made of its curves' paths
    get_path = pg.PlotCurveItem.getPath
    monkeypatch.setattr(pg.PlotCurveItem, "getPath", lambda c: paths.append(1) or get_path(c))

    def top_row(pixels: np.ndarray) -> int:  # the band's highest row (y from 1.2 to −1.2)
        return int(np.argmax((pixels < 250).any(-1).any(1)))

    low, high = band.curves
    for shift in (0.1, 0.2, 0.3):  # three frames of a page with a band, each higher
        low.setData(x, wave - 0.2 + shift)
        high.setData(x, wave + 0.2 + shift)
        assert abs(top_row(_pixels(widget)) - 260 * (1.2 - (0.5 + shift)) / 2.4) <= 3
        band.shape()  # a mouse over it
    assert paths == []  # the screen paints columns: no outline
    assert band.boundingRect().top() == pytest.approx(wave.min() - 0.2 + 0.3)

    def exported_top_row(name: str) -> int:  # the band's highest row in an SVG of the plot
        svg = QSvgGenerator()
        svg.setFileName(str(tmp_path / name))
        svg.setSize(QSize(420, 260))
        painter = QPainter(svg)
        widget.render(painter)
        painter.end()
        drawn = QImage(420, 260, QImage.Format.Format_RGB32)
        drawn.fill(QColor("white"))
        painter = QPainter(drawn)
        QSvgRenderer(str(tmp_path / name)).render(painter)
        painter.end()
        return top_row(np.frombuffer(drawn.constBits(), np.uint8).reshape(260, 420, 4)[..., :3])

    high_band = exported_top_row("high.svg")
    assert len(paths) == 2  # one outline, of both curves
    assert exported_top_row("again.svg") == high_band
    assert len(paths) == 2  # kept for the next export
    low.setData(x, wave - 0.2)
    high.setData(x, wave + 0.2)
    assert exported_top_row("low.svg") > high_band + 10  # made anew, of the data of now
    assert len(paths) == 4
