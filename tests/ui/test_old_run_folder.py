"""A run folder made by the landed main (tests/fixtures/runs, README there) still opens in the
window and exports the same tables, byte for byte: the run-folder format is a contract."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import shutil  # noqa: E402

from conftest import FIXTURES, run_cli  # noqa: E402

OLD = FIXTURES / "runs"
(RUN,) = [p for p in OLD.iterdir() if p.is_dir() and p.name.startswith("2026")]
EXPECTED = OLD / "expected-tables"


def test_old_run_folder_exports_the_same_tables_byte_for_byte(tmp_path):
    run_dir = shutil.copytree(RUN, tmp_path / RUN.name)
    done = run_cli("export", str(run_dir), "--out", str(tmp_path / "export"))
    assert done.returncode == 0, done.stderr
    tables = tmp_path / "export" / "tables"
    assert sorted(p.name for p in tables.iterdir()) == sorted(p.name for p in EXPECTED.iterdir())
    for expected in EXPECTED.iterdir():
        assert (tables / expected.name).read_bytes() == expected.read_bytes(), expected.name


def test_old_run_folder_opens_as_a_past_run(qtbot):
    from ui.window.run.past_runs import load_past_run
    past = load_past_run(RUN)
    assert past.record["status"] == "done" and len(past.record["trials"]) == 32
    workloads = [w for exp in past.record["summary"].values() for w in exp["workloads"]]
    assert len(workloads) == 16 and all(w["n"] == 2 for w in workloads)


def test_an_export_written_before_markers_existed_is_replaced_in_place(tmp_path):
    """RUN_DIR/export made by an older version (no marker) is the app's own: re-export works;
    a foreign file there makes it refuse, one line, nothing overwritten."""
    run_dir = shutil.copytree(RUN, tmp_path / RUN.name)
    (run_dir / "export" / "tables").mkdir(parents=True)
    (run_dir / "export" / "report.md").write_text("old report")
    done = run_cli("export", str(run_dir))
    assert done.returncode == 0, done.stderr
    assert (run_dir / "export" / "report.md").read_text() != "old report"
    other = shutil.copytree(RUN, tmp_path / "other" / RUN.name)
    (other / "export").mkdir()
    (other / "export" / "notes.txt").write_text("mine")
    done = run_cli("export", str(other))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert (other / "export" / "notes.txt").read_text() == "mine"


FULL = OLD / "full-lab-20261126"


def test_a_run_of_every_experiment_exports_the_same_tables_and_report(tmp_path):
    """Made by the main before the typed results: the same tables and report.md, byte for byte."""
    run_dir = shutil.copytree(FULL / "run", tmp_path / "run")
    done = run_cli("export", str(run_dir), "--out", str(tmp_path / "export"))
    assert done.returncode == 0, done.stderr
    out = tmp_path / "export"
    expected = FULL / "expected"
    names = sorted(p.name for p in (expected / "tables").iterdir())
    assert sorted(p.name for p in (out / "tables").iterdir()) == names
    for name in names:
        assert (out / "tables" / name).read_bytes() == (expected / "tables" / name).read_bytes(), name
    report = (out / "report.md").read_text().replace(f"`{run_dir}`", "`RUN_DIR`")
    assert report == (expected / "report.md").read_text()
