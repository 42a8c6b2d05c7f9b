"""Keep resources/translations in step with the source.

    python tools/translations.py        # add new strings to each .ts, drop vanished ones,
                                        # then compile every .ts to .qm with pyside6-lrelease

Every string shown in the interface goes through ``tr("...")`` or is marked ``N_("...")``
where it is defined; this script collects those literals from posenc_gui/ (Qt's lupdate does
not know ``N_``). Translate the ``unfinished`` entries in Qt Linguist or any editor.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "posenc_gui"
TRANSLATIONS = ROOT / "resources" / "translations"
MARKERS = {"tr", "N_"}


def source_strings(package: Path = PACKAGE) -> tuple[list[str], list[str]]:
    """The literals passed to ``tr``/``N_`` in source order, and the places (``file:line``)
    that pass text built on the spot (an f-string, say), which cannot be translated."""
    found: dict[str, None] = {}
    problems = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in MARKERS
            ):
                arg = node.args[0] if len(node.args) == 1 and not node.keywords else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found[arg.value] = None
                # tr(name) shows text marked N_ elsewhere; text built here cannot be looked up
                elif arg is None or isinstance(arg, ast.JoinedStr | ast.BinOp | ast.Call):
                    problems.append(f"{path.relative_to(package.parent)}:{node.lineno}")
    return list(found), problems


def read_ts(path: Path) -> dict[str, str | None]:
    """Source → translation (None where unfinished) of a .ts file."""
    messages = {}
    for message in ET.parse(path).getroot().iter("message"):
        translation = message.find("translation")
        finished = translation is not None and translation.get("type") != "unfinished"
        messages[message.findtext("source")] = translation.text if finished else None
    return messages


def write_ts(path: Path, language: str, messages: dict[str, str | None]) -> None:
    root = ET.Element("TS", version="2.1", language=language)
    context = ET.SubElement(root, "context")
    ET.SubElement(context, "name").text = ""
    for source, translation in messages.items():
        message = ET.SubElement(context, "message")
        ET.SubElement(message, "source").text = source
        element = ET.SubElement(message, "translation")
        if translation is None:
            element.set("type", "unfinished")
        else:
            element.text = translation
    ET.indent(root)
    text = ET.tostring(root, encoding="unicode")
    path.write_text(f'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n{text}\n', "utf-8")


def lrelease() -> str:
    """The pyside6-lrelease next to this Python, or on PATH."""
    local = Path(sys.executable).with_name("pyside6-lrelease")
    return str(local) if local.exists() else shutil.which("pyside6-lrelease") or "pyside6-lrelease"


def compile_ts(ts: Path, qm: Path) -> None:
    subprocess.run([lrelease(), "-silent", str(ts), "-qm", str(qm)], check=True)


def main() -> int:
    strings, problems = source_strings()
    for problem in problems:
        print(f"not a literal, cannot be translated: {problem}", file=sys.stderr)
    for ts in sorted(TRANSLATIONS.glob("posenc_gui_*.ts")):
        old = read_ts(ts)
        messages = {source: old.get(source) for source in strings}
        write_ts(ts, ts.stem.removeprefix("posenc_gui_"), messages)
        compile_ts(ts, ts.with_suffix(".qm"))
        missing = sum(value is None for value in messages.values())
        print(f"{ts.name}: {len(messages)} strings, {missing} unfinished")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
