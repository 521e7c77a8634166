"""The frame around the views: menus and shortcuts, help inside the app, folders that
cannot be opened, the vendor spec before a run (settings shared by experiments:
test_window_shared_settings.py). No run is started.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtGui import QKeySequence  # noqa: E402
from PySide6.QtWidgets import QAbstractButton, QLabel, QLineEdit  # noqa: E402

from app.paths.userdirs import user_log_dir  # noqa: E402
from app.specs import catalog as vendor  # noqa: E402

import gui_support  # noqa: E402

make_window = gui_support.make_window

SHORTCUTS = {"File": {"Open run folder...": "Ctrl+O", "Export report": "Ctrl+E", "Quit": "Ctrl+Q"},
             "Run": {"Run": "Ctrl+R", "Cancel": "Esc"},
             "Report": {"Export report": "Ctrl+E", "Enter/edit vendor spec...": ""},
             "Help": {"How to profile a drive": "F1", "Open the log folder": "",
                      "About SSD Profiler": ""}}


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    """The log folder and the user's vendor specs in tmp_path, never in the real home."""
    for var in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "APPDATA", "LOCALAPPDATA"):
        monkeypatch.setenv(var, str(tmp_path / var.lower()))


def actions(menu) -> dict[str, str]:
    return {a.text().replace("&", ""): a.shortcut().toString() for a in menu.actions()
            if not a.isSeparator()}


def test_menus_with_their_shortcuts_and_quit(make_window, qtbot):
    window = make_window()
    assert list(window.menus.by_title) == list(SHORTCUTS)
    for title, wanted in SHORTCUTS.items():
        got = actions(window.menus.by_title[title])
        for text, shortcut in wanted.items():
            assert got.get(text) == QKeySequence(shortcut).toString(), (title, text, got)
    assert window.cancel_action.shortcut() == QKeySequence("Esc")
    window.menus.quit.trigger()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=5000)


def test_help_opens_inside_the_app_and_about_names_every_version(make_window, qtbot):
    window = make_window()
    window.menus.help.trigger()
    dialog = window.help_dialog
    assert dialog.isVisible() and not dialog.isModal()
    text = dialog.browser.toPlainText()
    for step in ("Pick a folder on the SSD", "Pick experiments", "Run", "Read the live charts",
                 "Export"):
        assert step in text, step
    dialog.close()

    window.menus.about.trigger()
    about = window.about_box
    qtbot.waitUntil(lambda: "looking" not in about.browser.toPlainText(), timeout=15000)
    text = about.browser.toPlainText()
    for name in ("SSD Profiler", "fio", "diskspd", "Qt", "PySide6", "pyqtgraph", "Python",
                 str(user_log_dir())):
        assert name in text, name
    assert "fio-" in text or "not found" in text
    about.close()


def test_a_folder_no_file_manager_opens_is_shown_as_a_path_to_copy(make_window, qtbot, tmp_path):
    window = make_window()
    asked = []
    window.open_url = lambda url: asked.append(url.toLocalFile()) or False  # nothing opened it
    window.menus.log_folder.trigger()
    dialog = window.folder_dialog
    assert asked == [str(user_log_dir())] and user_log_dir().is_dir()
    assert dialog is not None and dialog.isVisible()
    field = dialog.findChild(QLineEdit)
    assert field.text() == str(user_log_dir()) and field.isReadOnly()
    assert "No file manager" in dialog.message.text()
    dialog.close()

    browser = window.runs_browser       # "Show folder" of the runs browser, the same way
    browser.open_url = window.open_url
    (tmp_path / "runs").mkdir(exist_ok=True)
    browser._show_folder()
    assert browser.folder_dialog.path_edit.text() == browser.runs_root
    browser.folder_dialog.close()
    window.open_url = lambda _url: True  # the file manager took it: no dialog
    window.menus.log_folder.trigger()
    assert window.folder_dialog is None


def test_open_run_folder_asks_for_a_folder_and_opens_it(make_window, tmp_path):
    window = make_window()
    asked, opened = [], []
    window.runs_browser.choose_folder = lambda title, start: asked.append(title) or str(tmp_path)
    window.runs_browser.open_requested.disconnect()
    window.runs_browser.open_requested.connect(opened.append)
    window.menus.open_run.trigger()
    assert asked and opened == [str(tmp_path)]


def test_editing_an_unticked_experiment_says_so_and_can_tick_it(make_window):
    window = make_window()
    panel = window.experiment_panel
    panel.set_checked(["zero-queue"])
    panel.select("queue-depth")
    assert not panel.include_box.isChecked() and "queue-depth" in panel.include_box.text()
    panel.include_box.click()
    assert "queue-depth" in panel.selected_ids()
    assert "queue-depth" in panel.summary.text()


@pytest.mark.parametrize("eid, field, text, words", [
    ("queue-depth", "queue_depths", "0", "0 is below the minimum 1"),
    ("block-size", "block_sizes", "1000", "not a multiple of 512 bytes"),
    ("rw-mix", "iodepth", "0", "0 is below the minimum 1"),
])
def test_bad_input_is_shown_beside_its_field_never_as_an_exception(make_window, qtbot, eid,
                                                                    field, text, words):
    window = make_window()
    panel = window.experiment_panel
    panel.set_checked([eid])
    panel.select(eid)
    editor = panel.forms[eid].editors[field]
    editor.clear()
    qtbot.keyClicks(editor, text)   # typed, as a student would
    note = panel.forms[eid]._notes[field]
    assert note.isVisible() and words in note.text()
    assert not window.run_button.isEnabled() and words in window.run_hint.text()
    shown = " ".join(w.text() for kind in (QLabel, QAbstractButton, QLineEdit)
                     for w in window.findChildren(kind))
    assert "Error:" not in shown and "Traceback" not in shown
    assert "ValueError" not in shown + window.run_button.toolTip() + window.statusBar().currentMessage()
    window.run_action.trigger()
    assert not window.control.running
    editor.clear()
    qtbot.keyClicks(editor, "4")   # fixed: the message goes, nothing stale stays
    assert words not in note.text() and words not in window.run_hint.text()
    assert words not in panel.summary.text()


def test_vendor_spec_before_a_run_with_threads_per_row(make_window, qtbot):
    window = make_window()
    bar = window.report_bar
    assert bar.spec_button.isEnabled() and bar.figures.current is None
    bar.spec_button.click()
    dialog = bar.spec_dialog
    assert dialog.isVisible()
    assert {"seq_threads", "rand_threads", "seq_qd", "rand_qd"} <= set(dialog.conditions)
    dialog.model_edit.setText("ACME Test 1TB")
    dialog.numbers["seq_read_mbps"].setValue(3000)
    dialog.numbers["rand_read_iops"].setValue(400000)
    dialog.conditions["seq_qd"].setValue(32)
    dialog.conditions["seq_threads"].setValue(1)
    dialog.conditions["rand_qd"].setValue(32)
    dialog.conditions["rand_threads"].setValue(16)
    dialog.source_edit.setText("https://example.com/datasheet.pdf")
    dialog.save()
    assert not dialog.isVisible()
    qtbot.waitUntil(lambda: "saved the vendor spec" in window.log_pane.plain_text(), timeout=10000)
    stored = json.loads(vendor.user_specs_path().read_text())["specs"][0]
    tc = stored["test_conditions"]
    assert (tc["seq_qd"], tc["seq_threads"], tc["rand_qd"], tc["rand_threads"]) == (32, 1, 32, 16)
    # the target's drive is looked up: a drive with that model would show the spec now
    bar.set_drive("ACME Test 1TB 2024", "")
    qtbot.waitUntil(lambda: "Vendor spec: ACME Test 1TB" in bar.vendor_status.text(),
                    timeout=10000)
    assert "compared once a run has ended" in bar.vendor_status.text()


def test_the_window_remembers_its_size(make_window):
    window = make_window(size=(760, 540))   # within the 800x600 offscreen screen
    window.close()
    again = make_window(size=None)
    assert (again.width(), again.height()) == (760, 540)
