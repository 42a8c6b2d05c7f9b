"""The Compare tab: each curve against its closed form in float64 (and T5 and ALiBi against
their references), exact pixel means, and what the tab draws."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest
import torch
from transformers.models.t5.modeling_t5 import T5Attention

from posenc_gui import registry
from posenc_gui.comparison import Curve, Entry, Inputs
from posenc_gui.encodings import binning
from posenc_gui.encodings.window import Window
from posenc_gui.tabs.compare.compute import CompareFrame, CompareParams, compute_compare
from posenc_gui.views import MAX_LINES_APART
from tests.test_relative import reference_get_slopes

CPU = torch.device("cpu")


@dataclass(frozen=True)
class Case:
    """The shared parameters and every Compare setting, as the tab's controls name them."""

    seq_len: int
    d_model: int
    head_dim: int
    theta: float
    max_relative_position: int = 16
    num_buckets: int = 32
    max_distance: int = 128
    n_heads: int = 8
    seed: int = 0
    x: Window | None = None

    def params(self) -> CompareParams:
        settings = ("max_relative_position", "num_buckets", "max_distance", "n_heads", "seed")
        return CompareParams(
            self.seq_len,
            self.d_model,
            self.head_dim,
            self.theta,
            registry.compare_entries(),
            tuple((name, getattr(self, name)) for name in settings),
            self.x,
        )


def computed(case: Case) -> CompareFrame:
    return compute_compare(case.params(), CPU)


def curve(frame: CompareFrame, name: str) -> np.ndarray:
    """A curve's values by the names the brute force uses (rope_std: the band's half width)."""
    if name in ("rope_mean", "rope_std"):
        random = frame.curve("rope_random")
        return random.values if name == "rope_mean" else random.std
    return frame.curve(name).values


def brute_force(p: Case) -> dict[str, np.ndarray]:
    """Every curve at every distance 0 … seq_len−1, straight from the definitions."""
    k = np.arange(p.seq_len, dtype=np.float64)
    omega = p.theta ** (-np.arange(0, p.d_model, 2) / p.d_model)
    pe = lambda pos: np.stack(  # noqa: E731 (the paper's table, interleaved)
        [np.sin(pos[:, None] * omega), np.cos(pos[:, None] * omega)], -1
    ).reshape(len(pos), -1)
    sinusoidal = pe(k) @ pe(np.zeros(1))[0] / (p.d_model / 2)
    theta = p.theta ** (-np.arange(0, p.head_dim, 2) / p.head_dim)
    rope_ones = np.cos(k[:, None] * theta).mean(-1)  # q = 1: each pair gives 2cos(kθ)/2
    slopes = np.array(reference_get_slopes(p.n_heads))
    relative = torch.arange(p.seq_len)
    buckets = T5Attention._relative_position_bucket(
        relative, bidirectional=True, num_buckets=p.num_buckets, max_distance=p.max_distance
    ).numpy()
    side = p.num_buckets // 2
    t5 = 1 - np.where(k > 0, buckets - side, 0) / (side - 1)
    shaw = 1 - np.minimum(k, p.max_relative_position) / p.max_relative_position
    return {
        "sinusoidal": sinusoidal,
        "rope_ones": rope_ones,
        "alibi": np.exp(-slopes[:, None] * k),
        "t5": t5,
        "shaw": shaw,
    }


@pytest.mark.parametrize(
    "params",
    [
        Case(200, 64, 32, 10000.0),
        Case(300, 128, 128, 500000.0, 7, 16, 64, 12),
        Case(100, 2, 2, 10.0, 1, 4, 9, 1),
    ],
)
def test_curves_match_their_closed_forms(params):
    frame = computed(params)  # seq_len < 1024 pixels: one distance per pixel
    expected = brute_force(params)
    np.testing.assert_array_equal(frame.distances, np.arange(params.seq_len))
    for name, values in expected.items():
        np.testing.assert_allclose(curve(frame, name), values, rtol=0, atol=1e-12, err_msg=name)
    # RoPE with q = 1 is the sinusoidal similarity of head_dim: the same curve when they agree
    if params.d_model == params.head_dim:
        same = curve(frame, "rope_ones"), curve(frame, "sinusoidal")
        np.testing.assert_allclose(*same, atol=1e-12)


def test_every_curve_is_one_at_distance_zero_and_the_band_is_a_similarity():
    frame = computed(Case(64, 96, 64, 10000.0, seed=3))
    for name in ("sinusoidal", "rope_ones", "rope_mean", "t5", "shaw"):
        assert curve(frame, name)[0] == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(curve(frame, "alibi")[:, 0], 1.0)
    assert curve(frame, "rope_std")[0] == pytest.approx(0.0, abs=1e-12)
    assert np.all(np.abs(curve(frame, "rope_mean")) <= 1 + 1e-12)  # Cauchy–Schwarz
    assert np.all(curve(frame, "rope_std")[1:] > 0)


# 62.5 distances per pixel; and runs across T5's max_distance (128) and Shaw's clip (16),
# past which those curves are held constant rather than summed
@pytest.mark.parametrize("window", [Window(1000, 5000, 64), Window(0, 5000, 37)])
def test_pixel_means_are_exact_at_a_million_positions(window):
    seq_len = 1 << 20
    frame = computed(Case(seq_len, 32, 16, 10000.0, x=window))
    full = brute_force(Case(5000, 32, 16, 10000.0))
    starts, counts = binning.runs(window)
    for name in ("sinusoidal", "rope_ones", "t5", "shaw"):
        means = [full[name][s : s + c].mean() for s, c in zip(starts, counts, strict=True)]
        np.testing.assert_allclose(curve(frame, name), means, atol=1e-12, err_msg=name)
    means = np.stack(
        [full["alibi"][:, s : s + c].mean(-1) for s, c in zip(starts, counts, strict=True)], -1
    )
    np.testing.assert_allclose(curve(frame, "alibi"), means, rtol=1e-12, atol=1e-300)


@pytest.mark.parametrize("rate", [0.0, 1e-9, 2**-8, 0.5, 8.0])
def test_mean_decay_is_the_mean_of_the_exponentials(rate):
    starts, counts = torch.tensor([0, 3, 10, 500]), torch.tensor([1, 7, 490, 1])
    ours = binning.mean_decay(starts, counts, torch.tensor([rate]))[:, 0]
    for start, count, value in zip(starts.tolist(), counts.tolist(), ours.tolist(), strict=True):
        exact = sum(math.exp(-rate * p) for p in range(start, start + count)) / count
        assert value == pytest.approx(exact, rel=1e-12, abs=1e-300)


def test_the_tab_draws_the_frame_and_the_comparison_table(window, drive):
    tab = window.tab("compare")
    drive(window, lambda: window.tabs.setCurrentWidget(tab), "compare")
    drive(window, lambda: tab.setting_controls["n_heads"].setValue(4), "compare")
    frame = tab.frame
    drawn = {item.name(): item.getOriginalDataset() for item in tab.similarity_view.curve_items}
    x, y = drawn["sinusoidal, d_model 128"]
    np.testing.assert_array_equal(x, frame.distances)
    np.testing.assert_array_equal(y, curve(frame, "sinusoidal"))
    np.testing.assert_array_equal(drawn["T5, 32 buckets"][1], curve(frame, "t5"))
    np.testing.assert_array_equal(drawn["Shaw, K = 16"][1], curve(frame, "shaw"))
    items = tab.similarity_view.curve_items
    first = items.index(next(item for item in items if item.name().startswith("ALiBi")))
    alibi = items[first : first + 4]
    assert [item.name() for item in alibi] == ["ALiBi, heads 1 … 4 (steepest first)", *[None] * 3]
    assert len({item.opts["pen"].color().name() for item in alibi}) == 1  # one family, one colour
    for item, head in zip(alibi, curve(frame, "alibi"), strict=True):
        np.testing.assert_array_equal(item.getOriginalDataset()[1], head)  # one curve per head
    table = tab.table
    assert (table.rowCount(), table.columnCount()) == (5, 6)
    criteria = [table.verticalHeaderItem(r).text() for r in range(5)]
    assert criteria == [
        "Principle",
        "Length generalisation",
        "Compute cost",
        "Typical use",
        "Implementation difficulty",
    ]
    assert [table.horizontalHeaderItem(c).text() for c in range(6)] == [
        "Sinusoidal",
        "Shaw",
        "T5 bias",
        "ALiBi",
        "RoPE",
        "2-D axial RoPE",
    ]
    assert all(table.item(r, c).text() for r in range(5) for c in range(6))
    np.testing.assert_array_equal(
        drawn["2-D axial RoPE along a row, q = 1, head_dim 128"][1], curve(frame, "axial_row")
    )


def test_the_title_says_when_a_pixel_is_a_mean_of_distances(window, drive):
    tab = window.tab("compare")
    drive(window, lambda: window.tabs.setCurrentWidget(tab), "compare")
    assert tab.similarity_view.plot.titleLabel.text == "Similarity against distance, normalised"
    drive(window, lambda: window.parameters.seq_len.setValue(1 << 20), "compare")
    pixels = len(tab.frame.distances)
    most = -(-(1 << 20) // pixels)  # the runs of a window differ by one distance at most
    assert tab.frame.per_pixel == most
    assert f"a pixel: the mean of {most:,} distances" in tab.similarity_view.plot.titleLabel.text
    drive(window, lambda: tab.log_distance.setChecked(True), "compare")  # first pixels exact
    assert tab.similarity_view.plot.titleLabel.text == "Similarity against distance, normalised"


def test_the_log_axis_leaves_distance_zero_out(window, drive):
    tab = window.tab("compare")
    drive(window, lambda: window.tabs.setCurrentWidget(tab), "compare")
    drive(window, lambda: tab.log_distance.setChecked(True), "compare")
    x, _ = tab.similarity_view.curve_items[0].getOriginalDataset()
    assert x.min() >= 1 and tab.similarity_view.plot.getAxis("bottom").logMode


def test_log_windows_cover_every_distance_once_and_start_exact():
    starts, counts = binning.log_bins(1, 1 << 20, 512)
    ends = starts + counts
    assert starts[0] == 1 and ends[-1] == 1 << 20
    assert torch.equal(starts[1:], ends[:-1]) and bool((counts >= 1).all())
    assert len(starts) <= 512
    assert counts[:5].tolist() == [1, 1, 1, 1, 1]  # finer than one position near the start
    assert counts[-1] > 1000  # a decade's worth of positions per pixel at the end


def test_pixel_means_are_exact_on_a_log_axis():
    window = Window(1, 5000, 64, log=True)
    frame = computed(Case(1 << 20, 32, 16, 10000.0, x=window))
    full = brute_force(Case(5000, 32, 16, 10000.0))
    starts, counts = binning.runs(window)
    for name in ("sinusoidal", "rope_ones", "t5", "shaw"):
        means = [full[name][s : s + c].mean() for s, c in zip(starts, counts, strict=True)]
        np.testing.assert_allclose(curve(frame, name), means, atol=1e-12, err_msg=name)


def test_the_log_axis_starts_at_distance_one_at_any_length(window, drive):
    tab = window.tab("compare")
    drive(window, lambda: window.tabs.setCurrentWidget(tab), "compare")
    drive(window, lambda: tab.log_distance.setChecked(True), "compare")
    drive(window, lambda: window.parameters.seq_len.setValue(1 << 16), "compare")
    x, _ = tab.similarity_view.curve_items[0].getOriginalDataset()
    assert x[0] == 1 and x[1] == 2  # log-spaced pixels: single distances first
    fill = tab.similarity_view.bands[0][1]
    band_x, _ = fill.curves[0].getData()
    np.testing.assert_allclose(band_x, np.log10(tab.frame.distances))  # the band follows log x


def test_an_entry_is_recomputed_only_for_the_shared_parameters_it_reads():
    calls: dict[str, list[Inputs]] = {"theta": [], "nothing": []}

    def recording(name: str) -> Entry:
        def curves(inputs: Inputs) -> tuple[Curve, ...]:
            calls[name].append(inputs)
            return (Curve(name, name, np.ones(len(inputs.starts))),)

        reads = ("theta",) if name == "theta" else ()
        return Entry(name, ("", "", "", "", ""), curves, reads=reads)

    entries = (recording("theta"), recording("nothing"))
    for theta, d_model in ((10.0, 64), (20.0, 64), (20.0, 128)):
        compute_compare(CompareParams(100, d_model, 32, theta, entries), CPU)
    assert [inputs.theta for inputs in calls["theta"]] == [10.0, 20.0]
    assert calls["theta"][0].d_model == 0 and calls["theta"][0].head_dim == 0  # not read
    assert len(calls["nothing"]) == 1 and calls["nothing"][0].theta == 0


SHARED_INPUTS = dict(seq_len=300, d_model=64, head_dim=32, theta=500.0)


def entry_curves(entry: Entry, shared: dict, setting_value) -> tuple:
    """``entry``'s curves over 300 distances in 60 pixels, with ``shared`` parameters and
    every registered setting at ``setting_value(setting)``."""
    starts, counts = binning.runs(Window(0, 300, 60))
    settings = {
        setting.name: setting_value(setting)
        for other in registry.compare_entries()
        for setting in other.settings
    }
    return entry.curves(
        Inputs(**shared, settings=settings, starts=starts, counts=counts, device=CPU)
    )


def test_every_entry_reads_what_its_curves_depend_on():
    """Each registered entry's curves with the shared parameters it does not read changed
    are its curves: its ``reads`` leaves nothing out."""
    one = SHARED_INPUTS
    for entry in registry.compare_entries():
        other = {name: one[name] if name in entry.reads else one[name] * 2 for name in one}
        first, second = (
            entry_curves(entry, shared, lambda setting: setting.default) for shared in (one, other)
        )
        for a, b in zip(first, second, strict=True):
            np.testing.assert_array_equal(a.values, b.values, err_msg=entry.name)


def test_no_entry_draws_more_lines_than_it_says():
    """``most_lines`` is what the Compare tab's view makes ahead: at every setting's highest
    value each entry's curves draw no more lines (a row of a 2-D ``values`` each)."""
    for entry in registry.compare_entries():
        curves = entry_curves(entry, SHARED_INPUTS, lambda setting: setting.high)
        lines = sum(1 if c.values.ndim == 1 else len(c.values) for c in curves)
        assert 0 < lines <= entry.most_lines, entry.name
    assert {entry.name: entry.most_lines for entry in registry.compare_entries()}["ALiBi"] == 128


def test_the_tab_makes_the_items_of_its_most_lines_ahead(window, drive, qtbot, monkeypatch):
    tab = window.tab("compare")
    drive(window, lambda: window.tabs.setCurrentWidget(tab), "compare")
    view = tab.similarity_view
    # an item a line, but one for more than MAX_LINES_APART unnamed lines (ALiBi's heads but
    # its first, named)
    most = sum(min(entry.most_lines, MAX_LINES_APART + 1) for entry in tab.entries)
    qtbot.waitUntil(lambda: len(view.curve_items) + len(view._set_aside) == most)
    made = []
    monkeypatch.setattr(view, "_new_item", lambda: made.append(1))
    for heads in (MAX_LINES_APART, MAX_LINES_APART + 1, MAX_LINES_APART + 2, 128):
        drive(window, lambda h=heads: tab.setting_controls["n_heads"].setValue(h), "compare")
        lines = sum(entry.most_lines for entry in tab.entries) - 128 + heads
        assert len(view.drawn_curves()) == lines  # every entry at its most lines
    # 8 positions: 128 heads together too (their 1,024 points would be marked apart)
    drive(window, lambda: window.parameters.seq_len.setValue(8), "compare")
    assert view._together is not None and view._together.isVisible()
    assert made == []
