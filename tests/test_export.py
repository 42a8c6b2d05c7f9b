"""Exporting a view: PNG at a chosen resolution, SVG, captions, the clipboard, its numbers as CSV
and .npy, from the app and from the command line."""

from __future__ import annotations

import csv
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication

from posenc_gui.export import copy_view, export_view
from tests.conftest import ROOT


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
    x, y = view.curve_items[1].getOriginalDataset()
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


@pytest.mark.slow
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
    assert result.stdout == f"posenc-gui: wrote {out} ({out.stat().st_size:,} bytes)\n"
    assert result.stderr == ""  # no notices of Qt's platform plugin on the terminal
    table = np.load(out)
    assert len(table) == 8  # one wavelength per pair of head_dim 16
    wrong = run_main("export", "--tab", "rope", "--view", "nowhere", "--out", str(out))
    assert wrong.returncode == 2 and "--view must be one of decay" in wrong.stderr
    missing = run_main("export", "--tab", "rope", "--view", "table")
    assert missing.returncode == 2 and "--out" in missing.stderr
    gif = run_main("export", "--tab", "rope", "--view", "table", "--out", str(tmp_path / "a.gif"))
    assert gif.returncode == 2 and "format comes from the suffix" in gif.stderr


@pytest.mark.slow
def test_list_views_into_a_closed_pipe_is_quiet():
    shell = f"{sys.executable} main.py --list-views | head -1"
    result = subprocess.run(
        shell, shell=True, capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert result.stdout == "absolute offset\n"
    assert "Traceback" not in result.stderr and "QThread" not in result.stderr, result.stderr


def drawn_colours(image: QImage, top: int = 0, bottom: int | None = None) -> set[int]:
    bottom = image.height() if bottom is None else bottom
    return {image.pixel(x, y) for x in range(0, image.width(), 3) for y in range(top, bottom, 3)}


def test_svg_is_a_valid_vector_figure_with_the_heatmap_in_it(window, tmp_path):
    view = window.tab("absolute").table_view
    path = export_view(view, tmp_path / "table.svg")
    text = path.read_text(encoding="utf-8")
    assert text.count("<image") == 2  # the heatmap and its colorbar
    # Titles stay text, not pixels (Qt writes a <text> per run of one font: join them).
    runs = [
        node.text or "" for node in ET.fromstring(text).iter("{http://www.w3.org/2000/svg}text")
    ]
    assert "(a) PE[position, dimension]" in "".join(runs)
    renderer = QSvgRenderer(str(path))
    assert renderer.isValid()
    assert (renderer.viewBox().width(), renderer.viewBox().height()) == (
        view.width(),
        view.height(),
    )
    image = QImage(view.size(), QImage.Format.Format_ARGB32)
    image.fill(0xFFFFFFFF)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    assert len(drawn_colours(image)) > 50


def test_a_caption_names_the_parameters_under_the_figure(window, tmp_path):
    tab = window.tab("rope")
    view = tab.spectrum_view
    caption = tab.caption()
    assert caption == "RoPE · seq_len 64 · head_dim 128, θ 10000, interleaved layout, bfloat16"
    plain = QImage(str(export_view(view, tmp_path / "plain.png")))
    captioned = QImage(str(export_view(view, tmp_path / "captioned.png", caption=caption)))
    assert captioned.width() == plain.width() and captioned.height() > plain.height()
    strip = drawn_colours(captioned, plain.height())
    assert len(strip) > 2  # text drawn on the strip, not an empty band
    assert caption in (
        export_view(view, tmp_path / "captioned.svg", caption=caption).read_text(encoding="utf-8")
    )


def test_copy_puts_the_figure_on_the_clipboard(window):
    view = window.tab("absolute").offset_view
    QApplication.clipboard().clear()
    copy_view(view, scale=2)
    image = QApplication.clipboard().image()
    assert image.width() == 2 * view.width()
    assert len(drawn_colours(image)) > 20


def test_the_export_dialog_copies_and_says_so(window):
    from posenc_gui.export_dialog import ExportDialog

    dialog = ExportDialog(window.tab("compare"))
    QApplication.clipboard().clear()
    dialog.copy()
    view = window.tab("compare").similarity_view
    assert QApplication.clipboard().image().width() == view.width()
    assert dialog.windowTitle() == "Copied similarity to the clipboard"


def test_the_export_dialog_saves_what_is_chosen(window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    from posenc_gui.export_dialog import ExportDialog

    target = tmp_path / "decay.svg"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), ""))
    )
    dialog = ExportDialog(window.tab("rope"))
    dialog.view.setCurrentText("decay")
    dialog.caption.setChecked(True)
    dialog.save()
    assert window.tab("rope").caption() in target.read_text(encoding="utf-8")


@pytest.mark.slow
def test_command_line_export_in_a_theme_and_a_language(tmp_path, run_main):
    out = tmp_path / "compare.png"
    result = run_main(
        "export",
        "--tab",
        "compare",
        "--view",
        "similarity",
        "--theme",
        "dark",
        "--lang",
        "zh_CN",
        "--scale",
        "2",
        "--caption",
        "--out",
        str(out),
    )
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert image.pixelColor(2, 2).lightnessF() < 0.2  # the dark theme's background
    assert len(drawn_colours(image)) > 50
    bad = run_main(
        "export", "--tab", "compare", "--view", "similarity", "--theme", "sepia", "--out", str(out)
    )
    assert bad.returncode == 2 and "--theme: invalid choice: 'sepia'" in bad.stderr
    bad = run_main(
        "export", "--tab", "compare", "--view", "similarity", "--lang", "fr", "--out", str(out)
    )
    assert bad.returncode == 2 and "--lang: invalid choice: 'fr'" in bad.stderr


@pytest.mark.slow
def test_a_headless_run_whose_frame_cannot_be_made_ends_with_the_reason(tmp_path, run_main):
    out = tmp_path / "ratio.png"
    script = textwrap.dedent(f"""
        import os, sys
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from posenc_gui.tabs.extension.tab import ExtensionTab
        def broken(params, device):
            raise RuntimeError("injected fault")
        ExtensionTab.compute = staticmethod(broken)
        from posenc_gui.cli import main
        sys.exit(main(["export", "--tab", "extension", "--view", "ratio", "--out", {str(out)!r}]))
    """)
    failed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert failed.returncode == 1, failed.stderr
    assert "extension: no frame to write: RuntimeError: injected fault" in failed.stderr
    session = tmp_path / "longrope.json"
    session.write_text(
        '{"format": "posenc-gui session", "version": 1,'
        ' "tabs": {"extension": {"controls": {"method": "longrope"}}}}',
        encoding="utf-8",
    )
    refused = run_main(
        "export",
        "--tab",
        "extension",
        "--view",
        "ratio",
        "--session",
        str(session),
        "--out",
        str(out),
    )
    assert refused.returncode == 1 and "longrope needs short_factor" in refused.stderr
    assert not out.exists()


def test_an_svg_that_cannot_be_written_whole_leaves_nothing(window, tmp_path, monkeypatch):
    def disk_full(self, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(type(tmp_path), "write_bytes", disk_full)
    with pytest.raises(ValueError, match="No space left on device"):
        export_view(window.tab("absolute").table_view, tmp_path / "table.svg")
    assert list(tmp_path.iterdir()) == []
