"""What the Relative tab adds to the Compare tab: Shaw's, T5's and ALiBi's similarity versus
distance, as means over each pixel's run of distances (runs on the worker thread)."""

from __future__ import annotations

import torch

from posenc_gui.comparison import Curve, Entry, Inputs, Setting
from posenc_gui.encodings import binning, relative
from posenc_gui.translatable import N_

MAX_HEADS = 128  # ALiBi's n_heads


def _distances(inputs: Inputs, constant_from: int) -> torch.Tensor:
    """The distances 0 … ``constant_from`` the runs reach (T5 and Shaw have no closed-form
    mean): from there on the curve is constant, and ``run_means(..., held=True)`` holds it."""
    return torch.arange(min(int(inputs.starts[-1] + inputs.counts[-1]), constant_from + 1))


def shaw_curves(inputs: Inputs) -> tuple[Curve, ...]:
    """``1 − min(k, K) / K``: flat beyond the clip, where distances share one vector."""
    clip = inputs.settings["max_relative_position"]
    values = relative.shaw_similarity(_distances(inputs, clip), clip)
    means = binning.run_means(values, inputs.starts, inputs.counts, held=True)
    return (Curve("shaw", N_("Shaw, K = {k}"), means.numpy(), {"k": clip}, color=3),)


def t5_curves(inputs: Inputs) -> tuple[Curve, ...]:
    """``1 − b(k) / (n − 1)``: flat where distances share a bucket (keys after queries), and
    from ``max_distance`` on, all in the last bucket."""
    buckets, reach = inputs.settings["num_buckets"], inputs.settings["max_distance"]
    values = relative.t5_similarity(
        _distances(inputs, reach), num_buckets=buckets, max_distance=reach
    )
    means = binning.run_means(values, inputs.starts, inputs.counts, held=True)
    return (Curve("t5", N_("T5, {n} buckets"), means.numpy(), {"n": buckets}, color=2),)


def alibi_curves(inputs: Inputs) -> tuple[Curve, ...]:
    """``e^{−m_h k}`` per head: the factor head h's bias multiplies an attention weight by."""
    n_heads = inputs.settings["n_heads"]
    slopes = relative.alibi_slopes(n_heads)
    values = binning.mean_decay(inputs.starts, inputs.counts, slopes).T  # [heads, X]
    label = N_("ALiBi, heads 1 … {n} (steepest first)")
    return (Curve("alibi", label, values.numpy(), {"n": n_heads}, color=4),)


COMPARE = (
    Entry(
        N_("Shaw"),
        (
            N_("A learned vector per clipped distance j − i, added to the keys inside attention"),
            N_("Good within the clip; farther distances share one vector"),
            N_("Higher: an extra q·a term for every (i, j) in every layer"),
            N_("Music Transformer, early relative-attention models"),
            N_("Medium"),
        ),
        shaw_curves,
        (Setting("max_relative_position", N_("Shaw clip K"), 0, 512, 16),),
        reads=(),
    ),
    Entry(
        N_("T5 bias"),
        (
            N_("A learned scalar per head and log-spaced distance bucket, added to the logits"),
            N_("Fair: distances beyond max_distance share the last bucket"),
            N_("Low: one L × L bias per head, shared by the layers"),
            N_("T5, mT5, Flan-T5"),
            N_("Medium"),
        ),
        t5_curves,
        (
            Setting("num_buckets", N_("T5 num_buckets"), 4, 256, 32, step=2),
            Setting(
                "max_distance",
                N_("T5 max_distance"),
                9,
                16384,
                128,
                minimum=lambda s: relative.t5_max_exact(s["num_buckets"]) + 1,
            ),
        ),
        reads=(),
    ),
    Entry(
        N_("ALiBi"),
        (
            N_("A fixed linear penalty −mₕ·|⁠i − j| per head on the logits; no embedding"),
            N_("Strong: extrapolates beyond the training length"),
            N_("Low: a fixed bias per head, no parameters"),
            N_("BLOOM, MPT"),
            N_("Easy"),
        ),
        alibi_curves,
        (Setting("n_heads", N_("ALiBi n_heads"), 1, MAX_HEADS, 8),),
        reads=(),
        most_lines=MAX_HEADS,  # a line per head
    ),
)
