"""The registry is the one list of tabs: a tab registered from here shows up in the window,
the command line, export, sessions, the Compare tab and the storm, with no other change."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from PySide6.QtWidgets import QWidget

from posenc_gui import registry
from posenc_gui.cli import main
from posenc_gui.export import export_view
from posenc_gui.export_dialog import ExportDialog
from posenc_gui.window import MainWindow
from tests.conftest import FRAME_TIMEOUT_MS
from tests.dummy_tab import DummyTab
from tests.test_robustness import storm


@pytest.fixture
def dummy() -> Iterator[type[DummyTab]]:
    registry.register(DummyTab)
    yield DummyTab
    registry.unregister(DummyTab)


@pytest.fixture
def dummy_window(dummy, qtbot) -> Iterator[MainWindow]:
    window = MainWindow(device="cpu")
    qtbot.addWidget(window)
    window.show()
    yield window
    window.close()


def show(window: MainWindow, qtbot, name: str) -> None:
    tab = window.tab(name)
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.frame is not None, timeout=FRAME_TIMEOUT_MS)


def test_a_registered_tab_is_listed_by_the_command_line(dummy, capsys):
    assert main(["--list-views"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert "dummy line" in listed and "absolute table" in listed
    assert registry.names()[-1] == "dummy"


def test_a_name_can_be_registered_once(dummy):
    with pytest.raises(ValueError, match="'dummy' is registered already"):
        registry.register(DummyTab)


def test_a_registered_tab_draws_and_exports(dummy_window, qtbot, tmp_path):
    show(dummy_window, qtbot, "dummy")
    tab = dummy_window.tab("dummy")
    assert dummy_window.tabs.tabText(dummy_window.tabs.indexOf(tab)) == "Dummy"
    x, y = tab.line_view.curve_items[0].getOriginalDataset()
    np.testing.assert_allclose(y, 2 * x / 64)  # scale 2, seq_len 64
    dialog = ExportDialog(tab)
    assert [dialog.view.itemData(i) for i in range(dialog.view.count())] == ["line"]
    assert dialog.view.itemText(0) == "Dummy line"  # offered by its title
    written = export_view(tab.show_view("line"), tmp_path / "line.csv")
    assert written.read_text().count("\n") > 64


def test_a_registered_tab_round_trips_through_a_session(dummy_window, qtbot):
    dummy_window.tab("dummy").scale.setValue(7)
    session = dummy_window.session()
    assert session["tabs"]["dummy"]["controls"]["scale"] == 7
    other = MainWindow(device="cpu")
    qtbot.addWidget(other)
    other.apply_session(session)
    assert other.tab("dummy").scale.value() == 7
    other.close()


def test_a_registered_tab_brings_its_entry_to_the_compare_tab(dummy_window, qtbot):
    show(dummy_window, qtbot, "compare")
    compare = dummy_window.tab("compare")
    columns = [
        compare.table.horizontalHeaderItem(c).text() for c in range(compare.table.columnCount())
    ]
    assert columns[-1] == "Dummy"
    compare.setting_controls["dummy_slope"].setValue(20)
    qtbot.waitUntil(lambda: compare.frame.params == compare.request(), timeout=FRAME_TIMEOUT_MS)
    drawn = {item.name(): item for item in compare.similarity_view.curve_items}
    k, similarity = drawn["dummy, slope 20"].getOriginalDataset()
    np.testing.assert_allclose(similarity, 1 / (1 + k / 20))


@pytest.mark.slow
def test_a_registered_tab_survives_the_storm(dummy_window, qtbot):
    show(dummy_window, qtbot, "absolute")
    storm(dummy_window, qtbot, random.Random(7), steps=400)


def test_every_built_in_tab_is_registered_under_its_own_name():
    assert [tab.name for tab in registry.tab_classes()] == list(registry.BUILT_IN)


def test_each_tab_places_exactly_the_views_and_pages_of_its_spec(dummy_window):
    for index in range(dummy_window.tabs.count()):
        tab = dummy_window.tab_at(index)
        assert set(tab.view_names()) == set(tab.spec.views), tab.name
        assert tab.page_names() == tab.spec.pages(), tab.name
    assert [spec.name for spec in registry.specs()] == [*registry.BUILT_IN, "dummy"]


def test_a_view_outside_the_spec_is_refused(dummy_window):
    tab = dummy_window.tab("dummy")
    with pytest.raises(ValueError, match="'extra' on page None is not in its spec"):
        tab.add_view("extra", QWidget(), 1, 0)
