"""A precision target that cannot be reached, end to end with a fake fio whose successive runs
emit known, different series (fio's clock, compressed): two short repetitions still state a
numeric ± with its method, a workload whose repetitions disagree stops before its maximum and
says what would have reached the target, and an autocorrelated one is not judged early."""
from __future__ import annotations

import json
import random
from pathlib import Path

from app.model.precision import Precision
from tests.conftest import run_cli, run_json
from tests.jobs.test_precision_run import SETTINGS


def _noisy(level: float, n: int = 100, seed: int = 1, rel: float = 0.003) -> list[float]:
    rng = random.Random(seed)
    return [level * (1 + rng.gauss(0, rel)) for _ in range(n)]


def _run(tmp_path: Path, env: dict, runs: list[list[float]], *settings: str):
    target = tmp_path / "target"
    target.mkdir()
    series = ";".join(",".join(f"{v:g}" for v in run) for run in runs)
    done = run_cli("run", "queue-depth", "--target", str(target), *SETTINGS, *settings,
                   "--out", str(tmp_path / "runs"), "--json",
                   env={**env, "FAKE_FIO_MODE": "series", "FAKE_FIO_SERIES": series,
                        "FAKE_FIO_RUNS": str(tmp_path / "fio-runs")}, timeout=120)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    trials = [t for t in run_json(doc["run_dir"])["trials"] if not t["warmup"]]
    return doc, trials, doc["summary"]["queue-depth"]["workloads"][0]["precision"]


def test_two_short_repetitions_state_a_numeric_interval_and_its_method(tmp_path, fake_fio_env):
    """The CLI example's shape: two repetitions of 4 s at 1-s samples are too short for batch
    means (5 at least); the spread of the two run means still bounds the mean (t, 1 df)."""
    doc, trials, got = _run(tmp_path, fake_fio_env, [_noisy(1000.0), _noisy(1010.0, seed=2)],
                            "--set", "interval=1s", "--set", "min_time=2s", "--set", "max_time=8s",
                            "--set", "repetitions=2", "--precision", "5%")
    assert len(trials) == 2
    assert got["iops"] is not None and 0.05 < got["iops"] < 0.1   # 12.7 x 10 / 2 / 1005
    assert got["method"] == "between runs, t with 1 df"
    assert got["unbatched"] == "few samples" and not got["reached"]


def test_repetitions_that_disagree_stop_before_the_maximum_and_say_what_would_reach_it(
        tmp_path, fake_fio_env):
    """Each run steady to ±0.3 %, the second 10 % above the first: the between-run spread alone
    puts ±2 % out of reach in three repetitions, so the second stops at its minimum and the
    third is skipped; the outcome says so, with the repetitions and time the target needs."""
    doc, trials, got = _run(tmp_path, fake_fio_env, [_noisy(1000.0), _noisy(1100.0, seed=2)])
    assert len(trials) == 2   # the third repetition was not run
    assert trials[1]["stopped_by"] == "precision"
    assert trials[1]["precision"]["stopped"] == "out of reach"
    assert trials[1]["measurement"]["read"]["runtime_ms"] / 1000 <= 3.8   # ramp + min 2 s (max: 5 s)
    assert got["out_of_reach"] and not got["reached"] and got["iops"] > 0.2
    assert got["needed_reps"] > 3 and got["drift"] > 0.05
    said = Precision.from_json(got).text()
    assert "target ±2 %: not reached, out of reach by max_time" in said
    assert "would reach it" in said and "beyond their own noise" in said
    out = tmp_path / "export"
    exported = run_cli("export", doc["run_dir"], "--out", str(out), env=fake_fio_env)
    assert exported.returncode == 0, exported.stderr
    report = (out / "report.md").read_text()
    assert "queue-depth RND4K Q1T1 read (2 repetitions): ±" in report   # its Precision section
    assert "1 stopped early as out of reach" in report
    assert "planned trials ran" not in report   # the skipped repetition is by design, no caveat


def test_agreeing_repetitions_are_not_stopped_as_out_of_reach(tmp_path, fake_fio_env):
    """A steady series whose runs agree (the throttle's case) is reached at the minimum, never
    given up: the futility rule reads the spread optimistically."""
    doc, trials, got = _run(tmp_path, fake_fio_env, [_noisy(1000.0), _noisy(1001.0, seed=2)])
    assert len(trials) == 2 and got["reached"] and not got.get("out_of_reach")
    assert all(t["precision"]["stopped"] == "target" for t in trials)


def test_an_autocorrelated_repetition_is_not_judged_out_of_reach_early(tmp_path, fake_fio_env):
    """Blocks of 6 intervals at -4 % and +4 %, the second run's in the opposite phase: at its
    minimum its mean so far is far from the first run's, but its own samples give no batch
    means, so that spread may be noise a longer run removes: no verdict until it has run long."""
    blocks = [1000.0 * (1.04 if (i // 6) % 2 else 0.96) for i in range(100)]
    shifted = [1000.0 * (0.96 if (i // 6) % 2 else 1.04) for i in range(100)]
    doc, trials, got = _run(tmp_path, fake_fio_env, [blocks, shifted])
    assert trials[1]["precision"]["stopped"] != "out of reach" or \
        trials[1]["measurement"]["read"]["runtime_ms"] / 1000 > 3.6
    assert all(t["measurement"]["read"]["runtime_ms"] > 3600 for t in trials)
