"""One knee story: tail-latency measures at the knee and saturation point the queue-depth sweep of
the same run found (and says so); without that sweep it says its depths are presets. The
in-run case uses the real fio with tiny runtimes."""
from __future__ import annotations

import shutil

import pytest

from app.experiments import CATALOG
from app.model.experiment_entry import ExperimentEntry
from app.model.summary import WorkloadSummary
from app.results.run_results import ExperimentResults

from conftest import TINY, run_cli, run_json

KNEE_SWEEP = [(1, 13e3, 75), (2, 25e3, 78), (4, 47e3, 83), (8, 80e3, 99), (16, 110e3, 145),
              (32, 125e3, 255), (64, 132e3, 485), (128, 140e3, 915), (256, 150e3, 1700)]


def _sweep(rw: str = "randread", points=KNEE_SWEEP) -> ExperimentResults:
    from tests.ui.render.synthetic import row
    rows = tuple(WorkloadSummary.from_json(row(rw, 4096, q, iops, {"mean": lat}))
                 for q, iops, lat in points)
    return ExperimentResults("queue-depth", ExperimentEntry.of({"id": "queue-depth"}), rows, (),
                             CATALOG["queue-depth"].findings(rows, (), ()))


def test_tail_latency_takes_the_knee_and_the_peak_of_the_sweep():
    tail = CATALOG["tail-latency"]()
    followed, note = tail.follow([_sweep()])
    assert followed.queue_depths == (32, 256)
    assert note.startswith("Depths from the queue-depth sweep of this run (the knee is the "
                           "smallest queue depth from which every further")
    assert "the knee, QD32, and saturation at the peak, QD256" in note
    assert note.endswith("not the presets QD8/QD32.")
    assert [w.iodepth for w in followed.workloads()] == [32, 256]


def test_tail_latency_keeps_its_depths_when_the_sweep_is_not_comparable_or_they_are_set():
    tail = CATALOG["tail-latency"]
    assert tail().follow([_sweep("randwrite")]) is None          # another access pattern
    assert tail(queue_depths=(4, 64)).follow([_sweep()]) is None  # set by the user
    assert tail(depths_from="preset").follow([_sweep()]) is None
    assert tail().follow([]) is None
    # a sweep that peaks at its knee: saturation two doublings past it
    flat = [(1, 10e3, 100), (2, 19e3, 105), (4, 18.5e3, 200), (8, 18e3, 420)]
    followed, note = tail().follow([_sweep(points=flat)])
    assert followed.queue_depths == (2, 8) and "two doublings away" in note
    # still climbing at the deepest level: no knee, so 90 % of the peak and the deepest depth
    climbing = [(1, 10e3, 100), (2, 19e3, 105), (4, 36e3, 111), (8, 40e3, 200)]
    followed, note = tail().follow([_sweep(points=climbing)])
    assert followed.queue_depths == (4, 8) and "no knee within it" in note


def test_a_plan_says_the_depths_will_follow_the_knee(tmp_path):
    qd, tail = CATALOG["queue-depth"](), CATALOG["tail-latency"]()
    assert "replaces them by the knee" in tail.follow_note([qd])
    assert tail.follow_note([]) is None and tail.follow_note([CATALOG["queue-depth"](rw="randwrite")]) is None
    (tmp_path / "t").mkdir()
    done = run_cli("run", "queue-depth", "tail-latency", "--target", str(tmp_path / "t"),
                   "--dry-run")
    assert done.returncode == 0 and "Note: tail-latency: the depths listed are its presets" in done.stdout


@pytest.mark.skipif(not shutil.which("fio"), reason="fio is not installed")
def test_in_one_run_tail_latency_measures_at_the_measured_knee(tmp_path):
    target, runs = tmp_path / "target", tmp_path / "runs"
    target.mkdir()
    done = run_cli("run", "queue-depth", "tail-latency", "-v", "--target", str(target), *TINY,
                   "--set", "repetitions=1", "--set", "warmup=false", "--out", str(runs),
                   "--set", "queue-depth.queue_depths=1,4,16")
    assert done.returncode == 0, done.stderr
    record = run_json(done.stdout.strip().splitlines()[-1])
    knee = record["summary"]["queue-depth"]["findings"]["knee"]
    tail = next(e for e in record["experiments"] if e["id"] == "tail-latency")
    depths = tail["params"]["queue_depths"]
    # at the knee (or, with no knee in so short a sweep, at its deepest level) and another depth
    assert knee["knee_level"] == depths[0 if knee["reached"] else 1]
    assert len(depths) == 2 and depths[1] != depths[0]
    ran = sorted({t["workload"]["iodepth"] for t in record["trials"]
                  if t["experiment"] == "tail-latency"})
    assert ran == sorted(depths)
    planned = sorted({t["workload"]["iodepth"] for t in record["planned_trials"]
                      if t["experiment"] == "tail-latency"})
    assert planned == sorted(depths) and len(record["trials"]) == len(record["planned_trials"])
    assert tail["followed"].startswith("Depths from the queue-depth sweep of this run")
    assert tail["followed"] in done.stdout   # the findings say so
    assert "tail-latency: Depths from the queue-depth sweep" in done.stderr


@pytest.mark.skipif(not shutil.which("fio"), reason="fio is not installed")
def test_alone_tail_latency_says_its_depths_are_presets(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    done = run_cli("run", "tail-latency", "--target", str(target), *TINY, "--set",
                   "repetitions=1", "--set", "warmup=false", "--out", str(tmp_path / "runs"))
    assert done.returncode == 0, done.stderr
    assert "Depths QD8/QD32 are set in advance (presets or as given)" in done.stdout
