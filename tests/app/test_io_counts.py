"""How many I/Os a percentile rests on, from the committed run folder (made by the
real fio: 1 s trials, so its p99.9 and p99.99 rest on a handful of I/Os)."""
from __future__ import annotations

import pytest

from app.model.trial import TrialResult
from app.results.table import to_csv, to_markdown
from app.stats import io_counts
from app.store.run_folder import load_run

from conftest import FIXTURES, results_of

(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]


@pytest.fixture(scope="module")
def run():
    return results_of(load_run(RUN), RUN)


def _trial(read: dict, **more) -> TrialResult:
    return TrialResult.from_json({"index": 0, "experiment": "x", "status": "done",
                                  "workload": {"bs_bytes": 4096}, "measurement": {"read": read},
                                  **more})


def test_a_trial_counts_its_ios_from_bytes_or_from_iops_and_runtime():
    assert _trial({"io_bytes": 4096 * 31005, "iops": 1.0, "runtime_ms": 1}).ios("read") == 31005
    assert _trial({"iops": 52807.19, "runtime_ms": 1001}).ios("read") == 52860
    trial = _trial({"iops": 100.0}, runtime_s=2.0)
    assert trial.ios("read") == 200
    assert trial.ios("write") is None


def test_beyond_and_the_sentence():
    assert io_counts.beyond("p99.99", 31005) == pytest.approx(3.1005)
    assert io_counts.beyond("p50", 10) == pytest.approx(5)
    assert io_counts.rests_on("p99.99", 31005) == "p99.99 rests on 3 I/Os of 31,005"
    assert io_counts.rests_on("p99.9", 2000) == "p99.9 rests on 2 I/Os of 2,000"
    assert io_counts.rests_on("p99.9", 1000) == "p99.9 rests on 1 I/O of 1,000"
    assert "less than one I/O of 5,000" in io_counts.rests_on("p99.99", 5000)
    # a count is whole: 9.792 I/Os beyond p99.9 of 9,792 are 9, never rounded up to the 10
    # that would clear the 'fewer than 10: too few' rule the same sentence applies
    assert io_counts.whole_beyond("p99.9", 9792) == 9
    assert io_counts.rests_on("p99.9", 9792) == "p99.9 rests on 9 I/Os of 9,792"
    assert io_counts.whole_beyond("p99.9", 1000) == 1  # 0.1 % of 1000 is 1, not 0.99999


def test_high_percentiles_of_short_trials_are_flagged(run):
    tail, zero = run.part("tail-latency"), run.part("zero-queue")
    assert [io_counts.workload_ios(tail, r) for r in tail.workloads] == [[31005, 31470],
                                                                        [52860, 51510]]
    warnings = io_counts.thin_warnings(tail, ("p99", "p99.9", "p99.99"))
    # not 'indicative' any more: a percentile on too few I/Os is not stated, and the sentence
    # says what runtime would state it, at the rate of the weakest repetition (31,005 I/Os)
    assert warnings[0] == ("RND4K Q8T1 read: p99.99 rests on 3 I/Os of 31,005 (the trial with "
                           "the fewest I/Os): too few I/Os to state, shown as 'too few I/Os (3)'; "
                           "p99.99 needs about 100,000 I/Os per trial: a runtime of about 3.3 s "
                           "at this IOPS (30,974).")
    assert len(warnings) == 2
    # p99.9 of the zero-queue runs rests on 2..6 I/Os: flagged, p99 (23+) is not
    zq = io_counts.thin_warnings(zero, ("p99", "p99.9"))
    assert len(zq) == 4 and all(": p99.9 rests on" in w for w in zq)
    assert not io_counts.thin_warnings(zero, ("p95", "p99"))


def test_the_io_count_table(run):
    from app.experiments.registry import CATALOG
    table = io_counts.io_count_table(CATALOG["tail-latency"], run.part("tail-latency"), run,
                                     "tail-latency-io-counts", "t", ("p99.9", "p99.99"))
    csv = to_csv(table).splitlines()
    assert csv[0] == ("rw,bs_bytes,iodepth,numjobs,rwmixread,ios_per_trial_mean,ios_per_trial_std,"
                      "ios_min,ios_beyond_p99.9,ios_beyond_p99.99,n")
    # I/O counts are whole; the mean over the repetitions says it is a mean (_mean, "Mean")
    assert csv[1].split(",")[5:] == ["31237.500", "328.805", "31005", "31", "3", "2"]
    md = to_markdown(table)
    assert "| Workload | Mean I/Os per trial | Fewest I/Os in a trial |" in md
    assert "| RND4K Q8T1 read | 31,238 ± 329 | 31,005 | 31 | 3 | 2 |" in md
    assert ("Fewer than 10 I/Os beyond a percentile: it is too few to state, and the tables "
            "show 'too few I/Os (n)', n the I/Os beyond it") in md
