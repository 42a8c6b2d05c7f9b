"""The command line: ``posenc-gui [options]`` starts the app; ``posenc-gui export`` writes one
view of a tab to a file, headless. Arguments are checked before Qt and torch load, so a bad one
is refused at once with a one-line message naming it (exit status 2).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from posenc_gui import __version__, registry
from posenc_gui.choices import (
    DEVICES,
    EVEN_PARAMETERS,
    FORMATS,
    LANGUAGES,
    SCALES,
    SHARED_RANGES,
    SIZE_RANGE,
    THEMES,
    check_size,
    fold_name,
    format_number,
    parse_number,
    parse_size,
    preset_names,
)
from posenc_gui.collector import without_collector
from posenc_gui.files import check_writable_folder, parse_json, read_file

EXAMPLES = """\
commands:
  posenc-gui [options]          start the app (the last session, or these options)
  posenc-gui export [options]   write one view to a file without a window (see export --help)

examples:
  posenc-gui --preset "Llama-3.1-8B" --tab extension
  posenc-gui export --list-views
  posenc-gui export --tab rope --view table --theta 500000 --out table.png --scale 2
  posenc-gui export --tab rope --view decay --size 1600x900 --out decay.svg
  posenc-gui export --tab compare --view similarity --seq-len 4096 --out compare.svg
"""


def _parser(export: bool) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="posenc-gui export" if export else "posenc-gui",
        description=(
            "Write one view of a tab to a file (PNG, SVG, CSV, .npy or .npz), headless."
            if export
            else "See and tune Transformer positional encodings."
        ),
        epilog=None if export else EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--list-views", action="store_true", help="print every view as a 'TAB VIEW' pair and exit"
    )
    if export:
        parser.add_argument("--view", help="the view (see --list-views)")
        parser.add_argument(
            "--out", help=f"output file; the format comes from its suffix ({', '.join(FORMATS)})"
        )
        parser.add_argument(
            "--scale", type=int, default=1, choices=SCALES, help="PNG resolution factor"
        )
        parser.add_argument(
            "--size",
            type=_size,
            metavar="WxH",
            help=(
                "lay the figure out at this size in pixels, caption included, before --scale "
                f"(PNG, SVG; each {SIZE_RANGE[0]}-{SIZE_RANGE[1]}; default: as on screen)"
            ),
        )
        parser.add_argument(
            "--caption", action="store_true", help="draw the parameters under the figure"
        )
    parser.add_argument("--version", action="version", version=f"posenc-gui {__version__}")
    parser.add_argument("--device", choices=DEVICES, help="compute device (default: the best here)")
    parser.add_argument(
        "--tab", choices=registry.names(), help="tab shown first (exported from, with export)"
    )
    parser.add_argument("--page", help="page of the tab shown first (e.g. rotation on rope)")
    parser.add_argument("--session", metavar="JSON", help="apply a saved session file")
    parser.add_argument("--theme", choices=THEMES, help="light or dark figures and interface")
    parser.add_argument("--lang", choices=LANGUAGES, help="interface language")
    parser.add_argument(
        "--presentation", action="store_true", help="larger fonts and thicker lines for slides"
    )
    parser.add_argument(
        "--preset", help="apply a model preset by name, any case, x for × (see the Presets menu)"
    )
    parser.add_argument("--config", metavar="JSON", help="apply a model's config.json")
    parser.add_argument("--seq-len", type=_shared("seq_len"), help="sequence length")
    parser.add_argument("--d-model", type=_shared("d_model"), help="model dimension (even)")
    parser.add_argument("--head-dim", type=_shared("head_dim"), help="RoPE head dimension (even)")
    parser.add_argument("--theta", type=_shared("theta"), help="base θ")
    parser.add_argument(
        "--tokens", action="store_true", help="label positions with the sentence's characters"
    )
    if not export:
        parser.add_argument(
            "--screenshot",
            metavar="PNG",
            help="save the window once the first frame is drawn, then quit",
        )
    return parser


def parse_args(argv: Sequence[str] | None, *, export: bool = False) -> argparse.Namespace:
    """The command line; with ``export`` the arguments of ``posenc-gui export``."""
    parser = _parser(export)
    args = parser.parse_args(None if argv is None else _signed_values(argv))
    args.export = export
    if export:
        args.screenshot = None
    else:
        args.view = args.out = args.size = None
    try:
        _check(args, export)
    except ValueError as exc:
        parser.error(str(exc))
    return args


def _check(args: argparse.Namespace, export: bool) -> None:
    """What argparse cannot check itself; ValueError naming the option."""
    if export and not args.list_views:
        missing = [flag for flag in ("--tab", "--view", "--out") if not getattr(args, flag[2:])]
        if missing:
            raise ValueError(f"the following arguments are required: {', '.join(missing)}")
        if Path(args.out).suffix.lower() not in FORMATS:
            raise ValueError(
                f"--out: the format comes from the suffix, one of {', '.join(FORMATS)}"
            )
        suffix = Path(args.out).suffix.lower()
        figure_only = [
            flag
            for flag, given in (
                ("--size", args.size is not None and suffix not in (".png", ".svg")),
                ("--scale", args.scale != 1 and suffix != ".png"),
                ("--caption", args.caption and suffix not in (".png", ".svg")),
            )
            if given
        ]
        if figure_only:  # else they would be dropped without a word
            raise ValueError(
                f"{', '.join(figure_only)}: not for a {suffix} file (--size and --caption "
                "lay out PNG and SVG figures, --scale sets a PNG's resolution)"
            )
        if args.size is not None:
            try:
                check_size(args.size, args.scale)
            except ValueError as exc:
                raise ValueError(f"--size {exc}") from None
    if args.tab is not None:
        spec = registry.spec(args.tab)
        pages = spec.pages()
        if args.page is not None and args.page not in pages:
            raise ValueError(
                f"--page must be one of {', '.join(pages) or '(none)'} on the {args.tab} tab, "
                f"got {args.page!r}"
            )
        if args.view is not None and args.view not in spec.views:
            raise ValueError(
                f"--view must be one of {', '.join(sorted(spec.views))} on the {args.tab} "
                f"tab, got {args.view!r}"
            )
        view_page = spec.views.get(args.view)
        if args.page is not None and view_page is not None and view_page != args.page:
            raise ValueError(  # the view's page is the one exported from
                f"--view {args.view} is on the {view_page} page of the {args.tab} tab, not on "
                f"--page {args.page}: leave out --page"
            )
    every_page = sorted({page for spec in registry.specs() for page in spec.pages()})
    if args.tab is None and args.page is not None:
        # which tab it belongs to is known once the session is; a typo is not a page anywhere
        if args.page not in every_page:
            raise ValueError(f"--page must be one of {', '.join(every_page)}, got {args.page!r}")
        first = registry.specs()[0]
        starts_on_first = not (args.session or args.preset or args.config)  # they choose a tab
        if (args.export or args.screenshot) and starts_on_first and args.page not in first.pages():
            # from the defaults: on the first tab, whose pages are known now
            owners = [spec.name for spec in registry.specs() if args.page in spec.pages()]
            raise ValueError(
                f"--page {args.page} is a page of the {' or '.join(owners)} tab: give --tab "
                f"(without it the {first.name} tab is shown)"
            )
    if args.preset and args.config:  # each sets the model's settings: one would be lost
        raise ValueError("--preset and --config both set a model's settings: give one of them")
    if args.tokens and args.seq_len is not None:
        raise ValueError("--tokens sets seq_len to the sentence's length: leave out --seq-len")
    names = preset_names()
    if args.preset is not None and fold_name(args.preset) not in map(fold_name, names):
        raise ValueError(f"--preset must be one of: {', '.join(names)}; got {args.preset!r}")
    for flag, path in (("--session", args.session), ("--config", args.config)):
        if path is not None:
            _check_json_file(flag, Path(path))
    screenshot = getattr(args, "screenshot", None)
    if screenshot is not None and Path(screenshot).suffix.lower() != ".png":
        raise ValueError(
            f"--screenshot: writes a PNG, so its name ends in .png, got {screenshot!r}"
        )
    for flag, path in (("--screenshot", screenshot), ("--out", args.out)):
        if path is not None:
            try:
                check_writable_folder(path)
            except ValueError as exc:
                raise ValueError(f"{flag}: {exc}") from None
    for name, (low, high) in SHARED_RANGES.items():
        value = getattr(args, name)
        flag = _flag(name)
        if value is not None and not low <= value <= high:
            got = f"{value:,}" if isinstance(value, int) else format_number(value)
            raise ValueError(
                f"{flag} must be in [{format_number(low)}, {format_number(high)}], got {got}"
            )
        if name in EVEN_PARAMETERS and value is not None and value % 2:
            raise ValueError(f"{flag} must be even, got {value}")


def _flag(name: str) -> str:
    """A shared parameter's option: ``seq_len`` → ``--seq-len``."""
    return f"--{name.replace('_', '-')}"


def _signed_values(argv: Sequence[str]) -> list[str]:
    """``--theta -1e3`` as ``--theta=-1e3``: argparse takes a value that starts with "-" and
    is not a plain negative number (``-1e3``, ``-inf``) for an option, and said only "expected
    one argument"; joined, it is read and refused with the option's range."""
    numbers = {_flag(name) for name in SHARED_RANGES}
    joined: list[str] = []
    for arg in argv:
        if (
            joined
            and joined[-1] in numbers
            and arg.startswith("-")
            and parse_number(arg) is not None
        ):
            joined[-1] = f"{joined[-1]}={arg}"
        else:
            joined.append(arg)
    return joined


def _shared(name: str) -> Callable[[str], float]:
    """argparse's reading of a shared parameter, typed as its box takes it (``1e3``,
    ``20,000``, ``２０``); a refusal names its range (argparse names the option)."""
    low, high = SHARED_RANGES[name]
    whole = name != "theta"

    def parse(text: str) -> float:
        value = parse_number(text)
        if value is None or not math.isfinite(value) or (whole and not value.is_integer()):
            kind = "an integer" if whole else "a number"
            raise argparse.ArgumentTypeError(
                f"must be {kind} in [{format_number(low)}, {format_number(high)}], got {text!r}"
            )
        return int(value) if whole else value

    return parse


def _size(text: str) -> tuple[int, int]:
    """``--size``: ``1600x900`` → (1600, 900); argparse names the option in its refusal."""
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run posenc-gui with ``argv``; returns the process exit code. Qt and torch load only
    once the arguments are known to be good."""
    argv = list(sys.argv[1:] if argv is None else argv)
    export = bool(argv) and argv[0] == "export"
    args = parse_args(argv[1:] if export else argv, export=export)
    if args.list_views:
        return list_views()
    with without_collector():  # torch, Qt and pyqtgraph import (see posenc_gui.collector)
        from posenc_gui.run import run

    return run(args)


def _check_json_file(flag: str, path: Path) -> None:
    """A file that exists, is small enough and holds JSON (what it says is checked once the
    app has loaded); ValueError naming the option otherwise."""
    try:
        parse_json(read_file(path), str(path))
    except ValueError as exc:
        raise ValueError(f"{flag}: {exc}") from None


def list_views() -> int:
    """Print every view as a 'TAB VIEW' line (from the specs: nothing loads); quiet when the
    reader stops early (``| head``)."""
    try:
        for spec in registry.specs():
            print("\n".join(f"{spec.name} {view}" for view in sorted(spec.views)))
        sys.stdout.flush()
    except BrokenPipeError:
        # Python would report the pipe again when it flushes at exit: point stdout elsewhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
