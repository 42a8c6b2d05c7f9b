"""The README is the contract: its library examples run as written, its command line names
every page."""

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


def test_readme_names_every_page_of_each_tab_for_the_page_option():
    from posenc_gui.registry import specs

    paragraph = README.read_text(encoding="utf-8").split("`--page` picks")[1].split("\n\n")[0]
    for spec in specs():
        pages = list(dict.fromkeys(page for page in spec.views.values() if page))
        if pages:
            listed = re.search(rf"`{spec.name}`:\s*([^;)]*)", paragraph)
            assert listed is not None, spec.name
            assert re.findall(r"`(\w+)`", listed.group(1)) == pages, spec.name
