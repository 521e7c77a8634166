"""run.json while a run goes on: each trial's line is serialised once, the file is written at
most every few seconds (a clock under the test's control), every end writes it whole, and
whatever is on disk in between is a consistent run.json that opens (what ``kill -9`` leaves),
with the trials kept since its last save in the journal that reading a run adds back."""
from __future__ import annotations

import copy
import json

from app.model.status import RunStatus
from app.model.trial import TrialResult
from app.store.journal import JOURNAL
from app.store.run_folder import SAVE_EVERY_S, RunStore, load_run, open_run
from app.store.run_json import LineCache, json_text

from conftest import FIXTURES

RECORD = json.loads((FIXTURES / "runs" / "full-lab-20261126" / "run" / "run.json").read_text())


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _store(tmp_path, clock) -> RunStore:
    record = {k: v for k, v in RECORD.items() if k not in ("trials", "summary", "status")}
    return RunStore.create(tmp_path, ["zero-queue"], record, clock)   # timed by the test


def _trial(i: int) -> dict:
    t = copy.deepcopy(RECORD["trials"][i % len(RECORD["trials"])])
    t["index"] = i
    return t


def test_trials_are_saved_every_few_seconds_and_the_file_between_always_opens(tmp_path):
    clock = Clock()
    store = _store(tmp_path, clock)
    on_disk = []
    for i in range(13):
        clock.now += 0.5   # a trial every half second: run.json every 2 s, not after each
        store.add_trial(TrialResult.from_json(_trial(i)))
        on_disk.append(len(json.loads((store.dir / "run.json").read_text())["trials"]))
        record = load_run(store.dir)   # run.json and the journal: what a kill -9 here leaves
        assert len(open_run(store.dir).trials) == len(record["trials"]) == i + 1
        assert record["status"] == RunStatus.RUNNING
    assert SAVE_EVERY_S == 2.0 and on_disk == [0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12]
    assert (store.dir / "trials.csv").read_text().count("\n") == 14   # every trial, at once
    store.finish(RunStatus.DONE)
    assert load_run(store.dir)["trials"] == [_trial(i) for i in range(13)]


def test_kept_lines_are_the_text_of_the_records_and_the_last_one_is_made_afresh(tmp_path):
    clock = Clock()
    store = _store(tmp_path, clock)
    for i in range(3):
        clock.now += SAVE_EVERY_S   # each saved
        store.add_trial(TrialResult.from_json(_trial(i)))
    store.record["trials"][-1]["job_argv"] = ["fio", "--name=x"]   # as a remote run does after
    clock.now += SAVE_EVERY_S
    store.add_trial(TrialResult.from_json(_trial(3)))
    assert load_run(store.dir)["trials"][2]["job_argv"] == ["fio", "--name=x"]
    text = (store.dir / "run.json").read_text()
    assert text == json_text(store.record) + "\n"   # the kept lines are what a fresh save makes


def test_the_line_cache_serialises_a_record_once_while_it_is_kept(monkeypatch):
    made = []
    import app.store.run_json as run_json
    line = run_json._line
    monkeypatch.setattr(run_json, "_line", lambda r: made.append(r["i"]) or line(r))
    cache, records = LineCache(), [{"i": 0}, {"i": 1}]
    data = {"trials": records}
    json_text(data, cache)
    records.append({"i": 2})
    json_text(data, cache)
    records[1:2] = [{"i": 9}]   # a record replaced: its own line
    text = json_text(data, cache)
    assert made == [0, 1, 1, 2, 9, 2] and text == json_text(data)


def test_a_run_json_past_the_engine_output_cap_still_opens(tmp_path):
    """The largest run the app plans writes a run.json beyond the 64 MiB read cap for engine
    outputs (about 140 MB at 10,100 full-lab trials): the app must read back what it wrote."""
    import shutil

    from app.store.input_files import MAX_INPUT_BYTES
    from app.store.run_folder import RUN_JSON_MAX_BYTES
    run = tmp_path / "run"
    shutil.copytree(FIXTURES / "runs" / "full-lab-20261126" / "run", run)
    text = (run / "run.json").read_bytes()
    with open(run / "run.json", "wb") as handle:   # same record, padded past the other cap
        handle.write(text.rstrip() + b" " * (MAX_INPUT_BYTES + 1) + b"\n")
    assert (run / "run.json").stat().st_size < RUN_JSON_MAX_BYTES
    assert len(open_run(run).trials) == len(json.loads(text)["trials"])


def test_the_journal_is_emptied_by_each_save_and_gone_when_the_run_ends(tmp_path):
    clock = Clock()
    store = _store(tmp_path, clock)
    for i in range(3):
        clock.now += 0.5
        store.add_trial(TrialResult.from_json(_trial(i)))
    saved = json.loads((store.dir / "run.json").read_text())["trials"]
    journal = (store.dir / JOURNAL).read_text().splitlines()
    assert len(saved) == 0 and len(journal) == 3
    with open(store.dir / JOURNAL, "a") as handle:
        bad = json.dumps(dict(_trial(4), status=5))   # a trial's shape, but not a trial
        handle.write('{"index": true}\n[1]\n' + bad + '\n{"index": 3, "experim')   # a line cut
    assert len(open_run(store.dir).trials) == 3   # opens: a bad journal line never damages run.json
    assert [t["index"] for t in load_run(store.dir)["trials"]] == [0, 1, 2]
    clock.now += 2.0
    store.add_trial(TrialResult.from_json(_trial(3)))   # saved: the journal is empty again
    assert (store.dir / JOURNAL).read_bytes() == b""
    assert [t["index"] for t in load_run(store.dir)["trials"]] == [0, 1, 2, 3]
    store.finish(RunStatus.DONE)
    assert not (store.dir / JOURNAL).exists()   # a finished run's folder is what it was


def test_a_record_completed_after_it_was_kept_survives_a_kill_before_the_next_save(tmp_path):
    """A remote trial's job argv is added just after its record is kept: the journal keeps the
    record again, and its later line wins over run.json's earlier save of it."""
    clock = Clock()
    store = _store(tmp_path, clock)
    clock.now += SAVE_EVERY_S
    store.add_trial(TrialResult.from_json(_trial(0)))   # saved at once, without job_argv
    store.trial_completed(job_argv=["fio", "--name=x"])      # too soon for a save: what a kill -9 here leaves
    assert "job_argv" not in json.loads((store.dir / "run.json").read_text())["trials"][0]
    assert load_run(store.dir)["trials"] == [dict(_trial(0), job_argv=["fio", "--name=x"])]
