"""The multimodal tab's views and how a frame is drawn on them."""

from __future__ import annotations

import numpy as np

from posenc_gui.choices import format_number
from posenc_gui.encodings.model_config import LayerRope
from posenc_gui.i18n import N_, tr
from posenc_gui.imported_model import ImportedModel, layer_type_name
from posenc_gui.pooled import TOKENS_BAND, band_note
from posenc_gui.tabs.multimodal.compute import SCHEMES, MultimodalFrame, ScoresPage, SequencePage
from posenc_gui.views import Band, Curve, CurvesView, HeatmapView, Span
from posenc_gui.views.pattern import PatternView, Row
from posenc_gui.views.style import SEQUENTIAL, coloured, current_look, set_title

AXIS_LABELS = {
    "t": N_("t (time)"),
    "h": N_("h (height)"),
    "w": N_("w (width)"),
    "row": N_("row"),
    "col": N_("column"),
}


def layer_label(layer: LayerRope, window: int | None) -> str:
    """``sliding_attention · θ 10,000 · window 1,024`` — a layer type's scheme."""
    s, name = layer.scaling, layer_type_name(layer)
    if s is None:
        return f"{tr(name)} · {tr('no RoPE')}"
    scaled = "" if s.method == "default" else f" · {s.method} ×{s.factor:g}"
    sliding = "sliding" in layer.layer_type and window is not None
    windowed = f" · {tr('window')} {window:,}" if sliding else ""
    return f"{tr(name)} · θ {format_number(s.base)}{scaled}{windowed}"


class MultimodalFigures:
    """The seven views (a)–(g); ``draw`` hands a frame's arrays to them."""

    def __init__(self, imported: ImportedModel) -> None:
        self.imported = imported  # the model whose name and sliding window label (c)
        self.axis_view = PatternView(
            tr("(a) The axis each pair turns by"),
            tr("pair i"),
            rows_held=max(len(axes) for axes, _ in SCHEMES.values()),
        )
        self.frequency_view = CurvesView(
            tr("(b) Frequency θᵢ of each pair"), tr("pair i"), tr("θᵢ (rad per position)")
        )
        self.frequency_view.set_log(y=True)
        self.layer_view = PatternView(tr("(c) Layers"), tr("layer"))
        self.id_strip = HeatmapView(
            tr("(d) Position ids per token"),
            tr("token"),
            tr("axis"),
            tr("position id"),
            colormap_role=SEQUENTIAL,
        )
        self.id_curves = CurvesView(
            tr("(e) Position id of each token, per axis"),
            tr("token"),
            tr("position id"),
            legend=False,  # the title names the axes
        )
        self.id_strip.setMaximumHeight(int(300 * current_look().scale))
        self.score_view = HeatmapView(
            tr("(f) Score of the query patch against every patch"),
            tr("patch column"),
            tr("patch row"),
            tr("score"),
            colormap_role=SEQUENTIAL,
        )
        self.profile_view = CurvesView(
            tr("(g) Along the query's row"), tr("Δ column"), tr("score"), legend=False
        )

    def draw(self, frame: MultimodalFrame) -> None:
        """Draw the views of the pages ``frame`` holds (the pairs page's: every frame)."""
        self._draw_pairs(frame)
        if frame.sequence is not None:
            self._draw_ids(frame, frame.sequence)
        if frame.scores is not None:
            self._draw_scores(frame, frame.scores)

    def _draw_pairs(self, frame: MultimodalFrame) -> None:
        names = [tr(AXIS_LABELS[name]) for name in frame.axis_names]
        pairs = np.arange(len(frame.axes))
        self.axis_view.set_rows(
            [
                Row(name, pairs[frame.axes == axis].tolist(), axis + 1)
                for axis, name in enumerate(names)
            ],
            x_extent=(-0.5, len(pairs) - 0.5),
        )
        self.frequency_view.set_curves(
            [
                Curve(name, pairs[frame.axes == axis], frequency, scatter=True, color=axis + 1)
                for axis, name in enumerate(names)
                if (frequency := frame.frequencies[frame.axes == axis]).size
            ]
        )
        layers = frame.params.layers
        if not layers:
            every = f"{tr('every layer')} · θ {format_number(frame.params.theta)}"
            self.layer_view.set_rows([Row(every, [], 1)], x_labels=[])
            set_title(
                self.layer_view.plot, tr("(c) Layers: choose a preset or import a config.json")
            )
            return
        window, listed = self.imported.sliding_window, self.imported.layer_count
        if len(layers) == 1 and not layers[0].layers and listed:  # one type: every layer
            layers = (LayerRope(layers[0].layer_type, layers[0].scaling, tuple(range(listed))),)
        rows = [
            Row(layer_label(layer, window), layer.layers, 0 if layer.scaling is None else i + 1)
            for i, layer in enumerate(layers)
        ]
        count = max((max(layer.layers) + 1 for layer in layers if layer.layers), default=0)
        self.layer_view.set_rows(rows, x_extent=(-0.5, max(count, 1) - 0.5))
        model = self.imported.source.split(" (")[0]  # a preset's name without its details
        set_title(
            self.layer_view.plot,
            tr("(c) {0} layers · {1}").format(count, model)
            if count
            else tr("(c) Every layer alike · {0}").format(model),
        )

    def _draw_ids(self, frame: MultimodalFrame, page: SequencePage) -> None:
        names = [tr(AXIS_LABELS[name]) for name in frame.axis_names]
        self.id_strip.set_data(
            page.strip_ids,
            x_edges=page.strip_edges,
            row_labels=names,
            levels=(0.0, max(float(page.strip_ids.max()), 1.0)),
            extent=(page.tokens, len(names)),
        )
        edges = page.curve_edges
        centres = (edges[:-1] + edges[1:] - 1) / 2
        first, end = page.image_tokens
        kind = tr("video tokens") if frame.params.frames > 1 else tr("image tokens")
        # the span in a colour of its own: not one of the axes' 1–3
        spans = [Span(first - 0.5, end - 0.5, kind, 4)] if frame.params.scheme != "axial" else []
        # A pixel of many tokens: its mean id inside the band of its least and largest, so a
        # row's last column stays visible where the pixel also holds the next row's first.
        pooled = page.curve_per_pixel > 1
        envelopes = [
            Curve.min_max(centres, low, high, color=axis + 1)
            for axis, (low, high) in enumerate(zip(page.curve_low, page.curve_high, strict=True))
        ]
        self.id_curves.set_curves(
            [
                *(
                    Curve(name, centres, page.curve_ids[axis], dashed=axis > 0, color=axis + 1)
                    for axis, name in enumerate(names)
                ),
                *(envelopes if pooled else ()),
            ],
            spans=spans,
            x_extent=(0, page.tokens),
        )
        # t, h, w are the formulas' own symbols; row and column are words to translate
        short = frame.axis_names if frame.params.scheme != "axial" else names
        axes = ", ".join(coloured(name, axis + 1) for axis, name in enumerate(short))
        shaded = f" · {coloured(kind, 4)}" if spans else ""
        title = (
            tr("(e) Ids: {0}").format(axes) + shaded + band_note(page.curve_per_pixel, TOKENS_BAND)
        )
        set_title(self.id_curves.plot, title)

    def _draw_scores(self, frame: MultimodalFrame, page: ScoresPage) -> None:
        p = frame.params
        row, col = p.query_patch
        self.score_view.set_data(page.scores)  # its map and levels follow the data's sign
        which = tr("random q = k, mean") if p.random else "q = k = 1"
        set_title(
            self.score_view.plot,
            tr("(f) Patch ({0}, {1}) · {2}").format(row, col, which),
        )
        x = page.profile_offsets.astype(float)
        self.profile_view.set_curves(
            [
                Curve("q = k = 1", x, page.profile_ones, color=1),
                Curve(tr("random q = k: mean"), x, page.profile_mean, dashed=True, color=6),
            ],
            bands=[
                Band(
                    tr("random q = k: mean ± std"),
                    x,
                    page.profile_mean - page.profile_std,
                    page.profile_mean + page.profile_std,
                    color=6,
                )
            ],
        )
        set_title(
            self.profile_view.plot,
            tr("(g) Row {0}: {1}, {2}").format(
                row, coloured("q = k = 1", 1), coloured(tr("random: mean ± std"), 6)
            ),
        )
