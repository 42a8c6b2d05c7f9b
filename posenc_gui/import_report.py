"""The import report: every key of an imported config.json, read (with the value used) or
ignored (with why), as ``posenc_gui.encodings.model_config`` read it."""

from __future__ import annotations

import json

from PySide6.QtWidgets import (
    QDialog,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from posenc_gui.choices import format_number
from posenc_gui.encodings.model_config import ModelRope
from posenc_gui.i18n import tr

SHOWN_ITEMS = 6  # of a long list (LongRoPE factors, no_rope_layers)


def shown_value(value: object) -> str:
    """A config value as JSON, long lists cut to their first items and their length."""
    if isinstance(value, list) and len(value) > SHOWN_ITEMS:
        head = ", ".join(json.dumps(item) for item in value[:SHOWN_ITEMS])
        return tr("[{0}, … ({1} items)]").format(head, len(value))
    return json.dumps(value, ensure_ascii=False)


class ImportReport(QDialog):
    """A table of the keys read and the keys ignored (the reasons are the library's words)."""

    def __init__(self, source: str, model: ModelRope, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("import_report")
        self.setWindowTitle(tr("Import report: {0}").format(source))
        rows = [(key, shown_value(value), tr("read")) for key, value in model.used]
        rows += [(key, "", tr("ignored: {0}").format(why)) for key, why in model.ignored]
        self.table = QTableWidget(len(rows), 3)
        self.table.setObjectName("keys")
        self.table.setHorizontalHeaderLabels([tr("key"), tr("value used"), tr("read or ignored")])
        for row, cells in enumerate(rows):
            for column, text in enumerate(cells):
                self.table.setItem(row, column, QTableWidgetItem(text))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        QVBoxLayout(self).addWidget(self.table)
        self.resize(960, 560)

    def rows(self) -> list[tuple[str, ...]]:
        """The table's text, row by row."""
        table = self.table
        items = [
            [table.item(row, column) for column in range(table.columnCount())]
            for row in range(table.rowCount())
        ]
        return [tuple(item.text() if item else "" for item in row) for row in items]


def import_summary(source: str, model: ModelRope) -> str:
    """What an import of ``model`` from ``source`` set: its RoPE, its layer types (the tabs
    show the full-attention layers) and the keys it ignored."""
    scaling = model.primary
    summary = tr("Loaded {0}: {1} RoPE, head_dim {2}, θ {3}").format(
        source, scaling.method, scaling.head_dim, format_number(scaling.base)
    )
    if len(model.layer_types) > 1:
        kinds = ", ".join(
            f"{layer.layer_type} ({len(layer.layers)})"
            + (
                ""
                if layer.scaling is None
                else f" θ {format_number(layer.scaling.base)} {layer.scaling.method}"
            )
            for layer in model.layer_types
        )
        summary += tr(
            "; layer types: {0} — the tabs show the full-attention layers, the extension "
            "tab's Layer types page all of them"
        ).format(kinds)
    ignored = [key for key, _ in model.ignored]
    if ignored:
        summary += tr("; ignored keys: {0} (why: File → Import report…)").format(", ".join(ignored))
    return summary
