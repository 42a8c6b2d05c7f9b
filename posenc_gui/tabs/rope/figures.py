"""How the RoPE tab draws a frame: one function per page (the tab's ``draw`` calls those of
the pages the frame holds)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from posenc_gui.i18n import N_, tr
from posenc_gui.pooled import distances_note
from posenc_gui.tabs.rope.compute import (
    ERROR_FLOOR,
    EXACT_ERROR_POSITIONS,
    InvariancePage,
    LayoutsPage,
    PrecisionPage,
    RopeFrame,
    TablesPage,
)
from posenc_gui.views import Band, Curve, Line
from posenc_gui.views.style import CYCLIC, DIVERGING, set_title

DECAY_TITLE = N_("(d) Long-term decay of q·k")  # and, as drawn, what a pixel averages

if TYPE_CHECKING:
    from posenc_gui.tabs.rope.tab import RopeTab


def draw_tables(tab: RopeTab, frame: RopeFrame, page: TablesPage) -> None:
    """(a) the rotation table and (b) each pair's wavelength against seq_len."""
    p = frame.params
    pairs = np.arange(len(frame.wavelengths))
    if p.table == "angle":
        tab.table_view.set_colormap(CYCLIC)
        set_title(tab.table_view.plot, tr("(a) Angle m·θᵢ mod 2π"))
        levels = (0.0, 2 * np.pi)
    else:
        tab.table_view.set_colormap(DIVERGING)
        set_title(tab.table_view.plot, f"(a) {p.table}(m·θᵢ)")
        levels = (-1.0, 1.0)
    n_pairs = len(frame.wavelengths)
    tab.table_view.set_data(
        page.table,
        x_edges=page.table_col_edges,
        y_edges=page.table_row_edges,
        levels=levels,
        extent=(n_pairs, p.seq_len),
    )

    unfinished = frame.wavelengths > p.seq_len
    tab.spectrum_view.set_curves(
        [
            Curve(
                tr("completes a turn within seq_len"),
                pairs[~unfinished],
                frame.wavelengths[~unfinished],
                scatter=True,
                color=1,
            ),
            Curve(
                tr("never completes a turn within seq_len"),
                pairs[unfinished],
                frame.wavelengths[unfinished],
                scatter=True,
                color=2,
            ),
        ],
        lines=[Line(p.seq_len, tr("seq_len = {0}").format(p.seq_len), vertical=False, color=0)],
    )


def draw_invariance(tab: RopeTab, frame: RopeFrame, page: InvariancePage) -> None:
    """(c) the score under a common shift t and its readout, (d) the long-term decay."""
    p = frame.params
    score = page.score_at_shift
    drift = float(np.max(np.abs(page.rotated_scores - page.rotated_scores[0])))
    binned = len(page.shifts) < p.seq_len
    tab.invariance_view.set_curves(
        [
            Curve(
                "(Rₘ₊ₜq)·(Rₙ₊ₜk)" + (tr(", first t of each pixel") if binned else ""),
                page.shifts,
                page.rotated_scores,
            ),
            Curve(
                tr("unrotated q·k"),
                page.shifts,
                np.full_like(page.shifts, page.unrotated_score),
                dashed=True,
            ),
        ],
        lines=[Line(p.shift, f"t = {p.shift}")],
        x_extent=(0, p.seq_len),
    )
    tab.readout.setText(
        tr(
            "m = {0}, n = {1}, t = {2}: RoPE score {3:.10g}; largest "
            "|⁠score(t) − score(0)| over the t drawn: {4:.2e}; unrotated q·k ="
            " {5:.10g}"
        ).format(p.query_position, p.key_position, p.shift, score, drift, page.unrotated_score)
    )
    _draw_decay(tab, p.seq_len, page)


def _draw_decay(tab: RopeTab, seq_len: int, page: InvariancePage) -> None:
    """(d) the score's long-term decay against distance."""
    d = page.distances
    log = tab.log_distance.isChecked() and seq_len > 1
    keep = d > 0 if log else np.ones_like(d, dtype=bool)
    tab.decay_view.set_curves(
        [
            Curve(tr("q = k = 1 (RoFormer §3.4.3)"), d[keep], page.decay_ones[keep]),
            Curve(tr("random q, k: mean"), d[keep], page.decay_mean[keep], color=1),
        ],
        bands=[
            Band(
                tr("random q, k: mean ± std"),
                d[keep],
                (page.decay_mean - page.decay_std)[keep],
                (page.decay_mean + page.decay_std)[keep],
            )
        ],
        x_extent=(1 if log else 0, seq_len),
    )
    # on a log axis the first pixels hold a distance each: its first pixel is no mean
    note = "" if log else distances_note(page.decay_per_pixel)
    set_title(tab.decay_view.plot, tr(DECAY_TITLE) + note)


def draw_layouts(tab: RopeTab, frame: RopeFrame, page: LayoutsPage) -> None:
    """(e) which pair each channel belongs to in both layouts, (f) the permutation."""
    tab.layout_view.set_data(
        page.layout_pairs.astype(np.float32),
        levels=(0.0, max(1.0, len(frame.wavelengths) - 1.0)),
        row_labels=[tr("interleaved"), tr("half")],
    )
    tab.permutation_view.set_curves(
        [Curve("P[j]", np.arange(len(page.permutation)), page.permutation, scatter=True)]
    )


def draw_precision(tab: RopeTab, frame: RopeFrame, page: PrecisionPage) -> list[str]:
    """(g) rounding error per pair and position, and its largest per position (both panels
    of one figure, as the README lists them); the notes to show."""
    p = frame.params
    exact = page.error_table <= np.log10(ERROR_FLOOR)
    inexact = page.error_table[~exact]  # the scale spans these: zeros aside
    low = float(inexact.min()) if inexact.size else np.log10(ERROR_FLOOR)
    high = float(page.error_table.max())
    # A decade at least. Exact cells take the bottom colour: then the scale starts a decade
    # below the least error, which is never drawn in the colour of an exact cell.
    levels = (low - 1.0, high) if exact.any() else (low, max(high, low + 1.0))
    tab.error_view.set_data(
        page.error_table,
        x_edges=page.error_col_edges,
        y_edges=page.error_row_edges,
        levels=levels,
        extent=(len(frame.wavelengths), p.seq_len),
    )
    sampled = tr(" (sampled)") if page.error_sampled else ""
    set_title(
        tab.error_view.plot, tr("(g) log₁₀ |\u2060cos\u00a0−\u00a0cos₆₄\u2060|{0}").format(sampled)
    )
    notes = []
    if page.error_sampled:
        notes.append(
            tr(
                "Precision views: over {0:,} positions each pixel shows the "
                "error at its first position (rounding errors have no closed-"
                "form mean)"
            ).format(EXACT_ERROR_POSITIONS)
        )
    # an exact position (m = 0 always) has no place on the log axis: drawn at ERROR_FLOOR it
    # stretched the axis over 14 empty decades and pressed the errors against its top
    inexact = np.isfinite(page.error_by_position) & (page.error_by_position > 0)
    tab.error_curve_view.set_curves(
        [
            Curve(
                tr("{0}: max |⁠cos error|{1}").format(p.dtype, sampled),
                page.error_x[inexact],
                page.error_by_position[inexact],
            )
        ],
        x_extent=(0, p.seq_len),
    )
    if not inexact.any():
        notes.append(tr("{0} holds every angle shown exactly: no error to draw").format(p.dtype))
    if page.unrepresentable:
        notes.append(
            tr(
                "{0} cannot hold {1} of the positions (above {2:g} for "
                "float16): they are left out of the precision views"
            ).format(p.dtype, page.unrepresentable, float(np.finfo(np.float16).max))
        )
    return notes
