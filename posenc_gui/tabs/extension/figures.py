"""The extension tab's figures, (a) to (f), drawn from a frame (what each scaling method
does to each pair), and the readout under its controls."""

from __future__ import annotations

import numpy as np

from posenc_gui.choices import rounded_number
from posenc_gui.encodings.rope_scaling import BLENDED, INTERPOLATED, KEPT, STILL
from posenc_gui.i18n import N_, tr
from posenc_gui.pooled import distances_note
from posenc_gui.tabs.extension.compute import DecayPage, DynamicPage, ExtensionFrame
from posenc_gui.views import Curve, CurvesView, Line, Span
from posenc_gui.views.style import set_title

DECAY_TITLE = N_("(c) Decay of q·k (q = k = 1)")  # and, as drawn, what a pixel averages

# palette: green, orange, blue, and the text colour for pairs that never turn
REGION_COLOURS = {KEPT: 3, BLENDED: 5, INTERPOLATED: 1, STILL: 0}
METHOD_LABELS = {
    "default": N_("none (plain RoPE)"),
    "linear": N_("linear / position interpolation"),
    "ntk": N_("NTK-aware (static)"),
    "dynamic": N_("dynamic NTK"),
    "yarn": "YaRN",
    "llama3": "Llama 3",
    "longrope": "LongRoPE",
    "proportional": N_("proportional (Gemma 4)"),
}
REGION_LABELS = {
    KEPT: N_("kept"),
    BLENDED: N_("blended"),
    INTERPOLATED: N_("interpolated"),
    STILL: N_("not rotated"),
}


def _region_spans(regions: tuple[str, ...]) -> list[Span]:
    """Consecutive pairs of one region as one shaded span (pairs i cover i − ½ … i + ½)."""
    spans, start = [], 0
    for i in range(1, len(regions) + 1):
        if i == len(regions) or regions[i] != regions[start]:
            region = regions[start]
            spans.append(
                Span(start - 0.5, i - 0.5, tr(REGION_LABELS[region]), REGION_COLOURS[region])
            )
            start = i
    return spans


class ExtensionFigures:
    """The views of the frequency, context and dynamic-NTK pages."""

    def __init__(self) -> None:
        self.wavelength_view = CurvesView(
            tr("(a) Wavelength per pair"), tr("pair i"), tr("wavelength (positions)")
        )
        self.wavelength_view.set_log(y=True)
        self.ratio_view = CurvesView(tr("(b) θ′ᵢ / θᵢ per pair"), tr("pair i"), tr("ratio"))
        self.ratio_view.set_log(y=True)
        self.decay_view = CurvesView(tr(DECAY_TITLE), tr("distance"), tr("score"))
        self.angle_view = CurvesView(
            tr("(d) Angle budget per pair"), tr("pair i"), tr("largest angle (rad)")
        )
        self.angle_view.set_log(y=True)
        self.dynamic_view = CurvesView(
            tr("(f) Dynamic NTK: base against sequence length"),
            tr("sequence length"),
            tr("effective base"),
        )

    def draw(self, frame: ExtensionFrame) -> None:
        """Draw the views of the pages ``frame`` holds (the frequency page's: every frame)."""
        self._draw_frequencies(frame)
        if frame.decay is not None:
            self._draw_context(frame, frame.decay)
        if frame.dynamic is not None:
            self._draw_dynamic(frame, frame.dynamic)

    def _draw_frequencies(self, frame: ExtensionFrame) -> None:
        p, s = frame.params, frame.params.scaling
        turning = np.isfinite(frame.wavelength_scaled)  # proportional: some pairs never turn
        lines = _context_lines(s.original_context, p.target_context, vertical=False)
        self.wavelength_view.set_curves(
            [
                Curve(tr("original 2π/θᵢ"), frame.pairs, frame.wavelength_original, dashed=True),
                Curve(
                    tr(METHOD_LABELS[s.method]) + " 2π/θ′ᵢ",
                    frame.pairs[turning],
                    frame.wavelength_scaled[turning],
                    color=1,
                ),
            ],
            lines=lines,
        )

        regions = np.array(frame.regions)
        ratio_lines = [Line(1.0, "1", vertical=False, color=0)]
        if s.factor != 1:  # at s = 1 the same line: one label, not two on top of each other
            ratio_lines.append(Line(1 / s.factor, f"1/s = 1/{s.factor:g}", vertical=False, color=0))
        self.ratio_view.set_curves(
            [
                Curve(
                    tr(REGION_LABELS[region]),
                    frame.pairs[regions == region],
                    frame.ratio[regions == region],
                    scatter=True,
                    color=REGION_COLOURS[region],
                )
                for region in REGION_LABELS
                # a pair that never turns has ratio 0: off a log axis, shown by its band
                if region in frame.regions and region != STILL
            ],
            spans=_region_spans(frame.regions),
            lines=ratio_lines,
        )

    def _draw_context(self, frame: ExtensionFrame, decay: DecayPage) -> None:
        p, s = frame.params, frame.params.scaling
        self.decay_view.set_curves(
            [
                Curve(tr("original"), decay.distances, decay.decay_original, dashed=True),
                Curve(
                    tr("{0} (× attention factor²)").format(tr(METHOD_LABELS[s.method])),
                    decay.distances,
                    decay.decay_scaled,
                    color=1,
                ),
            ],
            lines=_context_lines(s.original_context, p.target_context, vertical=True),
            x_extent=(0, p.target_context),
        )
        set_title(self.decay_view.plot, tr(DECAY_TITLE) + distances_note(decay.per_pixel))

        unseen = [  # named in the legend only where there are some
            Curve(
                tr("angles never seen in training"),
                frame.pairs[frame.unseen],
                frame.angle_target[frame.unseen],
                scatter=True,
                color=2,
            )
        ]
        self.angle_view.set_curves(
            [
                Curve(tr("within L0, original"), frame.pairs, frame.angle_original, dashed=True),
                Curve(tr("within target, scaled"), frame.pairs, frame.angle_target, color=1),
                *(unseen if frame.unseen.any() else []),
            ],
            lines=[Line(2 * np.pi, tr("2π: a full turn"), vertical=False, color=0)],
        )

    def _draw_dynamic(self, frame: ExtensionFrame, dynamic: DynamicPage) -> None:
        p, s = frame.params, frame.params.scaling
        self.dynamic_view.set_curves(
            [
                Curve(
                    tr("dynamic NTK, s = {0:g}").format(s.factor),
                    dynamic.lengths,
                    dynamic.dynamic_base,
                    color=1,
                ),
                Curve(
                    tr("length {0:,}").format(p.sweep_length),
                    np.array([p.sweep_length] if dynamic.sweep_base is not None else []),
                    np.array([dynamic.sweep_base] if dynamic.sweep_base is not None else []),
                    scatter=True,
                    color=2,
                ),
            ],
            lines=[Line(s.max_position_embeddings, "L0", color=0)],
        )
        title = tr("(f) Dynamic NTK: base against sequence length")
        if not len(dynamic.lengths):  # the figure says why it is empty (an export too)
            title += tr(" · none: it needs a rotary dim of at least 4")
        set_title(self.dynamic_view.plot, title)


def readout_text(frame: ExtensionFrame) -> str:
    """The frame's numbers in words: attention factor, effective base, pairs per region."""
    counts = {region: frame.regions.count(region) for region in REGION_LABELS}
    still = tr(", not rotated {0}").format(counts[STILL]) if counts[STILL] else ""
    return tr(
        "attention factor (mscale) {0:.4f} · effective base {1} · "
        "pairs kept {2}, blended {3}, interpolated {4}{6} · {5} pairs see "
        "angles never seen in training"
    ).format(
        frame.attention_factor,
        rounded_number(frame.effective_base),
        counts[KEPT],
        counts[BLENDED],
        counts[INTERPOLATED],
        int(frame.unseen.sum()),
        still,
    )


def _context_lines(original: int, target: int, *, vertical: bool) -> list[Line]:
    """L0's line and the target context's (across a wavelength axis they say their values,
    along a distance axis the axis does); one line where they coincide: the target's, drawn
    over L0's, hid it and its label."""
    if vertical:
        named = ("L0", tr("target"), tr("L0 = target"))
    else:
        named = (
            f"L0 = {original:,}",
            tr("target = {0:,}").format(target),
            tr("L0 = target = {0:,}").format(target),
        )
    if original == target:
        return [Line(target, named[2], vertical=vertical, color=2)]
    return [
        Line(original, named[0], vertical=vertical, color=0),
        Line(target, named[1], vertical=vertical, color=2),
    ]
