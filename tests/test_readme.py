"""The README is the contract: its library examples run as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_examples_run():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 4  # sinusoidal, relative, rope, rope_scaling
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)
    assert namespace["rope_scaling"].regions(namespace["scaling"]).count("blended") == 6


def test_readme_has_exactly_one_marked_test_line():
    text = README.read_text(encoding="utf-8")
    assert text.count("<!-- test-line -->") == 1
    line = text.split("<!-- test-line -->")[1].split("```")[1].strip().splitlines()[1]
    assert "pytest" in line and "pip install" in line
