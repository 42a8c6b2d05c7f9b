"""Arbitrary JSON values for every key of sessions and config.json files (hypothesis): each is
either refused with a ValueError, changing nothing, or imported exactly."""

from __future__ import annotations

import copy
import dataclasses
import json
import math
from collections.abc import Iterator
from typing import Any

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from posenc_gui.session import look as session_look
from posenc_gui.session import parse_session
from posenc_gui.views.style import Look

LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
JSON_VALUES = st.recursive(
    LEAVES,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=6,
)


def paths(data: Any, prefix: tuple = ()) -> Iterator[tuple]:
    """Every key path in nested dictionaries, leaves and objects alike."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield (*prefix, key)
            yield from paths(value, (*prefix, key))


def get(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


def with_value(data: dict, path: tuple, value: Any) -> dict:
    changed = copy.deepcopy(data)
    get(changed, path[:-1])[path[-1]] = value
    return changed


def near(value: Any) -> st.SearchStrategy:
    """Values close to a valid one: its neighbours, extremes, and other types."""
    if isinstance(value, bool):
        return st.sampled_from([not value, 0, 1, "true", None])
    if isinstance(value, int | float):
        return st.sampled_from(
            [value + 1, value - 1, -value, 0, value * 1e300, 2**64, 0.5, str(value), True]
        )
    return JSON_VALUES


@pytest.fixture(scope="module")
def fuzzed_window(qapp):
    from posenc_gui.window import MainWindow

    window = MainWindow(device="cpu")
    for index in range(window.tabs.count()):
        window.tab_at(index)
    window.show()
    yield window
    window.close()


# A shared window (a fixture hypothesis does not reset) and frames that take their time.
FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@settings(FUZZ, max_examples=300)
@given(data=st.data())
def test_every_session_key_is_refused_whole_or_imported_exactly(fuzzed_window, data):
    window = fuzzed_window
    base = window.session()
    path = data.draw(st.sampled_from(sorted(paths(base), key=str)), label="path")
    value = data.draw(near(get(base, path)) | JSON_VALUES, label="value")
    text = json.dumps(with_value(base, path, value)).encode("utf-8")
    try:
        session = parse_session(text)
        if path[0] in ("look", "language"):  # a rebuild applies them: check what it gets
            got = {"look": dataclasses.asdict(session_look(session)), "language": session}
            got = get(got, path)
            expected = {**dataclasses.asdict(Look()), **value} if path == ("look",) else value
            assert got == expected and type(got) is type(expected), f"{path}: {value!r}"
            return
        window.apply_session(session)
    except ValueError as exc:
        assert str(exc), "a refusal says why"
        assert window.session() == base, f"refusing {path}={value!r} changed something"
        return
    after = window.session()
    try:
        got = get(after, path)
    finally:
        window.apply_session(base)
    assert _imported(got, value, get(base, path)), f"{path}: {value!r} became {got!r}"


def _imported(got: Any, value: Any, before: Any) -> bool:
    """Whether ``value`` was taken exactly: null as if absent, an object key by key (the keys
    it leaves out as they were)."""
    if value is None:
        return got == before
    if isinstance(value, dict) and isinstance(got, dict) and isinstance(before, dict):
        return all(
            _imported(got.get(key), value.get(key), before.get(key)) for key in {*got, *value}
        )
    return got == value or _same_number(got, value)


def _same_number(a: Any, b: Any) -> bool:
    numbers = (int, float)
    return (
        isinstance(a, numbers)
        and isinstance(b, numbers)
        and not isinstance(a, bool)
        and not isinstance(b, bool)
        and math.isclose(a, b, rel_tol=0, abs_tol=0)
    )


CONFIG = {  # the keys real configs use, each one fuzzed in turn
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "head_dim": 128,
    "rope_theta": 500000.0,
    "partial_rotary_factor": 1.0,
    "max_position_embeddings": 131072,
    "rope_scaling": {
        "rope_type": "yarn",
        "factor": 8.0,
        "beta_fast": 32.0,
        "beta_slow": 1.0,
        "mscale": 0.707,
        "mscale_all_dim": 0.707,
        "truncate": True,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    },
}


@settings(FUZZ, max_examples=200)
@given(data=st.data())
def test_every_config_key_is_refused_whole_or_imported_exactly(fuzzed_window, data):
    from posenc_gui.encodings.model_config import read_model_config
    from posenc_gui.encodings.rope_scaling import attention_factor, scaled_inv_freq

    window = fuzzed_window
    path = data.draw(st.sampled_from(sorted(paths(CONFIG), key=str)), label="path")
    value = data.draw(near(get(CONFIG, path)) | JSON_VALUES, label="value")
    config = with_value(CONFIG, path, value)
    before = window.session()
    try:
        window.import_config(json.dumps(config).encode("utf-8"))
    except ValueError as exc:
        assert str(exc), "a refusal says why"
        assert window.session() == before, f"refusing {path}={value!r} changed something"
        return
    expected = read_model_config(config).primary
    shown = window.tab("extension").scaling()
    assert (window.parameters.head_dim.value(), window.parameters.theta.value()) == (
        expected.head_dim,
        expected.base,
    )
    assert torch.equal(scaled_inv_freq(shown), scaled_inv_freq(expected)), (path, value)
    assert attention_factor(shown) == attention_factor(expected), (path, value)
