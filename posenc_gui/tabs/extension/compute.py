"""What the context-extension tab draws, computed from its parameters (worker thread)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from posenc_gui.encodings import binning, rope, rope_scaling
from posenc_gui.encodings.model_config import LayerRope
from posenc_gui.encodings.rope_scaling import RopeScaling
from posenc_gui.encodings.window import Window, full
from posenc_gui.frames import asks_for, check_pages

DYNAMIC_POINTS = 400  # the effective base is smooth and monotone in the length
PAGES = ("frequencies", "context", "dynamic", "layers")


@dataclass(frozen=True)
class ExtensionParams:
    scaling: RopeScaling
    target_context: int
    sweep_length: int  # the length marked on the dynamic-NTK curve
    decay_x: Window | None = None  # distances shown by the decay view
    layer_types: tuple[LayerRope, ...] = ()  # an imported model's, the controls' among them
    pages: tuple[str, ...] | None = None  # the pages to compute (None: every page)

    def __post_init__(self) -> None:
        check_pages(self.pages, PAGES)


@dataclass(frozen=True)
class LayerTypeFrame:
    """One layer type of the model: its wavelengths at the target context (empty: no RoPE)."""

    layer: LayerRope
    wavelength: np.ndarray  # [P] 2π/θ'_i, NaN for pairs that never turn
    attention_factor: float


@dataclass(frozen=True)
class DecayPage:
    distances: np.ndarray  # [B] centre of each run of distances 0 … target−1
    decay_original: np.ndarray  # [B] mean of 2·Σ_i cos(d·θ_i) over each run
    decay_scaled: np.ndarray  # [B] the same with θ' and the attention factor squared
    per_pixel: int  # the most distances a run holds (its values are their means)


@dataclass(frozen=True)
class DynamicPage:
    lengths: np.ndarray  # [N] sequence lengths for the dynamic-NTK curve
    dynamic_base: np.ndarray  # [N] dynamic NTK's base at each length
    sweep_base: float | None  # its value at params.sweep_length (None: rotary dim 2, no NTK)


@dataclass(frozen=True)
class ExtensionFrame:
    """Per pair, what every page and the readout show; the decay curves, the dynamic-NTK
    curve and the layer types where their page was asked for (``params.pages``), else None."""

    params: ExtensionParams
    pairs: np.ndarray  # [P] pair index i
    wavelength_original: np.ndarray  # [P] 2π/θ_i
    wavelength_scaled: np.ndarray  # [P] 2π/θ'_i (at the target context)
    ratio: np.ndarray  # [P] θ'_i/θ_i
    regions: tuple[str, ...]  # [P] kept / blended / interpolated
    angle_original: np.ndarray  # [P] angle budget of the original context, L0·θ_i
    angle_target: np.ndarray  # [P] angle budget of the target context, T·θ'_i
    unseen: np.ndarray  # [P] bool: pairs reaching angles never seen in training
    attention_factor: float
    effective_base: float
    decay: DecayPage | None  # the context page's
    dynamic: DynamicPage | None
    layer_types: tuple[LayerTypeFrame, ...] | None  # one per entry of params.layer_types


def compute_extension(p: ExtensionParams, device: torch.device) -> ExtensionFrame:
    """The extension views' arrays for ``p``, of the pages ``p.pages`` (default: every page)."""
    s, target = p.scaling, p.target_context
    original = rope_scaling.unscaled_inv_freq(s)
    scaled = rope_scaling.scaled_inv_freq(s, seq_len=target)
    factor = rope_scaling.attention_factor(s, target)  # PhiMoE's mscale: long beyond L0
    angle_original = s.original_context * original
    angle_target = target * scaled
    # A pair that never completed a turn in training meets new angles once the target context
    # turns it further (beyond rounding: interpolation by exactly T/L0 reaches the same angle).
    unseen = (angle_original < 2 * math.pi) & (angle_target > angle_original * (1 + 1e-9))
    return ExtensionFrame(
        params=p,
        pairs=np.arange(len(original)),
        wavelength_original=(2 * math.pi / original).numpy(),
        wavelength_scaled=_wavelengths(scaled),
        ratio=(scaled / original).numpy(),
        regions=tuple(rope_scaling.regions(s, seq_len=target)),
        angle_original=angle_original.numpy(),
        angle_target=angle_target.numpy(),
        unseen=unseen.numpy(),
        attention_factor=factor,
        effective_base=rope_scaling.effective_base(s, target),
        decay=_decay_page(p, original, scaled, factor) if asks_for(p.pages, "context") else None,
        dynamic=_dynamic_page(p) if asks_for(p.pages, "dynamic") else None,
        layer_types=(
            tuple(_layer_type(layer, target) for layer in p.layer_types)
            if asks_for(p.pages, "layers")
            else None
        ),
    )


def _decay_page(
    p: ExtensionParams, original: torch.Tensor, scaled: torch.Tensor, factor: float
) -> DecayPage:
    decay = full(p.decay_x, 0, p.target_context)
    starts, counts = binning.runs(decay)
    return DecayPage(
        distances=binning.centres(decay).numpy(),
        decay_original=rope.decay(starts, original, counts=counts).numpy(),
        decay_scaled=(factor**2 * rope.decay(starts, scaled, counts=counts)).numpy(),
        per_pixel=int(counts.max()),
    )


def _dynamic_page(p: ExtensionParams) -> DynamicPage:
    s = p.scaling
    # from half the trained context to the target (twice the trained one at least), and to
    # the sweep's length wherever it is: its marker lies on the curve (8,192 was left of one
    # starting at 16,384)
    low = min(max(1, s.max_position_embeddings // 2), p.sweep_length)
    high = max(p.target_context, 2 * s.max_position_embeddings, p.sweep_length)
    lengths = np.unique(np.linspace(low, high, DYNAMIC_POINTS).astype(int))
    if s.rotary_dim < 4:  # NTK's exponent d/(d−2) needs d ≥ 4: no curve to draw
        return DynamicPage(lengths[:0], np.array([]), None)
    dynamic = s.with_changes(method="dynamic")
    return DynamicPage(
        lengths=lengths,
        dynamic_base=np.array([rope_scaling.effective_base(dynamic, int(n)) for n in lengths]),
        sweep_base=rope_scaling.effective_base(dynamic, p.sweep_length),
    )


def _wavelengths(inv_freq: torch.Tensor) -> np.ndarray:
    """2π/θ per pair; NaN (drawn as a gap) where a pair never turns (proportional RoPE)."""
    return torch.where(inv_freq > 0, 2 * math.pi / inv_freq, math.nan).numpy()


def _layer_type(layer: LayerRope, target: int) -> LayerTypeFrame:
    s = layer.scaling
    if s is None:
        return LayerTypeFrame(layer, np.array([]), 1.0)
    inv_freq = rope_scaling.scaled_inv_freq(s, seq_len=target)
    return LayerTypeFrame(layer, _wavelengths(inv_freq), rope_scaling.attention_factor(s, target))
