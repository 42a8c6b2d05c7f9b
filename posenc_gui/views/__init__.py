"""pyqtgraph widgets that draw the arrays they are handed."""

from posenc_gui.views.curves import Curve, CurvesView
from posenc_gui.views.heatmap import HeatmapView

__all__ = ["Curve", "CurvesView", "HeatmapView"]
