"""M-RoPE and 2-D axial RoPE against Hugging Face's Qwen2-VL, Qwen2.5-VL, Qwen3-VL and Pixtral,
the closed form in float64, and the relative-position property in 2-D and 3-D."""

from __future__ import annotations

import warnings
from functools import partial
from types import SimpleNamespace

import pytest
import torch

from posenc_gui.encodings import model_config, multimodal, rope
from posenc_gui.encodings.multimodal import Grid, Text

MERGE = 2  # Qwen2-VL's spatial_merge_size: the LLM sees (h/2) × (w/2) merged patches

# (segments as the library takes them, with HF's grid_thw before merging; video stride)
SEQUENCES = {
    "text only": [Text(7)],
    "one image": [Text(3), Grid(1, 4, 6), Text(5)],
    "two images": [Text(2), Grid(1, 2, 3), Text(1), Grid(1, 5, 2), Text(4)],
    "video": [Text(4), Grid(3, 2, 2, time_interval=4.0), Text(3)],
}
# Qwen3-VL splits a video into one grid per frame, each after its timestamp's text tokens.
QWEN3_VIDEO = [Text(4), Grid(1, 2, 2), Text(2), Grid(1, 2, 2), Text(2), Grid(1, 2, 2), Text(3)]


def _hf_inputs(segments, frames_of_one_video: bool = False):
    """input_ids, mm_token_type_ids and the grids as get_rope_index takes them (with
    ``frames_of_one_video``: every grid is a frame of one video, as Qwen3-VL numbers them)."""
    types, images, videos = [], [], []
    for segment in segments:
        if isinstance(segment, Text):
            types += [0] * segment.length
        else:
            kind = 2 if segment.frames > 1 or frames_of_one_video else 1
            types += [kind] * (segment.frames * segment.height * segment.width)
            grid = [segment.frames, segment.height * MERGE, segment.width * MERGE]
            (videos if kind == 2 else images).append(grid)
    ids = torch.zeros(1, len(types), dtype=torch.long)
    if frames_of_one_video:
        videos = [[len(videos), *videos[0][1:]]]
    grids = [torch.tensor(g) if g else None for g in (images, videos)]
    return ids, torch.tensor([types]), *grids


def _hf_position_ids(family: str, segments, frames_of_one_video: bool = False) -> torch.Tensor:
    """``get_rope_index`` of ``family``'s model class, without building a model."""
    import importlib

    module = importlib.import_module(f"transformers.models.{family}.modeling_{family}")
    cls = getattr(
        module,
        {"qwen2_vl": "Qwen2VLModel", "qwen2_5_vl": "Qwen2_5_VLModel"}.get(family, "Qwen3VLModel"),
    )
    vision = SimpleNamespace(spatial_merge_size=MERGE, tokens_per_second=2)
    owner = SimpleNamespace(config=SimpleNamespace(vision_config=vision))
    owner.get_vision_position_ids = partial(cls.get_vision_position_ids, owner)
    ids, types, images, videos = _hf_inputs(segments, frames_of_one_video)
    if all(isinstance(s, Text) for s in segments):
        return torch.arange(ids.shape[1]).expand(3, -1)  # text only: the model's own arange
    extra = {}
    if family == "qwen2_5_vl":  # time_interval 4 = tokens_per_second 2 × 2 s per frame group
        extra["second_per_grid_ts"] = torch.tensor([2.0])
    positions, _ = cls.get_rope_index(owner, ids, types, images, videos, **extra)
    return positions[:, 0]


@pytest.mark.parametrize("name", list(SEQUENCES))
@pytest.mark.parametrize("family", ["qwen2_vl", "qwen2_5_vl", "qwen3_vl"])
def test_position_ids_match_get_rope_index(family, name):
    segments = SEQUENCES[name]
    if family != "qwen2_5_vl":  # only Qwen2.5-VL spaces video frames by time
        segments = [
            Grid(s.frames, s.height, s.width) if isinstance(s, Grid) else s for s in segments
        ]
    video = family == "qwen3_vl" and name == "video"
    if video:
        segments = QWEN3_VIDEO
    ours = multimodal.position_ids(segments)
    assert torch.equal(ours, _hf_position_ids(family, segments, frames_of_one_video=video))


def test_text_ids_collapse_and_image_ids_spread_over_the_grid():
    ids = multimodal.position_ids([Text(3), Grid(1, 2, 3), Text(2)])
    assert ids[:, :3].tolist() == [[0, 1, 2]] * 3
    assert ids[:, 3:9].tolist() == [[3] * 6, [3, 3, 3, 4, 4, 4], [3, 4, 5, 3, 4, 5]]
    assert ids[:, 9:].tolist() == [[6, 7]] * 3  # resumes at the start + max(h, w)


def _text_config(family: str, section, head_dim=64, theta=1e6):
    import importlib

    configuration = importlib.import_module(f"transformers.models.{family}.configuration_{family}")
    name = {"qwen2_vl": "Qwen2VLTextConfig", "qwen3_vl": "Qwen3VLTextConfig"}[family]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(configuration, name)(
            hidden_size=head_dim * 4,
            num_attention_heads=4,
            head_dim=head_dim,
            rope_parameters={"rope_type": "default", "rope_theta": theta, "mrope_section": section},
        )


@pytest.mark.parametrize(
    ("family", "rotary", "axes"),
    [
        ("qwen2_vl", "Qwen2VLRotaryEmbedding", lambda s: multimodal.section_axes(s)),
        ("qwen3_vl", "Qwen3VLTextRotaryEmbedding", lambda s: multimodal.interleaved_axes(32, s)),
    ],
)
@pytest.mark.parametrize("section", [[8, 12, 12], [16, 8, 8], [4, 14, 14]])
def test_cos_sin_and_rotated_queries_match_the_multimodal_rotary_modules(
    family, rotary, axes, section
):
    import importlib

    modeling = importlib.import_module(f"transformers.models.{family}.modeling_{family}")
    module = getattr(modeling, rotary)(_text_config(family, section))
    ids = multimodal.position_ids(SEQUENCES["two images"])
    x = torch.randn(1, 4, ids.shape[1], 64, generator=torch.Generator().manual_seed(0))
    cos, sin = module(x, ids[:, None, :])
    frequencies = rope.inv_freq(64, 1e6)
    ours = multimodal.angles(ids, frequencies, axes(section))  # [N, 32]
    expected = torch.cat((ours, ours), -1)
    torch.testing.assert_close(cos[0].double(), torch.cos(expected), rtol=0, atol=2e-5)
    torch.testing.assert_close(sin[0].double(), torch.sin(expected), rtol=0, atol=2e-5)
    theirs, _ = modeling.apply_rotary_pos_emb(x, x, cos, sin)
    rotated = multimodal.apply(x, ids, frequencies, axes(section))
    torch.testing.assert_close(rotated, theirs, rtol=1e-4, atol=1e-4)


def test_section_and_interleaved_maps_as_the_papers_draw_them():
    assert multimodal.section_axes([2, 3, 3]).tolist() == [0, 0, 1, 1, 1, 2, 2, 2]
    # Qwen3-VL: t h w t h w …, the last pairs temporal once height and width are used up
    assert multimodal.interleaved_axes(8, [4, 2, 2]).tolist() == [0, 1, 2, 0, 1, 2, 0, 0]


def test_pixtral_2d_rope_matches_its_vision_rotary_module():
    from transformers.models.pixtral.configuration_pixtral import PixtralVisionConfig
    from transformers.models.pixtral.modeling_pixtral import PixtralVisionRotaryEmbedding

    config = PixtralVisionConfig(
        hidden_size=256,
        num_attention_heads=4,
        head_dim=64,
        rope_parameters={"rope_type": "axial", "rope_theta": 10000.0},
    )
    module = PixtralVisionRotaryEmbedding(config)
    ids = multimodal.patch_ids(5, 7)  # [2, 35]: row, column
    cos, sin = module(torch.zeros(1, 35, 64), ids.T)
    frequencies, axes = multimodal.axial_2d(rope.inv_freq(64, 1e4))
    ours = multimodal.angles(ids, frequencies, axes)
    both = torch.cat((ours, ours), -1)
    torch.testing.assert_close(cos.double(), torch.cos(both), atol=2e-6, rtol=0)
    torch.testing.assert_close(sin.double(), torch.sin(both), atol=2e-6, rtol=0)


def test_angles_are_the_closed_form_in_float64():
    frequencies, axes = multimodal.axial_2d(rope.inv_freq(8, 100.0))
    theta = 100.0 ** (-torch.arange(0, 8, 2, dtype=torch.float64) / 8)
    assert torch.equal(frequencies, torch.stack([theta[0], theta[2], theta[1], theta[3]]))
    ids = torch.tensor([[3], [5]])  # row 3, column 5
    expected = torch.stack([3 * theta[0], 3 * theta[2], 5 * theta[1], 5 * theta[3]])
    assert torch.equal(multimodal.angles(ids, frequencies, axes)[0], expected)


def test_patch_scores_are_the_rotated_dot_products_and_depend_on_the_offset_only():
    gen = torch.Generator().manual_seed(1)
    q, k = torch.randn(2, 32, generator=gen, dtype=torch.float64)
    frequencies, axes = multimodal.axial_2d(rope.inv_freq(32, 1e4))
    scores = multimodal.patch_scores(q, k, 6, 9, (2, 3), frequencies, axes)
    ids = multimodal.patch_ids(6, 9)
    rotated_k = multimodal.apply(k.expand(54, -1), ids, frequencies, axes)
    rotated_q = multimodal.apply(q.expand(54, -1), ids, frequencies, axes)[2 * 9 + 3]
    torch.testing.assert_close(scores.reshape(-1), rotated_k @ rotated_q, rtol=1e-12, atol=1e-12)
    moved = multimodal.patch_scores(q, k, 6, 9, (3, 5), frequencies, axes)
    # the same offsets (Δrow, Δcol) from both queries give the same scores
    torch.testing.assert_close(moved[1:, 2:], scores[:-1, :-2], rtol=1e-12, atol=1e-12)


def test_mrope_patch_scores_are_the_rotated_dot_products_of_an_image_after_text():
    gen = torch.Generator().manual_seed(3)
    q, k = torch.randn(2, 3, 64, generator=gen, dtype=torch.float64)  # three (q, k) pairs
    frequencies, axes = rope.inv_freq(64, 1e6), multimodal.section_axes([8, 12, 12])
    ids = multimodal.position_ids([Text(5), Grid(1, 4, 6)])[:, 5:]  # the image's 24 patches
    scores = multimodal.patch_scores(
        q, k, 4, 6, (1, 4), frequencies, axes, spatial=(multimodal.HEIGHT, multimodal.WIDTH)
    )
    assert scores.shape == (3, 4, 6)
    for sample in range(3):
        rotated_q = multimodal.apply(q[sample].expand(24, -1), ids, frequencies, axes)[6 + 4]
        rotated_k = multimodal.apply(k[sample].expand(24, -1), ids, frequencies, axes)
        torch.testing.assert_close(
            scores[sample].reshape(-1), rotated_k @ rotated_q, rtol=1e-12, atol=1e-12
        )


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (  # Qwen2-VL's flat legacy form
            {
                "hidden_size": 3584,
                "num_attention_heads": 28,
                "rope_theta": 1e6,
                "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
            },
            ((16, 24, 24), False),
        ),
        (  # Qwen3-VL: under text_config, interleaved
            {
                "text_config": {
                    "head_dim": 128,
                    "hidden_size": 4096,
                    "num_attention_heads": 32,
                    "rope_theta": 5e6,
                    "rope_scaling": {
                        "rope_type": "default",
                        "mrope_section": [24, 20, 20],
                        "mrope_interleaved": True,
                    },
                }
            },
            ((24, 20, 20), True),
        ),
        (  # Qwen3-VL with YaRN for long context, as its model card recommends
            {
                "text_config": {
                    "head_dim": 128,
                    "hidden_size": 4096,
                    "num_attention_heads": 32,
                    "rope_theta": 5e6,
                    "max_position_embeddings": 262144,
                    "rope_scaling": {
                        "rope_type": "yarn",
                        "factor": 3.0,
                        "original_max_position_embeddings": 262144,
                        "mrope_section": [24, 20, 20],
                        "mrope_interleaved": True,
                    },
                }
            },
            ((24, 20, 20), True),
        ),
        ({"hidden_size": 4096, "num_attention_heads": 32}, None),
    ],
)
def test_mrope_settings_come_from_the_config(config, expected):
    assert multimodal.mrope_settings(model_config.read_model_config(config)) == expected


def test_an_mrope_section_that_is_not_a_list_is_named_as_the_file_names_it():
    config = {
        "head_dim": 128,
        "rope_theta": 1e6,
        "rope_scaling": {"type": "mrope", "mrope_section": "16,24,24"},
    }
    with pytest.raises(
        ValueError,
        match=r"^rope_scaling\.mrope_section must be a list of 3 pair counts \(t, h, w\), "
        r"got '16,24,24'",
    ):
        multimodal.mrope_settings(model_config.read_model_config(config))


def test_mrope_scores_do_not_change_when_every_id_moves_by_the_same_text():
    gen = torch.Generator().manual_seed(2)
    q = torch.randn(1, 1, 64, generator=gen, dtype=torch.float64)
    frequencies, axes = rope.inv_freq(64, 1e6), multimodal.section_axes([8, 12, 12])
    ids = multimodal.position_ids([Text(2), Grid(2, 3, 4)])
    shifted = multimodal.position_ids([Text(9), Grid(2, 3, 4)])[:, 7:]  # 7 more text tokens
    x = q.expand(1, ids.shape[1], 64)
    near, far = (multimodal.apply(x, i, frequencies, axes)[0] for i in (ids, shifted))
    torch.testing.assert_close(near @ near.T, far @ far.T, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: multimodal.section_axes([16, 24]), "mrope_section must have 3 entries"),
        (lambda: multimodal.section_axes([16, -1, 24]), r"mrope_section\[1\] must be an integer"),
        (lambda: multimodal.section_axes([0, 0, 0]), "at least one pair"),
        (
            lambda: multimodal.position_ids([Grid(2, 2, 2, time_interval=float("nan"))]),
            r"segments\[0\].time_interval must be a number",
        ),
        (
            lambda: multimodal.position_ids([Grid(2, 2, 2, time_interval=-1.0)]),
            r"segments\[0\].time_interval must be a number",
        ),
        (lambda: multimodal.interleaved_axes(64, [24, 20, 10]), "must add up to 64 pairs"),
        (lambda: multimodal.position_ids([]), "segments must not be empty"),
        (lambda: multimodal.position_ids([Text(0)]), r"segments\[0\].length must be"),
        (lambda: multimodal.position_ids([Grid(1, 2**20, 2**20)]), "more than the"),
        (lambda: multimodal.patch_ids(0, 3), "height must be an integer"),
        (
            lambda: multimodal.patch_scores(
                torch.ones(8), torch.ones(8), 2, 2, (2, 0), *multimodal.axial_2d(rope.inv_freq(8))
            ),
            "query row must be an integer in",
        ),
        *(
            (
                lambda spatial=spatial: multimodal.patch_scores(
                    torch.ones(8),
                    torch.ones(8),
                    2,
                    2,
                    (0, 0),
                    *multimodal.axial_2d(rope.inv_freq(8)),
                    spatial=spatial,
                ),
                message,
            )
            for spatial, message in [
                ((0, 5), r"spatial\[1\] must be an integer in \[0, 2\], got 5"),
                ((1, 1), r"spatial must name two different axes \(row, column\), got \(1, 1\)"),
                ((0,), r"spatial must name two different axes"),
            ]
        ),
        (
            lambda: multimodal.patch_scores(
                torch.ones(6), torch.ones(8), 2, 2, (0, 0), *multimodal.axial_2d(rope.inv_freq(8))
            ),
            r"q must end in 8 channels \(two per frequency\), got shape \(6,\)",
        ),
    ],
)
def test_invalid_inputs_name_the_parameter(call, message):
    with pytest.raises(ValueError, match=message):
        call()
