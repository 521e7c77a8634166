"""`ssd-profiler export` never overwrites what the app did not write.

A run folder made cheaply with ``import FIXTURE --save`` is exported (the real CLI as a
subprocess) into every hostile place: a folder of the user's files, a file, a symlink, an export
of another run, an earlier export with a link planted inside. Each is refused with exit 2 and
one ``ssd-profiler: error:`` line, and every byte of the user's files stays the same. Damaged
inputs (run.json, samples.csv, trials.csv) never give a traceback. The figure path (rendered
into a staging folder, then renamed) and the window's exporter are checked in process.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO, run_cli
from safety_support import assert_one_error, posix_only, snapshot

FIO = FIXTURES / "fio" / "fio-3.16-linux-libaio-randrw-qd1-nj1-json.json"
MARKER = ".ssd-profiler-export.json"


@pytest.fixture(scope="module")
def made_run(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("made") / "20260101T000000Z_imported"
    done = run_cli("import", str(FIO), "--save", str(folder))
    assert done.returncode == 0, done.stderr
    return folder


@pytest.fixture
def area(tmp_path, made_run) -> Path:
    """tmp_path with a copy of the run (``run``) and the user's own folder (``mine``)."""
    shutil.copytree(made_run, tmp_path / "run")
    mine = tmp_path / "mine"
    (mine / "figures").mkdir(parents=True)
    (mine / "report.md").write_text("my own report\n")
    (mine / "figures" / "plot.png").write_bytes(os.urandom(2048))
    return tmp_path


def export(*args: str):
    return run_cli("export", *map(str, args), timeout=120)


def test_default_export_has_the_marker_and_re_exports_in_place(area):
    done = export(area / "run")
    assert done.returncode == 0, done.stderr
    out = area / "run" / "export"
    assert done.stdout.splitlines()[-1] == str(out)
    marker = json.loads((out / MARKER).read_text())
    assert marker["run_folder"] == "run" and "started_at" in marker
    (out / "notes.txt").write_text("the user's note in the export folder\n")
    (out / "report.md").write_text("edited")
    notes = snapshot(out)["notes.txt"]
    done = export(area / "run")
    assert done.returncode == 0, done.stderr
    assert snapshot(out)["notes.txt"] == notes              # not an export file: left alone
    assert (out / "report.md").read_text().startswith("# SSD performance profiling")  # replaced
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp") or "staging" in p.name]


def test_a_renamed_run_still_owns_its_export_and_another_start_time_does_not(area):
    path = area / "run" / "run.json"
    path.write_text(path.read_text().replace('"started_at": null',
                                             '"started_at": "2026-01-01T00:00:00.000+00:00"'))
    assert export(area / "run").returncode == 0
    (area / "run").rename(area / "renamed")
    done = export(area / "renamed")
    assert done.returncode == 0, done.stderr
    path = area / "renamed" / "run.json"
    path.write_text(path.read_text().replace("2026-01-01T00:00:00.000", "2026-01-02T00:00:00.000"))
    line = assert_one_error(export(area / "renamed"))
    assert "holds the export of another run (renamed, started 2026-01-01T00:00:00.000+00:00)" in line


@pytest.mark.parametrize("kind", ["non-empty", "file", "link-to-folder", "link-to-empty",
                                  "dangling-link", "other-run", "damaged-marker",
                                  "linked-report", "linked-tables", "run-dir-itself",
                                  "default-is-link", "under-a-file"])
def test_export_refuses_to_write_where_it_must_not(area, kind):
    mine, out = area / "mine", area / "out"
    if kind == "non-empty":
        out = mine
    elif kind == "file":
        out = mine / "report.md"
    elif kind == "link-to-folder":
        out.symlink_to(mine, target_is_directory=True)
    elif kind == "link-to-empty":
        (area / "empty").mkdir()
        out.symlink_to(area / "empty", target_is_directory=True)
    elif kind == "dangling-link":
        out.symlink_to(area / "nowhere")
    elif kind == "other-run":
        shutil.copytree(area / "run", area / "other")
        assert export(area / "other", "--out", out).returncode == 0
    elif kind == "damaged-marker":
        assert export(area / "run", "--out", out).returncode == 0
        (out / MARKER).write_text("{not json")
    elif kind == "linked-report":
        assert export(area / "run", "--out", out).returncode == 0
        (out / "report.md").unlink()
        (out / "report.md").symlink_to(mine / "report.md")
    elif kind == "linked-tables":
        assert export(area / "run", "--out", out).returncode == 0
        shutil.rmtree(out / "tables")
        (out / "tables").symlink_to(mine / "figures", target_is_directory=True)
    elif kind == "run-dir-itself":
        out = area / "run"
    elif kind == "default-is-link":
        (area / "run" / "export").symlink_to(mine, target_is_directory=True)
        out = None
    elif kind == "under-a-file":
        out = mine / "report.md" / "export"
    before = snapshot(area)
    done = export(area / "run", *(["--out", out] if out else []))
    line = assert_one_error(done)
    assert "new or empty folder" in line, line
    assert done.stdout == "" and snapshot(area) == before


@pytest.mark.parametrize("damage", ["is-a-file", "no-run-json", "truncated", "empty", "binary",
                                    "nan", "deep", "a-list", "trials-not-objects",
                                    "trial-without-status", "run-json-folder", "run-json-fifo"])
def test_a_damaged_run_folder_is_one_line_and_nothing_is_written(area, damage):
    run = area / "run"
    path = run / "run.json"
    record = json.loads(path.read_text())
    if damage == "is-a-file":
        run = area / "mine" / "report.md"
    elif damage == "no-run-json":
        path.unlink()
    elif damage == "truncated":
        path.write_text(path.read_text()[:200])
    elif damage == "empty":
        path.write_text("")
    elif damage == "binary":
        path.write_bytes(os.urandom(512))
    elif damage == "nan":
        path.write_text(path.read_text().replace('"status": "done"', '"status": NaN', 1))
    elif damage == "deep":
        path.write_text("[" * 100000)
    elif damage == "a-list":
        path.write_text("[1, 2]")
    elif damage == "trials-not-objects":
        path.write_text(json.dumps({**record, "trials": [1, 2]}))
    elif damage == "trial-without-status":
        del record["trials"][0]["status"]
        path.write_text(json.dumps(record))
    elif damage == "run-json-folder":
        path.unlink()
        path.mkdir()
    elif damage == "run-json-fifo":
        if os.name != "posix":
            pytest.skip("FIFOs are POSIX")
        path.unlink()
        os.mkfifo(path)
    before = snapshot(area)
    done = export(run)
    line = assert_one_error(done)
    assert str(run) in line
    assert snapshot(area) == before and not (area / "run" / "export").exists()


@pytest.fixture
def series_run(tmp_path) -> Path:
    """A copy of a run whose SLC experiment reads the live samples (tests/fixtures/runs)."""
    (old,) = [p for p in (FIXTURES / "runs").iterdir() if p.name.startswith("2026")]
    return Path(shutil.copytree(old, tmp_path / "run"))


def test_a_broken_samples_csv_cell_is_a_gap_with_one_warning(series_run):
    """One damaged cell costs that cell (a gap in the live figures), not the whole file: the
    window and export agree on it."""
    run = series_run
    (run / "samples.csv").write_text("trial,t_s,read_MBps\n0,1.0,5\n0,2.0,x\n1,")
    (run / "trials.csv").write_text("index,experiment,lab")   # derived; export reads run.json
    before = snapshot(run)
    done = export(run)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("ssd-profiler:")]
    assert len(warnings) == 1 and warnings[0].startswith("ssd-profiler: warning: ")
    assert "samples.csv is damaged in 1 cell" in warnings[0] and "shown as gaps" in warnings[0]
    assert "samples.csv is damaged" in (run / "export" / "report.md").read_text()
    after = snapshot(run)
    assert {k: v for k, v in after.items() if not k.startswith("export")} == before


@posix_only
def test_a_fifo_samples_csv_is_not_opened(series_run):
    (series_run / "samples.csv").unlink()
    os.mkfifo(series_run / "samples.csv")
    done = export(series_run)   # would hang if opened
    assert done.returncode == 0 and "not a regular file" in done.stderr


# -- in process: figures, staging, the window -------------------------------------------------
def _synthetic(folder: Path) -> Path:
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from export_speed import synthetic_run
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    return synthetic_run(folder)


def _fake_render(fig, png: Path, svg: Path) -> None:
    png.write_bytes(b"\x89PNG fake " + fig.id.encode())
    svg.write_text(f"<svg>{fig.id}</svg>")


def test_figures_are_renamed_into_place_and_a_planted_link_is_refused(tmp_path, monkeypatch):
    from app.report.export import export_run
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    run = _synthetic(tmp_path / "run")
    out = export_run(run, tmp_path / "out", _fake_render)
    pngs = sorted(p.name for p in (out / "figures").glob("*.png"))
    assert pngs and not [p for p in out.iterdir() if "staging" in p.name]
    precious = tmp_path / "precious.png"
    precious.write_bytes(b"the user's picture")
    (out / "figures" / pngs[0]).unlink()
    (out / "figures" / pngs[0]).symlink_to(precious)
    before = snapshot(tmp_path)
    with pytest.raises(ValueError, match="symbolic link that the export did not write"):
        export_run(run, out, _fake_render)
    assert snapshot(tmp_path) == before

    def broken(fig, png, svg):
        raise RuntimeError("no GPU today")
    (out / "figures" / pngs[0]).unlink()
    export_run(run, out, broken)   # figures fail one by one; report.md says so, no leftovers
    assert "was not drawn: RuntimeError: no GPU today" in (out / "report.md").read_text()
    assert not [p for p in out.rglob("*") if "staging" in p.name or p.name.endswith(".tmp")]


def test_the_window_exporter_shows_the_refusal_without_a_traceback(area, qtbot, caplog):
    from ui.window.report.export_action import RunExporter
    exporter = RunExporter()
    before = snapshot(area)
    with qtbot.waitSignal(exporter.failed, timeout=20000) as failed:
        exporter.start(str(area / "run"), str(area / "mine"))
    message = failed.args[0]
    assert "is not empty and is not an export of this run" in message
    assert "\n" not in message and "Error" not in message
    assert not [r for r in caplog.records if r.levelname == "ERROR" or r.exc_info]
    assert snapshot(area) == before
    exporter.wait(5)
