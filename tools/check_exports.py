"""Check that a change leaves every figure as it was: export each view, then compare.

    python tools/check_exports.py export OUT [--root CHECKOUT]   # every view as OUT/TAB-VIEW.png
    python tools/check_exports.py compare BEFORE AFTER [--tolerance 2]

``export`` runs ``main.py export`` of a checkout (default: this one) once per view at default
parameters, so two checkouts of different versions can be compared. ``compare`` reports, per
figure, its size and the share of pixels whose channels differ by more than ``--tolerance``
(out of 255); it exits 1 when a figure is missing, changes size or has differing pixels.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def export_all(out: Path, root: Path) -> int:
    """Every view of the checkout at ``root`` as a PNG in ``out``; the number of failures."""
    env = os.environ | {"QT_QPA_PLATFORM": "offscreen"}
    main = [sys.executable, str(root / "main.py")]
    listing = subprocess.run(
        [*main, "--list-views"], capture_output=True, text=True, check=True, cwd=root, env=env
    )
    views = [line.split() for line in listing.stdout.splitlines() if line.strip()]
    out.mkdir(parents=True, exist_ok=True)

    def export(tab_view: list[str]) -> str:
        tab, view = tab_view
        target = out / f"{tab}-{view}.png"
        command = [*main, "export", "--tab", tab, "--view", view, "--out", str(target)]
        done = subprocess.run(command, capture_output=True, text=True, cwd=root, env=env)
        if done.returncode == 0 or "nothing drawn to export" in done.stderr:
            return ""  # a view with nothing to show at defaults (a model's layers) has no figure
        return f"{tab} {view}: {done.stderr.strip()}"

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        failures = [message for message in pool.map(export, views) if message]
    for message in failures:
        print(f"failed: {message}", file=sys.stderr)
    print(f"{len(views) - len(failures)} of {len(views)} views exported to {out}")
    return len(failures)


def compare(before: Path, after: Path, tolerance: int) -> int:
    """Print how each figure of ``after`` differs from ``before``; the number that differ."""
    import numpy as np
    from PySide6.QtGui import QImage

    def pixels(path: Path) -> np.ndarray:
        image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGBA8888)
        array = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes())
        rows = array.reshape(image.height(), image.bytesPerLine())[:, : 4 * image.width()]
        return rows.copy()  # the image, and the memory it owns, goes with this function

    names = sorted({p.name for p in before.glob("*.png")} | {p.name for p in after.glob("*.png")})
    bad = 0
    for name in names:
        if not (before / name).exists() or not (after / name).exists():
            print(f"{name}: only in {'after' if (after / name).exists() else 'before'}")
            bad += 1
            continue
        a, b = pixels(before / name), pixels(after / name)
        if a.shape != b.shape:
            print(f"{name}: size {a.shape[1] // 4}×{a.shape[0]} → {b.shape[1] // 4}×{b.shape[0]}")
            bad += 1
            continue
        differing = (
            (np.abs(a.astype(int) - b.astype(int)) > tolerance).reshape(a.shape[0], -1, 4).any(-1)
        )
        share = differing.mean()
        print(f"{name}: {share:.4%} of pixels differ by more than {tolerance}")
        bad += share > 0
    print(f"{len(names) - bad} of {len(names)} figures unchanged")
    return bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    export = commands.add_parser("export", help="every view of a checkout as PNG")
    export.add_argument("out", type=Path)
    export.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    check = commands.add_parser("compare", help="compare two folders of exports")
    check.add_argument("before", type=Path)
    check.add_argument("after", type=Path)
    check.add_argument("--tolerance", type=int, default=2, help="per channel, out of 255")
    args = parser.parse_args()
    if args.command == "export":
        return 1 if export_all(args.out, args.root.resolve()) else 0
    return 1 if compare(args.before, args.after, args.tolerance) else 0


if __name__ == "__main__":
    raise SystemExit(main())
