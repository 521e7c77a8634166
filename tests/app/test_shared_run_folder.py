"""A run folder from someone else is read with bounds: text of bounded length, numbers a drive
can give, and a journal that neither doubles the read limit nor outlives its run
(app/store/read_run.py, app/store/run_checks.py)."""
from __future__ import annotations

import json
import resource
import shutil
import time

import numpy as np
import pytest

from app.store import journal, read_run
from app.store.read_run import load_run
from app.store.run_checks import NAME_CHARS, TEXT_CHARS

from conftest import FIXTURES, run_cli

(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]


def _copy(tmp_path, edit) -> object:
    run_dir = shutil.copytree(RUN, tmp_path / "run")
    record = json.loads((run_dir / "run.json").read_text())
    edit(record)
    (run_dir / "run.json").write_text(json.dumps(record))
    return run_dir


def test_long_texts_are_cut_to_their_fields_bound_and_say_so(tmp_path):
    def edit(record):
        record["drive"]["model"] = "M" * 1_000_000
        record["experiments"][0]["title"] = "T" * 1_000_000
        record["trials"][0]["label"] = "L" * 10_000
    record = load_run(_copy(tmp_path, edit))
    model, title = record["drive"]["model"], record["experiments"][0]["title"]
    assert model == "M" * NAME_CHARS + "… [truncated, 1,000,000 characters]"
    assert title == "T" * TEXT_CHARS + "… [truncated, 1,000,000 characters]"
    assert record["trials"][0]["label"].endswith("… [truncated, 10,000 characters]")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def test_export_of_a_million_character_drive_model_ends_in_seconds(tmp_path):
    """It took 121 s at 400,000 characters (quadratic). Measured as the export process's CPU
    time: the machines the suite runs on are shared, and a loaded one doubles the wall time of
    any export; the wall time gets a generous bound of its own."""
    run_dir = _copy(tmp_path, lambda r: r["drive"].update(model="a" * 999_999 + "!"))
    before, start = _children_cpu(), time.monotonic()
    done = run_cli("export", str(run_dir), "--out", str(tmp_path / "export"), timeout=120)
    cpu, took = _children_cpu() - before, time.monotonic() - start
    assert done.returncode == 0, done.stderr
    assert cpu < 10 and took < 60, f"export took {cpu:.1f} s of CPU, {took:.1f} s in all"
    report = (tmp_path / "export" / "report.md").read_text()
    assert "[truncated, 1,000,000 characters]" in report and "a" * (NAME_CHARS + 1) not in report
    assert (tmp_path / "export" / "report.pdf").stat().st_size > 0


@pytest.mark.parametrize("field, value", [
    ("iops", -5000.0), ("MBps", -1.0), ("iops", 1e308), ("MBps", 1e308)])
def test_an_impossible_number_refuses_the_run_in_one_line_naming_the_field(tmp_path, field, value):
    def edit(record):
        side = next(t for t in record["trials"] if t["measurement"])["measurement"]
        side = side["read"] or side["write"]
        side[field] = value
    run_dir = _copy(tmp_path, edit)
    with pytest.raises(ValueError, match=rf"run.json is damaged: trials\[\d+\]\.measurement\.\w+\.{field} "):
        load_run(run_dir)
    done = run_cli("export", str(run_dir), "--out", str(tmp_path / "export"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr and f".{field} is" in done.stderr
    assert not (tmp_path / "export" / "report.md").exists()


@pytest.mark.parametrize("key", ["mean", "p99", "max"])
def test_a_negative_or_absurd_latency_is_no_result(tmp_path, key):
    def edit(record):
        m = next(t for t in record["trials"] if t["measurement"])["measurement"]
        (m["read"] or m["write"])["lat_us"][key] = -3.0 if key != "max" else 1e308
    with pytest.raises(ValueError, match=rf"lat_us\.{key} is"):
        load_run(_copy(tmp_path, edit))


def test_a_negative_capacity_in_the_drive_block_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"drive\.capacity_bytes is -1"):
        load_run(_copy(tmp_path, lambda r: r["drive"].update(capacity_bytes=-1)))


def _journal_line(record: dict, iops: float) -> bytes:
    trial = dict(record["trials"][0])
    trial["measurement"] = json.loads(json.dumps(trial["measurement"]))
    side = trial["measurement"]["read"] or trial["measurement"]["write"]
    side["iops"] = iops
    return (json.dumps(trial) + "\n").encode()


def test_a_finished_runs_journal_is_ignored_with_a_note(tmp_path, caplog):
    run_dir = _copy(tmp_path, lambda r: None)
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "done"
    (run_dir / journal.JOURNAL).write_bytes(_journal_line(record, 123456.0))
    loaded = load_run(run_dir)
    assert loaded["trials"] == record["trials"]
    assert "ignored: run.json says the run ended" in caplog.text


def test_a_running_runs_journal_is_merged(tmp_path):
    run_dir = _copy(tmp_path, lambda r: r.update(status="running"))
    record = json.loads((run_dir / "run.json").read_text())
    (run_dir / journal.JOURNAL).write_bytes(_journal_line(record, 123456.0))
    side = load_run(run_dir)["trials"][0]["measurement"]
    assert (side["read"] or side["write"])["iops"] == 123456.0


def test_run_json_and_its_journal_share_one_budget(tmp_path, monkeypatch):
    run_dir = _copy(tmp_path, lambda r: r.update(status="running"))
    size = (run_dir / "run.json").stat().st_size
    record = json.loads((run_dir / "run.json").read_text())
    line = _journal_line(record, 1000.0)
    (run_dir / journal.JOURNAL).write_bytes(line * (size // len(line) + 1))
    monkeypatch.setattr(read_run, "RUN_JSON_MAX_BYTES", size + size // 2)
    with pytest.raises(ValueError, match="trials-since-save.jsonl together are over the"):
        load_run(run_dir)
    monkeypatch.setattr(read_run, "RUN_JSON_MAX_BYTES", 3 * size)
    assert load_run(run_dir)["status"] == "running"


def test_a_journal_that_is_a_link_is_not_read(tmp_path):
    run_dir = _copy(tmp_path, lambda r: r.update(status="running"))
    record = json.loads((run_dir / "run.json").read_text())
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_bytes(_journal_line(record, 123456.0))
    (run_dir / journal.JOURNAL).symlink_to(elsewhere)
    assert load_run(run_dir)["trials"] == record["trials"]


def _samples_with(run_dir, line: int, column: str, value: str) -> None:
    path = run_dir / "samples.csv"
    lines = path.read_text().split("\n")
    names = lines[0].split(",")
    cells = lines[line - 1].split(",")
    cells[names.index(column)] = value
    lines[line - 1] = ",".join(cells)
    path.write_text("\n".join(lines))


@pytest.mark.parametrize("value", ["x", "-5", "inf", "9" * 400])
def test_one_damaged_samples_cell_is_a_gap_for_the_window_and_export_alike(tmp_path, value):
    from app.results.load import load_results
    from app.store.samples import read_sample_table
    from ui.window.run.past_runs import load_past_run
    run_dir = _copy(tmp_path, lambda r: None)
    rows = len(read_sample_table(run_dir))
    _samples_with(run_dir, 3, "read_iops", value)
    table = read_sample_table(run_dir)
    assert len(table) == rows and np.isnan(table.column("read_iops")[1])
    assert "samples.csv is damaged in 1 cell (the first at line 3, column read_iops" in table.damaged
    assert load_past_run(run_dir).record["status"] == "done"   # the window opens it
    notes = []
    load_results(run_dir, warn=notes.append)
    assert notes == [table.damaged]


def test_a_damaged_row_is_left_out_not_the_run(tmp_path):
    from app.store.samples import read_sample_table
    run_dir = _copy(tmp_path, lambda r: None)
    rows = len(read_sample_table(run_dir))
    _samples_with(run_dir, 4, "trial", "seven")
    table = read_sample_table(run_dir)
    assert len(table) == rows - 1 and "1 row (the first at line 4" in table.damaged
