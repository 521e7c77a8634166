"""The DiskSpd engine, runs: a fake ``diskspd`` (tests/fakes/diskspd) driven through the
CLI and the runner: done, failed, hung, cancelled.

The ``real_diskspd`` tests at the end run the real DiskSpd on Windows (the windows-diskspd
workflow); elsewhere they are skipped, and with SSD_PROFILER_REQUIRE_DISKSPD=1 a missing
DiskSpd is a failure instead of a skip.
"""
from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from app.engines import EngineNotFound
from app.engines.diskspd import DiskSpdEngine, parse_diskspd_output
from app.engines.diskspd.text import parse_text_output
from app.model.workload import Workload
from app.units import MiB
from jobs.engine.factory import locate_diskspd
from jobs.events import RunFinished, Sample, TrialFailed, TrialStarted
from jobs.run.session import prepare_run

from conftest import FAKES, run_cli, run_json, tree
from diskspd_support import make_trial, posix_only

RUN = ["--set", "runtime=1s", "--set", "size=32MiB", "--set", "repetitions=1", "--set", "warmup=false"]


# -- full runs with the fake diskspd --------------------------------------------------------------------
@pytest.fixture
def fake_env() -> dict:
    return {"PATH": f"{FAKES}{os.pathsep}{os.environ['PATH']}", "SSD_PROFILER_DISKSPD": str(FAKES / "diskspd")}


def _rows(path: Path) -> list[dict]:
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


@posix_only
def test_cli_run_with_the_fake_diskspd_completes_and_exports(tmp_path, fake_env, monkeypatch):
    target = tmp_path / "target"
    target.mkdir()
    done = run_cli("run", "zero-queue", "--engine", "diskspd", "--target", str(target), *RUN,
                   "--out", str(tmp_path / "runs"), env={**fake_env, "FAKE_DISKSPD_MODE": "ok"}, timeout=120)
    assert done.returncode == 0, done.stderr
    run_dir = Path(done.stdout.strip().splitlines()[-1])
    record = run_json(run_dir)
    assert record["status"] == "done" and record["engine"]["name"] == "diskspd"
    assert record["engine"]["version"] == "DiskSpd 2.2"
    assert len(record["trials"]) == 4 and all(t["status"] == "done" for t in record["trials"])
    for t in record["trials"]:
        m = t["measurement"]
        assert m["engine"] == "diskspd" and m["engine_version"] == "2.0.21a"
        assert m["workload"]["rw"] == t["workload"]["rw"]  # the trial's workload, not the XML's
        assert m["read"]["lat_us"]["p99.9"] == 23166.0 and m["total"]["iops"] > 0
        assert m["job"] == t["argv"][-1]  # the fake wrote the requested path into the XML
    log = (run_dir / "commands.log").read_text()
    assert "prepare zero-queue" in log and " -g" in log and log.count("-Rxml") == 5
    trial_lines = [line for line in log.splitlines() if "prepare" not in line]
    assert not any(" -c" in line for line in trial_lines)  # the pre-filled file is never recreated
    samples = _rows(run_dir / "samples.csv")
    assert len(samples) == 4 and {s["read_iops"] for s in samples} == {"332"}  # XML series, 1 s each
    assert len(list((run_dir / "raw").iterdir())) == 8
    assert tree(target) == []
    assert record["summary"]["zero-queue"]["workloads"]

    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    from app.report.export import export_run
    from ui.render.figure_files import ensure_app, render_figure
    ensure_app()
    out = export_run(run_dir, tmp_path / "export", render_figure)
    report = (out / "report.md").read_text()
    assert "DiskSpd 2.2" in report
    assert list((out / "tables").glob("*.csv")) and list((out / "figures").glob("*.png"))


@posix_only
def test_write_only_experiment_writes_the_apps_own_file_without_a_prefill(tmp_path, fake_env, monkeypatch):
    """The app creates the test file at full size (app.paths); DiskSpd writes it in place, so
    neither -c (which would recreate it) nor a prefill pass comes first."""
    for key, value in {**fake_env, "FAKE_DISKSPD_MODE": "ok"}.items():
        monkeypatch.setenv(key, value)
    target = tmp_path / "target"
    target.mkdir()
    session = prepare_run(["slc-cache"], {"runtime": "1s", "size": "32MiB"}, str(target),
                          runs_root=tmp_path / "runs", engine="diskspd")
    events = list(session.runner.events())
    assert events[-1].status == "done", events[-1]
    (trial,) = session.store.record["trials"]
    assert "-w100" in trial["argv"] and not any(a.startswith("-c") for a in trial["argv"])
    assert "prepare" not in (session.store.dir / "commands.log").read_text()
    assert tree(target) == []


@posix_only
def test_failing_diskspd_marks_every_trial_failed(tmp_path, fake_env):
    target = tmp_path / "target"
    target.mkdir()
    done = run_cli("run", "zero-queue", "--engine", "diskspd", "--target", str(target), *RUN,
                   "--out", str(tmp_path / "runs"), env={**fake_env, "FAKE_DISKSPD_MODE": "fail"}, timeout=120)
    assert done.returncode == 1, done.stderr
    record = run_json(Path(done.stdout.strip().splitlines()[-1]))
    assert record["status"] == "failed" and len(record["trials"]) == 4
    for t in record["trials"]:
        assert t["status"] == "failed" and t["returncode"] == 1
        assert "no readable result" in t["error"] and "Error generating I/O requests" in t["error"]
        assert "Error generating I/O requests" in t["stderr_tail"]
    assert tree(target) == []  # the fill pass created the file; the app removed it


def _no_fake_left(folder: Path) -> bool:
    return not [p for p in psutil.process_iter(["cmdline"])
                if str(folder) in " ".join(p.info["cmdline"] or []) and "diskspd" in " ".join(p.info["cmdline"] or [])]


def _hanging_session(tmp_path, fake_env, monkeypatch, names, settings, **kwargs):
    """A run with the fake DiskSpd in its 'hang' mode (it prints nothing and never ends)."""
    for key, value in {**fake_env, "FAKE_DISKSPD_MODE": "hang"}.items():
        monkeypatch.setenv(key, value)
    target = tmp_path / "target"
    target.mkdir()
    return target, prepare_run(names, {"size": "32MiB", "repetitions": "1", "warmup": "false",
                                       **settings},
                               str(target), runs_root=tmp_path / "runs", engine="diskspd", **kwargs)


@posix_only
def test_hanging_diskspd_is_stopped_by_the_watchdog(tmp_path, fake_env, monkeypatch):
    target, session = _hanging_session(tmp_path, fake_env, monkeypatch, ["tail-latency"],
                                       {"runtime": "1s", "tail-latency.queue_depths": "1,2"},
                                       watchdog_grace_s=1.0)
    started = time.monotonic()
    events = list(session.runner.events())
    assert time.monotonic() - started < 2 * 8  # each trial: 2 s limit + no-op stop, terminate, kill
    failures = [e for e in events if isinstance(e, TrialFailed)]
    assert len(failures) == 2 and all("time limit" in f.error and "(kill)" in f.error for f in failures)
    assert isinstance(events[-1], RunFinished) and events[-1].status == "failed"
    record = run_json(session.store.dir)
    assert all("hanging" in t["stderr_tail"] and t["stopped_by"] == "watchdog" for t in record["trials"])
    assert tree(target) == [] and _no_fake_left(target)


@posix_only
def test_cancel_during_a_diskspd_trial(tmp_path, fake_env, monkeypatch):
    target, session = _hanging_session(tmp_path, fake_env, monkeypatch, ["zero-queue"],
                                       {"runtime": "30s"})
    events = []
    for event in session.runner.events():
        events.append(event)
        if isinstance(event, TrialStarted):
            session.cancel.set()
    assert events[-1].status == "cancelled"
    (trial,) = run_json(session.store.dir)["trials"]
    assert trial["status"] == "cancelled" and trial["stopped_by"] == "cancel"
    assert tree(target) == [] and _no_fake_left(target)


@posix_only
def test_a_silent_engines_live_samples_keep_their_interval(tmp_path, fake_env, monkeypatch):
    """DiskSpd prints nothing while it runs: its live samples are the OS counters read when the
    runner feeds its adapter, so the runner feeds it at the adapter's pace (feed_every_s), not
    only when output comes or once a second (the wait for fio's output)."""
    _target, session = _hanging_session(tmp_path, fake_env, monkeypatch, ["zero-queue"],
                                        {"runtime": "30s", "interval": "0.5s"})
    started, stamps = None, []
    for event in session.runner.events():
        if isinstance(event, TrialStarted):
            started = time.monotonic()
        elif isinstance(event, Sample) and started is not None and not session.cancel.is_set():
            stamps.append(event.t_s)
            if time.monotonic() - started > 3.2:
                session.cancel.set()
    gaps = [b - a for a, b in zip(stamps, stamps[1:])]
    assert len(stamps) >= 5 and max(gaps) < 0.9, (stamps, gaps)   # every ~0.5 s, not every second


# -- the real DiskSpd (Windows; the windows-diskspd workflow) ------------------------------------------------
@pytest.fixture
def real_diskspd() -> DiskSpdEngine:
    required = os.environ.get("SSD_PROFILER_REQUIRE_DISKSPD") == "1"
    if not sys.platform.startswith("win"):
        if required:
            pytest.fail("SSD_PROFILER_REQUIRE_DISKSPD=1 but this is not Windows")
        pytest.skip("the real DiskSpd runs on Windows only")
    try:
        return locate_diskspd()
    except EngineNotFound as exc:
        if required:
            pytest.fail(f"DiskSpd is required here: {exc}")
        pytest.skip(str(exc))


def _run(argv: list[str], timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def test_real_diskspd_version(real_diskspd):
    assert re.match(r"DiskSpd \d", real_diskspd.version)


def test_real_diskspd_prepare_trial_and_parse(real_diskspd, tmp_path):
    test_file, token = tmp_path / "t.dat", tmp_path / "t.stop"
    prep = _run(real_diskspd.prepare_argv(test_file, 64 * MiB, token))
    assert prep.returncode == 0, prep.stderr
    assert test_file.stat().st_size == 64 * MiB
    filled = parse_diskspd_output(prep.stdout)[0]["write"]
    assert filled["io_bytes"] >= 64 * MiB  # one full pass of the file
    trial = make_trial(Workload("randread", 4096, 4), runtime=2.0, size=64 * MiB)
    argv = real_diskspd.trial_argv(trial, test_file, token)
    assert not any(a.startswith("-c") for a in argv)
    done = _run(argv)
    assert done.returncode == 0, done.stderr
    (m,) = real_diskspd.parse_final(done.stdout)
    assert m["read"]["iops"] > 0 and m["write"] is None and m["read"]["lat_us"]["p99"] > 0
    assert m["workload"] == {"rw": "randread", "bs_bytes": 4096, "iodepth": 4, "numjobs": 1,
                             "rwmixread": 100, "runtime_s": 2.0}
    assert len(real_diskspd.live(trial, test_file).final_intervals(done.stdout)) >= 1
    text_run = _run([a if a != "-Rxml" else "-Rtext" for a in argv])
    assert text_run.returncode == 0, text_run.stderr
    (t,) = parse_text_output(text_run.stdout)
    assert t["read"]["iops"] > 0 and t["workload"]["iodepth"] == 4 and t["read"]["lat_us"]["p99"] > 0


def test_real_diskspd_cancel_through_the_named_event(real_diskspd, tmp_path):
    from jobs.engine.process import EngineProcess
    test_file, token = tmp_path / "t.dat", tmp_path / "t.stop"
    argv = real_diskspd.trial_argv(make_trial(Workload("randwrite", 4096, 4), runtime=60.0, size=64 * MiB),
                                   test_file, token)
    assert "-c64M" in argv
    proc = EngineProcess(argv, real_diskspd.graceful_stop(token), cwd=tmp_path)
    time.sleep(5)
    assert proc.stop("cancel") == "graceful"
    assert proc.finish() == 0
    (m,) = real_diskspd.parse_final(proc.stdout_bytes.decode("utf-8", "replace"))
    assert 0 < m["write"]["runtime_ms"] < 60000 and m["write"]["iops"] > 0


def test_real_diskspd_cli_run(real_diskspd, tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    done = run_cli("run", "zero-queue", "--engine", "diskspd", "--target", str(target),
                   "--set", "runtime=2s", "--set", "size=64MiB", "--set", "repetitions=1",
                   "--set", "warmup=false", "--out", str(tmp_path / "runs"), timeout=600)
    assert done.returncode == 0, done.stderr
    record = run_json(Path(done.stdout.strip().splitlines()[-1]))
    assert record["status"] == "done" and len(record["trials"]) == 4
    assert all(t["measurement"]["total"]["iops"] > 0 for t in record["trials"])
    assert tree(target) == []
