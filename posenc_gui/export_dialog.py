"""The export dialog: one view of a tab to PNG (1×, 2×, 4×), SVG, CSV, .npy or .npz, laid out
as on screen or at a chosen size, or its image to the clipboard."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QMessageBox,
    QWidget,
)

from posenc_gui.choices import FORMATS, SCALES, SIZE_PRESETS, SIZE_RANGE, parse_size
from posenc_gui.export import copy_view, export_view
from posenc_gui.i18n import tr
from posenc_gui.tab import Tab


class ExportDialog(QDialog):
    """Export one view of a tab: PNG (1×, 2×, 4×), SVG, CSV, .npy or .npz; or copy its image."""

    def __init__(self, tab: Tab, parent: QWidget | None = None, *, view: str = "") -> None:
        """``view``: the name of the view chosen at first (default: the first listed)."""
        super().__init__(parent)
        self._title = tr("Export or copy a view")
        self.setWindowTitle(self._title)
        self.tab = tab
        self.view = QComboBox(objectName="view")
        for name, widget in sorted(tab.view_names().items()):
            self.view.addItem(view_title(widget, name), name)  # shown by its title
        self.view.setCurrentIndex(max(0, self.view.findData(view)))
        self.scale = QComboBox(objectName="scale")
        for factor in SCALES:
            self.scale.addItem(f"{factor}×", factor)
        self.size_choice = QComboBox(objectName="size", editable=True)
        self.size_choice.addItem(tr("as on screen"))
        self.size_choice.addItems([f"{width}×{height}" for width, height in SIZE_PRESETS])
        self.size_choice.setToolTip(tr("Pick a size or type one as width×height, e.g. 1000×800"))
        self.caption = QCheckBox(tr("caption with the parameters"), objectName="caption")
        form = QFormLayout(self)
        form.addRow(tr("view"), self.view)
        form.addRow(tr("size (PNG, SVG)"), self.size_choice)
        form.addRow(tr("PNG resolution"), self.scale)
        form.addRow("", self.caption)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        save = buttons.addButton(tr("Save…"), QDialogButtonBox.ButtonRole.ActionRole)
        copy = buttons.addButton(tr("Copy image"), QDialogButtonBox.ButtonRole.ActionRole)
        save.clicked.connect(self.save)
        copy.clicked.connect(self.copy)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def scale_factor(self) -> int:
        """The chosen PNG resolution factor."""
        return int(self.scale.currentData())

    def figure_size(self) -> tuple[int, int] | None:
        """The chosen size, None for the size on screen; ValueError naming the allowed range
        for a typed size that is not one."""
        text = self.size_choice.currentText().strip()
        if not text or text == self.size_choice.itemText(0):
            return None
        try:
            return parse_size(text)
        except ValueError:
            message = tr("The size must be width×height in pixels, each from {0} to {1}; got {2}")
            raise ValueError(message.format(*SIZE_RANGE, repr(text))) from None

    def caption_text(self) -> str | None:
        """The caption to draw under the figure, if one is asked for."""
        return self.tab.caption() if self.caption.isChecked() else None

    def view_name(self) -> str:
        """The chosen view's name (its file name and command-line name)."""
        return str(self.view.currentData())

    def chosen_view(self) -> QWidget:
        return self.tab.ready_view(self.view_name())

    @contextmanager
    def _page_kept(self) -> Iterator[None]:
        """The page in front stays in front, with the settings it had: a view of another page
        is brought forward to be drawn, and its page goes behind again (a page may bring
        settings with it: the Relative tab's T5 page, its scheme)."""
        state = self.tab.state()
        try:
            yield
        finally:
            if self.tab.state() != state:
                self.tab.set_state(state)

    def copy(self) -> None:
        """Put the chosen view's image on the clipboard and say so (a refusal in a dialog)."""
        self.setWindowTitle(self._title)  # no earlier copy's news over a refusal
        try:
            with self._page_kept():
                copy_view(
                    self.chosen_view(),
                    scale=self.scale_factor(),
                    caption=self.caption_text(),
                    size=self.figure_size(),
                )
        except (OSError, ValueError) as exc:
            QMessageBox.warning(self, tr("Not copied"), str(exc))
            return
        self.setWindowTitle(tr("Copied {0} to the clipboard").format(self.view.currentText()))

    def save(self) -> None:
        """Ask where, then write the chosen view there (a refusal is shown in a dialog)."""
        filters = ";;".join(f"{suffix[1:].upper()} (*{suffix})" for suffix in FORMATS)
        path, _ = QFileDialog.getSaveFileName(
            self, tr("Export the view"), f"{self.tab.name}-{self.view_name()}.png", filters
        )
        if path:
            try:
                with self._page_kept():
                    export_view(
                        self.chosen_view(),
                        path,
                        scale=self.scale_factor(),
                        caption=self.caption_text(),
                        size=self.figure_size(),
                    )
            except (OSError, ValueError) as exc:
                QMessageBox.warning(self, tr("Not exported"), str(exc))


def view_title(view: QWidget, name: str) -> str:
    """A view as the interface names it: its plot's title as plain text, else ``name``."""
    plot = getattr(view, "plot", None)
    text = plot.titleLabel.text if plot is not None else ""
    plain = html.unescape(re.sub(r"<[^>]+>", " ", text or ""))
    return " ".join(plain.split()) or name
