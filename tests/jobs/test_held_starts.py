"""Trials started ahead and held before their first I/O (jobs/run/held_starts.py), with the real fio:
every trial of a sweep is held and let go in turn; a held writer that is not needed (the test
file swapped for a link, a cancel) writes nothing and leaves no process or raw file behind."""
from __future__ import annotations

import os
import threading
from datetime import datetime
from pathlib import Path

from jobs.events import RunFinished, TrialFinished, TrialStarted
from jobs.run.session import prepare_run

from conftest import run_json
from safety_support import data_files, engines_on, needs_fio, wait_for

TINY = {"repetitions": "1", "warmup": "false", "runtime": "1s", "size": "16MiB"}


def _raw_names(run_dir: Path) -> list[str]:
    return sorted(p.name.split(".")[0] for p in (run_dir / "raw").iterdir())


@needs_fio
def test_every_trial_of_a_sweep_is_held_then_let_go_in_turn(tmp_path):
    session = prepare_run(["queue-depth"], {**TINY, "queue_depths": "1,2,4"}, str(tmp_path / "t"),
                          runs_root=tmp_path / "runs")
    events = list(session.runner.events())
    assert isinstance(events[-1], RunFinished) and events[-1].status == "done"
    record = run_json(session.store.dir)
    assert [t["status"] for t in record["trials"]] == ["done"] * 3
    assert all(any(a.startswith("--exec_prerun=read go < /dev/fd/") for a in t["argv"]) for t in record["trials"])
    # one stop file per trial: a stop meant for one held engine never ends another
    assert len({a for t in record["trials"] for a in t["argv"] if a.startswith("--trigger-file=")}) == 3
    assert all(0.9 < t["elapsed_s"] < 1.5 for t in record["trials"])  # counted from the let-go
    assert len(_raw_names(session.store.dir)) == 6  # stdout and stderr of each trial
    assert not engines_on(tmp_path / "t") and not (tmp_path / "t").exists()


@needs_fio
def test_held_writers_are_dismissed_when_the_test_file_is_swapped_for_a_link(tmp_path):
    victim = tmp_path / "victim.docx"
    victim.write_bytes(before := os.urandom(1 << 16))
    target = tmp_path / "t"
    session = prepare_run(["rw-mix"], {**TINY, "repetitions": "3", "rw-mix.mixes": "0",
                                        "rw-mix.iodepth": "1"},
                          str(target), runs_root=tmp_path / "runs")
    events, swapped = [], False
    for event in session.runner.events():
        events.append(event)
        if isinstance(event, TrialFinished) and not swapped:
            (test_file,) = data_files(target)
            test_file.unlink()
            test_file.symlink_to(victim)
            swapped = True
    assert victim.read_bytes() == before, "a held writer wrote through the planted link"
    assert events[-1].status == "failed" and len(run_json(session.store.dir)["trials"]) == 1
    assert wait_for(lambda: not engines_on(target), 5), "a held fio was left running"
    assert len(_raw_names(session.store.dir)) == 2  # the one trial that ran; none of the held


@needs_fio
def test_a_cancel_dismisses_the_held_trials_and_keeps_the_finished_one(tmp_path):
    cancel = threading.Event()
    session = prepare_run(["queue-depth"], {**TINY, "queue_depths": "1,2,4,8"}, str(tmp_path / "t"),
                          runs_root=tmp_path / "runs", cancel=cancel)
    started = 0
    for event in session.runner.events():
        if isinstance(event, TrialStarted):
            started += 1
            if started == 2:
                cancel.set()
    record = run_json(session.store.dir)
    assert record["status"] == "cancelled"
    assert [t["status"] for t in record["trials"]] == ["done", "cancelled"]
    assert len(_raw_names(session.store.dir)) == 4  # two trials' stdout and stderr, no more
    assert wait_for(lambda: not engines_on(tmp_path / "t"), 5)
    assert not (tmp_path / "t").exists()


def test_a_hold_that_failed_is_not_a_result_the_trial_starts_plainly(tmp_path, fake_fio_env, monkeypatch):
    for key, value in {**fake_fio_env, "FAKE_FIO_MODE": "hold-fails"}.items():
        monkeypatch.setenv(key, value)
    session = prepare_run(["queue-depth"], {**TINY, "queue_depths": "1,2"}, str(tmp_path / "t"),
                          runs_root=tmp_path / "runs")
    list(session.runner.events())
    trials = run_json(session.store.dir)["trials"]
    assert [t["status"] for t in trials] == ["done", "done"]
    assert [t["measurement"]["total"]["iops"] for t in trials] == [1000.0, 1000.0]
    assert not any("--exec_prerun" in " ".join(t["argv"]) for t in trials)  # no more holds after one failed


@needs_fio
def test_a_cancel_while_the_next_trial_already_runs_records_it_as_cancelled(tmp_path):
    cancel = threading.Event()
    session = prepare_run(["queue-depth"], {**TINY, "queue_depths": "1,2,4"}, str(tmp_path / "t"),
                          runs_root=tmp_path / "runs", cancel=cancel)
    for event in session.runner.events():
        if isinstance(event, TrialFinished):
            cancel.set()  # the second trial already runs: let go at the first one's postrun line
    record = run_json(session.store.dir)
    # as a trial that was running when the user cancelled: stopped and recorded as cancelled
    assert record["status"] == "cancelled"
    assert [t["status"] for t in record["trials"]] == ["done", "cancelled"]
    assert len(_raw_names(session.store.dir)) == 4  # two trials' stdout and stderr, no more
    assert wait_for(lambda: not engines_on(tmp_path / "t"), 5) and not (tmp_path / "t").exists()


def test_a_cancel_after_a_trials_io_keeps_its_whole_result(tmp_path, fake_fio_env, monkeypatch):
    for key, value in {**fake_fio_env, "FAKE_FIO_IO_S": "1", "FAKE_FIO_TEARDOWN_S": "0.3"}.items():
        monkeypatch.setenv(key, value)
    cancel = threading.Event()
    session = prepare_run(["queue-depth"], {**TINY, "queue_depths": "1,2,4"}, str(tmp_path / "t"),
                          runs_root=tmp_path / "runs", cancel=cancel)
    runner = session.runner

    def cancel_in_the_tear_down():  # the I/O is over, the statistics final; 0.3 s of tear-down
        if wait_for(lambda: runner._proc is not None and runner._proc.io_done.is_set(), 10):
            cancel.set()
    watcher = threading.Thread(target=cancel_in_the_tear_down)
    watcher.start()
    list(runner.events())
    watcher.join()
    record = run_json(session.store.dir)
    assert cancel.is_set() and record["status"] == "cancelled"
    # the first trial's result is whole; the second, let go under its end, was cancelled mid-I/O
    assert [t["status"] for t in record["trials"]] == ["done", "cancelled"]
    assert record["trials"][0]["measurement"]["total"]["iops"] == 1000.0


def _spans(session) -> list[tuple[datetime, datetime]]:
    return [(datetime.fromisoformat(t["started_at"]), datetime.fromisoformat(t["ended_at"]))
            for t in run_json(session.store.dir)["trials"]]


def test_only_a_trial_that_decides_nothing_lets_the_next_start_under_its_end(tmp_path, fake_fio_env,
                                                                             monkeypatch):
    for key, value in {**fake_fio_env, "FAKE_FIO_IO_S": "0.3", "FAKE_FIO_TEARDOWN_S": "0.5"}.items():
        monkeypatch.setenv(key, value)
    sweep = prepare_run(["queue-depth"], {**TINY, "queue_depths": "1,2,4"}, str(tmp_path / "a"),
                        runs_root=tmp_path / "runs")
    list(sweep.runner.events())
    spans = _spans(sweep)
    assert all(nxt[0] < last[1] for last, nxt in zip(spans, spans[1:]))  # under the 0.5 s end
    # steady-state rounds decide whether the next runs: each starts after the last one's result
    rounds = prepare_run(["steady-state"], {"round": "1s", "size": "16MiB", "max_rounds": "5", "precondition": "none"},
                         str(tmp_path / "b"), runs_root=tmp_path / "runs")
    list(rounds.runner.events())
    spans = _spans(rounds)
    assert len(spans) >= 2 and all(nxt[0] >= last[1] for last, nxt in zip(spans, spans[1:]))
