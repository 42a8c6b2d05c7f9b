"""Make Qt's SVG draw the same in every renderer (``portable``).

- Strokes. QSvgGenerator writes a curve in its data coordinates inside
  ``<g transform="matrix(…)">`` and keeps the pen's screen width with
  ``vector-effect="non-scaling-stroke"``. Renderers that ignore that attribute (librsvg, hence
  GNOME's viewers and many converters) scale the stroke with the data: a 2 px line becomes a
  band hundreds of pixels wide. Such a group's matrix is applied to its shapes' coordinates
  and dropped, so the width is the screen width for everyone.
- Images. A heatmap is an image of one pixel per cell, enlarged by its group's matrix; Qt asks
  for crisp cells (``image-rendering="optimizeSpeed"``) but librsvg ignores that and blends
  neighbouring cells. Each cell is made a block of pixels at least as large as it is drawn, so
  smoothing can only soften its outermost pixel.

- Text. Latin, Greek and digits stay text (editable, searchable); their font list ends with the
  CSS generic ``sans-serif`` so a browser that knows none of Qt's families does not fall back
  to its serif default. A text run with characters from U+2E80 on (Chinese: 我爱你，中国。)
  becomes the outline of the glyphs Qt drew it with, since a viewer without a CJK font (librsvg
  on a bare Linux) draws such text as empty boxes; its string stays in ``aria-label``.
"""

from __future__ import annotations

import base64
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator

from PySide6.QtCore import QBuffer, QIODevice, Qt
from PySide6.QtGui import QFont, QImage, QPainterPath

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
NON_SCALING = "non-scaling-stroke"
_MATRIX = re.compile(r"\s*matrix\(([^)]*)\)\s*")
_PATH_TOKEN = re.compile(r"[A-Za-z]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ABSOLUTE_COMMANDS = set("MLCZ")  # all QSvgGenerator writes in path data
_PNG_DATA = "data:image/png;base64,"
MAX_IMAGE_PIXELS = 16_000_000  # an enlarged image stays under this (64 MB while encoded)
FIRST_OUTLINED = 0x2E80  # CJK radicals onward: glyphs a viewer's default fonts may lack
OUTLINE_PIXELS = 1000  # glyphs are outlined at this size, then scaled (no hinting left)
GENERIC_FAMILY = "sans-serif"

Matrix = tuple[float, float, float, float, float, float]  # SVG's a, b, c, d, e, f
Point = Callable[[float, float], tuple[float, float]]


def _number(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _mapping(matrix: Matrix) -> Point:
    a, b, c, d, e, f = matrix
    return lambda x, y: (a * x + c * y + e, b * x + d * y + f)


def _points(text: str, point: Point) -> str:
    values = [float(v) for v in re.split(r"[\s,]+", text.strip()) if v]
    if len(values) % 2:
        raise ValueError(f"odd number of coordinates in {text[:40]!r}")
    pairs = (point(x, y) for x, y in zip(values[::2], values[1::2], strict=True))
    return " ".join(f"{_number(x)},{_number(y)}" for x, y in pairs)


def _path(text: str, point: Point) -> str:
    tokens = _PATH_TOKEN.findall(text)
    out: list[str] = []
    numbers: list[float] = []

    def flush() -> None:
        if len(numbers) % 2:
            raise ValueError(f"odd number of coordinates in {text[:40]!r}")
        for x, y in zip(numbers[::2], numbers[1::2], strict=True):
            out.append(",".join(map(_number, point(x, y))))
        numbers.clear()

    for token in tokens:
        if token.isalpha():
            if token not in _ABSOLUTE_COMMANDS:
                raise ValueError(f"path command {token!r} is not handled")
            flush()
            out.append(token)
        else:
            numbers.append(float(token))
    flush()
    return " ".join(out)


def _flattened(shape: ET.Element, matrix: Matrix) -> dict[str, str]:
    """``shape``'s attributes with ``matrix`` applied to its coordinates; ValueError if it
    cannot be."""
    tag = shape.tag.removeprefix(f"{{{SVG}}}")
    point = _mapping(matrix)
    attributes = {key: value for key, value in shape.attrib.items() if key != "vector-effect"}
    if tag in ("polyline", "polygon"):
        attributes["points"] = _points(shape.get("points", ""), point)
    elif tag == "path":
        attributes["d"] = _path(shape.get("d", ""), point)
    elif tag == "rect" and matrix[1] == matrix[2] == 0:
        x, y = point(float(shape.get("x", 0)), float(shape.get("y", 0)))
        width = matrix[0] * float(shape.get("width", 0))
        height = matrix[3] * float(shape.get("height", 0))
        attributes |= {
            "x": _number(min(x, x + width)),
            "y": _number(min(y, y + height)),
            "width": _number(abs(width)),
            "height": _number(abs(height)),
        }
    else:
        raise ValueError(f"cannot apply a transform to <{tag}>")
    return attributes


def _groups(element: ET.Element) -> Iterator[tuple[ET.Element, Matrix]]:
    """The groups under ``element`` with a matrix transform in the document's coordinates
    (a group inside a transformed one is left alone), with their matrices."""
    for group in element.iterfind(f"{{{SVG}}}g"):
        transform = group.get("transform")
        if transform is None:
            yield from _groups(group)
        elif match := _MATRIX.fullmatch(transform):
            a, b, c, d, e, f = (float(v) for v in match.group(1).split(","))
            yield group, (a, b, c, d, e, f)


def _flatten(group: ET.Element, matrix: Matrix) -> None:
    """Draw ``group``'s shapes in its parent's coordinates when it holds non-scaling strokes
    and only shapes this can move (else it stays as Qt wrote it)."""
    shapes = list(group)
    if not any(shape.get("vector-effect") == NON_SCALING for shape in shapes):
        return
    try:
        attributes = [_flattened(shape, matrix) for shape in shapes]
    except ValueError:
        return
    for shape, new in zip(shapes, attributes, strict=True):
        shape.attrib.clear()
        shape.attrib.update(new)
    del group.attrib["transform"]


def _sharpen(group: ET.Element, matrix: Matrix) -> None:
    """Enlarge each PNG image of ``group`` (nearest neighbour) to at least its drawn size."""
    a, b, c, d, _, _ = matrix
    for image in group.iterfind(f"{{{SVG}}}image"):
        href = f"{{{XLINK}}}href"
        data = image.get(href, "")
        if not data.startswith(_PNG_DATA):
            continue
        picture = QImage.fromData(base64.b64decode(data.removeprefix(_PNG_DATA)))
        if picture.isNull():
            continue
        drawn_width = math.hypot(a, b) * float(image.get("width", picture.width()))
        drawn_height = math.hypot(c, d) * float(image.get("height", picture.height()))
        factors = [
            max(1, math.ceil(drawn / pixels - 1e-6))
            for drawn, pixels in ((drawn_width, picture.width()), (drawn_height, picture.height()))
        ]
        while factors != [1, 1] and (
            picture.width() * factors[0] * picture.height() * factors[1] > MAX_IMAGE_PIXELS
        ):
            factors = [max(1, factor // 2) for factor in factors]
        if factors == [1, 1]:
            continue
        larger = picture.scaled(
            picture.width() * factors[0],
            picture.height() * factors[1],
            Qt.AspectRatioMode.IgnoreAspectRatio,
            Qt.TransformationMode.FastTransformation,
        )
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        larger.save(buffer, "PNG")  # type: ignore[call-overload]
        image.set(href, _PNG_DATA + base64.b64encode(bytes(buffer.data().data())).decode())


def _path_data(path: QPainterPath, scale: float, x: float, y: float) -> str:
    """SVG path data of ``path`` scaled by ``scale`` and moved by (x, y)."""
    commands = {
        QPainterPath.ElementType.MoveToElement: "M",
        QPainterPath.ElementType.LineToElement: "L",
        QPainterPath.ElementType.CurveToElement: "C",
    }
    out: list[str] = []
    for index in range(path.elementCount()):
        element = path.elementAt(index)
        if element.type in commands:
            out.append(commands[element.type])
        out.append(f"{_number(x + scale * element.x)},{_number(y + scale * element.y)}")
    return " ".join(out)


def _outlined(text: ET.Element) -> ET.Element | None:
    """``text`` as a filled path of its glyphs' outlines (the fonts Qt resolves for its
    font-family list, so the same glyphs as on screen), or None if it holds no character from
    FIRST_OUTLINED on or lacks its position, size or numeric weight."""
    string = text.text or ""
    if all(ord(character) < FIRST_OUTLINED for character in string):
        return None
    try:
        x, y, size = (float(text.attrib[key]) for key in ("x", "y", "font-size"))
        weight = int(text.get("font-weight", "400"))
    except (KeyError, ValueError):
        return None
    font = QFont()
    font.setFamilies([f.strip() for f in text.get("font-family", "").split(",") if f.strip()])
    font.setPixelSize(OUTLINE_PIXELS)
    font.setWeight(QFont.Weight(weight))
    font.setItalic(text.get("font-style") in ("italic", "oblique"))
    outline = QPainterPath()
    outline.addText(0, 0, font, string)
    kept = {
        key: value
        for key, value in text.attrib.items()
        if key not in ("x", "y", "font-family", "font-size", "font-weight", "font-style")
        and not key.startswith("{")  # xml:space
    }
    path = ET.Element(f"{{{SVG}}}path", kept)
    path.set("d", _path_data(outline, size / OUTLINE_PIXELS, x, y))
    path.set("aria-label", string)
    path.tail = text.tail
    return path


def _portable_text(root: ET.Element) -> None:
    """Outline the text runs that need it (``_outlined``) and end every font-family list with
    GENERIC_FAMILY."""
    for parent in list(root.iter()):
        family = parent.get("font-family")
        if family is not None and GENERIC_FAMILY not in family.split(","):
            parent.set("font-family", f"{family},{GENERIC_FAMILY}")
        for index, child in enumerate(parent):
            if child.tag == f"{{{SVG}}}text" and (path := _outlined(child)) is not None:
                parent[index] = path


def portable(svg: bytes) -> bytes:
    """``svg`` (as QSvgGenerator writes it) with strokes in the document's coordinates,
    heatmap cells that stay crisp and text that needs no font of ours, in every renderer.

    Raises ``xml.etree.ElementTree.ParseError`` when ``svg`` is not well-formed XML.
    """
    root = ET.fromstring(svg)
    box = root.get("viewBox")
    if box is not None:  # its size in pixels, as its PNG: in mm (Qt's) 1280 px came out 1281
        width, height = box.split()[2:]
        root.set("width", width)
        root.set("height", height)
    for group, matrix in list(_groups(root)):
        _flatten(group, matrix)
        _sharpen(group, matrix)
    _portable_text(root)
    ET.register_namespace("", SVG)
    ET.register_namespace("xlink", XLINK)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
