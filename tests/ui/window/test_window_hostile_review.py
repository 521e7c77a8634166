"""A hostile review of a shared run folder in the window and the HTML report: a bidirectional
override (U+202E) or a newline in a run folder's name, labels or experiment ids is shown as its
escape (``\\u202e``), never obeyed, in the Runs tab, the Compare window's table, key and
captions, and report.html's section ids, as the reports already did (app/text: ``visible``).
The run is a copy of a genuine run folder (tests/fixtures/runs) in tmp_path."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json  # noqa: E402
import shutil  # noqa: E402

from PySide6.QtWidgets import QLabel  # noqa: E402
from spec_support import RUN  # noqa: E402

from app.report.document import Document, Paragraph, Section  # noqa: E402
from app.report.html import document_html  # noqa: E402

import gui_support  # noqa: E402

make_window = gui_support.make_window
RLO = "\u202e"
LABEL = f" <img src=x onerror=alert(1)> {RLO}evil"


def _hostile_runs(root):
    """Two copies of the real run, named and labelled with an override and a newline."""
    made = []
    for name in (f"20261123T121013Z_a {RLO}gpj.exe", f"20261124T121013Z_b\n# heading {RLO}x"):
        folder = shutil.copytree(RUN, root / name)
        record = json.loads((folder / "run.json").read_text())
        for trial in record["trials"]:
            trial["label"] += LABEL
        (folder / "run.json").write_text(json.dumps(record))
        made.append(folder)
    return made


def _shown_texts(table):
    cells = [table.item(r, c) for r in range(table.rowCount()) for c in range(table.columnCount())]
    return [(i.text(), i.toolTip()) for i in cells if i is not None]


def test_the_runs_tab_and_compare_show_an_override_never_obey_it(qtbot, make_window, tmp_path):
    _hostile_runs(tmp_path / "runs")
    window = make_window()
    browser = window.runs_browser
    browser.refresh()
    qtbot.waitUntil(lambda: browser.table.rowCount() == 2, timeout=30000)
    shown = _shown_texts(browser.table)
    assert any("\\u202e" in text for text, _ in shown)
    assert not [s for s in shown if RLO in s[0] + s[1] or "\n" in s[0]], shown
    browser.table.selectAll()
    browser.compare()
    view = browser.compare_view
    qtbot.waitUntil(lambda: view.findChildren(QLabel) and any(
        "\\u202e" in label.text() for label in view.findChildren(QLabel)), timeout=60000)
    qtbot.waitUntil(lambda: any(t.rowCount() for t in view.findChildren(type(browser.table))),
                    timeout=60000)
    tables = [t for t in view.findChildren(type(browser.table)) if t.rowCount()]
    texts = [s for t in tables for s in _shown_texts(t)]
    assert any("\\u202e" in text for text, _ in texts)
    assert not [s for s in texts if RLO in s[0] + s[1]]
    assert not [label.text() for label in view.findChildren(QLabel) if RLO in label.text()]
    view.dispose()


def test_report_html_section_ids_carry_no_override_or_line_break():
    doc = Document("t", (Section("2. x", (Paragraph("p"),), anchor=f"zero-queue\n# h {RLO}x"),))
    page = document_html(doc, lambda _path: None)
    head = page.split("<h2", 1)[1].split(">", 1)[0]
    assert RLO not in head and "\n" not in head and "\\u202e" in head


def test_the_exported_line_shows_a_folder_names_newline_as_an_escape(tmp_path):
    """A run folder named ``a\\n# fake line`` printed its progress line as two lines, the second
    reading as the app's own; it is one line now, as every error line already was."""
    from conftest import run_cli

    folder = shutil.copytree(RUN, tmp_path / "a\n# fake line")
    done = run_cli("export", str(folder), "--out", str(tmp_path / "out"), timeout=600)
    assert done.returncode == 0, done.stderr
    (line,) = [x for x in done.stderr.splitlines() if "exported" in x or "fake" in x]
    assert "\\n# fake line" in line
