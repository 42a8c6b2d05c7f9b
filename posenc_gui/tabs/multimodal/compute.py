"""What the multimodal tab draws (worker thread): which pairs turn by which position axis, the
position ids of a sequence of text and an image or video, and the scores between the patches
of one image."""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import numpy as np
import torch

from posenc_gui.comparison import Curve, Entry, Inputs
from posenc_gui.encodings import binning, multimodal, rope
from posenc_gui.encodings.model_config import LayerRope
from posenc_gui.encodings.multimodal import Grid, Text
from posenc_gui.encodings.rope import QueryKey
from posenc_gui.encodings.window import Window, full
from posenc_gui.frames import asks_for, check_pages, to_numpy
from posenc_gui.translatable import N_

PAGES = ("pairs", "sequence", "scores")
# scheme → (its position axes, the axes carrying an image's rows and columns)
SCHEMES = {
    "sections": (("t", "h", "w"), (multimodal.HEIGHT, multimodal.WIDTH)),
    "interleaved": (("t", "h", "w"), (multimodal.HEIGHT, multimodal.WIDTH)),
    "axial": (("row", "col"), (multimodal.ROW, multimodal.COLUMN)),
}


@dataclass(frozen=True)
class MultimodalParams:
    scheme: str  # a key of SCHEMES
    head_dim: int
    theta: float
    section: tuple[int, ...]  # mrope_section: pairs per axis (t, h, w)
    text_before: int  # M-RoPE only: text tokens before the image, and after it
    frames: int  # 1: an image; more: a video (M-RoPE only)
    height: int  # the image's (merged) patches per column and per row
    width: int
    time_interval: float  # sections: temporal id step between frames
    text_after: int
    query: tuple[int, int]  # the patch (row, column) scored against the others
    random: bool = False  # the heatmap's q = k: all ones, or a seeded random sample (mean)
    seed: int = 0
    timestamp_tokens: int = 0  # interleaved (Qwen3-VL): text tokens before each video frame
    strip_x: Window | None = None  # the tokens the id strip shows, and the id curves
    curves_x: Window | None = None
    layers: tuple[LayerRope, ...] = ()  # the imported model's layer types
    pages: tuple[str, ...] | None = None  # the pages to compute (None: every page)

    def __post_init__(self) -> None:
        check_pages(self.pages, PAGES)
        pairs = self.head_dim // 2
        if self.scheme == "axial" and pairs % 2:
            raise ValueError(
                f"head_dim must be a multiple of 4 for 2-D axial RoPE (an even number of pairs, "
                f"half for rows, half for columns), got {self.head_dim}"
            )
        if self.scheme != "axial" and sum(self.section) != pairs:
            raise ValueError(
                f"mrope_section must add up to head_dim/2 = {pairs} pairs, got "
                f"{' + '.join(map(str, self.section))} = {sum(self.section)}"
            )

    @property
    def query_patch(self) -> tuple[int, int]:
        """The query patch, inside the grid (the controls follow the grid's size)."""
        return min(self.query[0], self.height - 1), min(self.query[1], self.width - 1)

    def with_windows(self, strip: Window, curves: Window) -> MultimodalParams:
        return replace(self, strip_x=strip, curves_x=curves)


@dataclass(frozen=True)
class SequencePage:
    tokens: int  # sequence length N
    image_tokens: tuple[int, int]  # the image's or video's tokens: first, end
    strip_edges: np.ndarray  # [B + 1] token runs of the id strip
    strip_ids: np.ndarray  # [A, B] mean position id per axis over each run
    curve_edges: np.ndarray  # [C + 1] token runs of the id curves
    curve_ids: np.ndarray  # [A, C]
    curve_low: np.ndarray  # [A, C] the least id per axis over each run
    curve_high: np.ndarray  # [A, C] and the largest (a row's last column beside the next's 0)
    curve_per_pixel: int  # the most tokens a run of the curves holds


@dataclass(frozen=True)
class ScoresPage:
    scores: np.ndarray  # [H, W] query patch against every patch (q = k = 1 or random mean)
    profile_offsets: np.ndarray  # [W] Δcolumn along the query's row
    profile_ones: np.ndarray  # [W] q = k = 1
    profile_mean: np.ndarray  # [W] random q = k: mean and standard deviation
    profile_std: np.ndarray


@dataclass(frozen=True)
class MultimodalFrame:
    """The pairs' axes and frequencies (the pairs page's, and what the others build on), and
    the arrays of the other pages asked for (``params.pages``); None for the rest."""

    params: MultimodalParams
    axis_names: tuple[str, ...]
    axes: np.ndarray  # [P] the axis each pair turns by
    frequencies: np.ndarray  # [P] θ_i
    sequence: SequencePage | None
    scores: ScoresPage | None


def pair_axes(p: MultimodalParams) -> tuple[torch.Tensor, torch.Tensor]:
    """``(θ_i, axis of pair i)``, each ``[P]``."""
    inv_freq = rope.inv_freq(p.head_dim, p.theta)
    if p.scheme == "axial":
        return multimodal.axial_2d(inv_freq)
    if p.scheme == "interleaved":
        return inv_freq, multimodal.interleaved_axes(inv_freq.numel(), p.section)
    return inv_freq, multimodal.section_axes(p.section)


def fit_section(section: tuple[int, ...], pairs: int) -> tuple[int, ...]:
    """``section`` scaled to add up to ``pairs`` in the same proportions (largest remainders)."""
    total = sum(section)
    if not total:
        return section
    shares = [pairs * s / total for s in section]
    fitted = [int(share) for share in shares]
    by_remainder = sorted(range(len(section)), key=lambda k: fitted[k] - shares[k])
    for k in by_remainder[: pairs - sum(fitted)]:
        fitted[k] += 1
    return tuple(fitted)


def sequence(p: MultimodalParams) -> list[Text | Grid]:
    """The segments of the built sequence: text, the image or video, text. Qwen3-VL numbers a
    video as one grid per frame, each after its timestamp's text tokens; 2-D axial RoPE sees
    the image's patches alone."""
    if p.scheme == "axial":
        return [Grid(1, p.height, p.width)]
    video: list[Text | Grid] = [Grid(p.frames, p.height, p.width, p.time_interval)]
    if p.scheme == "interleaved" and p.frames > 1:
        frame = Grid(1, p.height, p.width)
        stamp: list[Text | Grid] = [Text(p.timestamp_tokens)] if p.timestamp_tokens else []
        video = [part for _ in range(p.frames) for part in (*stamp, frame)]
    before = [Text(p.text_before)] if p.text_before else []
    after = [Text(p.text_after)] if p.text_after else []
    return [*before, *video, *after]


def token_count(p: MultimodalParams) -> int:
    """N, the tokens of the built sequence."""
    return sum(
        s.length if isinstance(s, Text) else s.frames * s.height * s.width for s in sequence(p)
    )


def sequence_ids(p: MultimodalParams) -> torch.Tensor:
    """The position ids ``[A, N]`` of the built sequence, on the scheme's axes."""
    if p.scheme == "axial":
        return multimodal.patch_ids(p.height, p.width)
    return multimodal.position_ids(sequence(p))


def compute_multimodal(p: MultimodalParams, device: torch.device) -> MultimodalFrame:
    """The multimodal views of the pages ``p.pages`` (default: every page; the sequences are
    small: on the CPU)."""
    names, _ = SCHEMES[p.scheme]
    frequencies, axes = pair_axes(p)
    return MultimodalFrame(
        params=p,
        axis_names=names,
        axes=axes.numpy(),
        frequencies=frequencies.numpy(),
        sequence=_sequence_page(p) if asks_for(p.pages, "sequence") else None,
        scores=_scores_page(p) if asks_for(p.pages, "scores") else None,
    )


def _sequence_page(p: MultimodalParams) -> SequencePage:
    ids = sequence_ids(p)
    tokens = ids.shape[1]
    strip, curves = (full(window, 0, tokens) for window in (p.strip_x, p.curves_x))

    def means(window: Window) -> np.ndarray:  # [A, B] mean id per axis over each run
        return binning.run_means(ids.T, *binning.runs(window)).T.numpy()

    mrope = p.scheme != "axial"
    starts, counts = binning.runs(curves)  # consecutive runs: the window's tokens, in order
    first, end = int(starts[0]), int(starts[-1] + counts[-1])
    shown, firsts = ids[:, first:end].numpy(), (starts - first).numpy()
    return SequencePage(
        tokens=tokens,
        image_tokens=(p.text_before, tokens - p.text_after) if mrope else (0, tokens),
        strip_edges=binning.edges(strip).numpy(),
        strip_ids=means(strip),
        curve_edges=binning.edges(curves).numpy(),
        curve_ids=means(curves),
        curve_low=np.minimum.reduceat(shown, firsts, axis=1),
        curve_high=np.maximum.reduceat(shown, firsts, axis=1),
        curve_per_pixel=int(counts.max()),
    )


def _scores_page(p: MultimodalParams) -> ScoresPage:
    ones, random_mean, row = _patch_scores(_scores_key(p))
    return ScoresPage(random_mean if p.random else ones, *row)


def _scores_key(p: MultimodalParams) -> MultimodalParams:
    """``p`` with what the scores do not depend on at neutral values: the text and frames
    around the image, which q the heatmap shows, the other pages' windows. A field not
    named here keys the cache (a new one costs a computation, never a wrong frame)."""
    return replace(
        p, text_before=0, text_after=0, frames=1, time_interval=1.0, timestamp_tokens=0,
        query=p.query_patch, random=False, strip_x=None, curves_x=None, layers=(), pages=None,
    )  # fmt: skip


# Kept by ``_scores_key``: a step of the text or the video's frames, or the heatmap's q,
# computed them again (11–13 ms for a 64 × 64 image in the app).
@functools.lru_cache(maxsize=4)
def _patch_scores(
    key: MultimodalParams,
) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """The query patch's scores for q = k = 1 and the random q = k's mean, ``[H, W]`` each,
    and the profile along its row (``ScoresPage``'s)."""
    frequencies, axes = pair_axes(key)
    _, spatial = SCHEMES[key.scheme]
    ones = torch.ones(key.head_dim, dtype=torch.float64)
    sample = QueryKey(key.head_dim, "random", key.seed).vectors(rope.RANDOM_SAMPLES)[0]
    row, col = key.query_patch
    # each q against itself (k = q): q = 1 and the random ones in one pass over the angles
    q = torch.cat((ones[None], sample))  # [1 + S, 2P]
    scores = multimodal.patch_scores(
        q, q, key.height, key.width, (row, col), frequencies, axes, spatial=spatial
    )
    scores_ones, scores_random = scores[0], scores[1:]  # [H, W], [S, H, W]
    profile = (
        np.arange(key.width) - col,
        scores_ones[row].numpy(),
        scores_random[:, row].mean(0).numpy(),
        scores_random[:, row].std(0).numpy(),
    )
    return to_numpy(scores_ones), to_numpy(scores_random.mean(0)), profile


def compare_curves(inputs: Inputs) -> tuple[Curve, ...]:
    """2-D axial RoPE along one row of patches: ``(R_{(r,c)} 1)·(R_{(r,c+k)} 1) / head_dim``
    — the row pairs do not turn, the column pairs as 1-D RoPE at their frequencies."""
    head_dim = inputs.head_dim
    if head_dim % 4:
        return ()  # no even split of the pairs into rows and columns
    frequencies, axes = multimodal.axial_2d(rope.inv_freq(head_dim, inputs.theta))
    column = frequencies[axes == multimodal.COLUMN].to(inputs.device)
    still = 2.0 * int((axes != multimodal.COLUMN).sum())  # each row pair adds 2 at any k
    along = (still + rope.decay(inputs.starts, column, counts=inputs.counts)) / head_dim
    return (
        Curve(
            "axial_row",
            N_("2-D axial RoPE along a row, q = 1, head_dim {d}"),
            along.cpu().numpy(),
            {"d": head_dim},
            dashed=True,
            color=3,
        ),
    )


COMPARE = (
    Entry(
        N_("2-D axial RoPE"),
        (
            N_(
                "Half the pairs turn by a patch's row, half by its column: scores depend on offsets"
            ),
            N_("Images of other sizes: the ids are patch counts, not fractions of the image"),
            N_("Low: RoPE's rotation with two position ids"),
            N_(
                "Pixtral's vision encoder, EVA-02, RoPE-ViT; M-RoPE (t, h, w) in Qwen2-VL, Qwen3-VL"
            ),
            N_("Medium"),
        ),
        compare_curves,
        reads=("head_dim", "theta"),
    ),
)
