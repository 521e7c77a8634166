"""The generated interpretation reads this run's numbers and says what they show: a mechanism
where its signature is there, and the opposite, or "within the noise", where it is not. The
genuine run of every experiment (tests/fixtures/runs/full-lab-20261126) is read, then typed
copies of its results whose numbers contradict each mechanism (no knee, no asymmetry, a cache
drop, two experiments disagreeing)."""
import re
from dataclasses import replace

import pytest

from app.experiments.registry import results_for
from app.experiments.slc_cache import CacheFindings, TrialExhaustion
from app.model.summary import Stat
from app.report.interpretation.asymmetry import asymmetry_reading
from app.report.interpretation.by_experiment import interpretation
from app.report.interpretation.cache import cache_reading
from app.report.interpretation.discussion import discussion, same_workloads
from app.report.interpretation.knee import knee_reading
from app.report.interpretation.tails import tail_reading
from app.results.load import load_results
from app.stats.derived import CacheExhaustion

from conftest import FIXTURES

FULL = FIXTURES / "runs" / "full-lab-20261126" / "run"


@pytest.fixture(scope="module")
def results():
    return load_results(FULL).results


def _stat(mean: float, std: float, n: int = 3) -> Stat:
    return Stat(mean, std, n)


def _with(results, eid: str, change) -> object:
    """A copy of ``results`` whose part ``eid`` has rows changed by ``change(row) -> row``,
    its findings recomputed from the changed rows."""
    part = results.part(eid)
    rows = tuple(change(r) for r in part.workloads)
    cls = results_for(eid)
    found = cls.findings(rows, part.trials, results.samples)
    new = replace(part, workloads=rows, findings=found)
    return replace(results, parts=tuple(new if p.id == eid else p for p in results.parts))


def _side(row, direction: str, **stats: Stat):
    side = row.side(direction)
    lat = dict(side.lat_us)
    lat.update({k: v for k, v in stats.items() if k != "iops"})
    return replace(side, lat_us=lat, **({"iops": stats["iops"]} if "iops" in stats else {}))


def test_every_interpretation_sentence_cites_a_number_of_this_run(results):
    said = [s for p in results.parts for s in interpretation(p.id, results)]
    said += discussion(results, None)
    assert len(said) >= 12
    for sentence in said:
        assert re.search(r"\d", sentence), sentence
    # and each number is this run's: the knee's IOPS, the QD1 latency
    text = " ".join(said)
    assert "58,700" in text and "71.7" in text


def test_the_genuine_run_reads_as_its_numbers_show(results):
    qd1 = asymmetry_reading(results, "zero-queue")[0]
    assert "a write takes 1.34× the time of a read" in qd1 and "program time" in qd1
    knee = " ".join(knee_reading(results))
    assert "Little's Law predicts a mean latency of QD / IOPS_knee = 64 / 58,700 = 1,090 µs" in knee
    assert "measured 900 ± 54 µs (−18 %): the prediction holds" in knee
    assert "within the noise" in tail_reading(results)[0]     # 2 repetitions, wide p99s
    assert cache_reading(results)[0].startswith("No drop in 7.29 GB")


def test_no_asymmetry_when_reads_and_writes_are_within_the_noise(results):
    def same(row):
        if row.workload.rw == "randwrite":
            return replace(row, write=_side(row, "write", mean=_stat(72.0, 4.0)))
        if row.workload.rw == "randread":
            return replace(row, read=_side(row, "read", mean=_stat(71.7, 3.6)))
        return row
    text = asymmetry_reading(_with(results, "zero-queue", same), "zero-queue")[0]
    assert "within the noise" in text and "no read/write asymmetry shows" in text
    assert "program time" in text and "takes 1." not in text


def test_a_write_faster_than_a_read_is_write_buffering(results):
    def fast(row):
        if row.workload.rw == "randwrite":
            return replace(row, write=_side(row, "write", mean=_stat(20.0, 0.5)))
        if row.workload.rw == "randread":
            return replace(row, read=_side(row, "read", mean=_stat(80.0, 1.0)))
        return row
    text = asymmetry_reading(_with(results, "zero-queue", fast), "zero-queue")[0]
    assert "a read takes 4.00× the time of a write" in text and "write buffering" in text


def test_no_knee_is_said_and_no_prediction_is_made(results):
    def rising(row):
        iops = 10_000.0 * row.outstanding
        return replace(row, total_iops=_stat(iops, iops / 100),
                       read=_side(row, "read", iops=_stat(iops, iops / 100), mean=_stat(100.0, 1.0)))
    changed = _with(results, "queue-depth", rising)
    text = " ".join(knee_reading(changed))
    assert "IOPS still grew at QD64" in text and "no latency past a knee can be predicted" in text
    assert "Little's Law predicts" not in text
    checks = " ".join(discussion(changed, None))
    assert "Latency past the knee" not in checks
    assert "With no knee, the IOPS of the first depth reaching 90 % of the peak" in checks


def test_a_tail_that_grows_faster_than_the_median_is_said(results):
    def grow(row):
        deep = row.outstanding > 8
        return replace(row, read=_side(row, "read", p50=_stat(200.0 * (1.2 if deep else 1), 2.0),
                                       p99=_stat(1000.0 * (3 if deep else 1), 10.0)))
    text = tail_reading(_with(results, "tail-latency", grow))[0]
    assert "(1.20×)" in text and "(3.00×)" in text and "the tail grows faster than the median" in text


def test_a_cache_drop_gives_its_size_and_post_cache_rate(results):
    part = results.part("slc-cache")
    drop = CacheExhaustion(True, 12.0, 24.0, 3000.0, 900.0, 3000.0, 40.0, 1500.0, 2.0, "drop")
    found = CacheFindings(tuple(TrialExhaustion(t, r, drop) for t, r in ((1, 1), (2, 2))))
    changed = replace(results, parts=tuple(replace(p, findings=found) if p is part else p
                                           for p in results.parts))
    text = cache_reading(changed)[0]
    assert text.startswith("The write ran at 3,000 ± ") and " for 24.0 ± " in text
    assert "then fell to 900 ± " in text and "(30% of the cached rate)" in text
    assert "post-cache rate" in text and "No drop" not in text


def test_two_experiments_disagreeing_is_said_with_how_much(results):
    def slower(row):
        if row.label == "RND4K Q1T1 read":
            return replace(row, total_iops=_stat(6_900.0, 50.0, 2))
        return row
    text = " ".join(same_workloads(_with(results, "queue-depth", slower)))
    assert ("RND4K Q1T1 read was measured by zero-queue (13,800 IOPS) and by queue-depth (6,900 "
            "IOPS): they disagree by −50 %, beyond their repetitions' spread") in text
    agree = " ".join(same_workloads(results))
    assert "SEQ1M Q8T1 read was measured by block-size (1,030 IOPS) and by quick (1,000 IOPS): they agree within the noise (−3 %)" in agree


def _first_step(results, kept: float) -> str:
    """The block-size reading of a sweep whose first step grows the block 4× (4 KiB to 16 KiB),
    its 16 KiB IOPS ``kept`` × the 4 KiB ones."""
    from app.report.interpretation.throughput import block_size_reading
    part = results.part("block-size")
    rows = [r for r in part.workloads if r.workload.bs_bytes != 8192 and r.workload.random]
    small = next(r for r in rows if r.workload.bs_bytes == 4096)
    rows = [replace(r, total_iops=_stat(small.total_iops.mean * kept, 100.0))
            if r.workload.bs_bytes == 16384 else r for r in rows]
    changed = replace(results, parts=tuple(replace(p, workloads=tuple(rows))
                                           if p.id == "block-size" else p for p in results.parts))
    return block_size_reading(changed)[0]


def test_a_first_step_of_4x_is_read_against_a_quarter_not_a_half(results):
    """73 % kept over a 4× step is mostly a per-command cost (a bandwidth limit alone keeps 25 %);
    30 % is bytes; 50 % is both: the reading uses the sweep's own step, not a doubling."""
    assert "carries 4× the bytes, so small blocks are limited by a per-command cost" in \
        _first_step(results, 0.73)
    assert "grows 4× from 4 KiB to 16 KiB" in _first_step(results, 0.30)
    assert "near the 25% a bandwidth limit alone gives" in _first_step(results, 0.30)
    assert "both shape small-block IOPS" in _first_step(results, 0.50)
