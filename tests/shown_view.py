"""A curves view on screen, for tests that look at what it lays out and paints."""

from __future__ import annotations

from posenc_gui.views import CurvesView


def shown_view(qtbot, width: int, height: int) -> CurvesView:
    """A CurvesView of that size, on screen."""
    view = CurvesView("t", "x", "y")
    qtbot.addWidget(view)
    view.resize(width, height)
    view.show()
    qtbot.waitExposed(view)
    return view
