"""SVG exports draw the same outside Qt: strokes in the document's coordinates, symbols as
vector paths, Chinese text as glyph outlines, and every view rasterised by librsvg
(``rsvg-convert``) like its PNG export."""

from __future__ import annotations

import base64
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtCore import QBuffer, QIODevice
from PySide6.QtGui import QFont, QImage, QPainter

from posenc_gui import registry
from posenc_gui.export import export_view
from posenc_gui.svg import portable
from tests.conftest import FRAME_TIMEOUT_MS

SVG = "{http://www.w3.org/2000/svg}"
SIZE = (800, 600)
BLOCK = 8  # pixels a side of the blocks compared
# Out of 255, per channel, between the blocks' mean colours. Text (another font engine) and
# antialiasing stay well within these (measured on every view: mean ≤ 3.7, ≤ 0.24% of blocks
# gross); a line drawn as a band as wide as its data's scale does not (before strokes were
# flattened: means 5–185, 2.7–93% of blocks gross on the line plots), nor a heatmap whose cells
# librsvg blends into each other (mean 10, 5% gross on the 12 × 8 patch scores).
MEAN_LIMIT = 8.0
GROSS = 64.0
GROSS_SHARE = 0.01  # of a figure's blocks may be off by more than GROSS


def test_non_scaling_strokes_are_drawn_in_the_document_coordinates():
    svg = b"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
<g stroke-width="2"><g stroke="#000" transform="matrix(10,0,0,-20,5,90)">
<polyline fill="none" vector-effect="non-scaling-stroke" points="0,0 1,1 2,0.5 " />
<path vector-effect="non-scaling-stroke" d="M0,0 L1,1e-1 C1,1 2,2 3,3 Z"/>
<rect vector-effect="non-scaling-stroke" x="0" y="0" width="1" height="1"/>
</g>
<g transform="matrix(2,0,0,2,0,0)"><polyline vector-effect="non-scaling-stroke" points="1,1"/>
<text x="1" y="1">kept</text></g>
<g transform="matrix(3,0,0,3,0,0)"><polyline points="1,1 2,2"/></g>
</g></svg>"""
    root = ET.fromstring(portable(svg))
    moved, mixed, plain = root.find(f"{SVG}g").findall(f"{SVG}g")
    assert "transform" not in moved.attrib and moved.get("stroke") == "#000"
    polyline, path, rect = moved
    assert polyline.get("points") == "5,90 15,70 25,80"
    assert path.get("d") == "M 5,90 L 15,88 C 15,70 25,50 35,30 Z"
    assert (rect.get("x"), rect.get("y"), rect.get("width"), rect.get("height")) == (
        "5",
        "70",
        "10",
        "20",
    )
    assert all("vector-effect" not in shape.attrib for shape in moved)
    # A group that holds text too, or no non-scaling stroke, stays as Qt wrote it.
    assert mixed.get("transform") == "matrix(2,0,0,2,0,0)" and mixed[0].get("points") == "1,1"
    assert plain.get("transform") == "matrix(3,0,0,3,0,0)"


def test_a_heatmap_image_is_enlarged_to_crisp_cells(qapp):
    cells = QImage(2, 1, QImage.Format.Format_RGB32)
    cells.setPixel(0, 0, 0xFF0000FF)
    cells.setPixel(1, 0, 0xFFFF0000)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    cells.save(buffer, "PNG")
    data = base64.b64encode(bytes(buffer.data().data())).decode()
    svg = f"""<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
<g transform="matrix(10.5,0,0,-3,0,0)"><image x="0" y="0" width="2" height="1"
 preserveAspectRatio="none" xlink:href="data:image/png;base64,{data}"/></g></svg>"""
    root = ET.fromstring(portable(svg.encode()))
    image = root.find(f".//{SVG}image")
    assert (image.get("width"), image.get("height")) == ("2", "1")  # the same box
    href = image.get("{http://www.w3.org/1999/xlink}href").removeprefix("data:image/png;base64,")
    enlarged = QImage.fromData(base64.b64decode(href))
    assert (enlarged.width(), enlarged.height()) == (22, 3)  # 11 × 3 pixels per cell
    assert {enlarged.pixel(x, y) for x in range(11) for y in range(3)} == {0xFF0000FF}
    assert {enlarged.pixel(x, y) for x in range(11, 22) for y in range(3)} == {0xFFFF0000}


def test_an_incomplete_svg_is_refused():
    with pytest.raises(ET.ParseError):
        portable(b'<svg xmlns="http://www.w3.org/2000/svg"><g>')


def test_curves_and_their_markers_are_vectors_in_the_document_coordinates(window, tmp_path):
    view = window.tab("absolute").wave_view  # lines with round markers, and a legend
    root = ET.parse(export_view(view, tmp_path / "wave.svg")).getroot()
    assert root.find(f".//{SVG}image") is None  # markers are paths, not bitmaps of an atlas
    stroked = [
        group
        for group in root.iter(f"{SVG}g")
        if any(shape.get("vector-effect") == "non-scaling-stroke" for shape in group)
    ]
    assert stroked == []  # every stroke keeps its width without that attribute
    assert len(root.findall(f".//{SVG}path")) > 4 * 60  # a marker per point of 4 curves


CHINESE = "我爱你，中国。"


def ink(image: QImage) -> np.ndarray:
    """Where ``image`` (black on white) is darker than mid-grey."""
    return blocks_of(image, 1).mean(axis=-1) < 128


def test_an_svg_is_as_many_pixels_as_its_png_in_any_renderer(window, tmp_path):
    """Its size in pixels (Qt writes millimetres: 1280 px came out 1281 in librsvg)."""
    drawn = export_view(window.tab("absolute").table_view, tmp_path / "t.svg", size=(1280, 720))
    root = ET.parse(drawn).getroot()
    assert (root.get("width"), root.get("height")) == ("1280", "720")
    out = tmp_path / "t.png"
    subprocess.run([rsvg_convert(), "-o", str(out), str(drawn)], check=True, timeout=60)
    rendered = QImage(str(out))
    assert (rendered.width(), rendered.height()) == (1280, 720)


def test_chinese_text_draws_outside_qt_without_a_chinese_font(qapp, tmp_path):
    from posenc_gui.app import CJK_FALLBACK, install_fonts

    install_fonts(qapp)  # the bundled font: the one Qt draws Chinese with here
    family = f"Sans Serif,{CJK_FALLBACK}"
    svg = f"""<svg xmlns="http://www.w3.org/2000/svg" width="420" height="100">
<rect width="420" height="100" fill="#ffffff"/><g font-family="{family}" font-size="12">
<text fill="#000000" stroke="none" xml:space="preserve" x="10" y="70" font-family="{family}"
 font-size="48" font-weight="400" font-style="normal">{CHINESE}</text>
<text fill="#000000" x="10" y="90" font-family="{family}" font-size="12">PE 0.5</text>
</g></svg>"""
    root = ET.fromstring(portable(svg.encode()))
    texts = root.findall(f".//{SVG}text")
    assert [text.text for text in texts] == ["PE 0.5"]  # Latin stays text
    assert all(text.get("font-family").endswith(",sans-serif") for text in texts)
    (outline,) = root.findall(f".//{SVG}path")
    assert outline.get("aria-label") == CHINESE and outline.get("fill") == "#000000"
    drawn = tmp_path / "chinese.svg"
    drawn.write_bytes(ET.tostring(root))
    out = tmp_path / "chinese.png"
    subprocess.run([rsvg_convert(), "-o", str(out), str(drawn)], check=True, timeout=60)

    expected = QImage(420, 100, QImage.Format.Format_RGB32)
    expected.fill(0xFFFFFFFF)
    painter = QPainter(expected)
    font = QFont()
    font.setFamilies(family.split(","))
    font.setPixelSize(48)
    painter.setFont(font)
    painter.drawText(10, 70, CHINESE)
    painter.end()
    # The Chinese line only (the Latin one, below y = 80, is drawn by each renderer's own font).
    rendered, wanted = ink(QImage(str(out)))[:80], ink(expected)[:80]
    overlap = (rendered & wanted).sum() / (rendered | wanted).sum()
    # Glyph for glyph (antialiasing aside); empty boxes in their place overlap by 0.14.
    assert wanted.sum() > 1000 and overlap > 0.8, overlap


def test_text_that_cannot_be_outlined_stays_text(qapp):
    svg = f"""<svg xmlns="http://www.w3.org/2000/svg">
<text x="1" y="2" font-size="12" font-weight="bold">{CHINESE}</text>
<text x="1" font-size="12">{CHINESE}</text></svg>"""
    root = ET.fromstring(portable(svg.encode()))
    assert [text.text for text in root.iter(f"{SVG}text")] == [CHINESE, CHINESE]
    assert root.find(f"{SVG}path") is None


def rsvg_convert() -> str:
    """The rasteriser to compare with; the test fails (never skips) without it."""
    path = shutil.which("rsvg-convert")
    if path is None:
        pytest.fail(
            "rsvg-convert is not installed: it is Debian's and Ubuntu's librsvg2-bin, "
            "Fedora's librsvg2-tools (.ci/run installs it)"
        )
    return path


def blocks(image: QImage) -> np.ndarray:
    """Mean RGB per BLOCK×BLOCK block, composited over white."""
    return blocks_of(image, BLOCK)


def blocks_of(image: QImage, block: int) -> np.ndarray:
    """Mean RGB per ``block``×``block`` block, composited over white."""
    rgba = image.convertToFormat(QImage.Format.Format_RGBA8888)
    flat = np.frombuffer(rgba.constBits(), np.uint8, rgba.sizeInBytes())
    pixels = flat.reshape(rgba.height(), rgba.bytesPerLine())[:, : 4 * rgba.width()]
    pixels = pixels.reshape(rgba.height(), rgba.width(), 4).astype(float)
    alpha = pixels[..., 3:] / 255
    rgb = pixels[..., :3] * alpha + 255 * (1 - alpha)
    rows, cols = rgb.shape[0] // block, rgb.shape[1] // block
    cropped = rgb[: rows * block, : cols * block]
    return cropped.reshape(rows, block, cols, block, 3).mean(axis=(1, 3))


def difference(png: QImage, rendered: QImage) -> tuple[float, float]:
    """Mean absolute block difference and the share of blocks off by more than GROSS."""
    assert (rendered.width(), rendered.height()) == (png.width(), png.height())
    diff = np.abs(blocks(png) - blocks(rendered)).mean(axis=-1)
    return float(diff.mean()), float((diff > GROSS).mean())


@pytest.mark.slow
def test_every_view_as_svg_renders_outside_qt_like_its_png(window, qtbot, tmp_path):
    rsvg = rsvg_convert()
    failures, measured = [], []
    # a model whose layers are listed: the layer views draw them (empty, they are refused)
    window.apply_preset(next(p for p in window.presets if p.name.startswith("Gemma-3-27B")))
    for spec in registry.specs():
        tab = window.tab(spec.name)
        window.tabs.setCurrentWidget(tab)
        for name in sorted(spec.views):
            view = tab.ready_view(name)  # its page laid out and its exact frame drawn
            qtbot.waitUntil(
                lambda tab=tab: tab.frame is not None and tab.frame.params == tab.request(),
                timeout=FRAME_TIMEOUT_MS,
            )
            stem = tmp_path / f"{spec.name}-{name}"
            png = export_view(view, stem.with_suffix(".png"), size=SIZE)
            svg = export_view(view, stem.with_suffix(".svg"), size=SIZE)
            out = stem.with_suffix(".rsvg.png")
            width, height = map(str, SIZE)
            subprocess.run(
                [rsvg, "-w", width, "-h", height, "-o", str(out), str(svg)],
                check=True,
                timeout=60,
            )
            mean, gross = difference(QImage(str(png)), QImage(str(out)))
            measured.append(f"{spec.name} {name}: mean {mean:.1f}, {gross:.2%} gross")
            if mean > MEAN_LIMIT or gross > GROSS_SHARE:
                failures.append(measured[-1])
    assert len(measured) == sum(len(spec.views) for spec in registry.specs())
    assert not failures, "SVG rendered by librsvg differs from the PNG:\n" + "\n".join(failures)
