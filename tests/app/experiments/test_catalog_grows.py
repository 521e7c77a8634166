"""Adding an experiment is one module and its test (docs/architecture.md, "How to add an
experiment"): with docs/architecture.md's example and a second sample left out of `run all`
(samples/fill_then_read.py) copied into place, the tests that list, count or lay out the
catalog, the window's layout at 1280x720 and the README's table take both in with no edit.

The two modules are imported in child processes only (a ``sitecustomize`` right after
app.experiments, as its ``__init__`` would import them), so this process's catalog stays as
shipped."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from test_architecture_example import _example

from conftest import REPO

SAMPLE = Path(__file__).parent / "samples" / "fill_then_read.py"
NEW = ("seq-vs-random", "fill-then-read")
#: The tests that list, count or lay out the experiments, unchanged.
CHECKED = ["tests/app/experiments/test_catalog.py", "tests/app/experiments/test_experiment_registry.py",
           "tests/app/test_param_properties.py", "tests/ui/window/test_window_small_screens.py"]


def _in_place(tmp_path: Path) -> dict[str, str]:
    """The environment of a Python that has both modules registered after the shipped ones."""
    (tmp_path / "seq_vs_random.py").write_text(_example(), encoding="utf-8")
    shutil.copyfile(SAMPLE, tmp_path / "fill_then_read.py")
    boot = tmp_path / "boot"
    boot.mkdir()
    (boot / "sitecustomize.py").write_text("import app.experiments, seq_vs_random, fill_then_read\n")
    path = os.pathsep.join(str(p) for p in (boot, tmp_path, REPO, REPO / "tests"))
    return {**os.environ, "PYTHONPATH": path, "QT_QPA_PLATFORM": "offscreen"}


@pytest.mark.timeout(900)
def test_the_catalog_s_tests_and_the_window_s_layout_take_two_more_experiments(tmp_path):
    done = subprocess.run([sys.executable, "-m", "pytest", *CHECKED, "-k", "not 1366x768", "-v",
                           "-p", "no:cacheprovider"], cwd=REPO,
                          env=_in_place(tmp_path), capture_output=True, text=True, timeout=840)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    for eid in NEW:   # the parametrized tests went over both
        assert f"test_every_field_of_every_form_is_reachable[1280x720-{eid}] PASSED" in done.stdout
        assert f"test_describe_round_trips_defaults[{eid}] PASSED" in done.stdout


LIST_AND_README = textwrap.dedent("""
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    import readme_experiments
    from app.experiments import CATALOG
    from ui.window.setup.experiment_panel import LIST_ROWS, ExperimentPanel
    panel = ExperimentPanel()
    panel.resize(600, 900)
    panel.show()
    app.processEvents()
    catalog = panel.catalog
    rows = catalog.sizeHintForRow(0) * LIST_ROWS + 2 * catalog.frameWidth() + 2
    print("list", catalog.count(), catalog.height() == rows, catalog.height() < catalog.sizeHintForRow(0) * catalog.count())
    panel.select("fill-then-read")
    app.processEvents()
    shown = catalog.viewport().rect().contains(catalog.visualItemRect(catalog.currentItem()))
    print("last in view", shown, catalog.verticalScrollBar().value() > 0)
    text = readme_experiments.README.read_text(encoding="utf-8")
    print(readme_experiments.render(CATALOG, readme_experiments.prose_of(readme_experiments.block_of(text))))
""")


def test_the_window_s_list_scrolls_and_the_readme_table_grows(tmp_path):
    done = subprocess.run([sys.executable, "-c", LIST_AND_README], cwd=REPO, env=_in_place(tmp_path),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert "list 11 True True" in lines            # nine rows in view, the other two scroll
    assert "last in view True True" in lines       # selecting one scrolls it into view
    assert "| `seq-vs-random` | how much a drive gains from locality | " \
           "SEQ4K Q1T1 read, RND4K Q1T1 read |" in lines
    assert any(line.startswith("| `fill-then-read` | sequential fill, then 4 KiB random reads")
               for line in lines)
    assert lines[-1] == "`run all` leaves out `quick`, `steady-state`, `write-saturation` and " \
                        "`fill-then-read`."
