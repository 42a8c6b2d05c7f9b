"""Coarse, then exact: a heavy frame is first drawn at fewer pixels, labelled, then exactly."""

from __future__ import annotations

import posenc_gui.frame_requests
from posenc_gui.encodings.window import Window, coarsened
from posenc_gui.tabs.absolute.compute import AbsoluteParams
from tests.conftest import FRAME_TIMEOUT_MS


def test_coarsened_parameters_have_fewer_pixels_in_every_window():
    params = AbsoluteParams(4096, 512, 1e4, table_rows=Window(0, 4096, 400), wave_x=None)
    coarse = coarsened(params, 4)
    assert coarse.table_rows == Window(0, 4096, 100) and coarse.wave_x is None
    assert coarse.seq_len == 4096 and coarse.dimensions == params.dimensions  # nothing else
    assert coarsened(AbsoluteParams(8, 8, 1e4, table_rows=Window(0, 8, 3)), 4).table_rows == (
        Window(0, 8, 1)  # never fewer than one pixel
    )


def test_a_heavy_frame_is_drawn_coarse_first_then_exactly(window, drive, qtbot, monkeypatch):
    monkeypatch.setattr(
        posenc_gui.frame_requests, "COARSE_AFTER_MS", -1.0
    )  # every frame counts as heavy
    tab = window.tab("absolute")
    drive(window, lambda: window.parameters.seq_len.setValue(4096))
    exact_rows = tab.table_view.image.image.shape[0]
    # per frame: coarse, rows drawn, sign says coarse, current (what exports and tests wait for)
    shown: list[tuple[bool, int, bool, bool]] = []
    window.engine.frame_drawn.connect(
        lambda channel, request_id, _ms: shown.append(
            (
                tab.coarse,
                tab.table_view.image.image.shape[0],
                tab.busy.isVisible() and tab.busy.text().startswith("coarse"),
                window.engine.is_current(channel, request_id),
            )
        )
    )
    window.parameters.theta.setValue(500.0)
    qtbot.waitUntil(lambda: len(shown) == 2, timeout=FRAME_TIMEOUT_MS)
    (coarse, coarse_rows, labelled, current), (still_coarse, rows, label_after, exact) = shown
    assert coarse and labelled and coarse_rows <= exact_rows // 4  # a quarter of the pixels
    assert not current  # never taken for the frame of these settings
    assert not still_coarse and not label_after and rows == exact_rows and exact
    assert not tab.is_waiting() and tab.frame.params.theta == 500.0
    assert tab.frame.params == tab.request()  # the exact frame is of the settings on screen


def test_while_a_slider_moves_only_coarse_frames_come_and_the_exact_one_after(
    window, drive, qtbot, monkeypatch
):
    monkeypatch.setattr(posenc_gui.frame_requests, "COARSE_AFTER_MS", -1.0)
    tab = window.tab("absolute")
    drive(window, lambda: window.parameters.seq_len.setValue(4096))
    kinds: list[bool] = []
    window.engine.frame_drawn.connect(lambda *_: kinds.append(tab.coarse))
    for value in (400.0, 500.0, 600.0):  # moves closer together than EXACT_AFTER_IDLE_MS
        window.parameters.theta.setValue(value)
        qtbot.waitUntil(lambda: tab.coarse, timeout=FRAME_TIMEOUT_MS)
        qtbot.wait(posenc_gui.frame_requests.EXACT_AFTER_IDLE_MS // 4)
        assert tab.is_waiting()
    qtbot.waitUntil(lambda: not tab.is_waiting(), timeout=FRAME_TIMEOUT_MS)
    assert kinds[-1] is False and kinds.count(False) == 1  # one exact frame: the last settings
    assert tab.frame.params.theta == 600.0
    assert tab.busy.isHidden()  # the exact frame: no sign
