"""RoPE context extension: what each scaling method does to each frequency.

Reads Hugging Face ``config.json`` settings (``rope_scaling`` or ``rope_parameters``) and
computes the scaled inverse frequencies and the attention factor exactly as
``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS`` does, but in float64:

- ``default``: ``θ_i = base^(-2i/d)``;
- ``linear`` (position interpolation): ``θ_i / s``;
- ``ntk`` (static NTK-aware, not in transformers): base ``b·s^(d/(d−2))``;
- ``dynamic`` (dynamic NTK): base ``b·(s·L/L0 − (s−1))^(d/(d−2))``, ``L = max(seq_len, L0)``;
- ``yarn``: a ramp between ``θ_i`` (fast pairs) and ``θ_i / s`` (slow pairs), and an attention
  factor ``0.1·ln s + 1`` (or from ``mscale``/``mscale_all_dim``);
- ``llama3``: wavelengths below ``L0/high_freq_factor`` kept, above ``L0/low_freq_factor``
  divided by ``s``, smoothly blended between;
- ``longrope``: ``θ_i / λ_i`` with per-pair factors, short while ``seq_len ≤ L0`` else long;
  attention factor ``sqrt(1 + ln s / ln L0)``.

``d`` is the rotary dimension ``int(head_dim · partial_rotary_factor)``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import torch

from posenc_gui.encodings import sinusoidal

METHODS = ("default", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope")
# Older names seen in published configs.
ALIASES = {"su": "longrope", "mrope": "default"}
# Keys of config.json this module reads; any other key is reported as ignored.
TOP_LEVEL_KEYS = frozenset(
    {
        "head_dim",
        "hidden_size",
        "num_attention_heads",
        "rope_theta",
        "partial_rotary_factor",
        "rotary_pct",
        "rotary_emb_base",
        "max_position_embeddings",
        "original_max_position_embeddings",
        "rope_scaling",
        "rope_parameters",
    }
)
SCALING_KEYS = frozenset(
    {
        "rope_type",
        "type",
        "factor",
        "original_max_position_embeddings",
        "rope_theta",
        "partial_rotary_factor",
        "beta_fast",
        "beta_slow",
        "mscale",
        "mscale_all_dim",
        "attention_factor",
        "truncate",
        "low_freq_factor",
        "high_freq_factor",
        "short_factor",
        "long_factor",
    }
)
KEPT, BLENDED, INTERPOLATED = "kept", "blended", "interpolated"


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
    ignored_keys: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def rotary_dim(self) -> int:
        return int(self.head_dim * self.partial_rotary_factor)

    @classmethod
    def from_config(cls, config: Mapping[str, object]) -> RopeScaling:
        """Read Hugging Face ``config.json`` keys; ValueError naming key and reason if invalid.

        Keys this module does not use are kept in ``ignored_keys``.
        """
        return _parse(config)

    def with_changes(self, **changes: Any) -> RopeScaling:
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)


def _number(
    key: str,
    value: object,
    *,
    low: float | None = None,
    high: float | None = None,
    strict_low: bool = False,
) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{key}: must be a number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{key}: must be finite, got {value}")
    if low is not None and (value <= low if strict_low else value < low):
        raise ValueError(f"{key}: must be {'>' if strict_low else '≥'} {low:g}, got {value:g}")
    if high is not None and value > high:
        raise ValueError(f"{key}: must be ≤ {high:g}, got {value:g}")
    return value


def _integer(key: str, value: object, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{key}: must be an integer, got {value!r}")
    if value < low:
        raise ValueError(f"{key}: must be ≥ {low}, got {value}")
    return int(value)


def _validate(s: RopeScaling) -> None:
    _integer("head_dim", s.head_dim, 2)
    _number("rope_theta", s.base, low=1.0, strict_low=True)
    if s.method not in METHODS:
        raise ValueError(f"rope_type: unknown {s.method!r}, expected one of {', '.join(METHODS)}")
    _number("partial_rotary_factor", s.partial_rotary_factor, low=0.0, high=1.0, strict_low=True)
    if s.rotary_dim < 2 or s.rotary_dim % 2:
        raise ValueError(
            f"partial_rotary_factor: head_dim × factor must be an even number ≥ 2, "
            f"got {s.rotary_dim}"
        )
    _number("factor", s.factor, low=1.0)
    _integer("original_max_position_embeddings", s.original_context, 1)
    _integer("max_position_embeddings", s.max_position_embeddings, 1)
    _number("beta_fast", s.beta_fast, low=0.0, strict_low=True)
    _number("beta_slow", s.beta_slow, low=0.0, strict_low=True)
    for key in ("mscale", "mscale_all_dim", "attention_factor"):
        if getattr(s, key) is not None:
            _number(key, getattr(s, key), low=0.0, strict_low=key == "attention_factor")
    if not isinstance(s.truncate, bool):
        raise ValueError(f"truncate: must be true or false, got {s.truncate!r}")
    _number("low_freq_factor", s.low_freq_factor, low=0.0, strict_low=True)
    _number("high_freq_factor", s.high_freq_factor, low=0.0, strict_low=True)
    if s.method == "llama3" and s.high_freq_factor <= s.low_freq_factor:
        raise ValueError(
            f"high_freq_factor: must exceed low_freq_factor "
            f"({s.low_freq_factor:g}), got {s.high_freq_factor:g}"
        )
    if s.method == "longrope":
        for key in ("short_factor", "long_factor"):
            values = getattr(s, key)
            if len(values) != s.rotary_dim // 2:
                raise ValueError(
                    f"{key}: needs one factor per pair ({s.rotary_dim // 2}), got {len(values)}"
                )
            for index, value in enumerate(values):
                _number(f"{key}[{index}]", value, low=0.0, strict_low=True)


def _parse(config: Mapping[str, object]) -> RopeScaling:
    if not isinstance(config, Mapping):
        raise ValueError(f"config: must be a JSON object, got {type(config).__name__}")
    scaling = config.get("rope_parameters") or config.get("rope_scaling") or {}
    if not isinstance(scaling, Mapping):
        raise ValueError(f"rope_scaling: must be an object, got {scaling!r}")
    if "head_dim" in config and config["head_dim"] is not None:
        head_dim = _integer("head_dim", config["head_dim"], 2)
    elif "hidden_size" in config and "num_attention_heads" in config:
        hidden = _integer("hidden_size", config["hidden_size"], 1)
        heads = _integer("num_attention_heads", config["num_attention_heads"], 1)
        head_dim = hidden // heads
    else:
        raise ValueError(
            "head_dim: missing (give head_dim, or hidden_size and num_attention_heads)"
        )
    method = scaling.get("rope_type", scaling.get("type", "default"))
    if not isinstance(method, str):
        raise ValueError(f"rope_type: must be a string, got {method!r}")
    method = ALIASES.get(method, method)
    # GPT-NeoX names: rotary_emb_base for the base, rotary_pct for the rotary fraction.
    base = scaling.get(
        "rope_theta", config.get("rope_theta", config.get("rotary_emb_base", 10000.0))
    )
    max_positions = config.get("max_position_embeddings", 4096)
    # Like transformers: a top-level original_max_position_embeddings (Phi-3) wins.
    original = config.get(
        "original_max_position_embeddings",
        scaling.get("original_max_position_embeddings", max_positions),
    )
    factor = scaling.get("factor")
    if factor is None and method in ("yarn", "longrope"):
        factor = _integer("max_position_embeddings", max_positions, 1) / _integer(
            "original_max_position_embeddings", original, 1
        )
    elif factor is None and method in ("linear", "dynamic", "ntk", "llama3"):
        raise ValueError(f"factor: required for rope_type {method!r}")
    ignored = sorted({*config} - TOP_LEVEL_KEYS) + sorted(
        f"rope_scaling.{key}" for key in set(scaling) - SCALING_KEYS
    )
    return RopeScaling(
        head_dim=head_dim,
        base=base,
        method=method,
        factor=1.0 if factor is None else factor,
        # Raw JSON values: RopeScaling validates them (its __post_init__ names the key).
        original_context=original,  # type: ignore[arg-type]
        max_position_embeddings=max_positions,  # type: ignore[arg-type]
        partial_rotary_factor=scaling.get(
            "partial_rotary_factor",
            config.get("partial_rotary_factor", config.get("rotary_pct", 1.0)),
        ),
        beta_fast=scaling.get("beta_fast") or 32.0,
        beta_slow=scaling.get("beta_slow") or 1.0,
        mscale=scaling.get("mscale"),
        mscale_all_dim=scaling.get("mscale_all_dim"),
        attention_factor=scaling.get("attention_factor"),
        truncate=scaling.get("truncate", True),
        low_freq_factor=scaling.get("low_freq_factor", 1.0),
        high_freq_factor=scaling.get("high_freq_factor", 4.0),
        short_factor=_factor_list("short_factor", scaling.get("short_factor", ())),
        long_factor=_factor_list("long_factor", scaling.get("long_factor", ())),
        ignored_keys=tuple(ignored),
    )


def _factor_list(key: str, values: object) -> tuple[float, ...]:
    if not isinstance(values, Sequence) or isinstance(values, str):
        raise ValueError(f"{key}: must be a list of numbers, got {values!r}")
    return tuple(_number(f"{key}[{i}]", v, low=0.0, strict_low=True) for i, v in enumerate(values))


def effective_base(s: RopeScaling, seq_len: int | None = None) -> float:
    """The base actually used: changed by ``ntk`` and ``dynamic``, else ``s.base``."""
    d = s.rotary_dim
    if s.method == "ntk":
        return s.base * s.factor ** (d / (d - 2))
    if s.method == "dynamic":
        # transformers uses max_position_embeddings as L0 here.
        length = max(seq_len or s.max_position_embeddings, s.max_position_embeddings)
        ratio = s.factor * length / s.max_position_embeddings - (s.factor - 1)
        return s.base * ratio ** (d / (d - 2))
    return s.base


def attention_factor(s: RopeScaling) -> float:
    """The factor cos and sin are multiplied by (1 but for YaRN and LongRoPE)."""
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
    d = s.rotary_dim
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


def regions(s: RopeScaling, seq_len: int | None = None) -> list[str]:
    """Per pair: ``kept`` (θ unchanged), ``interpolated`` (θ / factor) or ``blended``."""
    theta = sinusoidal.frequencies(s.rotary_dim, s.base)
    ratio = scaled_inv_freq(s, seq_len) / theta
    out = []
    for r in ratio.tolist():
        if math.isclose(r, 1.0, rel_tol=1e-9):
            out.append(KEPT)
        elif s.factor > 1 and math.isclose(r, 1.0 / s.factor, rel_tol=1e-9):
            out.append(INTERPOLATED)
        else:
            out.append(BLENDED)
    return out


def inv_freq_from_config(
    config: Mapping[str, object], *, seq_len: int | None = None
) -> tuple[torch.Tensor, float]:
    """``(inv_freq as float64, attention_factor)`` for a Hugging Face ``config.json`` mapping.

    Equal to what transformers' ``ROPE_INIT_FUNCTIONS`` (and the default RoPE) compute for the
    same settings, plus ``ntk``. Raises ValueError naming the key and the reason.
    """
    scaling = RopeScaling.from_config(config)
    return scaled_inv_freq(scaling, seq_len), attention_factor(scaling)
