"""Look shared by every view: theme, presentation mode, colour-blind-safe colours and maps.

``current_look()`` is read when a view is built; the app builds its window anew when the look
changes.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, replace
from typing import Any

import pyqtgraph as pg
import shiboken6
from PySide6.QtCore import QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication

from posenc_gui.choices import THEMES

# Okabe & Ito's colour-blind-safe palette; the first colour (black, or white on dark) goes to
# the most important curve.
_OKABE_ITO = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442")
# Colour-blind-safe maps only: perceptually uniform sequential maps, CET diverging maps.
COLORMAPS = {
    "sequential": ("viridis", "cividis", "magma", "plasma", "inferno"),
    "diverging": ("CET-D1", "CET-D1A", "CET-CBD1", "CET-D9"),
    "cyclic": ("CET-CBC1", "CET-CBC2"),
}
# Colormap roles: a heatmap asks for a role, the look says which map plays it.
SEQUENTIAL, DIVERGING, CYCLIC = "sequential", "diverging", "cyclic"
MINUS = "\u2212"  # figures' minus sign: the hyphen "-" is shorter and sits higher
_COLOURS = {  # background, foreground, muted lines, legend background, error text, no value
    "light": ("#ffffff", "#000000", "#999999", (255, 255, 255, 210), "#b00020", "#c8c8c8"),
    "dark": ("#1e1e1e", "#e6e6e6", "#777777", (30, 30, 30, 210), "#ff8a80", "#505050"),
}


@dataclass(frozen=True)
class Look:
    """How figures look: ``theme`` (light or dark), ``presentation`` (larger fonts, thicker
    lines for slides) and the map playing each colormap role."""

    theme: str = "light"
    presentation: bool = False
    sequential: str = "viridis"
    diverging: str = "CET-D1"
    cyclic: str = "CET-CBC1"

    def __post_init__(self) -> None:
        if not isinstance(self.presentation, bool):
            raise ValueError(f"presentation must be true or false, got {self.presentation!r}")
        if self.theme not in THEMES:
            raise ValueError(f"theme must be one of {', '.join(THEMES)}, got {self.theme!r}")
        for role, names in COLORMAPS.items():
            if getattr(self, role) not in names:
                raise ValueError(
                    f"{role} colormap must be one of {', '.join(names)}, "
                    f"got {getattr(self, role)!r}"
                )

    @property
    def scale(self) -> float:
        """Font and line-width factor."""
        return 1.5 if self.presentation else 1.0

    def font_size(self, points: float) -> str:
        return f"{points * self.scale:g}pt"

    def colour(self, index: int) -> str:
        """Palette colour ``index``: the foreground first, then Okabe & Ito's colours."""
        palette = (_COLOURS[self.theme][1], *_OKABE_ITO)
        return palette[index % len(palette)]

    @property
    def background(self) -> str:
        return _COLOURS[self.theme][0]

    @property
    def foreground(self) -> str:
        return _COLOURS[self.theme][1]

    @property
    def muted(self) -> str:
        return _COLOURS[self.theme][2]

    @property
    def legend_background(self) -> tuple[int, int, int, int]:
        return _COLOURS[self.theme][3]

    @property
    def error_colour(self) -> str:
        return _COLOURS[self.theme][4]

    @property
    def no_value(self) -> str:
        """A heatmap cell with no value (a masked future key): a grey near the background."""
        return _COLOURS[self.theme][5]

    def with_changes(self, **changes: Any) -> Look:
        return replace(self, **changes)


_LOOK = [Look()]


def current_look() -> Look:
    """The look views are built with now."""
    return _LOOK[0]


def set_look(look: Look) -> None:
    """Make ``look`` the one views are built with, and configure pyqtgraph for it."""
    _LOOK[0] = look
    pg.setConfigOptions(
        imageAxisOrder="row-major",
        background=look.background,
        foreground=look.foreground,
        antialias=True,
    )


def colormap(role: str) -> pg.ColorMap:
    """The map playing ``role`` (SEQUENTIAL, DIVERGING or CYCLIC) in the current look."""
    return pg.colormap.get(getattr(current_look(), role))


def tick_font() -> QFont:
    """Tick labels: the interface font (its CJK fallback included) at 10 pt, larger in
    presentation mode."""
    font = QGuiApplication.font()
    font.setPointSizeF(10 * current_look().scale)
    return font


def pre_blended(colour: QColor, alpha: float, background: QColor) -> QColor:
    """The opaque colour ``colour`` at ``alpha`` shows over ``background``:
    ``alpha·front + (1 − alpha)·back`` per channel."""
    return QColor(
        *(
            round(front * alpha + behind * (1 - alpha))
            for front, behind in zip(
                (colour.red(), colour.green(), colour.blue()),
                (background.red(), background.green(), background.blue()),
                strict=True,
            )
        )
    )


def light(colour: int | str, alpha: float = 0.35) -> str:
    """Palette colour ``colour`` (an index or a name) made light: pre-blended with the
    background, opaque (for envelopes behind their curve)."""
    if isinstance(colour, int):
        colour = current_look().colour(colour)
    return pre_blended(QColor(colour), alpha, QColor(current_look().background)).name()


# The share of the sequential map a family of curves spans: without its end that fades into
# the background (viridis' yellow on white, its purple or magma's black on a dark one), so each
# curve keeps a contrast of 2.5:1 or more with every map offered.
FAMILY_SPAN = {"light": (0.0, 0.65), "dark": (0.45, 1.0)}


def family_colour(index: int, count: int) -> str:
    """Curve ``index`` of a family of ``count`` (ALiBi's heads, first to last): along the
    sequential map, within ``FAMILY_SPAN``."""
    low, high = FAMILY_SPAN[current_look().theme]
    place = low + (high - low) * index / max(1, count - 1)
    return str(colormap(SEQUENTIAL).map(place, mode="qcolor").name())


def coloured(text: str, index: int) -> str:
    """``text`` as rich text in palette colour ``index`` (curves named in a title, not a legend)."""
    return f"<span style='color: {current_look().colour(index)}'>{html.escape(text)}</span>"


def set_title(plot: pg.PlotItem, title: str, points: float = 12) -> None:
    """A plot title at ``points`` (scaled in presentation mode); set only when it changes (a
    new title re-lays the plot out)."""
    size = current_look().font_size(points)
    if plot.titleLabel.text != title or plot.titleLabel.opts.get("size") != size:
        plot.setTitle(title, size=size)


MIN_WRAP_PX = 40  # a title narrower than this is still being laid out: it stays on one line


class ShrinkableTitle(pg.LabelItem):
    """A plot title that never sets the plot's width (neither its least nor its preferred):
    in a narrow view (presentation mode, say) a title wider than the view wraps onto more lines,
    and its row of the plot's layout grows to hold them; a new text on as many lines (a slider's
    value in it) resizes nothing."""

    def __init__(self, text: str, *, parent: pg.PlotItem) -> None:
        super().__init__(text, parent=parent)
        self._plot = parent
        option = self.item.document().defaultTextOption()
        option.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.item.document().setDefaultTextOption(option)

    def updateMin(self) -> None:
        super().updateMin()
        self.setMinimumWidth(0)

    def sizeHint(self, which: Qt.SizeHint, constraint: Any) -> QSizeF:
        """No width asked of the plot: the title wraps to the width it gets."""
        hint = super().sizeHint(which, constraint)
        if which in (Qt.SizeHint.MinimumSize, Qt.SizeHint.PreferredSize):
            hint.setWidth(0)
        return hint

    # Wrap to the figure's width rather than the plot's: empty room beside a square image
    # narrows the plot, and a title that wrapped there would shorten the image (its text may
    # reach into that room).
    wrap_in_figure = False

    def resizeEvent(self, ev: Any) -> None:
        self.rewrap()

    def rewrap(self) -> None:
        """Wrap to the width there is now (on a resize, and for ``wrap_in_figure`` when the
        figure's width changes but not the plot's)."""
        if hasattr(self, "_plot") and not shiboken6.isValid(self._plot):
            return  # its plot is being deleted (a window deleted whole resizes its children)
        width = self.width()
        figure = self._plot.parentWidget() if hasattr(self, "_plot") else None
        if self.wrap_in_figure and figure is not None:
            width += figure.size().width() - self._plot.size().width()
        self.item.setTextWidth(-1)  # the text's natural width, on one line
        natural = self.item.boundingRect().width()
        # a width always, so that the centring applies: lines of a title broken with <br> are
        # centred on each other, not left-aligned (a px more than the text needs: no new break)
        # (not below MIN_WRAP_PX: a plot not laid out yet, whose title as tall as a word
        # column would hold the figure that tall when the view sets its size)
        wraps = MIN_WRAP_PX <= width < natural
        self.item.setTextWidth(
            _balanced_width(self.item, width, natural) if wraps else math.ceil(natural) + 1
        )
        super().resizeEvent(None)  # centres the text (pyqtgraph reads no event)
        height = self.itemRect().height() if self.isVisible() else 0.0
        if hasattr(self, "_plot") and abs(self.maximumHeight() - height) > 0.5:
            self.setMaximumHeight(height)
            self._plot.layout.setRowFixedHeight(0, height)


def _line_count(item: pg.QtWidgets.QGraphicsTextItem) -> int:
    """The lines ``item``'s text takes at its text width now."""
    document = item.document()
    document.size()  # lays the text out (Qt lays it out when first asked)
    block, count = document.firstBlock(), 0
    while block.isValid():
        count += block.layout().lineCount()
        block = block.next()
    return count


def _balanced_width(item: pg.QtWidgets.QGraphicsTextItem, width: float, natural: float) -> float:
    """The narrowest text width (to a px, at most ``width``) that wraps ``item``'s text, whose
    width on one line is ``natural``, onto no more lines than ``width`` does: its lines come out
    even, where wrapping at ``width`` could leave a last line of one word (or, in Chinese, one
    character). By bisection: a few lay-outs of the text."""
    item.setTextWidth(width)
    lines = _line_count(item)
    # ``lines`` lines hold the text only if about natural ÷ lines wide (less the spaces they
    # break at): the search starts there
    low, high = natural / lines - 1, float(width)
    while high - low > 1:
        middle = (low + high) / 2
        item.setTextWidth(middle)
        low, high = (low, middle) if _line_count(item) <= lines else (middle, high)
    return min(float(width), math.ceil(high))


def number_text(value: float, spec: str = ".6g") -> str:
    """``value`` written with ``spec`` for a readout, a negative zero as 0 (ALiBi's bias −m·0 on
    the diagonal and at distance 0: "-0" reads as a sign that is not there). A readout keeps
    the hyphen: it is copied into code."""
    return format(float(value) + 0.0, spec)


def with_minus_sign(number: str) -> str:
    """A written number as a figure prints it: the minus sign "−", not the hyphen "-"."""
    return number.replace("-", MINUS)


def pen(color: int | str, *, dashed: bool = False, width: float = 2.0) -> pg.QtGui.QPen:
    """A curve pen: ``color`` is a palette index or a colour name; wider in presentation."""
    style = pg.QtCore.Qt.PenStyle.DashLine if dashed else pg.QtCore.Qt.PenStyle.SolidLine
    if isinstance(color, int):
        color = current_look().colour(color)
    return pg.mkPen(color, width=width * current_look().scale, style=style)


def wrap_title(plot: pg.PlotItem) -> None:
    """Give ``plot`` a title that wraps to its width (``ShrinkableTitle``)."""
    default_title = plot.titleLabel
    plot.layout.removeItem(default_title)
    if default_title.scene() is not None:
        default_title.scene().removeItem(default_title)
    plot.titleLabel = ShrinkableTitle("", parent=plot)
    plot.layout.addItem(plot.titleLabel, 0, 1)
