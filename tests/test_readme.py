"""README.md says what the registry holds: its experiments table and the "`run all` leaves out"
sentence are the block tests/readme_experiments.py makes from app/experiments/registry.py, so an
experiment added or removed shows here until the README is regenerated."""
from __future__ import annotations

import readme_experiments

from app.experiments import CATALOG

from conftest import REPO


def test_the_readme_lists_the_registry_s_experiments():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert text == readme_experiments.expected(text, CATALOG), (
        "README.md's experiments table is not the registry's: run "
        ".venv/bin/python tests/readme_experiments.py")


def test_a_new_experiment_gets_a_row_and_the_sentence_follows_in_all():
    block = readme_experiments.block_of((REPO / "README.md").read_text(encoding="utf-8"))
    prose = readme_experiments.prose_of(block)
    assert list(prose) == list(CATALOG)
    fewer = {eid: cls for eid, cls in CATALOG.items() if eid != "write-saturation"}
    made = readme_experiments.render(fewer, {})
    assert "| `zero-queue` | one I/O in flight: the drive's own access time, avg and percentiles | " \
           "RND4K Q1T1 read, RND4K Q1T1 write, SEQ128K Q1T1 read, SEQ128K Q1T1 write |" in made
    assert made.endswith("`run all` leaves out `quick` and `steady-state`.")
