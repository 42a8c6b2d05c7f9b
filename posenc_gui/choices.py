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
FORMATS = (".png", ".svg", ".csv", ".npy")
SCALES = (1, 2, 4)
DEVICES = ("cpu", "cuda", "mps")  # which of them torch can use here is known once it loads
MAX_JSON_BYTES = 1_000_000  # a config.json or a session is a few kB: refuse anything absurd


def fold_name(name: str) -> str:
    """A name as a person may type it: any case, ``x`` for ``×``, spaces collapsed."""
    return " ".join(name.casefold().replace("×", "x").split())


def preset_names() -> list[str]:
    """The bundled presets' names, read without validating them (``presets`` does that)."""
    document = json.loads(resource_path("presets", "models.json").read_text(encoding="utf-8"))
    return [entry["name"] for entry in document["presets"]]


def format_number(value: float) -> str:
    """1048576 → "1,048,576"; 1e7 → "1e+07"."""
    return f"{int(value):,}" if float(value).is_integer() and abs(value) < 1e7 else f"{value:g}"
