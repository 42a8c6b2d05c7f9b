"""What every tab shares: a controls column, a grid of named views, and one engine channel.

A tab class declares what the rest of the app needs to know of it (``posenc_gui.registry`` lists
the classes): its ``spec`` (name, views and pages), ``title``, ``compute``, the preset kinds it
takes settings from, and its encodings' entries on the Compare tab. It places exactly the views
of its spec (``add_view``, ``add_page`` refuse others): those are what export and the command
line offer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

from PySide6.QtCore import QCoreApplication, QEventLoop, Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from posenc_gui.comparison import Entry
from posenc_gui.control_settings import apply_settings, reset_settings, settings
from posenc_gui.controls import NumberSpinBox
from posenc_gui.engine import Engine
from posenc_gui.frame_requests import FrameRequests
from posenc_gui.i18n import tr
from posenc_gui.parameters import ParameterPanel
from posenc_gui.presets import Preset
from posenc_gui.signs import Sign, SignStrip
from posenc_gui.tabspec import TabSpec
from posenc_gui.views.deferred import HeldPaint, settle
from posenc_gui.views.page import SteadyTabWidget, ViewPage
from posenc_gui.views.style import current_look

CONTROLS_WIDTH = 360  # px of the controls' column, wider where its rows need it
SHOWN_WAIT_MS = 100  # a tab or page brought to the front waits this long for its frame at most


@dataclass(frozen=True)
class TabContext:
    """What the window hands every tab: the engine, the shared parameters and the Compare
    entries of every registered tab (asked for by the tab that shows them: each tab's module
    is imported then)."""

    engine: Engine
    parameters: ParameterPanel
    compare_entries: Callable[[], tuple[Entry, ...]] = tuple


class Tab(QWidget):
    """A tab composes controls and views; subclasses say what to compute and how to draw it.

    ``objectName`` is the tab's name and its engine channel.
    """

    hovered = Signal(str)
    refused = Signal(str)  # the controls do not fit together: no frame is coming
    spec: ClassVar[TabSpec]  # its name, title, views and pages, known before it loads
    name: ClassVar[str]  # from spec: objectName, engine channel and command-line name
    title: ClassVar[str]  # from spec: shown on the tab (marked for translation)
    preset_kinds: ClassVar[tuple[str, ...]]  # from spec: presets it takes settings from
    compute: ClassVar[staticmethod[..., Any]]  # compute(params, device) -> frame
    compare: ClassVar[tuple[Entry, ...]] = ()  # its encodings on the Compare tab
    # Its frames hold the page in front only (a request names it): a page change asks for one.
    per_page: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.name, cls.title, cls.preset_kinds = cls.spec.name, cls.spec.title, cls.spec.preset_kinds

    def __init__(self, context: TabContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(self.name)
        self.engine, self.parameters = context.engine, context.parameters
        self.frame: Any = None
        self._draw_again = False  # whether the frame on screen is drawn when delivered again
        self.kept_behind = False  # it asks for no frame, as a tab behind (``is_behind``)
        self._held_paint = HeldPaint(self, SHOWN_WAIT_MS)
        self._views: dict[str, QWidget] = {}
        self._notes: dict[str, str] = {}  # what the message label says, by who said it
        self._conditional: list[tuple[QWidget, Callable[[], bool]]] = []
        self.controls = QFormLayout()
        self.controls.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.message = QLabel(objectName="message", wordWrap=True)
        self.message.setStyleSheet(f"color: {current_look().error_colour};")
        column = QWidget()
        column.setLayout(self.controls)
        scroll = self._controls_area = QScrollArea(objectName="controls")
        scroll.setWidget(column)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFixedWidth(CONTROLS_WIDTH)
        self.views = QGridLayout()
        self.pages: QTabWidget | None = None
        # Shown while what the views show is not what the controls say.
        self.stale = Sign("", background="#6b6b6b", objectName="stale")
        self.stale.hide()
        # Views never get less height than their texts need (``fit_height``): in a window too
        # small for that, the figures scroll instead of pushing the window past the screen.
        figures_area = QScrollArea(objectName="figures")
        figures_area.setWidgetResizable(True)
        figures_area.setFrameShape(QScrollArea.Shape.NoFrame)
        figures_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.frame_requests = FrameRequests(
            self.engine, self.name, self._show, self.parameters.sizes, over=self
        )
        self.busy = self.frame_requests.busy
        figures = QVBoxLayout()
        # The window moves the strip to its tab bar's corner (``MainWindow.show_signs``).
        self.signs = SignStrip(self.stale, self.busy)  # why the views are not current first
        figures.addWidget(self.signs)
        figures.addLayout(self.views, 1)
        figures_widget = QWidget()
        figures_widget.setLayout(figures)
        figures_area.setWidget(figures_widget)
        layout = QHBoxLayout(self)
        layout.addWidget(scroll)
        layout.addWidget(figures_area, 1)
        self.engine.failed.connect(self._on_failure)

    @classmethod
    def shows_preset(cls, preset: Preset) -> bool:
        """Whether this tab is the one to show after ``preset`` is applied."""
        return preset.kind in cls.preset_kinds

    @classmethod
    def preset_page(cls, preset: Preset) -> str | None:
        """The page that shows what ``preset`` sets, when this tab shows it (default: none)."""
        return None

    @classmethod
    def preset_parameters(cls, preset: Preset) -> dict[str, float]:
        """The shared parameters ``preset`` sets, as this tab reads it (default: none)."""
        return {}

    def add_controls(
        self,
        rows: Sequence[tuple[str, QWidget]],
        *,
        applies: Callable[[], bool] | None = None,
    ) -> None:
        """Rows of the controls column (labels marked for translation; ``""`` for none: the
        widget spans the row); with ``applies`` they show only while it holds — the page in
        front, the chosen method."""
        for label, widget in rows:
            if isinstance(widget, NumberSpinBox):  # a box without a slider: the tab says why
                widget.on_refused = partial(self.note, widget.objectName())
            if label:
                self.controls.addRow(tr(label), widget)
            else:
                self.controls.addRow(widget)
            if applies is not None:
                self._conditional.append((widget, applies))

    def update_controls(self) -> None:
        """Show the rows that apply now, hide the others; the column as wide as they need."""
        for widget, applies in self._conditional:
            self.controls.setRowVisible(widget, applies())
        self._fit_controls_width()

    def _fit_controls_width(self) -> None:
        """Widen the controls' column to its widest row (larger fonts, longer labels): no field
        is cut. Never narrowed again: a row shown for a moment moves the views once."""
        area, rows = self._controls_area, self.controls.totalMinimumSize().width()
        need = rows + area.verticalScrollBar().sizeHint().width() + 2 * area.frameWidth()
        area.setFixedWidth(max(need, area.maximumWidth()))

    def add_view(
        self, name: str, view: QWidget, row: int, col: int, *, shown_in: QWidget | None = None
    ) -> None:
        """Place view ``name`` (offered for export) in the tab's grid, or the widget holding
        it (``shown_in``: a splitter, say) there."""
        self.views.addWidget(view if shown_in is None else shown_in, row, col)
        self._declare(name, view, page=None)

    def add_page(
        self, name: str, title: str, views: Mapping[str, QWidget], *, columns: int | None = None
    ) -> None:
        """Place named views on a page of the tab's own page bar, in a grid of ``columns``
        (default: all in one row)."""
        if self.pages is None:
            self.pages = SteadyTabWidget(objectName="pages")
            self.pages.currentChanged.connect(self.update_controls)
            self.pages.currentChanged.connect(lambda: self.hovered.emit(""))  # read the page left
            if self.per_page:  # once the page's views are laid out: their windows are sized
                self.pages.currentChanged.connect(self._hold_paint)
                self.pages.currentChanged.connect(
                    lambda: QTimer.singleShot(0, self.refresh_windows)
                )
            self.views.addWidget(self.pages, 0, 0)
        page = ViewPage(list(views.values()), columns or len(views), objectName=name)
        for view_name, view in views.items():
            self._declare(view_name, view, page=name)
        self.pages.addTab(page, title)

    def _declare(self, name: str, view: QWidget, *, page: str | None) -> None:
        if name in self._views:
            raise ValueError(f"{self.name}: two views named {name!r}")
        if name not in self.spec.views or self.spec.views[name] != page:
            raise ValueError(f"{self.name}: view {name!r} on page {page!r} is not in its spec")
        self._views[name] = view
        if hasattr(view, "hovered"):
            view.hovered.connect(self.hovered)

    def view_names(self) -> dict[str, QWidget]:
        """The tab's exportable views by the names they were placed under."""
        return dict(self._views)

    def show_view(self, name: str) -> QWidget:
        """Bring the page holding view ``name`` to the front; returns the view."""
        view = self.view_names()[name]
        for index, page in enumerate(self._page_widgets()):
            if page.isAncestorOf(view) and self.pages is not None:
                self.pages.setCurrentIndex(index)
        return view

    def ready_view(self, name: str, timeout_s: float = 60.0) -> QWidget:
        """``show_view(name)``, then wait (running the event loop) until the tab's exact frame
        is drawn: a page computed only when in front has its frame then."""
        view = self.show_view(name)
        QCoreApplication.processEvents()  # a page change asks for its frame once laid out
        loop, deadline = QEventLoop(), time.monotonic() + timeout_s
        while self.is_waiting() and time.monotonic() < deadline:
            QTimer.singleShot(10, loop.quit)  # (checked again every 10 ms)
            loop.exec()
        return view

    def _page_widgets(self) -> list[QWidget]:
        pages = self.pages
        widgets = [] if pages is None else [pages.widget(i) for i in range(pages.count())]
        return [widget for widget in widgets if widget is not None]

    def page_names(self) -> list[str]:
        """Names of the tab's pages (empty for a single-page tab)."""
        return [page.objectName() for page in self._page_widgets()]

    def current_page(self) -> str | None:
        """The name of the page in front (None for a single-page tab)."""
        return None if self.pages is None else self.pages.currentWidget().objectName()

    def show_page(self, name: str) -> None:
        """Bring page ``name`` to the front; ValueError naming the choices otherwise."""
        names = self.page_names()
        if name not in names:
            raise ValueError(
                f"page must be one of {', '.join(names) or '(none)'} on the "
                f"{self.name} tab, got {name!r}"
            )
        assert self.pages is not None  # it has the page
        self.pages.setCurrentIndex(names.index(name))

    def state(self) -> dict[str, Any]:
        """The tab's settings as JSON-ready data: its page and every named control."""
        return {
            "page": self.current_page(),
            "controls": settings(self),
        }

    def reset(self, defaults: dict[str, Any]) -> None:
        """Put every setting back to ``defaults`` (``settings(tab)`` when it was built)."""
        reset_settings(self, defaults)

    def set_state(self, state: dict[str, Any]) -> None:
        """Apply ``state()`` data; ValueError naming the first setting that does not fit
        (settings before it stay applied: callers that need all-or-nothing restore a saved
        state)."""
        unknown = sorted(set(state) - set(self.state()))
        if unknown:
            raise ValueError(f"{self.name}: no tab setting named {', '.join(map(repr, unknown))}")
        controls = state.get("controls")
        if controls is not None and not isinstance(controls, dict):
            raise ValueError(f"{self.name}: controls must be an object")
        try:
            apply_settings(self, controls or {})
        except ValueError as exc:
            raise ValueError(f"{self.name}: {exc}") from None
        page = state.get("page")
        if page is not None:
            if not isinstance(page, str):
                raise ValueError(f"{self.name}: page must be a page name, got {page!r}")
            self.show_page(page)
        # A state may set what no control shows (LongRoPE's lists, an imported model), and
        # equal controls ask for nothing: the frame follows the state whatever changed.
        self.refresh()

    def note(self, source: str, text: str = "") -> None:
        """Say ``text`` in the tab's message on behalf of ``source`` (``""`` withdraws it); the
        notes of other sources stay, so a frame's note survives an unrelated request."""
        self._notes[source] = text
        self.message.setText("\n".join(note for note in self._notes.values() if note))

    def input_notes(self) -> list[str]:
        """What the current inputs leave out or adjust (default: nothing)."""
        return []

    def refresh(self) -> None:
        """Ask the engine for a new frame of the current parameters (never blocks); it is
        drawn even where it is the frame on screen (a drawing may read more than the request,
        such as token labels).

        Settings that do not fit together (``request`` raises ValueError) are named in the
        tab's message and the last good frame stays. A tab behind another one says what is
        wrong but asks for no frame: the window asks for it when the tab comes to the front.
        """
        self._draw_again = True
        self.refresh_windows()

    def refresh_windows(self) -> None:
        """``refresh`` after what the views show may have moved (a zoom, a pan, a page laid
        out): a window that moved and came back gets the frame on screen, not drawn again."""
        self.update_controls()
        try:
            request = self.request()
        except ValueError as exc:
            self.frame_requests.abandon()
            self.release_paint()  # no frame is coming
            self.note("inputs", str(exc))
            self.mark_stale(str(exc))
            self.refused.emit(str(exc))
            return
        self.note("inputs", "\n".join(note for note in self.input_notes() if note))
        if not self.is_behind():
            self.frame_requests.submit(type(self).compute, request)

    def follow_views(self, views: Iterable[Any]) -> None:
        """Ask for a new frame when what one of ``views`` shows moves (``viewport.changed``:
        a zoom, a pan, a resize that matters)."""
        for view in views:
            view.viewport.changed.connect(self.refresh_windows)

    @property
    def coarse(self) -> bool:
        """Whether the frame shown is a coarse one (its exact frame follows)."""
        return self.frame_requests.coarse

    def is_behind(self) -> bool:
        """Whether another tab is in front of this one in a shown window (its views' layouts
        still settle there, and a preset still sets its controls: neither needs a frame yet),
        or it is ``kept_behind`` (a page laid out or painted off screen, ``tabs_ahead``: Qt
        counts it as shown meanwhile)."""
        return self.kept_behind or (self.window().isVisible() and not self.isVisible())

    def is_waiting(self) -> bool:
        """Whether a frame was asked for and its exact frame is not drawn yet."""
        return self.frame_requests.is_waiting()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not event.spontaneous():  # (a window restored from its icon asks for no frame)
            self._hold_paint()

    def _hold_paint(self) -> None:
        """The tab or one of its pages comes to the front: its frame is asked for (the window
        asks as its tab changes, a page once laid out), and drawn before the window repaints."""
        if self.isVisible():  # (not a page changed behind: it asks for no frame)
            self._held_paint.hold(self.window())

    def _show(self, frame: Any) -> None:
        # the engine delivers the frame drawn last again when it is asked for again
        if frame is not self.frame or self._draw_again:
            self.frame = frame  # what the views show now, parameters and windows included
            self.draw(frame)
            settle(self._views.values())  # ranges fitted now: one paint per view, not two
        self._draw_again = False
        self.stale.hide()
        if not self.engine.is_coming(f"{self.name}.{self.current_page()}"):
            self.release_paint()  # (else with its page's own frame: RoPE's rotation panels)

    def release_paint(self) -> None:
        """Let the window repaint: the frame of the page in front is drawn (``_hold_paint``)."""
        self._held_paint.release()

    def mark_stale(self, reason: str) -> None:
        """Say that the views show an earlier frame, and why, until a new one."""
        self.stale.setText(tr("not current: {reason}").format(reason=reason))
        self.stale.show()

    def _on_failure(self, channel: str, message: str) -> None:
        if channel == self.name:
            self.frame_requests.stop()
            self.release_paint()
            self.mark_stale(message)

    def caption(self) -> str:
        """A figure caption: the encoding, seq_len and the other parameters its views show."""
        parts = (tr(self.title), f"seq_len {self.parameters.seq_len.value()}")
        return " · ".join((*parts, self.caption_parameters()))

    def caption_parameters(self) -> str:
        """The parameters besides seq_len that the tab's figures depend on."""
        raise NotImplementedError

    def apply_preset(self, preset: Preset) -> None:
        """Take what this tab needs from a model preset (default: nothing)."""

    def request(self, page: str | None = None) -> Any:
        """The immutable parameters of the next frame of ``page`` (default: the page in front),
        read from the controls (changes nothing; ValueError if they do not fit together)."""
        raise NotImplementedError

    def draw(self, frame: Any) -> None:
        """Hand a computed frame's arrays to the views."""
        raise NotImplementedError
