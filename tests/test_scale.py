"""The largest sizes compute only what the screen shows: nothing of size seq_len × d_model."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch

from posenc_gui.encodings import binning, sinusoidal
from posenc_gui.encodings.window import Window
from posenc_gui.tabs.absolute.compute import AbsoluteParams, compute_absolute

# 2^20 positions × 16384 channels in float64 is 128 GiB: far more than any test machine has,
# so finishing at all shows no view builds the full table; the peak memory is checked as well.
LARGEST = textwrap.dedent("""
    import re, torch
    from posenc_gui.encodings.window import Window as W
    from posenc_gui.encodings.rope import QueryKey
    from posenc_gui.encodings.rope_scaling import RopeScaling
    from posenc_gui.tabs.absolute import compute as absolute
    from posenc_gui.tabs.extension import compute as extension
    from posenc_gui.tabs.relative import compute as relative
    from posenc_gui.tabs.rope import compute as rope
    L, D, H, cpu = 1 << 20, 16384, 1024, torch.device("cpu")
    absolute.compute_absolute(absolute.AbsoluteParams(
        L, D, 1e4, table_cols=W(0, D, 500), table_rows=W(0, L, 400), wave_x=W(0, L, 500),
        similarity_cols=W(0, L, 500), similarity_rows=W(0, L, 400),
        offset_x=W(-(L - 1), L, 500)), cpu)
    relative.compute_relative(relative.RelativeParams(L, D, 1e4, scheme="alibi"), cpu)
    rope.compute_rope(rope.RopeParams(L, H, 1e4, query=QueryKey(H, "random")), cpu)
    rope.compute_rotation(rope.RotationParams(H, 1e4, "half", QueryKey(H),
                                              tuple(range(0, 512, 32)), L - 1), cpu)
    extension.compute_extension(extension.ExtensionParams(
        RopeScaling(head_dim=H, method="yarn", factor=64.0, original_context=16384,
                    max_position_embeddings=16384), L, L // 2), cpu)
    # VmHWM is this program's own peak; ru_maxrss would carry over the forking test process's
    # resident size across exec (Linux keeps the larger of the two)
    status = open("/proc/self/status").read()
    print(int(re.search(r"VmHWM:\\s+(\\d+) kB", status).group(1)) // 1024)
""")


@pytest.mark.slow
def test_largest_sizes_never_build_the_full_table():
    result = subprocess.run(
        [sys.executable, "-c", LARGEST], capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr
    peak_mb = int(result.stdout.split()[-1])
    # torch itself takes ~0.3 GB; one full float64 table would take 131,072 MB
    assert peak_mb < 2048, f"peak memory {peak_mb} MB"


def test_uneven_windows_are_exact_block_means_of_the_full_computation():
    seq_len, d_model = 997, 24
    full = sinusoidal.table(seq_len, d_model, 300.0, dtype=torch.float64).numpy()
    for rows, cols in (
        (Window(0, 997, 13), Window(0, 24, 5)),
        (Window(101, 950, 31), Window(3, 21, 7)),
    ):
        params = AbsoluteParams(seq_len, d_model, 300.0, table_rows=rows, table_cols=cols)
        frame = compute_absolute(params, torch.device("cpu"))
        r, c = frame.table_row_edges, frame.table_col_edges
        expected = np.array(
            [
                [full[r[i] : r[i + 1], c[j] : c[j + 1]].mean() for j in range(len(c) - 1)]
                for i in range(len(r) - 1)
            ]
        )
        np.testing.assert_allclose(frame.table, expected, atol=1e-6)
        assert (r[0], r[-1], c[0], c[-1]) == (rows.start, rows.stop, cols.start, cols.stop)


def test_similarity_block_means_for_different_row_and_column_windows():
    seq_len, d_model = 300, 16
    pe = sinusoidal.table(seq_len, d_model, dtype=torch.float64)
    sim = (pe @ pe.T).numpy()
    params = AbsoluteParams(
        seq_len, d_model, 1e4, similarity_rows=Window(7, 290, 9), similarity_cols=Window(40, 77, 37)
    )
    frame = compute_absolute(params, torch.device("cpu"))
    r, c = frame.similarity_row_edges, frame.similarity_col_edges
    expected = np.array(
        [
            [sim[r[i] : r[i + 1], c[j] : c[j + 1]].mean() for j in range(len(c) - 1)]
            for i in range(len(r) - 1)
        ]
    )
    np.testing.assert_allclose(frame.similarity, expected, rtol=1e-6, atol=1e-5)


def test_window_bins_cover_the_window_once():
    window = Window(-50, 1234, 100)
    starts, counts = binning.runs(window)
    assert starts[0] == -50 and int(starts[-1] + counts[-1]) == 1234
    assert torch.equal(starts[1:], starts[:-1] + counts[:-1])
    assert torch.equal(binning.edges(window)[1:-1], starts[1:])
    np.testing.assert_allclose(binning.centres(window).numpy(), (starts + (counts - 1) / 2).numpy())
    assert len(binning.bins(5, 100)[0]) == 5
