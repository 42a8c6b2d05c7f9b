"""What the command line, sessions and controls accept, imported by all of them and importing
neither Qt nor torch (so the command line refuses a bad argument at once)."""

from __future__ import annotations

import json

from posenc_gui.paths import resource_path

SEQ_LEN_RANGE = (1, 1 << 20)
D_MODEL_RANGE = (2, 16384)
HEAD_DIM_RANGE = (2, 1024)
THETA_RANGE = (10.0, 1e12)  # released checkpoints reach 1e11 (Falcon-H1)
SHARED_RANGES: dict[str, tuple[float, float]] = {
    "seq_len": SEQ_LEN_RANGE,
    "d_model": D_MODEL_RANGE,
    "head_dim": HEAD_DIM_RANGE,
    "theta": THETA_RANGE,
}
EVEN_PARAMETERS = ("d_model", "head_dim")
THEMES = ("light", "dark")
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}
FORMATS = (".png", ".svg", ".csv", ".npy", ".npz")
SCALES = (1, 2, 4)
SIZE_RANGE = (200, 8000)  # a figure's width and height in pixels before --scale
SIZE_PRESETS = ((1280, 720), (1600, 900), (1920, 1080), (2560, 1440))
MAX_IMAGE_SIDE = 16000  # pixels, after --scale: a QImage of 16000² is 1 GB already
# Preset kinds whose config is a RoPE model's config.json (multimodal: M-RoPE, 2-D axial).
ROPE_KINDS = ("rope", "multimodal")
DEVICES = ("cpu", "cuda", "mps")  # which of them torch can use here is known once it loads
MAX_JSON_BYTES = 1_000_000  # a config.json or a session is a few kB: refuse anything absurd
MAX_JSON_DEPTH = 100  # … and nests a few levels deep


def fold_name(name: str) -> str:
    """A name as a person may type it: any case, ``x`` for ``×``, spaces collapsed."""
    return " ".join(name.casefold().replace("×", "x").split())


def parse_size(text: str) -> tuple[int, int]:
    """``"1600x900"`` (or ``1600×900``, ``1600 X 900``) → ``(1600, 900)``; ValueError naming
    the allowed range otherwise."""
    parts = text.casefold().replace("×", "x").split("x")
    try:
        width, height = (int(part.strip()) for part in parts)
    except ValueError:
        raise ValueError(f"{size_rule()}, got {text!r}") from None
    return check_size((width, height))


def size_rule() -> str:
    """What a figure size must be, for the messages that refuse one."""
    low, high = SIZE_RANGE
    return f"must be WIDTHxHEIGHT in pixels, each a whole number in [{low}, {high}]"


def check_size(size: tuple[int, int], scale: int = 1) -> tuple[int, int]:
    """``size`` (width, height) if each is in SIZE_RANGE and, times ``scale``, at most
    MAX_IMAGE_SIDE; ValueError saying which rule it breaks."""
    low, high = SIZE_RANGE
    width, height = size
    if not all(isinstance(n, int) and low <= n <= high for n in size):
        raise ValueError(f"{size_rule()}, got {width}x{height}")
    if max(width, height) * scale > MAX_IMAGE_SIDE:
        raise ValueError(
            f"times scale {scale} must stay within {MAX_IMAGE_SIDE:,} pixels a side, "
            f"got {width * scale}x{height * scale}"
        )
    return size


def preset_names() -> list[str]:
    """The bundled presets' names, read without validating them (``presets`` does that)."""
    document = json.loads(resource_path("presets", "models.json").read_text(encoding="utf-8"))
    return [entry["name"] for entry in document["presets"]]


def format_number(value: float) -> str:
    """1048576 → "1,048,576"; 1e7 → "1e+07"; a whole number the short form would round stays
    whole: 16777216 → "16,777,216" (not "1.67772e+07", a bound no one can type back)."""
    whole = float(value).is_integer()
    if whole and abs(value) < 1e7:
        return f"{int(value):,}"
    short = f"{value:g}"
    return f"{int(value):,}" if whole and float(short) != value else short


def rounded_number(value: float) -> str:
    """A derived magnitude (a wavelength, an effective base) as θ is written: 6.283, 1,117,
    54,410, 2,560,400, 1e+12: whole with separators from 1,000 to 10⁷ (its fraction tells
    nothing there), four significant digits otherwise (not 1.49e+04 beside 4080)."""
    return f"{value:,.0f}" if 1000 <= round(value) < 1e7 else f"{value:.4g}"


# Full-width forms (U+FF01–FF5E, a Chinese input method's digits, commas, points, signs and
# letters) as their ASCII ones, the ideographic space as a space, the enumeration comma 、 as a
# comma, the ideographic full stop 。 (what "." types in Chinese punctuation) as a point and
# the minus sign − (the app's own texts write it) as a hyphen. Not NFKC: that would read a
# superscript ² as a 2, so "10²" would become 102 instead of being refused.
_PLAIN = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {
    0x3000: ord(" "),
    ord("、"): ord(","),
    ord("。"): ord("."),
    ord("｡"): ord("."),
    0x2212: ord("-"),
}


def plain_typing(text: str) -> str:
    """What a person typed, full-width forms as ASCII: ``１２８，０００`` → ``128,000``."""
    return text.translate(_PLAIN)


def parse_number(text: str) -> float | None:
    """What a person types for a number — ``1e7``, ``20,000,000``, ``1 000``, ``2_000``,
    ``１２８`` — as a float (``1e400`` as inf: each box's range refuses it, saying so); None if
    it is not a number."""
    try:
        return float(plain_typing(text).strip().replace(",", "").replace("_", "").replace(" ", ""))
    except ValueError:
        return None
