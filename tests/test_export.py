"""Exporting a view: PNG at a chosen resolution, its numbers as CSV and .npy, from the app and
from the command line."""

from __future__ import annotations

import csv

import numpy as np
import pytest
from PySide6.QtGui import QImage

from posenc_gui.export import export_view


def test_heatmap_numbers_as_npy_and_csv(window, tmp_path):
    view = window.tab("absolute").table_view
    table = np.load(export_view(view, tmp_path / "table.npy"))
    values = view.image.image
    assert len(table) == values.size
    np.testing.assert_array_equal(table["value"].reshape(values.shape), values)
    assert table["y_start"][0] == 0 and table["x_stop"][-1] == view.x_edges[-1]
    with export_view(view, tmp_path / "table.csv").open(encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["y_start", "y_stop", "x_start", "x_stop", "value"]
    assert float(rows[1][4]) == pytest.approx(float(values[0, 0]))
    assert len(rows) == values.size + 1


def test_curves_numbers_keep_every_curve(window, tmp_path):
    view = window.tab("absolute").wave_view
    table = np.load(export_view(view, tmp_path / "waves.npy"))
    assert list(dict.fromkeys(table["curve"])) == ["dim 0", "dim 2", "dim 8", "dim 32"]
    x, y = view.items[1].getOriginalDataset()
    np.testing.assert_array_equal(table["y"][table["curve"] == "dim 2"], y)
    np.testing.assert_array_equal(table["x"][table["curve"] == "dim 2"], x)


@pytest.mark.parametrize("scale", [1, 2, 4])
def test_png_at_a_chosen_resolution(window, tmp_path, scale):
    view = window.tab("absolute").similarity_view
    image = QImage(str(export_view(view, tmp_path / "similarity.png", scale=scale)))
    assert image.width() == view.width() * scale
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), 5) for y in range(0, image.height(), 5)
    }
    assert len(colours) > 50  # a drawn figure, not a blank one


def test_bad_exports_are_refused_and_leave_nothing(window, tmp_path):
    view = window.tab("absolute").table_view
    with pytest.raises(ValueError, match="format comes from the suffix"):
        export_view(view, tmp_path / "table.gif")
    with pytest.raises(ValueError, match="scale must be one of 1, 2, 4"):
        export_view(view, tmp_path / "table.png", scale=3)
    with pytest.raises(ValueError, match="does not exist"):
        export_view(view, tmp_path / "missing" / "table.png")
    assert list(tmp_path.iterdir()) == []


def test_command_line_export_and_list_views(tmp_path, run_main):
    listing = run_main("--list-views")
    assert listing.returncode == 0
    pairs = listing.stdout.split("\n")
    assert {"absolute table", "relative alibi", "rope rotation", "extension ratio"} <= set(pairs)
    out = tmp_path / "spectrum.npy"
    result = run_main(
        "export", "--tab", "rope", "--view", "spectrum", "--head-dim", "16", "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    table = np.load(out)
    assert len(table) == 8  # one wavelength per pair of head_dim 16
    wrong = run_main("export", "--tab", "rope", "--view", "nowhere", "--out", str(out))
    assert wrong.returncode == 2 and "--view must be one of decay" in wrong.stderr
    missing = run_main("export", "--tab", "rope", "--view", "table")
    assert missing.returncode == 2 and "--out" in missing.stderr
    gif = run_main("export", "--tab", "rope", "--view", "table", "--out", str(tmp_path / "a.gif"))
    assert gif.returncode == 2 and "format comes from the suffix" in gif.stderr
