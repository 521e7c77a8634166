"""An experiment id from a shared run.json never names a file outside the export folder.

A lab partner's run folder is untrusted: its run.json names the experiments, and an export
writes ``tables/<id>.md`` and ``figures/<id>.png``. A run whose experiment id is
``../../victim/chapter3`` is exported by the real CLI (``export`` and ``compare --out``) and by
the window's Export; the user's ``victim/chapter3.md`` stays byte for byte, and nothing is
written anywhere but the export folder (the table lands there under a safe slug). The export
folder's owner itself refuses a name that would leave it, and writes into the folder it
checked even when that folder is swapped for a link afterwards.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from app.report.export_folder import ExportFolder, ExportRefused, safe_stem
from app.report.export_marker import RunIdentity

from conftest import FIXTURES, run_cli
from safety_support import assert_one_error, snapshot

EVIL = "../../victim/chapter3"
(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]


def _hostile_run(folder: Path, evil: str = EVIL) -> Path:
    """A copy of a real run folder whose last experiment is called ``evil`` (the others have
    made ``tables/`` by then, so a path through it resolves)."""
    shutil.copytree(RUN, folder)
    record = json.loads((folder / "run.json").read_text())
    old = record["experiments"][-1]["id"]
    record["experiments"][-1]["id"] = evil
    for trial in record["trials"] + record.get("planned_trials", []):
        if trial.get("experiment") == old:
            trial["experiment"] = evil
    record["summary"] = {}
    (folder / "run.json").write_text(json.dumps(record))
    return folder


@pytest.fixture
def area(tmp_path) -> Path:
    """tmp/runs/RUN (hostile), tmp/victim/chapter3.{md,csv} (the user's)."""
    _hostile_run(tmp_path / "runs" / "run")
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "chapter3.md").write_bytes(b"# Chapter 3\nthe thesis, a week of work\n")
    (victim / "chapter3.csv").write_bytes(os.urandom(4096))
    return tmp_path


def _outside(root: Path, export: Path) -> dict:
    return {k: v for k, v in snapshot(root).items() if not (root / k).is_relative_to(export)}


def _inside_only(done, root: Path, export: Path, before: dict) -> None:
    """The contract: the user's files unchanged, and either exit 2 with one line or the
    table under a safe name inside the export."""
    assert _outside(root, export) == before
    if done.returncode == 2:
        assert_one_error(done)
        return
    assert done.returncode == 0, done.stderr
    slug = safe_stem(EVIL)
    assert "/" not in slug and ".." not in slug
    assert (export / "tables" / f"{slug}.md").is_file()
    assert f"tables/{slug}.md" in (export / "report.md").read_text()


def test_cli_export_of_a_traversing_id_stays_in_the_export_folder(area):
    before = _outside(area, area / "exp")
    done = run_cli("export", str(area / "runs" / "run"), "--out", str(area / "exp"), timeout=180)
    _inside_only(done, area, area / "exp", before)


def test_the_default_export_folder_holds_it_too(area):
    victim = area / "runs" / "run" / "victim"  # what ../../ from <run>/export/tables reaches
    victim.mkdir()
    (victim / "chapter3.md").write_bytes(b"not the app's\n")
    before = _outside(area, area / "runs" / "run" / "export")
    done = run_cli("export", str(area / "runs" / "run"), timeout=180)
    _inside_only(done, area, area / "runs" / "run" / "export", before)


def test_compare_export_of_a_traversing_id_stays_in_the_export_folder(area):
    shutil.copytree(area / "runs" / "run", area / "runs" / "run2")
    before = _outside(area, area / "cmp")
    done = run_cli("compare", str(area / "runs" / "run"), str(area / "runs" / "run2"),
                   "--out", str(area / "cmp"), timeout=180)
    assert done.returncode in (0, 2), done.stderr
    assert _outside(area, area / "cmp") == before
    if done.returncode == 0:
        assert all(".." not in p.name for p in (area / "cmp").rglob("*"))


@pytest.mark.parametrize("name", ["tables/../../victim/chapter3.md", "../x.md", "/etc/x",
                                  "a/b/c.md", "tables/", "", "tables/.", "x\\..\\y"])
def test_the_owner_refuses_names_that_leave_it(tmp_path, name):
    folder = ExportFolder(tmp_path / "out", RunIdentity("r", None))
    with pytest.raises(ExportRefused):
        folder.check_names([name])
    folder.claim()
    try:
        with pytest.raises(ExportRefused):
            folder.write(name, b"x")
    finally:
        folder.close()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [".ssd-profiler-export.json"]
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


@pytest.mark.skipif(os.name != "posix", reason="the folder is held open only where dir fds exist")
def test_a_folder_swapped_for_a_link_after_the_claim_gets_nothing(tmp_path):
    victim = tmp_path / "victim"
    (victim / "tables").mkdir(parents=True)
    (victim / "report.md").write_bytes(b"mine\n")
    (victim / "tables" / "t.md").write_bytes(b"mine too\n")
    before = snapshot(victim)
    folder = ExportFolder(tmp_path / "out", RunIdentity("r", None))
    folder.claim()
    try:
        folder.write("tables/a.md", b"first")
        (tmp_path / "out").rename(tmp_path / "moved")
        (tmp_path / "out").symlink_to(victim)  # the race: the checked folder is now a link
        folder.write("report.md", b"report")
        folder.write("tables/t.md", b"table")
        with folder.staging() as staging:
            Path(staging.path("f.png")).write_bytes(b"png")
            staging.place("f.png", "figures/f.png")
    finally:
        folder.close()
    assert snapshot(victim) == before
    moved = tmp_path / "moved"
    assert (moved / "report.md").read_bytes() == b"report"
    assert (moved / "tables" / "t.md").read_bytes() == b"table"
    assert (moved / "figures" / "f.png").read_bytes() == b"png"
    assert not [p for p in moved.iterdir() if "staging" in p.name]
