"""MadeAhead: items made in idle time, a batch a turn of the event loop, until none is missing."""

from __future__ import annotations

from PySide6.QtCore import QObject

from posenc_gui.views.ahead import MadeAhead


def test_items_are_made_after_the_call_a_batch_a_turn_until_none_is_missing(qtbot, qapp):
    owner, made = QObject(), []
    ahead = MadeAhead(owner, lambda: made.append(1), lambda: 5 - len(made), batch=2)
    ahead.start()
    assert made == []  # not while the caller waits
    qapp.processEvents()
    assert len(made) == 2  # a batch, then the events that came meanwhile
    qtbot.waitUntil(lambda: len(made) == 5)
    qtbot.wait(20)
    assert len(made) == 5


def test_a_make_that_makes_nothing_stops_the_turns(qtbot):
    owner, calls = QObject(), []
    ahead = MadeAhead(owner, lambda: calls.append(1), lambda: 3)  # never fewer missing
    ahead.start()
    qtbot.wait(50)
    assert calls == [1]  # one turn, not one per turn for ever
