"""The Compare tab: every encoding's similarity against distance on one plot, and a table of
how the encodings differ."""

from __future__ import annotations

import numpy as np
from PySide6.QtWidgets import (
    QCheckBox,
    QHeaderView,
    QLabel,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from posenc_gui.controls import IntControl
from posenc_gui.engine import Engine
from posenc_gui.engine.compare import CompareFrame, CompareParams, compute_compare
from posenc_gui.i18n import N_, tr
from posenc_gui.parameters import ParameterPanel
from posenc_gui.tabs.base import Tab
from posenc_gui.views import Band, Curve, CurvesView

NOTE = N_(
    "Every curve is 1 at distance 0. Sinusoidal and RoPE: cosine similarity of one vector "
    "at positions p and p + k. ALiBi: e<sup>−m<sub>h</sub>k</sup>, the factor its bias "
    "multiplies attention by. T5 and Shaw: 1 − bucket (or clipped index) / the last one; flat "
    "where distances share a bucket or a vector and cannot be told apart."
)
CRITERIA = (
    N_("Principle"),
    N_("Length generalisation"),
    N_("Compute cost"),
    N_("Typical use"),
    N_("Implementation difficulty"),
)
# The source article's comparison: per encoding, its name and one entry per criterion.
ENCODINGS = (
    (
        N_("Sinusoidal"),
        N_("Fixed sin/cos waves of the position added to the token embedding"),
        N_("Poor: defined at every position, but unseen positions degrade quality"),
        N_("Lowest: one table added once, at the input"),
        N_("Original Transformer, encoder models"),
        N_("Easy"),
    ),
    (
        N_("Shaw"),
        N_("A learned vector per clipped distance j − i, added to the keys inside attention"),
        N_("Good within the clip; farther distances share one vector"),
        N_("Higher: an extra q·a term for every (i, j) in every layer"),
        N_("Music Transformer, early relative-attention models"),
        N_("Medium"),
    ),
    (
        N_("T5 bias"),
        N_("A learned scalar per head and log-spaced distance bucket, added to the logits"),
        N_("Fair: distances beyond max_distance share the last bucket"),
        N_("Low: one L × L bias per head, shared by the layers"),
        N_("T5, mT5, Flan-T5"),
        N_("Medium"),
    ),
    (
        N_("ALiBi"),
        N_("A fixed linear penalty −m_h·|i − j| per head on the logits; no embedding"),
        N_("Strong: extrapolates beyond the training length"),
        N_("Low: a fixed bias per head, no parameters"),
        N_("BLOOM, MPT"),
        N_("Easy"),
    ),
    (
        N_("RoPE"),
        N_("Rotates each channel pair of q and k by m·θ_i; q·k depends on j − i only"),
        N_("Fair; extended by interpolation, NTK, YaRN, Llama 3 scaling, LongRoPE"),
        N_("Low: an element-wise rotation of q and k in every layer"),
        N_("LLaMA, Qwen, Mistral, DeepSeek, Gemma"),
        N_("Medium"),
    ),
)


class CompareTab(Tab):
    name, title = "compare", N_("Compare")
    compute = staticmethod(compute_compare)

    def __init__(
        self, engine: Engine, parameters: ParameterPanel, parent: QWidget | None = None
    ) -> None:
        super().__init__(engine, parameters, parent)
        self.max_relative_position = IntControl("max_relative_position", 0, 512, 16)
        self.num_buckets = IntControl("num_buckets", 4, 256, 32, step=2)
        self.max_distance = IntControl("max_distance", 9, 16384, 128)
        self.n_heads = IntControl("n_heads", 1, 128, 8)
        self.seed = QSpinBox(objectName="seed", minimum=0, maximum=2**31 - 1)
        self.log_distance = QCheckBox(tr("logarithmic distance axis"), objectName="log_distance")
        for label, widget in (
            (tr("Shaw clip K"), self.max_relative_position),
            (tr("T5 num_buckets"), self.num_buckets),
            (tr("T5 max_distance"), self.max_distance),
            (tr("ALiBi n_heads"), self.n_heads),
            (tr("seed (random q)"), self.seed),
            ("", self.log_distance),
        ):
            self.controls.addRow(tr(label), widget)
        for widget in (self.message, QLabel(tr(NOTE), wordWrap=True)):
            self.controls.addRow(widget)

        self.similarity_view = CurvesView(
            tr("Similarity against distance, normalised"),
            tr("relative distance k"),
            tr("similarity (1 at k = 0)"),
        )
        self.table = QTableWidget(len(CRITERIA), len(ENCODINGS), objectName="comparison")
        self.table.setVerticalHeaderLabels([tr(c) for c in CRITERIA])
        self.table.setHorizontalHeaderLabels([tr(encoding[0]) for encoding in ENCODINGS])
        for column, (_, *entries) in enumerate(ENCODINGS):
            for row, text in enumerate(entries):
                self.table.setItem(row, column, QTableWidgetItem(tr(text)))
        self.table.setWordWrap(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.add_view(self.similarity_view, 0, 0)
        self.add_view(self.table, 1, 0)
        self.views.setRowStretch(0, 1)
        self.views.setRowStretch(1, 1)

        self.num_buckets.valueChanged.connect(self._fit_max_distance)
        for signal in (
            self.similarity_view.viewport.changed,
            self.max_relative_position.valueChanged,
            self.num_buckets.valueChanged,
            self.max_distance.valueChanged,
            self.n_heads.valueChanged,
            self.seed.valueChanged,
            self.log_distance.toggled,
        ):
            signal.connect(self.refresh)

    def _fit_max_distance(self) -> None:
        """T5 needs max_distance above its exact range (a quarter of the buckets)."""
        self.max_distance.setRange(self.num_buckets.value() // 4 + 1, 16384)

    def refresh(self) -> None:
        self.similarity_view.set_log(x=self.log_distance.isChecked())
        super().refresh()

    def _first_distance(self, seq_len: int) -> int:
        return 1 if self.log_distance.isChecked() and seq_len > 1 else 0

    def request(self) -> CompareParams:
        seq_len = self.parameters.seq_len.value()
        return CompareParams(
            seq_len=seq_len,
            d_model=self.parameters.d_model.value(),
            head_dim=self.parameters.head_dim.value(),
            theta=self.parameters.theta.value(),
            max_relative_position=self.max_relative_position.value(),
            num_buckets=self.num_buckets.value(),
            max_distance=self.max_distance.value(),
            n_heads=self.n_heads.value(),
            seed=self.seed.value(),
            x=self.similarity_view.x_window(self._first_distance(seq_len), seq_len),
        )

    def draw(self, frame: CompareFrame) -> None:
        p, k = frame.params, frame.distances
        keep = k > 0 if self._first_distance(p.seq_len) else np.ones_like(k, dtype=bool)
        k = k[keep]
        alibi = [  # one colour and one legend entry: the heads are one family
            Curve(
                tr("ALiBi, heads 1 … {n} (steepest first)").format(n=p.n_heads) if h == 0 else "",
                k,
                curve[keep],
                color=4,
            )
            for h, curve in enumerate(frame.alibi)
        ]
        self.similarity_view.set_curves(
            [
                Curve(tr("sinusoidal, d_model {d}").format(d=p.d_model), k, frame.sinusoidal[keep]),
                Curve(
                    tr("RoPE q = 1, head_dim {d}").format(d=p.head_dim),
                    k,
                    frame.rope_ones[keep],
                    dashed=True,
                    color=1,
                ),
                Curve(tr("RoPE random q: mean"), k, frame.rope_mean[keep], color=6),
                Curve(tr("T5, {n} buckets").format(n=p.num_buckets), k, frame.t5[keep], color=2),
                Curve(
                    tr("Shaw, K = {k}").format(k=p.max_relative_position),
                    k,
                    frame.shaw[keep],
                    color=3,
                ),
                *alibi,
            ],
            bands=[
                Band(
                    tr("RoPE random q: mean ± std"),
                    k,
                    (frame.rope_mean - frame.rope_std)[keep],
                    (frame.rope_mean + frame.rope_std)[keep],
                    color=6,
                )
            ],
            x_extent=(self._first_distance(p.seq_len), p.seq_len),
        )

    def caption_parameters(self) -> str:
        p = self.request()
        return (
            f"d_model {p.d_model}, head_dim {p.head_dim}, θ {p.theta:g}, Shaw K "
            f"{p.max_relative_position}, T5 {p.num_buckets}/{p.max_distance}, "
            f"ALiBi {p.n_heads} heads"
        )
