"""A precision target end to end, with a fake fio that emits known per-interval series (fio's
clock, compressed): a steady series stops at the minimum, a drifting one runs to the maximum and
says 'not reached' in the table and --json. (Autocorrelation: tests/app/test_precision_stats.py.)"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.stats.precision import naive_interval
from tests.conftest import run_cli, run_json

SETTINGS = ["--set", "queue-depth.queue_depths=1", "--set", "warmup=false", "--set", "size=16MiB",
            "--set", "interval=200ms", "--set", "min_time=4s", "--set", "max_time=12s",
            "--precision", "2%"]


def _run(tmp_path: Path, env: dict, series: list[float], json_out: bool = True):
    target = tmp_path / "target"
    target.mkdir()
    done = run_cli("run", "queue-depth", "--target", str(target), *SETTINGS,
                   "--out", str(tmp_path / "runs"), *(["--json"] if json_out else []),
                   env={**env, "FAKE_FIO_MODE": "series",
                        "FAKE_FIO_SERIES": ",".join(f"{v:g}" for v in series)}, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def test_a_steady_series_stops_at_the_minimum(tmp_path, fake_fio_env):
    done = _run(tmp_path, fake_fio_env, [1000.0] * 100)
    doc = json.loads(done.stdout)
    trials = [t for t in run_json(doc["run_dir"])["trials"] if not t["warmup"]]
    assert len(trials) == 2  # the third repetition was not needed
    for t in trials:
        assert t["stopped_by"] == "precision" and t["precision"]["stopped"] == "target"
        # its 1 s ramp (this fake fio counts it in its runtime; fio does not) + min 4 s / 2 runs;
        # a loaded machine answers a few samples late; at its maximum it would run 5 s
        assert 3.0 <= t["measurement"]["read"]["runtime_ms"] / 1000 <= 3.8
    row = doc["summary"]["queue-depth"]["workloads"][0]
    assert row["precision"]["reached"] and row["precision"]["iops"] < 0.02


def test_a_drifting_series_reaches_the_maximum_and_says_so(tmp_path, fake_fio_env):
    done = _run(tmp_path, fake_fio_env, [1000.0 * (1 + 0.02 * i) for i in range(100)],
                json_out=False)
    run_dir = done.stdout.strip().splitlines()[-1]
    trials = [t for t in run_json(run_dir)["trials"] if not t["warmup"]]
    assert len(trials) == 3  # every planned repetition, each to its maximum (12 s / 3)
    assert all(t["stopped_by"] is None and t["precision"]["stopped"] == "time" for t in trials)
    assert "target ±2 %: not reached" in done.stdout
    # what would reach it, after the table: each run rises 2 % a sample, too correlated to batch
    assert "RND4K Q1T1 read, target not reached: within each repetition the rate moved +" in done.stdout


def test_the_export_states_the_achieved_precision(tmp_path, fake_fio_env):
    done = _run(tmp_path, fake_fio_env, [1000.0 * (1 + 0.02 * i) for i in range(100)])
    out = tmp_path / "export"
    exported = run_cli("export", json.loads(done.stdout)["run_dir"], "--out", str(out),
                       env=fake_fio_env)
    assert exported.returncode == 0, exported.stderr
    report = (out / "report.md").read_text()
    assert re.search(r"^## \d+\. Precision$", report, flags=re.M) and "0 of 1 reached the target" in report
    assert "target ±2 %: not reached" in report  # in its table and in its section
    assert "from its first third to its last" in report   # the section says what would reach it
    assert "(between runs, t with 2 df)" in report   # and the method of its ±
    assert "start period of at least 1 s" in report   # the ramp each repetition ran, said
    assert "ramp 0s (at least 1 s per measured repetition: see Precision)" in report   # its Setup
    csv_text = "".join(p.read_text() for p in out.rglob("*.csv"))
    assert "precision_reached" in csv_text and "false" in csv_text


def test_an_autocorrelated_series_is_not_stopped_by_a_naive_interval(tmp_path, fake_fio_env):
    """Runs of 6 intervals at -2 % and +2 %: at its minimum (10 intervals) the textbook interval
    over the raw samples is ±1.5 % and would stop; batch means wait for more."""
    series = [1000.0 * (1.02 if (i // 6) % 2 else 0.98) for i in range(100)]
    assert naive_interval(series[:10]).relative < 0.02
    done = _run(tmp_path, fake_fio_env, series)
    trials = [t for t in run_json(json.loads(done.stdout)["run_dir"])["trials"] if not t["warmup"]]
    assert all(t["measurement"]["read"]["runtime_ms"] > 3000 for t in trials)


def test_a_tail_workload_runs_until_its_percentile_is_known_and_says_which(tmp_path,
                                                                          fake_fio_env):
    """The fake fio gives no histogram: the pooled p99.9 has no interval, so every repetition
    runs to its maximum and the outcome names the percentile that was not reached."""
    target = tmp_path / "target"
    target.mkdir()
    done = run_cli("run", "tail-latency", "--target", str(target), *SETTINGS[2:],
                   "--set", "tail-latency.queue_depths=1", "--out", str(tmp_path / "runs"),
                   "--json", env={**fake_fio_env, "FAKE_FIO_MODE": "series",
                                  "FAKE_FIO_SERIES": ",".join(["1000"] * 100)}, timeout=120)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    row = doc["summary"]["tail-latency"]["workloads"][0]
    assert row["precision"]["tail"] == "p99.9" and not row["precision"]["reached"]
    assert row["precision"]["iops"] < 0.02  # the mean was known; the tail was not
    trials = [t for t in run_json(doc["run_dir"])["trials"] if not t["warmup"]]
    assert len(trials) == 3 and all(t["stopped_by"] is None for t in trials)


@pytest.mark.parametrize("given, planned", [("2", "between"), ("2 %", "between"), ("2.0", "between"),
                                             ("off", "about")])
def test_the_precision_option_takes_a_number_or_off(tmp_path, given, planned):
    """'--precision off' is the fixed-time run, not 'off%' (refused before); a bare number is %:
    the plan then gives its time as a range."""
    done = run_cli("run", "zero-queue", "--target", str(tmp_path / "t: x"), "--precision", given,
                   "--dry-run")
    assert done.returncode == 0, done.stderr
    assert f"16 trials, {planned} " in done.stdout


@pytest.mark.parametrize("given", ["abc", "-1%", "2%%", "nan%", "0", "", "  "])
def test_a_precision_that_is_not_one_of_the_choices_is_one_line_quoting_it(tmp_path, given):
    """The line quotes what was typed: '-1%' was quoted as '-1' and '0' as '0%' (the option's
    '%' taken off or put on first), '2%%' ran at 2 %, and '' (an unset shell variable) ran
    fixed-time runs without a word."""
    done = run_cli("run", "zero-queue", "--target", str(tmp_path / "t"), f"--precision={given}",
                   "--dry-run")
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [
        f"ssd-profiler: error: precision: {given!r} is not one of off, 0.5%, 1%, 2%, 3%, 5%, 10%"]


@pytest.mark.parametrize("args, note", [
    (["all", "--precision", "2%"], "slc-cache is not measured to a precision target: it keeps its"
                                   " own rule (docs/precision.md)"),
    (["steady-state", "--precision", "2%"], "steady-state is not measured to a precision target"),
    (["slc-cache", "--set", "slc-cache.precision=2%"], "slc-cache is not measured to a precision"),
    (["write-saturation", "slc-cache", "--precision=5"], "write-saturation and slc-cache are not "
                                                          "measured to a precision target: they")])
def test_a_precision_asked_of_an_experiment_that_keeps_its_own_rule_is_named(tmp_path, args, note):
    """Asked alone or by name, the target did nothing and nothing said so; with 'all' the note
    told to set slc-cache.precision=..., which did nothing either."""
    done = run_cli("run", *args, "--target", str(tmp_path / "t"), "--dry-run")
    assert done.returncode == 0, done.stderr
    (line,) = [x for x in done.stderr.splitlines() if "precision" in x]
    assert line.startswith(f"ssd-profiler: note: {note}") and "slc-cache.precision=" not in line
