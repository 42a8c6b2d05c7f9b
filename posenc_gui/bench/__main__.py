"""``python -m posenc_gui.bench``: see the package's docstring."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Sequence

from posenc_gui.bench import __doc__ as DESCRIPTION
from posenc_gui.bench.baselines import command_line_times
from posenc_gui.bench.driver import SIZES, run
from posenc_gui.bench.report import markdown, median_report, table


def _size(text: str) -> tuple[int, int, int]:
    try:
        seq_len, d_model, head_dim = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a size is seq_len,d_model,head_dim (three whole numbers), got {text!r}"
        ) from None
    return seq_len, d_model, head_dim


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m posenc_gui.bench", description=DESCRIPTION)
    parser.add_argument("--json", action="store_true", help="print a JSON document")
    parser.add_argument(
        "--quick", action="store_true", help="the smallest size and two steps (a smoke run)"
    )
    parser.add_argument(
        "--steps",
        type=int,
        default=24,
        help="control changes per tab page (they walk through every control)",
    )
    parser.add_argument(
        "--sizes",
        type=_size,
        nargs="+",
        metavar="L,D,H",
        help="seq_len,d_model,head_dim to measure at (default: "
        + " ".join(",".join(map(str, size)) for size in SIZES)
        + ")",
    )
    parser.add_argument("--tab", action="append", default=[], help="only this tab (repeatable)")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="split each frame into worker compute, GUI-thread draw and paint (medians)",
    )
    parser.add_argument("--device", help="compute device (default: the best available)")
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="runs, each in a fresh process; every figure is the median of them",
    )
    parser.add_argument(
        "--markdown", action="store_true", help="print the README's table (Markdown)"
    )
    args = parser.parse_args(argv)
    if args.steps < 2:
        parser.error(f"--steps must be at least 2, got {args.steps}")
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, got {args.repeat}")
    if args.repeat > 1:  # each run in a fresh process: launch and memory are per run
        report = median_report([_run_in_a_process(args) for _ in range(args.repeat)])
    else:
        sizes = args.sizes or (SIZES[:1] if args.quick else SIZES)
        report = run(sizes, 2 if args.quick else args.steps, args.device, args.tab)
        report |= {"command_line_s": command_line_times(1 if args.quick else 3)}
    if args.markdown:
        print(markdown(report))
    else:
        print(json.dumps(report, indent=1) if args.json else table(report, profile=args.profile))
    return 0


def _run_in_a_process(args: argparse.Namespace) -> dict:
    """One run of the same measurement in a fresh interpreter, as its JSON report."""
    command = [sys.executable, "-m", "posenc_gui.bench", "--json", "--steps", str(args.steps)]
    command += ["--quick"] * args.quick + [f"--tab={tab}" for tab in args.tab]
    command += ["--device", args.device] if args.device else []
    if args.sizes:
        command += ["--sizes", *(",".join(map(str, size)) for size in args.sizes)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


if __name__ == "__main__":
    sys.exit(main())
