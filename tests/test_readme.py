"""README.md is for users and says what the registry holds.

Its experiments table and the "`run all` leaves out" sentence are the block
tests/readme_experiments.py makes from app/experiments/registry.py, so an experiment added or
removed shows here until the README is regenerated. It stays short (the manual in depth,
development and the performance log are in docs/), and every link between them leads somewhere.
"""
from __future__ import annotations

import re

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


def test_the_readme_is_for_users_and_short():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 200
    for command in ("bash setup.sh app", "bash setup.sh test", "`.ci/run` calls the second command"):
        assert command in text


def _anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_relative_link_of_the_readme_and_docs_leads_somewhere():
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append((page.name, target))
            elif anchor and anchor not in {_anchor(h) for h in re.findall(
                    r"^#+ (.+)$", file.read_text(encoding="utf-8"), re.M)}:
                broken.append((page.name, target))
    assert not broken
