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
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication

from posenc_gui import registry
from posenc_gui.export import copy_view, export_view, view_image
from posenc_gui.views import Curve, CurvesView
from tests.conftest import FRAME_TIMEOUT_MS, ROOT


def shown(window, qtbot, tab_name: str, view_name: str):
    """View ``view_name`` of tab ``tab_name`` in front, with its tab's current frame drawn."""
    tab = window.tab(tab_name)
    window.tabs.setCurrentWidget(tab)
    view = tab.show_view(view_name)
    qtbot.waitUntil(
        lambda: tab.frame is not None and tab.frame.params == tab.request(),
        timeout=FRAME_TIMEOUT_MS,
    )
    qtbot.wait(100)  # the layout its frame asked for
    return view


def test_heatmap_numbers_as_npy_npz_and_csv(window, tmp_path):
    view = window.tab("absolute").table_view
    values = view.image.image
    table = np.load(export_view(view, tmp_path / "table.npy"))
    assert table.dtype == np.float64 and table.shape == values.shape == (64, 128)
    np.testing.assert_array_equal(table, values)
    with np.load(export_view(view, tmp_path / "table.npz")) as saved:
        np.testing.assert_array_equal(saved["values"], values)
        np.testing.assert_array_equal(saved["y_edges"], np.arange(65))
        np.testing.assert_array_equal(saved["x_edges"], view.x_edges)
        assert (str(saved["x_label"]), str(saved["y_label"])) == ("dimension", "position")
        assert str(saved["title"]) == "(a) PE[position, dimension]"
        assert str(saved["value_label"]) == "PE"
    with export_view(view, tmp_path / "table.csv").open(encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["y_start", "y_stop", "x_start", "x_stop", "value"]
    assert float(rows[1][4]) == pytest.approx(float(values[0, 0]))
    assert [float(v) for v in rows[2][:4]] == [0, 1, 1, 2]  # the next cell along the row
    assert len(rows) == values.size + 1


def test_curves_numbers_keep_every_curve(window, tmp_path):
    view = window.tab("absolute").wave_view
    names = ["dim 0", "dim 2", "dim 8", "dim 32"]
    x, y = view.curve_items[1].getOriginalDataset()
    table = np.load(export_view(view, tmp_path / "waves.npy"))
    assert table.shape == (len(x), 1 + len(names))  # x, then one column per curve
    np.testing.assert_array_equal(table[:, 0], x)
    np.testing.assert_array_equal(table[:, 2], y)
    with np.load(export_view(view, tmp_path / "waves.npz")) as saved:
        assert list(saved["names"]) == names
        np.testing.assert_array_equal(saved["x_1"], x)
        np.testing.assert_array_equal(saved["y_1"], y)
        assert (str(saved["x_label"]), str(saved["y_label"])) == ("position", "PE")
    with export_view(view, tmp_path / "waves.csv").open(encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["curve", "x", "y"]
    assert list(dict.fromkeys(row[0] for row in rows[1:])) == names
    assert [float(row[2]) for row in rows[1:] if row[0] == "dim 2"] == pytest.approx(list(y))


def test_curves_that_do_not_share_x_refuse_npy_but_keep_npz(window, qtbot, tmp_path):
    view = shown(window, qtbot, "rope", "rotation")
    with pytest.raises(
        ValueError,
        match=r"curves of '\(b\) Each chosen pair of q rotated over positions 0 … m' "
        r"do not share x values.*\.npz.*\.csv",
    ):
        export_view(view, tmp_path / "rotation.npy")
    assert list(tmp_path.iterdir()) == []
    with np.load(export_view(view, tmp_path / "rotation.npz")) as saved:
        assert len(saved["names"]) == len(view.panels) > 1
        trail = view.panels[1][2].getData()
        np.testing.assert_array_equal(saved["x_1"], trail[0])
        np.testing.assert_array_equal(saved["y_1"], trail[1])
        assert "<" not in str(saved["names"][0])  # the panel's title as plain text
        labels = (str(saved["title"]), str(saved["x_label"]), str(saved["y_label"]))
        assert labels == (
            "(b) Each chosen pair of q rotated over positions 0 … m",
            "first channel of the pair",
            "second channel of the pair",
        )  # as every view's .npz has them


@pytest.mark.parametrize("scale", [1, 2, 4])
def test_png_at_a_chosen_resolution(window, tmp_path, scale):
    view = window.tab("absolute").similarity_view
    image = QImage(str(export_view(view, tmp_path / "similarity.png", scale=scale)))
    assert image.width() == view.width() * scale
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), 5) for y in range(0, image.height(), 5)
    }
    assert len(colours) > 50  # a drawn figure, not a blank one


def svg_texts(path) -> list[str]:
    return [node.text or "" for node in ET.parse(path).iter("{http://www.w3.org/2000/svg}text")]


def test_a_chosen_size_lays_the_figure_out_for_it_and_puts_it_back(window, tmp_path):
    view = window.tab("absolute").table_view
    box = view.plot.vb
    before = (view.size(), box.size(), box.viewRange(), view.plot.geometry())
    small = export_view(view, tmp_path / "small.svg", size=(400, 300))
    large = export_view(view, tmp_path / "large.svg", size=(1600, 900))
    # Laid out, not stretched: the wider axes have room for more tick labels.
    assert len(svg_texts(large)) > len(svg_texts(small)) + 10
    assert ET.parse(large).getroot().get("viewBox") == "0 0 1600 900"
    image = QImage(str(export_view(view, tmp_path / "large.png", size=(1600, 900), scale=2)))
    assert (image.width(), image.height()) == (3200, 1800)
    caption = window.tab("absolute").caption()
    captioned = export_view(view, tmp_path / "c.png", size=(1600, 900), caption=caption)
    assert (QImage(str(captioned)).width(), QImage(str(captioned)).height()) == (1600, 900)
    assert (view.size(), box.size(), box.viewRange(), view.plot.geometry()) == before


def test_an_export_at_a_new_size_is_settled_before_it_is_drawn(window, qtbot):
    # Layouts wait for the event loop and axes widen for their labels as they paint: drawn at
    # once, the plot keeps its size on screen (the cells' fixed aspect makes that small here).
    view = shown(window, qtbot, "multimodal", "patch_scores")
    on_screen = view.plot.vb.geometry()
    image = view_image(view, size=(800, 600))
    middle = [QColor(image.pixel(x, 300)) for x in range(image.width())]
    assert sum(colour.hsvSaturationF() > 0.3 for colour in middle) > 0.6 * image.width()
    assert view.plot.vb.geometry() == on_screen  # and laid out as on screen again at once
    assert image == view_image(view, size=(800, 600))


def test_the_size_on_screen_is_the_default_size(window, tmp_path):
    view = window.tab("absolute").wave_view
    plain = QImage(str(export_view(view, tmp_path / "plain.png")))
    sized = QImage(
        str(export_view(view, tmp_path / "sized.png", size=(view.width(), view.height())))
    )
    assert plain == sized


def test_bad_exports_are_refused_and_leave_nothing(window, tmp_path):
    view = window.tab("absolute").table_view
    with pytest.raises(ValueError, match="format comes from the suffix"):
        export_view(view, tmp_path / "table.gif")
    with pytest.raises(ValueError, match="scale must be one of 1, 2, 4"):
        export_view(view, tmp_path / "table.png", scale=3)
    with pytest.raises(ValueError, match="does not exist"):
        export_view(view, tmp_path / "missing" / "table.png")
    with pytest.raises(ValueError, match=r"size must be .* in \[200, 8000\], got 100x900"):
        export_view(view, tmp_path / "table.png", size=(100, 900))
    with pytest.raises(ValueError, match=r"size must be .* in \[200, 8000\], got 1600x9000"):
        export_view(view, tmp_path / "table.svg", size=(1600, 9000))
    with pytest.raises(ValueError, match="times scale 4 must stay within 16,000 pixels"):
        export_view(view, tmp_path / "table.png", size=(4200, 900), scale=4)
    caption = ", ".join([window.tab("absolute").caption()] * 3)  # many lines at 200 px
    with pytest.raises(ValueError, match=r"size 200x200 leaves the figure \d+ px above its cap"):
        export_view(view, tmp_path / "table.png", size=(200, 200), caption=caption)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("suffix", [".png", ".svg", ".npz", ".csv"])
def test_a_view_that_drew_nothing_is_refused_naming_why(window, qtbot, drive, tmp_path, suffix):
    view = shown(window, qtbot, "extension", "layer_pattern")  # no model: no layers to mark
    with pytest.raises(ValueError, match=r"nothing drawn to export — .*import a config\.json"):
        export_view(view, tmp_path / f"layers{suffix}")
    assert list(tmp_path.iterdir()) == []
    gemma = next(p for p in window.presets if p.name.startswith("Gemma-3-27B"))
    drive(window, lambda: window.apply_preset(gemma), "extension")
    assert export_view(view, tmp_path / f"layers{suffix}").stat().st_size > 0


def test_a_figure_larger_than_its_size_is_drawn_whole_and_scaled_down(qtbot, owned):
    """Presentation mode's legend of eight long names needs more height than 800 x 450
    leaves: the figure is laid out larger and drawn scaled down, filling the picture (held at
    its least size it was drawn into the left three quarters, its legend running off them)."""
    from posenc_gui.views.style import Look
    from posenc_gui.window import MainWindow

    window = owned(MainWindow(device="cpu", look=Look(presentation=True)))
    window.resize(2400, 1500)  # as the command line's export: the legend in columns there
    window.show()
    view = shown(window, qtbot, "compare", "similarity")
    image = view_image(view, size=(800, 450))
    background = QColor(view.backgroundBrush().color()).rgb()
    drawn = [
        x
        for x in range(image.width())
        if any(image.pixel(x, y) != background for y in range(0, image.height(), 3))
    ]
    assert drawn[0] < 40 and drawn[-1] > 760  # from edge to edge, not into a corner


@pytest.mark.slow
def test_command_line_export_and_list_views(tmp_path, run_main):
    listing = run_main("--list-views")
    assert listing.returncode == 0
    pairs = listing.stdout.split("\n")
    assert {"absolute table", "relative alibi", "rope rotation", "extension ratio"} <= set(pairs)
    out = tmp_path / "spectrum.npz"
    result = run_main(
        "export", "--tab", "rope", "--view", "spectrum", "--head-dim", "16", "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"posenc-gui: wrote {out} ({out.stat().st_size:,} bytes)\n"
    assert result.stderr == ""  # no notices of Qt's platform plugin on the terminal
    with np.load(out) as saved:  # one wavelength per pair of head_dim 16, in two curves
        assert len(saved["x_0"]) + len(saved["x_1"]) == 8
    refused = run_main(
        "export", "--tab", "rope", "--view", "spectrum", "--out", str(tmp_path / "s.npy")
    )
    assert refused.returncode == 1 and "do not share x values" in refused.stderr
    assert not (tmp_path / "s.npy").exists()
    png = tmp_path / "decay.png"
    sized = run_main(
        "export",
        "--tab",
        "rope",
        "--view",
        "decay",
        "--size",
        "640x480",
        "--scale",
        "2",
        "--caption",
        "--out",
        str(png),
    )
    assert sized.returncode == 0, sized.stderr
    assert (QImage(str(png)).width(), QImage(str(png)).height()) == (1280, 960)
    for bad in ("100x480", "640", "640x480x2"):
        wrong = run_main(
            "export", "--tab", "rope", "--view", "decay", "--size", bad, "--out", str(png)
        )
        assert wrong.returncode == 2 and "argument --size" in wrong.stderr, wrong.stderr
        assert "[200, 8000]" in wrong.stderr
    huge = run_main(
        "export",
        "--tab",
        "rope",
        "--view",
        "decay",
        "--size",
        "8000x900",
        "--scale",
        "4",
        "--out",
        str(png),
    )
    assert huge.returncode == 2 and "--size times scale 4" in huge.stderr
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


def test_a_caption_names_the_parameters_under_the_figure(window, qtbot, tmp_path):
    tab = window.tab("rope")
    view = shown(window, qtbot, "rope", "spectrum")
    caption = tab.caption()
    assert caption == "RoPE · seq_len 64 · head_dim 128, θ 10,000, interleaved layout, bfloat16"
    plain = QImage(str(export_view(view, tmp_path / "plain.png")))
    captioned = QImage(str(export_view(view, tmp_path / "captioned.png", caption=caption)))
    assert captioned.width() == plain.width() and captioned.height() > plain.height()
    strip = drawn_colours(captioned, plain.height())
    assert len(strip) > 2  # text drawn on the strip, not an empty band
    assert caption in (
        export_view(view, tmp_path / "captioned.svg", caption=caption).read_text(encoding="utf-8")
    )


@pytest.mark.parametrize(("theta", "written"), [(1e6, "θ 1,000,000"), (5e11, "θ 5e+11")])
def test_every_caption_writes_theta_as_the_interface_does(window, theta, written):
    # as the layer labels and the error messages write it, not as "1e+06"
    window.parameters.theta.setValue(theta)
    for name in registry.names():
        assert written + "," in window.tab(name).caption() + ",", name


def text_rows(image: QImage, top: int) -> list[int]:
    """The rows from ``top`` down holding anything but the background (every pixel read)."""
    background = image.pixel(0, image.height() - 1)
    return [
        y
        for y in range(top, image.height())
        if any(image.pixel(x, y) != background for x in range(image.width()))
    ]


@pytest.mark.parametrize("scale", [1, 2])
def test_a_caption_too_wide_for_the_figure_wraps_inside_its_strip(qtbot, scale):
    caption = "RoPE · seq_len 64 · head_dim 128, θ 10,000, interleaved layout, bfloat16"
    strips = {}
    for width in (1600, 260):
        view = CurvesView("title", "x", "y")
        qtbot.addWidget(view)
        view.resize(width, 300)
        view.set_curves([Curve("a", np.arange(5.0), np.arange(5.0))])
        image = view_image(view, caption=caption, scale=scale)
        figure = 300 * scale
        strips[width] = image.height() - figure
        rows = text_rows(image, figure)
        # every line inside the strip: none cut at its top or at the picture's bottom edge
        assert rows and rows[0] > figure and rows[-1] < image.height() - 1
    assert strips[260] > 1.5 * strips[1600]  # wrapped onto two lines or more: a taller strip


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
    assert dialog.windowTitle() == (
        "Copied Similarity against distance, normalised to the clipboard"
    )  # the view as the interface names it: its title
    rope = ExportDialog(window.tab("rope"))
    titles = [rope.view.itemText(i) for i in range(rope.view.count())]
    assert "(e) Wavelength 2π/θᵢ per pair" in titles and "spectrum" not in titles
    assert rope.view.findData("spectrum") >= 0  # the name stays its data (and its file name)


def test_the_export_dialog_saves_what_is_chosen(window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    from posenc_gui.export_dialog import ExportDialog

    target = tmp_path / "decay.svg"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), ""))
    )
    rope = window.tab("rope")
    window.tabs.setCurrentWidget(rope)
    assert rope.current_page() == "tables"
    dialog = ExportDialog(rope)
    dialog.view.setCurrentIndex(dialog.view.findData("decay"))  # on the invariance page
    dialog.caption.setChecked(True)
    dialog.save()
    assert rope.caption() in target.read_text(encoding="utf-8")
    assert rope.current_page() == "tables"  # drawn there, then behind again


def test_the_export_dialog_offers_sizes_and_refuses_a_bad_one(window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    from posenc_gui.export_dialog import ExportDialog

    target = tmp_path / "decay.png"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), ""))
    )
    warnings: list[str] = []
    monkeypatch.setattr(
        QMessageBox, "warning", staticmethod(lambda _parent, _title, text: warnings.append(text))
    )
    shown(window, qtbot, "rope", "decay")
    dialog = ExportDialog(window.tab("rope"))
    sizes = [dialog.size_choice.itemText(i) for i in range(dialog.size_choice.count())]
    assert sizes[0] == "as on screen" and "1600×900" in sizes and "1920×1080" in sizes
    assert dialog.figure_size() is None
    dialog.view.setCurrentIndex(dialog.view.findData("decay"))
    dialog.size_choice.setCurrentText("1600×900")
    dialog.scale.setCurrentIndex(1)  # 2×
    dialog.save()
    assert (QImage(str(target)).width(), QImage(str(target)).height()) == (3200, 1800)
    dialog.copy()
    assert dialog.windowTitle().startswith("Copied ")
    dialog.size_choice.setCurrentText("1000 x 50")  # typed: too low
    target.unlink()
    dialog.save()
    dialog.copy()
    assert not target.exists()
    assert len(warnings) == 2
    assert dialog.windowTitle() == "Export or copy a view"  # no "Copied …" over a refusal
    assert "from 200 to 8000" in warnings[0] and "'1000 x 50'" in warnings[0]


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
    assert refused.stderr.count("no frame to write") == 1  # said once
    assert not out.exists()


@pytest.mark.slow
def test_a_headless_run_says_what_the_tab_says_of_its_inputs(tmp_path, run_main):
    """A list entry the tab skips (in the app, said by its controls) is said on stderr too."""
    session = tmp_path / "dimensions.json"
    session.write_text(
        '{"format": "posenc-gui session", "version": 1,'
        ' "tabs": {"absolute": {"controls": {"dimensions": "0, 2, 9999"}}}}',
        encoding="utf-8",
    )
    out = tmp_path / "wave.npz"
    done = run_main(
        "export",
        "--tab",
        "absolute",
        "--view",
        "wave",
        "--session",
        str(session),
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    note = "posenc-gui: note: absolute: dimensions must be in [0, 127]; others are skipped"
    assert note in done.stderr.splitlines()
    assert list(np.load(out)["names"]) == ["dim 0", "dim 2"]


def test_an_svg_that_cannot_be_written_whole_leaves_nothing(window, tmp_path, monkeypatch):
    def disk_full(self, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(type(tmp_path), "write_bytes", disk_full)
    with pytest.raises(ValueError, match="No space left on device"):
        export_view(window.tab("absolute").table_view, tmp_path / "table.svg")
    assert list(tmp_path.iterdir()) == []


def test_a_line_at_the_end_of_a_range_is_drawn_whole(window, qtbot):
    # the target context ends the decay view's distances: at the picture's right edge it was
    # cut in half (on screen the page goes on there; an export's figure leaves a margin)
    from posenc_gui.views.axes import END_ROOM_PX

    window.apply_preset(next(p for p in window.presets if p.name == "Llama-3.1-8B"))
    view = shown(window, qtbot, "extension", "decay")
    image = view_image(view, size=(800, 600))
    target = view.lines[1].stroke.pen.color().getRgb()[:3]
    # the dashes, antialiased: a pixel they cover half or more, over the white background
    blends = [[cover * c + (1 - cover) * 255 for c in target] for cover in (0.5, 0.75, 1.0)]

    def near(x: int, y: int) -> bool:
        colour = QColor(image.pixel(x, y)).getRgb()[:3]
        return any(
            sum(abs(a - b) for a, b in zip(colour, blend, strict=True)) < 60 for blend in blends
        )

    columns = [x for x in range(image.width()) if any(near(x, y) for y in range(100, 500, 2))]
    assert columns and max(columns) < image.width() - END_ROOM_PX / 2, columns[-3:]
