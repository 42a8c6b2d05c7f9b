"""pyqtgraph widgets that draw the arrays they are handed."""

from posenc_gui.views.curve_specs import Band, Curve, Line, Span
from posenc_gui.views.curves import CurvesView
from posenc_gui.views.heatmap import HeatmapView
from posenc_gui.views.many_lines import MAX_LINES_APART

__all__ = ["MAX_LINES_APART", "Band", "Curve", "CurvesView", "HeatmapView", "Line", "Span"]
