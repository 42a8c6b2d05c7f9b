"""RoPE over several position axes: M-RoPE of multimodal LLMs (Qwen2-VL, Qwen2.5-VL: temporal,
height and width sections; Qwen3-VL: the three axes interleaved) and the 2-D axial RoPE of
vision encoders (Pixtral: rows and columns of patches).

Each pair ``i`` turns at its frequency ``θ_i`` by the position on its own axis ``a_i``:
``angle(n, i) = p[a_i, n] · θ_i``. A text token carries one id on every axis, so for text
M-RoPE is plain RoPE; an image's patches carry their (t, h, w) place in the grid, offset by the
text before them, as Hugging Face's ``get_rope_index`` numbers them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch

from posenc_gui.encodings import rope
from posenc_gui.encodings._checks import MAX_DIM, check_elements
from posenc_gui.encodings.model_config import ModelRope

TEMPORAL, HEIGHT, WIDTH = 0, 1, 2  # M-RoPE's axes
ROW, COLUMN = 0, 1  # 2-D axial RoPE's axes
MAX_TOKENS = 1 << 24


@dataclass(frozen=True)
class Text:
    """``length`` text tokens: ids ``start … start + length − 1`` on every axis."""

    length: int


@dataclass(frozen=True)
class Grid:
    """An image (``frames`` 1) or a video of ``frames × height × width`` merged patches.

    ``time_interval`` spaces the temporal ids (Qwen2.5-VL: tokens per second × seconds per
    frame group); height and width ids count patches.
    """

    frames: int
    height: int
    width: int
    time_interval: float = 1.0


def _whole(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer in [{low:,}, {high:,}], got {value!r}")
    return value


def check_section(section: Sequence[int]) -> tuple[int, int, int]:
    """An ``mrope_section`` of 3 pair counts (t, h, w), at least one pair in all; ValueError
    naming the entry otherwise. Torch-free: a GUI can check what was typed."""
    if isinstance(section, str | bytes) or not isinstance(section, Sequence):
        raise ValueError(
            f"mrope_section must be a list of 3 pair counts (t, h, w), got {section!r}"
        )
    sizes = [_whole(f"mrope_section[{k}]", s, 0, MAX_DIM) for k, s in enumerate(section)]
    if len(sizes) != 3:
        raise ValueError(f"mrope_section must have 3 entries (t, h, w), got {len(sizes)}")
    if not sum(sizes):
        raise ValueError("mrope_section must give at least one pair an axis, got 0, 0, 0")
    return sizes[0], sizes[1], sizes[2]


def section_axes(section: Sequence[int]) -> torch.Tensor:
    """Qwen2-VL's pair-to-axis map: ``section[k]`` consecutive pairs on axis ``k % 3``
    (``[16, 24, 24]``: pairs 0–15 temporal, 16–39 height, 40–63 width; an axis may have none).
    int64 ``[Σ section]``."""
    sizes = check_section(section)
    return torch.cat([torch.full((s,), k % 3, dtype=torch.int64) for k, s in enumerate(sizes)])


def interleaved_axes(num_pairs: int, section: Sequence[int]) -> torch.Tensor:
    """Qwen3-VL's map: pair ``i`` on height if ``i % 3 == 1`` and ``i < 3·section[1]``, on width
    if ``i % 3 == 2`` and ``i < 3·section[2]``, else temporal. int64 ``[num_pairs]``."""
    num_pairs = _whole("num_pairs", num_pairs, 1, MAX_DIM)
    check_section(section)
    if sum(section) != num_pairs:
        raise ValueError(f"mrope_section must add up to {num_pairs} pairs, got {sum(section)}")
    i = torch.arange(num_pairs)
    axes = torch.full((num_pairs,), TEMPORAL, dtype=torch.int64)
    axes[(i % 3 == 1) & (i < 3 * section[1])] = HEIGHT
    axes[(i % 3 == 2) & (i < 3 * section[2])] = WIDTH
    return axes


def axial_2d(inv_freq: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Pixtral's 2-D RoPE from a head's ``θ_i``: the even-indexed frequencies turn by the row,
    the odd-indexed by the column. ``(frequencies, axes)``, each ``[P]`` (P even)."""
    theta = rope.angles([1.0], inv_freq)[0]
    if theta.numel() % 2:
        raise ValueError(f"2-D axial RoPE needs an even number of pairs, got {theta.numel()}")
    half = theta.numel() // 2
    axes = torch.cat([torch.full((half,), ROW), torch.full((half,), COLUMN)])
    return torch.cat([theta[0::2], theta[1::2]]), axes


def position_ids(segments: Sequence[Text | Grid]) -> torch.Tensor:
    """The (t, h, w) ids of a sequence of text and image/video segments, int64 ``[3, N]``.

    Text continues from the running id; a grid's ids start there (temporal ids
    ``⌊f·time_interval⌋``, rows, columns, each plus the start) and the running id then moves
    on by ``max(height, width)``, as ``get_rope_index`` of Qwen2-VL, Qwen2.5-VL and Qwen3-VL.
    """
    parts, current = [], 0
    for index, segment in enumerate(segments):
        where = f"segments[{index}]"
        if isinstance(segment, Text):
            length = _whole(f"{where}.length", segment.length, 1, MAX_TOKENS)
            parts.append((torch.arange(length) + current).expand(3, -1))
            current += length
        elif isinstance(segment, Grid):
            frames = _whole(f"{where}.frames", segment.frames, 1, MAX_TOKENS)
            height = _whole(f"{where}.height", segment.height, 1, MAX_TOKENS)
            width = _whole(f"{where}.width", segment.width, 1, MAX_TOKENS)
            check_elements(f"{where} (frames × height × width)", frames * height * width)
            step = segment.time_interval
            if not isinstance(step, int | float) or not 0 <= step <= MAX_TOKENS:
                raise ValueError(
                    f"{where}.time_interval must be a number in [0, {MAX_TOKENS:,}], got {step!r}"
                )
            t = (torch.arange(frames) * float(step)).long()
            grid = torch.meshgrid(t, torch.arange(height), torch.arange(width), indexing="ij")
            parts.append(torch.stack(grid).reshape(3, -1) + current)
            current += max(height, width)
        else:
            raise TypeError(f"{where} must be Text or Grid, got {type(segment).__name__}")
    if not parts:
        raise ValueError("segments must not be empty")
    ids = torch.cat(parts, dim=1)
    check_elements("the sequence", ids.shape[1])
    return ids


def patch_ids(height: int, width: int) -> torch.Tensor:
    """(row, column) of each patch of a ``height × width`` grid, row by row, int64 ``[2, H·W]``."""
    height = _whole("height", height, 1, MAX_TOKENS)
    width = _whole("width", width, 1, MAX_TOKENS)
    check_elements(f"a grid of height × width ({height:,} × {width:,}) patches", height * width)
    rows, cols = torch.meshgrid(torch.arange(height), torch.arange(width), indexing="ij")
    return torch.stack([rows.reshape(-1), cols.reshape(-1)])


def angles(ids: torch.Tensor, frequencies: torch.Tensor, axes: torch.Tensor) -> torch.Tensor:
    """``p[a_i, n] · θ_i``, float64 ``[N, P]``, for ids ``[A, N]``, frequencies and axes ``[P]``."""
    theta = rope.angles([1.0], frequencies)[0]
    if axes.shape != theta.shape:
        raise ValueError(f"axes must have one entry per pair ({theta.numel()}), got {axes.shape}")
    if ids.ndim != 2 or int(axes.max()) >= ids.shape[0] or int(axes.min()) < 0:
        raise ValueError(f"ids must be [axes, N] with an axis for each of {axes.unique().tolist()}")
    return ids.to(torch.float64)[axes].T * theta


def apply(
    x: torch.Tensor,
    ids: torch.Tensor,
    frequencies: torch.Tensor,
    axes: torch.Tensor,
    *,
    layout: str = "half",
) -> torch.Tensor:
    """Rotate ``x`` (``[..., N, head_dim]``) token by token at its ids on each pair's axis."""
    return rope.rotate(x, angles(ids, frequencies, axes), layout=layout)


def patch_scores(
    q: torch.Tensor,
    k: torch.Tensor,
    height: int,
    width: int,
    query: tuple[int, int],
    frequencies: torch.Tensor,
    axes: torch.Tensor,
    *,
    spatial: tuple[int, int] = (ROW, COLUMN),
) -> torch.Tensor:
    """``(R_{p_q} q)·(R_{p_k} k)`` of the query patch ``query`` = (row, column) against every
    patch of one image, float64 ``[..., height, width]`` for ``q``, ``k`` ``[..., 2P]`` (half
    layout). It is ``q·R(φ)k`` with each pair's angle ``φ_i = Δp[a_i]·θ_i`` of the offset
    (Δrow, Δcolumn), so it depends on the offset only. ``spatial`` names the axes carrying the
    row and the column (M-RoPE: ``(HEIGHT, WIDTH)``; two different axes in [0, 2]); every
    other axis is one id for the whole image (its frame), an offset of 0."""
    rope.check_query_key(q, k, len(frequencies))
    ids = patch_ids(height, width)
    # axes of these encodings (T, H, W: 0-2), two different ones: an offset on an axis past
    # them, or both offsets on one, would be dropped or merged without a word
    spatial_axes = [_whole(f"spatial[{k}]", a, 0, WIDTH) for k, a in enumerate(spatial)]
    if len(spatial_axes) != 2 or spatial_axes[0] == spatial_axes[1]:
        raise ValueError(f"spatial must name two different axes (row, column), got {spatial!r}")
    row = _whole("query row", query[0], 0, height - 1)
    col = _whole("query column", query[1], 0, width - 1)
    offsets = torch.zeros(max(int(axes.max()), *spatial_axes) + 1, ids.shape[1], dtype=torch.int64)
    offsets[spatial_axes] = ids - torch.tensor([[row], [col]])  # Δrow, Δcolumn of each patch
    check_elements(
        f"patches × pairs ({ids.shape[1]:,} × {len(frequencies):,})",
        ids.shape[1] * len(frequencies),
    )
    pair_angles = angles(offsets, frequencies, axes)  # [H·W, P]
    half = q.shape[-1] // 2
    qa, qb = q[..., :half].double(), q[..., half:].double()
    ka, kb = k[..., :half].double(), k[..., half:].double()
    # per pair: q·R(φ)k = (q_a k_a + q_b k_b) cos φ + (q_b k_a − q_a k_b) sin φ
    scores = (qa * ka + qb * kb) @ torch.cos(pair_angles).T
    scores += (qb * ka - qa * kb) @ torch.sin(pair_angles).T
    return scores.reshape(*q.shape[:-1], height, width)


def mrope_settings(model: ModelRope) -> tuple[tuple[int, ...], bool] | None:
    """``(mrope_section, interleaved)`` that a model's config.json sets (Qwen2-VL, Qwen2.5-VL:
    sections; Qwen3-VL: ``mrope_interleaved``), or None for a model without M-RoPE."""
    read = {key.rsplit(".", 1)[-1]: value for key, value in model.used}
    section = read.get("mrope_section")
    if section is None:
        return None
    try:
        return check_section(section), bool(read.get("mrope_interleaved", False))
    except ValueError as exc:  # named as the file names it: rope_scaling.mrope_section
        raise ValueError(
            str(exc).replace("mrope_section", model.paths["mrope_section"], 1)
        ) from None
