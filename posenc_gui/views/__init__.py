"""pyqtgraph widgets that draw the arrays they are handed."""

from posenc_gui.views.curve_specs import Band, Curve, Line, Span
from posenc_gui.views.curves import CurvesView
from posenc_gui.views.heatmap import HeatmapView

__all__ = ["Band", "Curve", "CurvesView", "HeatmapView", "Line", "Span"]
