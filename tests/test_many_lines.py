"""Many unnamed lines drawn by one item (``views.many_lines``): what they look like on screen,
in a PNG and outside Qt in an SVG, the range they span and the numbers exported, all as if
each line had an item of its own."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from PySide6.QtGui import QImage

from posenc_gui.export import export_view, view_image
from posenc_gui.export_data import view_arrays
from posenc_gui.views import MAX_LINES_APART, Curve, CurvesView
from posenc_gui.views import many_lines as many_lines_module
from posenc_gui.views.style import family_colour
from tests.test_svg_export import GROSS_SHARE, MEAN_LIMIT, difference, rsvg_convert

HEADS = 40


def heads(log: bool) -> list[Curve]:
    """ALiBi-like lines over 64 positions (from 1 on a log axis), the first and last named,
    each in its family colour; one with a gap (NaN), one touching 0 (not drawn on a log
    axis)."""
    x = np.arange(1 if log else 0, 64)
    slopes = 2.0 ** -np.linspace(0.5, 8.0, HEADS)
    ys = 1.0 + slopes[:, None] * x
    ys[5, 30] = np.nan
    ys[9, 40] = 0.0
    return [
        Curve(f"head {h + 1}" if h in (0, HEADS - 1) else "", x, y, color=family_colour(h, HEADS))
        for h, y in enumerate(ys)
    ]


def pixels(image: QImage) -> np.ndarray:
    rgba = image.convertToFormat(QImage.Format.Format_RGBA8888)
    flat = np.frombuffer(rgba.constBits(), np.uint8, rgba.sizeInBytes())
    rows = flat.reshape(rgba.height(), rgba.bytesPerLine())[:, : 4 * rgba.width()]
    return rows.reshape(rgba.height(), rgba.width(), 4).astype(int)


def drawn(qtbot, curves: list[Curve], log: bool) -> CurvesView:
    """A view showing ``curves`` from its first paint: its axes never lay out other labels
    (a left axis keeps the width of its widest labels so far, which would move the plot)."""
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    view.resize(640, 420)
    view.set_log(x=log, y=log)
    view.set_curves(curves)
    view.show()
    qtbot.waitExposed(view)
    qtbot.wait(50)
    return view


def fitted(view) -> list[list[float]]:
    """The data range ``view`` fits, before padding."""
    return view.plot.vb.bounds.extent([None, None], (0.0, 0.0))


def blocks_of_pixels(rgba: np.ndarray, block: int = 8) -> np.ndarray:
    """Mean RGB of each ``block`` × ``block`` block."""
    rows, cols = rgba.shape[0] // block, rgba.shape[1] // block
    cropped = rgba[: rows * block, : cols * block, :3].astype(float)
    return cropped.reshape(rows, block, cols, block, 3).mean(axis=(1, 3))


def settled_pixels(qtbot, view) -> np.ndarray:
    """What ``view`` shows once two grabs 50 ms apart agree (a loaded machine may still be
    laying it out)."""
    last = pixels(view.grab().toImage())
    for _ in range(40):
        qtbot.wait(50)
        now = pixels(view.grab().toImage())
        if np.array_equal(now, last):
            return now
        last = now
    raise AssertionError("the view kept changing for 2 s")


@pytest.mark.parametrize("log", [False, True], ids=["linear", "log"])
def test_many_unnamed_lines_are_one_item_drawn_as_apart(qtbot, monkeypatch, light_look, log):
    """In the app's look (antialiased): the same pixels to within antialiasing, which joins a
    path's segments where pyqtgraph strokes each segment (a curve's joints) and lays named
    lines over the others."""
    curves = heads(log)
    together = drawn(qtbot, curves, log)
    # the named lines have items (and legend entries); the 38 others are drawn by one
    assert [item.name() for item in together.curve_items] == ["head 1", f"head {HEADS}"]
    assert together._together is not None and together._together.isVisible()
    # a backdrop: under the named lines (Compare's curves over ALiBi's 128 heads)
    assert together._together.zValue() < min(i.zValue() for i in together.curve_items)
    monkeypatch.setattr(many_lines_module, "MAX_LINES_APART", HEADS)  # an item each
    apart = drawn(qtbot, curves, log)
    assert len(apart.curve_items) == HEADS and apart._together is None
    # the same data range fitted (the padding around it follows each view's width in pixels,
    # which the axes' label widths from earlier frames may move by a few)
    assert fitted(together) == fitted(apart)
    a, b = settled_pixels(qtbot, together), settled_pixels(qtbot, apart)
    # 8 px blocks' mean colours (a line missing or a pixel off moves a block's by 40 or more)
    off = np.abs(blocks_of_pixels(a) - blocks_of_pixels(b)).max(axis=-1)
    assert off.mean() < 2 and off.max() < 24, (off.mean(), off.max())
    apart.set_curves([])
    blank = settled_pixels(qtbot, apart)
    assert (np.abs(a - blank).max(axis=-1) > 48).sum() > 3000  # lines drawn, not two blanks


def test_a_frame_of_fewer_lines_draws_them_apart_again(qtbot):
    view = drawn(qtbot, heads(False), False)
    few = heads(False)[-(MAX_LINES_APART - 1) :]  # the shallowest heads
    view.set_curves(few)
    assert len(view.curve_items) == len(few)
    assert view._together is not None and not view._together.isVisible()
    # the range fits those lines alone: the steep ones drawn together before bound nothing
    y_extent = fitted(view)[1]
    assert y_extent == [min(np.nanmin(c.y) for c in few), max(np.nanmax(c.y) for c in few)]


def test_the_numbers_exported_are_every_line_in_its_place(qtbot):
    curves = heads(False)
    view = drawn(qtbot, curves, False)
    arrays = view_arrays(view)
    assert list(arrays["names"]) == [curve.name for curve in curves]
    for n, curve in enumerate(curves):
        np.testing.assert_array_equal(arrays[f"y_{n}"], curve.y)
        np.testing.assert_array_equal(arrays[f"x_{n}"], curve.x)


def test_their_svg_renders_outside_qt_like_their_png(qtbot, tmp_path):
    rsvg = rsvg_convert()
    view = drawn(qtbot, heads(False), False)
    png = export_view(view, tmp_path / "heads.png", size=(800, 600))
    svg = export_view(view, tmp_path / "heads.svg", size=(800, 600))
    out = tmp_path / "heads.rsvg.png"
    subprocess.run([rsvg, "-w", "800", "-h", "600", "-o", str(out), str(svg)], check=True)
    mean, gross = difference(QImage(str(png)), QImage(str(out)))
    assert mean <= MEAN_LIMIT and gross <= GROSS_SHARE, (mean, gross)
    view.set_curves([])
    blank = view_image(view, size=(800, 600))  # (an export refuses a view that drew nothing)
    # lines, not a blank plot: farther from a blank one's than from the PNG's (14 here)
    assert difference(QImage(str(out)), blank)[0] > MEAN_LIMIT
