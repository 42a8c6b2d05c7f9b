"""docs/figures.sh: one view in both themes, both languages and presentation mode, as the
README promises."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from PySide6.QtGui import QImage

from tests.conftest import ROOT


@pytest.mark.slow
def test_figures_script_makes_each_view_in_both_themes_and_languages(tmp_path, qapp):
    result = subprocess.run(
        ["bash", str(ROOT / "docs" / "figures.sh"), str(tmp_path), "--seq-len", "32"],
        capture_output=True,
        text=True,
        timeout=300,
        env=os.environ | {"PYTHON": sys.executable, "POSENC_VIEWS": "compare similarity"},
    )
    assert result.returncode == 0, result.stderr
    images = {
        folder: QImage(str(tmp_path / folder / "compare-similarity.png"))
        for folder in (
            f"{lang}-{theme}{mode}"
            for lang in ("en", "zh_CN")
            for theme in ("light", "dark")
            for mode in ("", "-presentation")
        )
    }
    for folder, image in images.items():
        assert not image.isNull(), folder
        background = image.pixelColor(2, 2).lightnessF()
        dark = "-dark" in folder
        assert (background < 0.2) if dark else (background > 0.9), folder
    assert images["en-light"] != images["zh_CN-light"]  # the labels differ
    # presentation mode: the same figure in larger type and thicker lines
    assert images["en-light"] != images["en-light-presentation"]
