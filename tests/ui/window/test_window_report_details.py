"""The export bar's report details: title, author and course reach the exported report's title
block, "Interpretation" off leaves the generated interpretation and discussion out, and the
next window offers the same details (settings in tmp_path). A genuine run folder
(tests/fixtures/runs/, zero-queue to slc-cache) is reopened and exported for real."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

import gui_support  # noqa: E402
from conftest import FIXTURES  # noqa: E402

make_window = gui_support.make_window  # the shared window factory fixture
RUN = next(p for p in (FIXTURES / "runs").iterdir() if p.name.startswith("20261123T"))


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("APPDATA", str(tmp_path / "config"))


def test_details_reach_the_report_and_are_remembered(qtbot, make_window, tmp_path):
    run_dir = shutil.copytree(RUN, tmp_path / "run")
    window = make_window()
    window.open_run(str(run_dir))
    qtbot.waitUntil(lambda: window.run_figures.current is not None, timeout=30000)
    bar = window.report_bar
    details = bar.details
    assert details.interpretation.isChecked()          # on by default
    details.title_edit.setText("Project 3: SSD Performance Profiling")
    details.author_edit.setText("A. Student")
    details.course_edit.setText("CS 530")
    details.interpretation.setChecked(False)
    bar.export()
    qtbot.waitUntil(lambda: bar.last_export is not None or "failed" in bar.export_status.text(),
                    timeout=90000)
    md = (Path(bar.last_export) / "report.md").read_text()
    assert md.startswith("# Project 3: SSD Performance Profiling\n\nAuthor: A. Student · "
                         "Course: CS 530 · Date: 2026-11-23\n")
    assert "without the generated interpretation and discussion" in md
    assert "### Interpretation" not in md and "Discussion" not in md
    assert "**Method.**" in md and "### Findings" in md and "## " in md.split("Limitations")[0]
    window.close()

    again = make_window()
    d = again.report_bar.details
    assert (d.title_edit.text(), d.author_edit.text(), d.course_edit.text()) == (
        "Project 3: SSD Performance Profiling", "A. Student", "CS 530")
    assert not d.interpretation.isChecked()
