"""The benchmark's targets and its printed table."""

from __future__ import annotations

# Control → painted pixels on the 2-core CPU machine.
FLOOR_RATIO = 1.5  # a page's p50 against its views in bare pyqtgraph
FEW_VIEWS_P95_MS = 16.0  # at 512 · 512 · 128: one- and two-view pages …
MANY_VIEWS_P95_MS = 25.0  # … and pages of more views
MEDIUM_P95_MS = 50.0  # at 131,072 · 4096 · 128
LARGE_COARSE_P95_MS = 100.0  # at 2^20 · 16,384 · 1024: the coarse frame …
LARGE_EXACT_P95_MS = 1000.0  # … and the exact one
STALL_MS = 30.0
PEAK_RSS_MB = 1024.0
FIRST_FRAME_S = 2.0
CLOSE_MS = 200.0  # close() while a frame is computed
SEED_RATIO = 20.0  # the seed's redraw of the Absolute tab's panels against ours, at 512


def misses(row: dict) -> list[str]:
    """The targets ``row`` (one page at one size) misses, each as a short phrase."""
    found = []
    if row["p50_ms"] > FLOOR_RATIO * row["floor_p50_ms"]:
        found.append(f"floor ×{row['p50_ms'] / row['floor_p50_ms']:.1f}")
    if row["seq_len"] <= 512:
        limit = FEW_VIEWS_P95_MS if row["views"] <= 2 else MANY_VIEWS_P95_MS
        if row["p95_ms"] > limit:
            found.append(f"p95 > {limit:.0f}")
    elif row["seq_len"] <= 131_072:
        if row["p95_ms"] > MEDIUM_P95_MS:
            found.append(f"p95 > {MEDIUM_P95_MS:.0f}")
    else:
        if row["p95_ms"] > LARGE_COARSE_P95_MS:
            found.append(f"first p95 > {LARGE_COARSE_P95_MS:.0f}")
        if row["exact_p95_ms"] > LARGE_EXACT_P95_MS:
            found.append(f"exact p95 > {LARGE_EXACT_P95_MS:.0f}")
    if row["stall_ms"] > STALL_MS:
        found.append(f"stall > {STALL_MS:.0f}")
    return found


def seed_ratio(report: dict) -> float | None:
    """The seed's redraw time over the Absolute tab's, p50 at 512 (None without either)."""
    ours = [
        row["p50_ms"]
        for row in report["results"]
        if row["tab"] == "absolute" and row["seq_len"] == 512
    ]
    if not ours or report["seed"] is None:
        return None
    return report["seed"]["p50_ms"] / ours[0]


def _check(ok: bool) -> str:
    return "meets" if ok else "misses"


def table(report: dict, *, profile: bool = False) -> str:
    """The report as text: a header of whole-run figures, one line per page and size."""
    seed, ratio, seeded = report["seed"], seed_ratio(report), _with_seed(report, 1)
    seed_line = (
        "seed-style redraw (numpy + matplotlib, the Absolute tab's four panels at 512): needs "
        "matplotlib (pip install 'posenc-gui[bench]')"
        if seed is None
        else f"seed-style redraw (numpy + matplotlib, the Absolute tab's four panels at 512): "
        f"p50 {seed['p50_ms']} ms, p95 {seed['p95_ms']} ms"
        + (
            ""
            if ratio is None
            else f"; ours {ratio:.1f}× faster ({_check(ratio >= SEED_RATIO)} ≥ {SEED_RATIO:.0f}×)"
        )
    )
    split = f" {'draw':>6} {'paint':>6}" if profile else ""
    lines = [
        f"device {report['device']} · {report['machine']}",
        f"first frame {report['first_frame_s']} s after launch "
        f"({_check(report['first_frame_s'] <= FIRST_FRAME_S)} ≤ {FIRST_FRAME_S:.0f} s) · peak "
        f"memory {report['peak_rss_mb']} MB ({_check(report['peak_rss_mb'] <= PEAK_RSS_MB)} "
        f"≤ {PEAK_RSS_MB:.0f} MB{f'; {seeded}' if seeded else ''}){_gpu_memory(report)}",
        f"then every tab built and every page drawn ahead {report['ahead_s']} s later, in the "
        "app's quiet time (posenc_gui.tabs_ahead), before the steps",
        f"close() mid-computation {report['close_ms']} ms "
        f"({_check(report['close_ms'] <= CLOSE_MS)} ≤ {CLOSE_MS:.0f} ms)",
        "command line: "
        + ", ".join(f"posenc-gui {args} {s} s" for args, s in report["command_line_s"].items()),
        seed_line,
        "latency: control change to the views painted; first: the first frame (coarse where "
        "the frame is heavy), exact: the exact one; floor: the page's views in bare pyqtgraph; "
        "look: the same with the page's look the plain pyqtgraph way (titles, axis labels, the "
        "grid, a legend, 2 px lines)",
        "",
        f"{'tab':<10} {'page':<12} {'seq_len':>9} {'d_model':>7} {'head':>5} {'views':>5} "
        f"{'p50':>6} {'p95':>6} {'exact50':>7} {'exact95':>7} {'coarse':>6} {'floor50':>7} "
        f"{'look50':>7} {'compute':>7}{split} {'stall':>6}  targets",
    ]
    for r in report["results"]:
        times = f" {r['draw_ms']:>6} {r['paint_ms']:>6}" if profile else ""
        missed = misses(r)
        lines.append(
            f"{r['tab']:<10} {r['view']:<12} {r['seq_len']:>9} {r['d_model']:>7} "
            f"{r['head_dim']:>5} {r['views']:>5} {r['p50_ms']:>6} {r['p95_ms']:>6} "
            f"{r['exact_p50_ms']:>7} {r['exact_p95_ms']:>7} {r['coarse_share']:>6} "
            f"{r['floor_p50_ms']:>7} {r['look_floor_p50_ms']:>7} {r['compute_ms']:>7}{times} "
            f"{r['stall_ms']:>6}  " + ("met" if not missed else "missed: " + ", ".join(missed))
        )
    return "\n".join(lines)


def median_report(reports: list[dict]) -> dict:
    """One report of several runs: each figure the median of the runs' (rows matched by tab,
    page and sizes; whole-run figures too)."""
    first = reports[0]

    def median(values: list) -> object:
        numbers = sorted(v for v in values if v is not None)
        return numbers[len(numbers) // 2] if numbers else None

    def key(row: dict) -> tuple:
        return row["tab"], row["view"], row["seq_len"], row["d_model"], row["head_dim"]

    rows = {key(row): [row] for row in first["results"]}
    for report in reports[1:]:
        for row in report["results"]:
            rows.setdefault(key(row), []).append(row)
    results = [
        {
            name: median([row[name] for row in group]) if isinstance(value, float) else value
            for name, value in group[0].items()
        }
        for group in rows.values()
    ]
    merged = dict(first) | {"results": results, "runs": len(reports)}
    whole_run = ("peak_rss_mb", "run_peak_rss_mb", "first_frame_s", "ahead_s", "close_ms")
    for name in (*whole_run, "peak_gpu_mb"):
        merged[name] = median([report.get(name) for report in reports])
    for name in ("seed", "command_line_s"):
        if first[name] is not None:
            merged[name] = {
                field: median([report[name][field] for report in reports]) for field in first[name]
            }
    return merged


def markdown(report: dict) -> str:
    """The README's table: p50 / p95 of the first and the exact frame per size, the split of a
    frame at 512, the floors' p50 there (bare, and with the page's look), the longest stall,
    each row with the targets it misses."""
    sizes = sorted({(r["seq_len"], r["d_model"], r["head_dim"]) for r in report["results"]})
    header = ["tab · page"] + [f"{s[0]:,} · {s[1]:,} · {s[2]:,}" for s in sizes]
    lines = [
        "| "
        + " | ".join(
            [*header, "compute / draw / paint at 512", "floor · look at 512", "stall", "misses"]
        )
        + " |",
        "|" + "---|" * (len(header) + 4),
    ]
    pages: dict[tuple[str, str], dict] = {}
    for row in report["results"]:
        pages.setdefault((row["tab"], row["view"]), {})[row["seq_len"]] = row
    for (tab, page), by_size in pages.items():
        cells = []
        for size in sizes:
            r = by_size.get(size[0])
            if r is None:
                cells.append("")
            elif r["coarse_share"] > 0:
                cells.append(
                    f"{r['p50_ms']:.0f} / {r['p95_ms']:.0f} → exact "
                    f"{r['exact_p50_ms']:.0f} / {r['exact_p95_ms']:.0f}"
                )
            else:
                cells.append(f"{r['p50_ms']:.0f} / {r['p95_ms']:.0f}")
        small = by_size.get(sizes[0][0], {})
        split = (
            f"{small['compute_ms']:.0f} / {small['draw_ms']:.0f} / {small['paint_ms']:.0f}"
            if small
            else ""
        )
        floors = f"{small['floor_p50_ms']:.0f} · {small['look_floor_p50_ms']:.0f}" if small else ""
        stall = max(r["stall_ms"] for r in by_size.values())
        missed = sorted({m.split(" ×")[0] for r in by_size.values() for m in misses(r)})
        lines.append(
            f"| {tab} · {page} | "
            + " | ".join(cells)
            + f" | {split} | {floors} | {stall:.0f} | {', '.join(missed)} |"
        )
    return "\n".join([*lines, "", _whole_run(report)])


def _whole_run(report: dict) -> str:
    """The whole-run figures under the README's table, as a sentence."""
    seed, ratio, seeded = report["seed"], seed_ratio(report), _with_seed(report, 0)
    seed_part = (
        ""
        if seed is None or ratio is None
        else f"; the seed-style redraw {seed['p50_ms']:.0f} / {seed['p95_ms']:.0f} ms, "
        f"{ratio:.1f}× the Absolute tab's p50"
    )
    return (
        f"First frame {report['first_frame_s']} s after launch, every tab built and every page "
        f"drawn ahead {report['ahead_s']} s later (quiet time, before the steps), peak memory "
        f"{report['peak_rss_mb']:.0f} MB{f' ({seeded})' if seeded else ''}{_gpu_memory(report)}, "
        f"`close()` mid-computation {report['close_ms']} ms{seed_part}."
    )


def _with_seed(report: dict, digits: int) -> str:
    """The whole run's peak memory, the seed-style baseline's matplotlib included (where the
    report has it), as words."""
    peak = report.get("run_peak_rss_mb")
    return "" if peak is None else f"{peak:.{digits}f} MB with the seed-style baseline's matplotlib"


def _gpu_memory(report: dict) -> str:
    """The whole-run lines' GPU figure where the frames were computed on a GPU (the CUDA
    context and torch's cache of freed blocks come on top), else nothing."""
    peak = report.get("peak_gpu_mb")
    return "" if peak is None else f", GPU tensors {peak:.0f} MB at most"
