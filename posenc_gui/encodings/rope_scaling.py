"""RoPE context extension: what each scaling method does to each frequency.

Computes the scaled inverse frequencies and the attention factor of Hugging Face's RoPE types
exactly as ``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS`` does, but in float64
(``model_config`` reads them from a model's ``config.json``):

- ``default``: ``θ_i = base^(-2i/d)``;
- ``linear`` (position interpolation): ``θ_i / s``;
- ``ntk`` (static NTK-aware, not in transformers): base ``b·s^(d/(d−2))``;
- ``dynamic`` (dynamic NTK): base ``b·(s·L/L0 − (s−1))^(d/(d−2))``, ``L = max(seq_len, L0)``;
- ``yarn``: a ramp between ``θ_i`` (fast pairs) and ``θ_i / s`` (slow pairs), and an attention
  factor ``0.1·ln s + 1`` (or from ``mscale``/``mscale_all_dim``);
- ``llama3``: wavelengths below ``L0/high_freq_factor`` kept, above ``L0/low_freq_factor``
  divided by ``s``, smoothly blended between;
- ``longrope``: ``θ_i / λ_i`` with per-pair factors, short while ``seq_len ≤ L0`` else long;
  attention factor ``sqrt(1 + ln s / ln L0)``;
- ``proportional`` (Gemma 4): ``d/2`` pairs ``base^(-2i/head_dim) / s``, then zero frequencies
  up to ``head_dim/2`` pairs.

``d`` is the rotary dimension ``int(head_dim · partial_rotary_factor)``.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, fields, replace
from typing import Any

import torch

from posenc_gui.encodings import sinusoidal
from posenc_gui.encodings._checks import MAX_DIM, check_int

MAX_POSITIONS = 1 << 53  # positions stay exact in float64

METHODS = ("default", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope", "proportional")
# Older names seen in published configs.
ALIASES = {"su": "longrope", "mrope": "default"}
KEPT, BLENDED, INTERPOLATED, STILL = "kept", "blended", "interpolated", "still"


@dataclass(frozen=True)
class RopeScaling:
    """A validated RoPE configuration; build one with ``from_config`` or directly."""

    head_dim: int
    base: float = 10000.0
    method: str = "default"
    factor: float = 1.0
    original_context: int = 4096  # L0, the pre-training context
    max_position_embeddings: int = 4096
    partial_rotary_factor: float = 1.0
    beta_fast: float = 32.0
    beta_slow: float = 1.0
    mscale: float | None = None
    mscale_all_dim: float | None = None
    attention_factor: float | None = None
    truncate: bool = True
    low_freq_factor: float = 1.0
    high_freq_factor: float = 4.0
    short_factor: tuple[float, ...] = ()
    long_factor: tuple[float, ...] = ()
    short_mscale: float | None = None  # PhiMoE: the LongRoPE attention factor, short and long
    long_mscale: float | None = None

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def rotary_dim(self) -> int:
        return int(self.head_dim * self.partial_rotary_factor)

    def with_changes(self, **changes: Any) -> RopeScaling:
        """A copy with some fields changed (validated again); TypeError naming a key that is
        no field."""
        known = [field.name for field in fields(self)]
        unknown = sorted(set(changes) - set(known))
        if unknown:
            raise TypeError(
                f"RopeScaling has no field {', '.join(map(repr, unknown))}; "
                f"its fields: {', '.join(known)}"
            )
        return replace(self, **changes)


def number(
    key: str,
    value: object,
    *,
    low: float | None = None,
    high: float | None = None,
    strict_low: bool = False,
) -> float:
    """``value`` as float if it is a finite number in the bounds; ValueError naming ``key``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{key}: must be a number, got {value!r}")
    try:
        value = float(value)
    except OverflowError:  # an integer beyond float range: its size, not its 300+ digits
        digits = len(str(abs(value)))  # only an integral value overflows a float
        raise ValueError(f"{key}: must be finite, got an integer of {digits:,} digits") from None
    if not math.isfinite(value):
        raise ValueError(f"{key}: must be finite, got {value}")
    if low is not None and (value <= low if strict_low else value < low):
        raise ValueError(f"{key}: must be {'>' if strict_low else '≥'} {low:g}, got {value:g}")
    if high is not None and value > high:
        raise ValueError(f"{key}: must be ≤ {high:g}, got {value:g}")
    return value


def factor_list(key: str, values: object) -> tuple[float, ...]:
    """``values`` as a tuple if it is a list of finite numbers > 0 (LongRoPE's per-pair
    factors); ValueError naming ``key`` and the first that is not."""
    if not isinstance(values, list):
        raise ValueError(f"{key}: must be a list of numbers, got {values!r}")
    return tuple(number(f"{key}[{i}]", v, low=0.0, strict_low=True) for i, v in enumerate(values))


def whole_number(key: str, value: object, low: int, high: int = MAX_POSITIONS) -> int:
    """``value`` if it is an integer in ``[low, high]`` (a float with no fraction too, as
    configs write 4096.0); ValueError naming ``key``."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{key}: must be an integer, got {value!r}")
    whole = int(value)
    if not low <= whole <= high:
        raise ValueError(f"{key}: must be in [{low:,}, {high:,}], got {whole:,}")
    return whole


def _validate(s: RopeScaling) -> None:
    whole_number("head_dim", s.head_dim, 2, MAX_DIM)
    number("rope_theta", s.base, low=1.0, strict_low=True)
    if s.method not in METHODS:
        raise ValueError(f"rope_type: unknown {s.method!r}, expected one of {', '.join(METHODS)}")
    number("partial_rotary_factor", s.partial_rotary_factor, low=0.0, high=1.0, strict_low=True)
    if s.partial_rotary_factor == 1.0 and s.head_dim % 2:  # the whole head rotates
        raise ValueError(
            f"head_dim: must be even (RoPE rotates pairs of channels), got {s.head_dim}"
        )
    if s.rotary_dim < 2 or s.rotary_dim % 2:
        raise ValueError(
            f"partial_rotary_factor: head_dim × factor must be an even number ≥ 2, "
            f"got {s.rotary_dim}"
        )
    number("factor", s.factor, low=1.0)
    whole_number("original_max_position_embeddings", s.original_context, 1)
    whole_number("max_position_embeddings", s.max_position_embeddings, 1)
    number("beta_fast", s.beta_fast, low=0.0, strict_low=True)
    number("beta_slow", s.beta_slow, low=0.0, strict_low=True)
    # beta_fast < beta_slow turns YaRN's ramp round: fast pairs interpolated, slow ones kept
    # (transformers only warns)
    if s.method == "yarn" and s.beta_fast < s.beta_slow:
        raise ValueError(
            f"beta_fast: must be at least beta_slow ({s.beta_slow:g}), got {s.beta_fast:g}"
        )
    for key in ("mscale", "mscale_all_dim", "attention_factor"):
        if getattr(s, key) is not None:
            number(key, getattr(s, key), low=0.0, strict_low=key == "attention_factor")
    if not isinstance(s.truncate, bool):
        raise ValueError(f"truncate: must be true or false, got {s.truncate!r}")
    number("low_freq_factor", s.low_freq_factor, low=0.0, strict_low=True)
    number("high_freq_factor", s.high_freq_factor, low=0.0, strict_low=True)
    # Equal factors (Llama 4) are a hard step: no pair is blended.
    if s.method == "llama3" and s.high_freq_factor < s.low_freq_factor:
        raise ValueError(
            f"high_freq_factor: must be at least low_freq_factor "
            f"({s.low_freq_factor:g}), got {s.high_freq_factor:g}"
        )
    for key in ("short_mscale", "long_mscale"):
        if getattr(s, key) is not None:
            number(key, getattr(s, key), low=0.0, strict_low=True)
    if s.method in ("ntk", "dynamic"):
        if s.rotary_dim < 4:
            raise ValueError(
                f"partial_rotary_factor: NTK scaling needs a rotary dim of at least 4 (its "
                f"exponent is d/(d−2)), got {s.rotary_dim}"
            )
        effective_base(s)  # refuses a factor whose base overflows
    if s.method == "longrope":
        for key in ("short_factor", "long_factor"):
            values = getattr(s, key)
            if len(values) != s.rotary_dim // 2:
                raise ValueError(
                    f"{key}: needs one factor per pair ({s.rotary_dim // 2}), got {len(values)}"
                )
            for index, value in enumerate(values):
                number(f"{key}[{index}]", value, low=0.0, strict_low=True)


def effective_base(s: RopeScaling, seq_len: int | None = None) -> float:
    """The base actually used: changed by ``ntk`` and ``dynamic``, else ``s.base``."""
    d = s.rotary_dim
    ratio = s.factor
    if seq_len is not None:
        check_int("seq_len", seq_len, 1)
    if s.method == "dynamic":
        # transformers uses max_position_embeddings as L0 here.
        length = max(seq_len or s.max_position_embeddings, s.max_position_embeddings)
        ratio = s.factor * length / s.max_position_embeddings - (s.factor - 1)
    if s.method not in ("ntk", "dynamic"):
        return s.base
    try:
        base = s.base * ratio ** (d / (d - 2)) if d > 2 else math.inf
    except OverflowError:
        base = math.inf
    if not math.isfinite(base):
        raise ValueError(
            f"factor: {s.factor:g} makes the NTK base b·s^(d/(d−2)) overflow at rotary dim {d}"
        )
    return base


def attention_factor(s: RopeScaling, seq_len: int | None = None) -> float:
    """The factor cos and sin are multiplied by (1 but for YaRN and LongRoPE; PhiMoE's
    ``short_mscale``/``long_mscale`` replace it, long beyond the original context)."""
    if s.method == "longrope" and s.short_mscale is not None and s.long_mscale is not None:
        long = seq_len is not None and seq_len > s.original_context
        return s.long_mscale if long else s.short_mscale
    if s.attention_factor is not None and s.method in ("yarn", "longrope"):
        return float(s.attention_factor)
    if s.method == "yarn":

        def mscale(scale: float, m: float = 1.0) -> float:
            return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0

        if s.mscale and s.mscale_all_dim:
            return mscale(s.factor, s.mscale) / mscale(s.factor, s.mscale_all_dim)
        return mscale(s.factor)
    if s.method == "longrope":
        if s.factor <= 1.0:
            return 1.0
        return math.sqrt(1 + math.log(s.factor) / math.log(s.original_context))
    return 1.0


def yarn_ramp(s: RopeScaling) -> torch.Tensor:
    """YaRN's interpolation weight per pair in [0, 1]: 0 keeps ``θ_i``, 1 takes ``θ_i / s``."""
    d = s.rotary_dim

    def correction_dim(rotations: float) -> float:
        return d * math.log(s.original_context / (rotations * 2 * math.pi)) / (2 * math.log(s.base))

    low, high = correction_dim(s.beta_fast), correction_dim(s.beta_slow)
    if s.truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, d - 1)
    if low == high:
        high += 0.001  # as the reference: avoid dividing by zero
    ramp = (torch.arange(d // 2, dtype=torch.float64) - low) / (high - low)
    return ramp.clamp(0, 1)


def scaled_inv_freq(s: RopeScaling, seq_len: int | None = None) -> torch.Tensor:
    """The inverse frequencies the method uses, float64 ``[rotary_dim // 2]``.

    ``seq_len`` matters for ``dynamic`` (the base grows with it) and ``longrope`` (long factors
    beyond the original context).
    """
    if seq_len is not None:
        check_int("seq_len", seq_len, 1)
    d = s.rotary_dim
    if s.method == "proportional":
        # Gemma 4: rotary_dim/2 pairs with the exponent over the whole head, then pairs that
        # never turn; head_dim/2 entries in all.
        rotated = unscaled_inv_freq(s)[: d // 2]
        still = torch.zeros(s.head_dim // 2 - d // 2, dtype=torch.float64)
        return torch.cat([rotated, still]) / s.factor
    theta = sinusoidal.frequencies(d, s.base)
    if s.method == "linear":
        return theta / s.factor
    if s.method in ("ntk", "dynamic"):
        return sinusoidal.frequencies(d, effective_base(s, seq_len))
    if s.method == "yarn":
        ramp = yarn_ramp(s)
        return theta / s.factor * ramp + theta * (1 - ramp)
    if s.method == "llama3":
        wavelength = 2 * math.pi / theta
        low_wavelength = s.original_context / s.low_freq_factor
        high_wavelength = s.original_context / s.high_freq_factor
        scaled = torch.where(wavelength > low_wavelength, theta / s.factor, theta)
        smooth = (s.original_context / wavelength - s.low_freq_factor) / (
            s.high_freq_factor - s.low_freq_factor
        )
        blended = (1 - smooth) * scaled / s.factor + smooth * scaled
        medium = (wavelength >= high_wavelength) & (wavelength <= low_wavelength)
        return torch.where(medium, blended, scaled)
    if s.method == "longrope":
        long = seq_len is not None and seq_len > s.original_context
        factors = torch.tensor(s.long_factor if long else s.short_factor, dtype=torch.float64)
        return theta / factors
    return theta


def unscaled_inv_freq(s: RopeScaling) -> torch.Tensor:
    """What ``scaled_inv_freq`` starts from, pair for pair: ``base^(-2i/d)`` (over the whole
    head for ``proportional``, whose pairs past the rotary dim never turn)."""
    d = s.head_dim if s.method == "proportional" else s.rotary_dim
    return sinusoidal.frequencies(d, s.base)


def regions(s: RopeScaling, seq_len: int | None = None) -> list[str]:
    """Per pair: ``kept`` (θ unchanged), ``interpolated`` (θ / factor), ``blended``, or
    ``still`` (a zero frequency: the pair never turns, proportional RoPE)."""
    ratio = scaled_inv_freq(s, seq_len) / unscaled_inv_freq(s)
    out = []
    for r in ratio.tolist():
        if r == 0:
            out.append(STILL)
        elif math.isclose(r, 1.0, rel_tol=1e-9):
            out.append(KEPT)
        elif s.factor > 1 and math.isclose(r, 1.0 / s.factor, rel_tol=1e-9):
            out.append(INTERPOLATED)
        else:
            out.append(BLENDED)
    return out
