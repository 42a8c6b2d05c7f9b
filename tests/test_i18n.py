"""简体中文: the translation files are complete and current, and every string the main window
shows (menus, controls, tabs, pages, plot titles, axes, legends, the comparison table) is
translated."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pyqtgraph as pg
import pytest
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QDockWidget,
    QLabel,
    QLineEdit,
    QMenu,
    QTableWidget,
    QTabWidget,
)

from tests.conftest import FRAME_TIMEOUT_MS, ROOT

sys.path.insert(0, str(ROOT / "tools"))
import translations

TS = translations.TRANSLATIONS / "posenc_gui_zh_CN.ts"
CJK = re.compile(r"[\u4e00-\u9fff]")
# Names and symbols that read the same in both languages.
NEUTRAL = re.compile(
    r"posenc-gui|RoPE|ALiBi|LongRoPE|YaRN|NTK|Llama|LLaMA|Shaw|Qwen|Mistral|DeepSeek|Gemma|BLOOM|"
    r"MPT|T5|mT5|Flan|GPT|NeoX|RoFormer|Transformer|softmax|mscale\w*|beta_\w+|seq_len|d_model|"
    r"head_dim|num_buckets|max_distance|n_heads|low_freq|high_freq|rope_theta|bfloat16|float\d+|"
    r"cos|sin|mod|log|JSON|json|config|PNG|SVG|CSV|npy|cpu|cuda|mps|interleaved|half|"
    r"default|linear|dynamic|yarn|llama3|longrope|ntk|sinusoidal|shaw|t5|alibi|absolute|"
    r"relative|rope|extension|compare"
)


def untranslated(text: str) -> bool:
    """English words left in ``text`` once markup, numbers and neutral names are removed."""
    if CJK.search(text):
        return False
    plain = NEUTRAL.sub(" ", re.sub(r"<[^>]+>|&(?=\w)", "", text))
    return re.search(r"[A-Za-z]{3,}", plain) is not None


def test_the_qm_file_is_compiled_from_the_current_ts(tmp_path):
    translations.compile_ts(TS, tmp_path / "fresh.qm")
    assert (tmp_path / "fresh.qm").read_bytes() == TS.with_suffix(".qm").read_bytes()


def test_every_source_string_is_translated_with_its_placeholders():
    strings, problems = translations.source_strings()
    assert problems == []  # no tr(f"...") anywhere: such text cannot be looked up
    catalogue = translations.read_ts(TS)
    assert set(catalogue) == set(strings)
    for source, translation in catalogue.items():
        assert translation, f"unfinished: {source!r}"
        placeholders = sorted(re.findall(r"\{[^}]*\}", source))
        assert sorted(re.findall(r"\{[^}]*\}", translation)) == placeholders, source
        assert translation.count("<") == source.count("<"), source  # markup kept whole


# A short formula broken across lines reads as two: "… depends on n −" / "m only". Its spaces
# are no-break spaces, and a word joiner keeps an opening bar with what it encloses (Qt may
# break after a "|"): ``n\u00a0−\u00a0m``, ``|\u2060i\u00a0−\u00a0j|``.
BREAKABLE_FORMULA = re.compile(r"(?<!\w)\w [−+] \w(?![\w(])|(?<![\w)])\|(?=\w)")


def literal_strings(package: Path) -> list[str]:
    """Every string literal of the package's modules but docstrings (f-strings' parts too)."""
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        found += [
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ]
    return found


def test_no_short_formula_of_either_language_can_break_across_lines():
    catalogue = translations.read_ts(TS)
    texts = [text for pair in catalogue.items() for text in pair if text]
    texts += literal_strings(ROOT / "posenc_gui")  # those shown untranslated too (axis labels)
    assert [text for text in texts if BREAKABLE_FORMULA.search(text)] == []
    assert any("n\u00a0−\u00a0m" in text for text in texts)  # the pattern's own kind is in use


def visible_texts(window) -> dict[str, str]:
    """Every string the window shows, by where it is shown."""
    texts = {"window title": window.windowTitle()}
    for menu in window.menuBar().findChildren(QMenu):
        texts[f"menu {menu.objectName()}"] = menu.title()
        for action in menu.actions():
            name = action.objectName()
            if action.text() and not name.startswith(
                ("preset_", "colormap_", "device_", "language_")
            ):
                texts[f"action {name}"] = action.text()
    for widget in window.findChildren(QLabel):
        texts[f"label {id(widget)}"] = widget.text()
    for widget in window.findChildren(QAbstractButton):
        if widget.objectName() not in ("ScrollLeftButton", "ScrollRightButton"):
            texts[f"button {widget.objectName()}"] = widget.text()
    for widget in window.findChildren(QLineEdit):
        texts[f"placeholder {widget.objectName()}"] = widget.placeholderText()
    for widget in window.findChildren(QComboBox):
        for i in range(widget.count()):
            texts[f"choice {widget.objectName()} {i}"] = widget.itemText(i)
    for widget in window.findChildren(QTabWidget):
        for i in range(widget.count()):
            texts[f"tab {widget.widget(i).objectName()}"] = widget.tabText(i)
    for widget in window.findChildren(QDockWidget):
        texts[f"dock {widget.objectName()}"] = widget.windowTitle()
    for table in window.findChildren(QTableWidget):
        for r in range(table.rowCount()):
            texts[f"row {r}"] = table.verticalHeaderItem(r).text()
            for c in range(table.columnCount()):
                texts[f"cell {r} {c}"] = table.item(r, c).text()
        for c in range(table.columnCount()):
            texts[f"column {c}"] = table.horizontalHeaderItem(c).text()
    for plot in window.findChildren(pg.GraphicsView):
        for item in plot.scene().items():
            if isinstance(item, pg.PlotItem):
                texts[f"title {id(item)}"] = item.titleLabel.text
            elif isinstance(item, pg.AxisItem):
                texts[f"axis {id(item)}"] = item.label.toPlainText()
            elif isinstance(item, pg.LegendItem):
                for i, (_, label) in enumerate(item.items):
                    texts[f"legend {id(item)} {i}"] = label.text
    return texts


@pytest.fixture(scope="module")
def chinese_window(qapp):
    """A window in Chinese with every page drawn once (legends and titles fill in), shared by
    the tests that only read it."""
    from pytestqt.qtbot import QtBot

    from posenc_gui.i18n import set_language
    from posenc_gui.window import open_window

    window = open_window({"language": "zh_CN"}, device="cpu")
    window.show()
    qtbot = QtBot(qapp)
    for index in range(window.tabs.count()):
        tab = window.tab_at(index)
        window.tabs.setCurrentIndex(index)
        for page in tab.page_names() or [None]:
            if page:
                tab.show_page(page)
            qtbot.waitUntil(lambda tab=tab: tab.frame is not None, timeout=FRAME_TIMEOUT_MS)
            qtbot.wait(50)
    yield window
    window.close()
    set_language("en")


def test_every_visible_string_of_the_main_window_is_in_chinese(chinese_window):
    texts = visible_texts(chinese_window)
    assert len(texts) > 300  # the walk really found the window's strings
    left = {where: text for where, text in texts.items() if text and untranslated(text)}
    assert left == {}


def test_a_chinese_svg_export_draws_its_chinese_as_outlines(chinese_window, tmp_path):
    """Chinese runs are glyph outlines (a viewer without a CJK font draws them), their text
    kept in aria-label; the rest stays text."""
    import xml.etree.ElementTree as ET

    from posenc_gui.export import export_view

    tab = chinese_window.tab("absolute")
    root = ET.parse(export_view(tab.ready_view("table"), tmp_path / "table.svg")).getroot()
    runs = [
        node.text or node.get("aria-label", "")
        for node in root.iter()
        if node.tag.endswith("}text") or node.get("aria-label") is not None
    ]
    assert "PE[位置, 维度]" in "".join(runs)
    assert [run for run in runs if CJK.search(run)]
    assert not [
        node.text
        for node in root.iter("{http://www.w3.org/2000/svg}text")
        if CJK.search(node.text or "")
    ]


def test_play_and_pause_are_translated(chinese_window):
    from posenc_gui.i18n import set_language

    set_language("zh_CN")  # the buttons relabel in the current language (reset after each test)
    for button, (playing, paused) in (
        (chinese_window.tab("rope").play, ("暂停", "播放")),
        (chinese_window.tab("extension").sweep, ("暂停扫描", "播放动态 NTK 扫描")),
    ):
        button.setChecked(True)
        assert button.text() == playing
        button.setChecked(False)
        assert button.text() == paused


def test_the_english_window_shows_the_source_strings(window):
    for index in range(window.tabs.count()):  # build every tab
        window.tab_at(index)
    texts = visible_texts(window)
    assert texts["tab compare"] == "Compare"
    assert sum(untranslated(text) for text in texts.values()) > 200  # the check can fail


def test_the_language_menu_rebuilds_the_window_in_chinese(window, owned):
    window.parameters.seq_len.setValue(99)
    action = window.findChild(type(window.menuBar().actions()[0]), "language_zh_CN")
    action.trigger()
    chinese = owned(window.successor)
    assert chinese.menuBar().actions()[0].text() == "文件(&F)"
    assert chinese.tabs.tabText(0) == "绝对"
    assert chinese.parameters.seq_len.value() == 99  # settings survive the switch
    assert not window.isVisible()


def test_an_unknown_language_is_refused():
    from posenc_gui.i18n import set_language

    with pytest.raises(ValueError, match="lang must be one of en, zh_CN, got 'fr'"):
        set_language("fr")


def test_qts_own_texts_and_the_plot_menu_follow_the_language(qapp):
    """Dialog buttons come from Qt's catalog, the plot menu's texts (pyqtgraph looks them up
    under its own contexts) from the app's; back in English, both are English again."""
    from PySide6.QtWidgets import QDialogButtonBox, QWidget

    from posenc_gui.i18n import set_language, tr
    from posenc_gui.views import CurvesView

    def texts() -> tuple[list[str], list[str]]:
        view = CurvesView("t", "x", "y")
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        menu = [action.text() for action in view.plot.vb.menu.actions()]
        buttons = [button.text() for button in box.buttons()]
        view.deleteLater()
        return menu, buttons

    def axis_panel_tooltips() -> list[str]:
        view = CurvesView("t", "x", "y")
        panel = view.plot.vb.menu.ctrl[0]  # the X axis's: its widgets are its attributes
        tooltips = [
            widget.toolTip() for widget in vars(panel).values() if isinstance(widget, QWidget)
        ]
        view.deleteLater()
        return [tooltip for tooltip in tooltips if tooltip]

    set_language("zh_CN")
    assert texts() == (["显示全部", "X 轴", "Y 轴", "鼠标模式"], ["取消"])
    chinese = axis_panel_tooltips()
    assert len(chinese) == 10 and all(CJK.search(tooltip) for tooltip in chinese)
    # translated inside the rich-text frame pyqtgraph writes round it
    assert "<p>手动设置这条轴的范围。这会关闭自动缩放。" in "".join(chinese)
    assert (
        tr("Mouse Mode") == "鼠标模式"
        and tr("a text no catalog holds") == "a text no catalog holds"
    )
    set_language("en")
    assert texts() == (["View All", "X axis", "Y axis", "Mouse Mode"], ["Cancel"])
    assert "<p>Set the range for this axis manually." in "".join(axis_panel_tooltips())
