"""RoPE against Hugging Face transformers and Meta's complex-number form, and its properties."""

from __future__ import annotations

import pytest
import torch
from transformers import LlamaConfig
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb

from posenc_gui.encodings import rope

GRID = [(64, 10000.0), (96, 10000.0), (128, 500000.0), (256, 1e6), (2, 10.0)]


def meta_apply(x: torch.Tensor, positions: torch.Tensor, inv_freq: torch.Tensor) -> torch.Tensor:
    """Meta LLaMA's ``precompute_freqs_cis`` + ``apply_rotary_emb``, in complex128."""
    freqs_cis = torch.polar(
        torch.ones(len(positions), len(inv_freq), dtype=torch.float64),
        torch.outer(positions.double(), inv_freq),
    )
    x_complex = torch.view_as_complex(x.double().reshape(*x.shape[:-1], -1, 2).contiguous())
    return torch.view_as_real(x_complex * freqs_cis).flatten(-2)


def hf_apply(x: torch.Tensor, positions: torch.Tensor, inv_freq: torch.Tensor) -> torch.Tensor:
    """Hugging Face's ``apply_rotary_pos_emb`` fed cos/sin built by its recipe, in float64."""
    freqs = positions.double()[:, None] * inv_freq[None, :]
    emb = torch.cat((freqs, freqs), dim=-1)
    q, _ = apply_rotary_pos_emb(x, x, emb.cos()[None], emb.sin()[None], unsqueeze_dim=1)
    return q


@pytest.mark.parametrize(("head_dim", "base"), GRID)
def test_inv_freq_matches_formula_and_transformers(head_dim, base):
    theta = rope.inv_freq(head_dim, base)
    assert theta.dtype == torch.float64 and theta.shape == (head_dim // 2,)
    i = torch.arange(head_dim // 2, dtype=torch.float64)
    torch.testing.assert_close(theta, base ** (-2 * i / head_dim), rtol=1e-15, atol=0)
    config = LlamaConfig(
        hidden_size=4 * head_dim, num_attention_heads=4, head_dim=head_dim, rope_theta=base
    )
    hf, factor = LlamaRotaryEmbedding.compute_default_rope_parameters(config)
    assert factor == 1.0
    # transformers computes in float32 (pow of a float32 exponent): a few ulp from exact.
    torch.testing.assert_close(theta.float(), hf, rtol=4 * 2**-23, atol=0)


@pytest.mark.parametrize(("head_dim", "base"), GRID)
def test_half_layout_matches_transformers_in_float64(head_dim, base):
    generator = torch.Generator().manual_seed(head_dim)
    positions = torch.tensor([0, 1, 7, 100, 4095, 65_537, 999_999, 1_000_000])
    x = torch.randn(2, 3, len(positions), head_dim, dtype=torch.float64, generator=generator)
    theta = rope.inv_freq(head_dim, base)
    ours = rope.apply(x, positions, theta, layout="half")
    torch.testing.assert_close(ours, hf_apply(x, positions, theta), rtol=0, atol=1e-12)


@pytest.mark.parametrize(("head_dim", "base"), GRID)
def test_interleaved_layout_matches_meta_complex_form_in_float64(head_dim, base):
    generator = torch.Generator().manual_seed(head_dim + 1)
    positions = torch.tensor([0, 3, 511, 8192, 123_457, 1_000_000])
    x = torch.randn(4, len(positions), head_dim, dtype=torch.float64, generator=generator)
    theta = rope.inv_freq(head_dim, base)
    ours = rope.apply(x, positions, theta, layout="interleaved")
    torch.testing.assert_close(ours, meta_apply(x, positions, theta), rtol=0, atol=1e-12)


def test_cos_sin_match_transformers_rotary_embedding_in_float32():
    config = LlamaConfig(hidden_size=512, num_attention_heads=4, head_dim=128)
    embedding = LlamaRotaryEmbedding(config)
    positions = torch.arange(64)
    x = torch.zeros(1, 64, 128)
    hf_cos, hf_sin = embedding(x, positions[None])
    cos, sin = rope.cos_sin(positions, rope.inv_freq(128), layout="half")
    # transformers forms the angles in float32; ours are float64 rounded once.
    torch.testing.assert_close(cos, hf_cos[0], rtol=0, atol=64 * 2**-23)
    torch.testing.assert_close(sin, hf_sin[0], rtol=0, atol=64 * 2**-23)


def test_cos_sin_channel_orders():
    theta = rope.inv_freq(8)
    cos_i, sin_i = rope.cos_sin([5], theta, layout="interleaved", dtype=torch.float64)
    cos_h, _ = rope.cos_sin([5], theta, layout="half", dtype=torch.float64)
    angles = 5 * theta
    torch.testing.assert_close(cos_i[0], torch.cos(angles).repeat_interleave(2))
    torch.testing.assert_close(sin_i[0], torch.sin(angles).repeat_interleave(2))
    torch.testing.assert_close(cos_h[0], torch.cos(angles).repeat(2))


@pytest.mark.parametrize("rotary_dim", [2, 8, 64, 128])
def test_layouts_differ_by_the_permutation(rotary_dim):
    perm = rope.permutation(rotary_dim)
    assert perm.tolist() == [*range(0, rotary_dim, 2), *range(1, rotary_dim, 2)]
    x = torch.randn(3, 10, rotary_dim, dtype=torch.float64)
    theta = rope.inv_freq(rotary_dim)
    interleaved = rope.apply(x, torch.arange(10) * 37, theta, layout="interleaved")
    half = rope.apply(x[..., perm], torch.arange(10) * 37, theta, layout="half")
    torch.testing.assert_close(interleaved[..., perm], half, rtol=0, atol=1e-14)


@pytest.mark.parametrize("layout", rope.LAYOUTS)
@pytest.mark.parametrize(("m", "n", "t"), [(0, 5, 3), (17, 4, 1000), (123_456, 999, 876_543)])
def test_score_depends_on_distance_only(layout, m, n, t):
    generator = torch.Generator().manual_seed(m + n + t)
    q, k = torch.randn(2, 1, 128, dtype=torch.float64, generator=generator)
    theta = rope.inv_freq(128)

    def score(a: int, b: int) -> float:
        return float(
            rope.apply(q, [a], theta, layout=layout)[0]
            @ rope.apply(k, [b], theta, layout=layout)[0]
        )

    assert score(m + t, n + t) == pytest.approx(score(m, n), abs=1e-8)
    closed = rope.relative_scores(q[0], k[0], [n - m], theta, layout=layout)
    assert closed.item() == pytest.approx(score(m, n), abs=1e-8)


@pytest.mark.parametrize("layout", rope.LAYOUTS)
def test_rotation_preserves_norms_and_position_zero_is_identity(layout):
    x = torch.randn(5, 50, 64, dtype=torch.float64)
    positions = torch.arange(50) * 10_007
    rotated = rope.apply(x, positions, rope.inv_freq(64), layout=layout)
    torch.testing.assert_close(rotated.norm(dim=-1), x.norm(dim=-1), rtol=1e-13, atol=0)
    torch.testing.assert_close(rotated[:, 0], x[:, 0], rtol=0, atol=0)


def test_partial_rotary_passes_the_rest_through():
    # GPT-NeoX-20B: head_dim 96, rotary_pct 0.25 → 24 rotary channels.
    theta = rope.inv_freq(96, rotary_dim=24)
    assert theta.shape == (12,)
    torch.testing.assert_close(theta, rope.inv_freq(24))
    x = torch.randn(2, 7, 96, dtype=torch.float64)
    out = rope.apply(x, torch.arange(7), theta, layout="half")
    assert torch.equal(out[..., 24:], x[..., 24:])
    reference = hf_apply(x[:, None, :, :24], torch.arange(7), theta)[:, 0]  # [batch, heads, …]
    torch.testing.assert_close(out[..., :24], reference, rtol=0, atol=1e-12)


def test_apply_keeps_dtype():
    x = torch.randn(3, 16, dtype=torch.bfloat16)
    assert rope.apply(x, torch.arange(3), rope.inv_freq(16)).dtype == torch.bfloat16


def test_precision_error_grows_in_low_precision_and_flags_float16_overflow():
    theta = rope.inv_freq(64)
    positions = torch.tensor([0, 100, 5000, 70_000])
    exact, _ = rope.precision_error(positions, theta, torch.float64)
    assert exact.max() == 0
    bf16, _ = rope.precision_error(positions, theta, torch.bfloat16)
    assert bf16[0].max() == 0 and bf16[2].max() > 1e-2
    f16, _ = rope.precision_error(positions, theta, torch.float16)
    assert torch.isfinite(f16[:3]).all() and not torch.isfinite(f16[3]).all()


def test_pair_channels_and_wavelengths():
    assert rope.pair_channels(6, "interleaved").tolist() == [[0, 1], [2, 3], [4, 5]]
    assert rope.pair_channels(6, "half").tolist() == [[0, 3], [1, 4], [2, 5]]
    torch.testing.assert_close(
        rope.wavelengths(rope.inv_freq(4, 100.0)),
        torch.tensor([2 * torch.pi, 20 * torch.pi], dtype=torch.float64),
    )


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rope.inv_freq(7), "head_dim must be even"),
        (lambda: rope.inv_freq(0), "head_dim must be in"),
        (lambda: rope.inv_freq(64, 0.5), "base must be a finite number > 1"),
        (lambda: rope.inv_freq(64, rotary_dim=128), "rotary_dim must be in"),
        (lambda: rope.inv_freq(64, rotary_dim=3), "rotary_dim must be even"),
        (
            lambda: rope.apply(torch.zeros(4, 8), torch.arange(4), rope.inv_freq(8), layout="x"),
            "layout must be one of",
        ),
        (lambda: rope.apply(torch.zeros(4, 6), torch.arange(4), rope.inv_freq(8)), "head_dim ≥ 8"),
        (
            lambda: rope.apply(torch.zeros(4, 8), torch.arange(3), rope.inv_freq(8)),
            "positions must have one entry per row",
        ),
        (lambda: rope.angles([float("inf")], rope.inv_freq(8)), "positions must be finite"),
        (lambda: rope.angles([1], torch.zeros(0)), "inv_freq must be a non-empty 1-D tensor"),
        (lambda: rope.angles([[0, 1], [2, 3]], rope.inv_freq(8)), "positions must be 1-D"),
        (
            lambda: rope.cos_sin(torch.tensor([1.0]), torch.tensor([0.5, float("nan")])),
            r"inv_freq must hold finite numbers ≥ 0 \(radians per position\), got nan",
        ),
        (lambda: rope.wavelengths(torch.tensor([-1.0])), r"inv_freq must hold .*, got -1\.0"),
        # refused before torch is asked for gigabytes (it failed to allocate, or the kernel
        # killed the process)
        (
            lambda: rope.cos_sin(torch.arange(10**7), rope.inv_freq(128)),
            r"positions × rotary channels \(10,000,000 × 128\) is 1,280,000,000 numbers, "
            r"more than the 268,435,456 allowed",
        ),
        (
            lambda: rope.decay(torch.arange(10**7), rope.inv_freq(128)),
            r"positions × pairs \(10,000,000 × 64\) is 640,000,000 numbers",
        ),
        (
            lambda: rope.relative_scores(torch.ones(8), torch.ones(6), [0, 1], rope.inv_freq(8)),
            r"k must end in 8 channels \(two per frequency\), got shape \(6,\)",
        ),
        (
            lambda: rope.relative_scores(
                torch.ones(2, 8), torch.ones(3, 8), [0, 1], rope.inv_freq(8)
            ),
            r"q and k must broadcast together, got shapes \(2, 8\) and \(3, 8\)",
        ),
    ],
)
def test_bad_arguments_name_the_parameter(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    ("q_shape", "k_shape"), [((3, 8), (8,)), ((8,), (3, 8)), ((2, 1, 8), (3, 8)), ((1, 8), (3, 8))]
)
def test_query_and_key_of_shapes_that_broadcast_score_as_broadcast(q_shape, k_shape):
    generator = torch.Generator().manual_seed(5)
    q = torch.randn(q_shape, generator=generator, dtype=torch.float64)
    k = torch.randn(k_shape, generator=generator, dtype=torch.float64)
    shape = torch.broadcast_shapes(q_shape, k_shape)
    inv_freq, distances = rope.inv_freq(8), [0, 3, 10]
    scores = rope.relative_scores(q, k, distances, inv_freq)
    expanded = rope.relative_scores(q.expand(shape), k.expand(shape), distances, inv_freq)
    assert scores.shape == (*shape[:-1], 3)
    torch.testing.assert_close(scores, expanded, rtol=0, atol=0)
