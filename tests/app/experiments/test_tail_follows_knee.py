"""One knee story: tail-latency measures at a mid depth and the knee the queue-depth sweep of
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


def test_tail_latency_takes_a_mid_depth_and_the_knee_of_the_sweep():
    """A lab report's pair: the first depth reaching half the peak IOPS (QD8: 80,000 of
    150,000) and the knee (QD32); not the knee and the peak, which says little about how the
    tail grows as the queue fills."""
    tail = CATALOG["tail-latency"]()
    followed, note = tail.follow([_sweep()])
    assert followed.queue_depths == (8, 32)
    # the rule is said once, with the sweep's findings; this note refers to it
    assert note.startswith("Depths from the queue-depth sweep of this run (its knee, by the rule "
                           "its findings state): ")
    assert "a mid depth, QD8 (the first depth reaching half the peak IOPS), and the knee, QD32" in note
    assert note.endswith("not the presets QD8/QD32.")
    assert [w.iodepth for w in followed.workloads()] == [8, 32]


def test_tail_latency_keeps_its_depths_when_the_sweep_is_not_comparable_or_they_are_set():
    tail = CATALOG["tail-latency"]
    assert tail().follow([_sweep("randwrite")]) is None          # another access pattern
    assert tail(queue_depths=(4, 64)).follow([_sweep()]) is None  # set by the user
    assert tail(depths_from="preset").follow([_sweep()]) is None
    assert tail().follow([]) is None
    # a sweep that peaks at its knee (QD2): QD1 already reaches half the peak
    flat = [(1, 10e3, 100), (2, 19e3, 105), (4, 18.5e3, 200), (8, 18e3, 420)]
    followed, note = tail().follow([_sweep(points=flat)])
    assert followed.queue_depths == (1, 2) and "a mid depth, QD1" in note
    # a knee at the sweep's first level: it and two doublings past it
    first = [(1, 30e3, 100), (2, 30.5e3, 200), (4, 30e3, 400)]
    followed, note = tail().follow([_sweep(points=first)])
    assert followed.queue_depths == (1, 4) and "two doublings away" in note
    # still climbing at the deepest level: no knee, so the mid depth and the deepest depth
    climbing = [(1, 10e3, 100), (2, 19e3, 105), (4, 36e3, 111), (8, 40e3, 200)]
    followed, note = tail().follow([_sweep(points=climbing)])
    assert followed.queue_depths == (4, 8) and "no knee within it" in note


def test_a_plan_says_the_depths_will_follow_the_knee(tmp_path):
    qd, tail = CATALOG["queue-depth"](), CATALOG["tail-latency"]()
    assert "replaces them by a mid depth and the knee" in tail.follow_note([qd])
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
    # at the knee (or, with no knee in so short a sweep, at its deepest level) and a mid depth
    assert knee["knee_level"] in depths
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
    # the report states the knee rule once (in the sweep's section) and says why the depths both
    # experiments measured show two p99s
    export = run_cli("export", done.stdout.strip().splitlines()[-1], "--out", str(tmp_path / "x"))
    assert export.returncode == 0, export.stderr
    report = (tmp_path / "x" / "report.md").read_text()
    assert report.count("the knee is the smallest queue depth") == 1
    tail_section = report[report.index(". Tail latency\n"):]
    assert "also measured by the queue-depth sweep, in trials of its own" in tail_section
    assert "not tested against the noise" in tail_section  # one repetition


@pytest.mark.skipif(not shutil.which("fio"), reason="fio is not installed")
def test_alone_tail_latency_says_its_depths_are_presets(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    done = run_cli("run", "tail-latency", "--target", str(target), *TINY, "--set",
                   "repetitions=1", "--set", "warmup=false", "--out", str(tmp_path / "runs"))
    assert done.returncode == 0, done.stderr
    assert "Depths QD8/QD32 are set in advance (presets or as given)" in done.stdout


def test_a_depth_both_experiments_measured_says_why_its_numbers_differ():
    """The full-lab run's sweep rows at QD16/QD64 stand in for a tail-latency part at those
    depths: the sentence names both p99s, the I/Os behind them and why they differ."""
    from dataclasses import replace

    from app.experiments.same_workloads import also_swept
    from app.results.load import load_results

    from conftest import FIXTURES
    results = load_results(FIXTURES / "runs" / "full-lab-20261126" / "run").results
    sweep = results.part("queue-depth")
    rows = tuple(r for r in sweep.workloads if r.outstanding in (16, 64))
    tail = replace(results.part("tail-latency"), workloads=rows, trials=sweep.trials)
    said = also_swept(tail, replace(results, parts=(sweep, tail)), "total")
    assert said.startswith("QD16 and QD64 were also measured by the queue-depth sweep, in "
                           "trials of its own (the sweep's value / this section's: QD16, at least "
                           "57,159 / 57,159 I/Os per trial: p99 2,850 ± 900 / 2,850 ± 900 µs")
    assert "total latency; p99 the mean ± std of each repetition's own p99" in said
    assert said.endswith("Welch's t-test at 5 % separates no p99 of the two).")
    assert also_swept(results.part("tail-latency"), results, "total") is None  # QD8/QD32: none


def test_a_note_written_before_the_rule_was_said_once_refers_to_it():
    from dataclasses import replace

    from app.experiments.tail_latency import depths_sentence
    from app.results.load import load_results

    from conftest import FIXTURES
    results = load_results(FIXTURES / "runs" / "full-lab-20261126" / "run").results
    part = results.part("tail-latency")
    old = ("Depths from the queue-depth sweep of this run (the knee is the smallest queue depth "
           "from which every further doubling of the outstanding I/O adds less than 10 % more "
           "IOPS): the knee, QD16, and saturation at the peak, QD64; not the presets QD8/QD32.")
    part = replace(part, entry=replace(part.entry, followed=old))
    assert depths_sentence(part, results) == (
        "Depths from the queue-depth sweep of this run (its knee, by the rule its findings "
        "state): the knee, QD16, and saturation at the peak, QD64; not the presets QD8/QD32.")
