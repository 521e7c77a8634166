"""The live splitter on real fio output: cumulative documents -> per-interval samples."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from app.engines.fio import trial_argv
from app.engines.fio.live import DocumentStream, IntervalSplitter
from app.engines.fio.result import parse_fio_text
from app.experiments.plan import Trial
from app.model.workload import Workload

pytestmark = pytest.mark.skipif(not shutil.which("fio"), reason="fio is not installed")


def _run_fio(tmp_path, runtime_s=2.0, ramp_s=0.0, interval_s=0.5, workload=None) -> str:
    trial = Trial(0, "test", workload or Workload("randread", 4096, 4), 1, False, runtime_s, ramp_s,
                  32 << 20, True, interval_s)
    argv = trial_argv(shutil.which("fio"), trial, tmp_path / "f.dat", tmp_path / "stop")
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _split(text: str, chunk: int) -> list:
    stream, splitter, out = DocumentStream(), IntervalSplitter(), []
    for i in range(0, len(text), chunk):
        for doc in stream.feed(text[i:i + chunk]):
            if (interval := splitter.update(doc)) is not None:
                out.append(interval)
    return out


def test_intervals_are_differences_not_running_averages(tmp_path):
    text = _run_fio(tmp_path)
    docs = DocumentStream().feed(text)
    assert len(docs) >= 4  # interim documents every 0.5 s plus the final one
    intervals = _split(text, chunk=777)  # arbitrary chunking must not matter
    assert intervals == _split(text, chunk=len(text))
    assert len(intervals) >= 3
    final = parse_fio_text(text)[0]["read"]
    # the intervals' bytes add up to the final io_bytes (each interval = Δbytes)
    total_mb = sum(i.read_MBps * i.duration_s for i in intervals)
    assert total_mb * 1e6 == pytest.approx(final["io_bytes"], rel=0.02)
    assert all(i.write_iops == 0 and i.write_lat_us is None for i in intervals)
    assert all(i.read_lat_us and i.read_lat_us > 0 for i in intervals)
    # the run's mean latency is the I/O-weighted mean of the interval means
    weighted = sum(i.read_lat_us * i.read_iops * i.duration_s for i in intervals)
    weight = sum(i.read_iops * i.duration_s for i in intervals)
    assert weighted / weight == pytest.approx(final["lat_us"]["mean"], rel=0.02)


def test_ramp_time_reset_starts_a_new_baseline(tmp_path):
    text = _run_fio(tmp_path, runtime_s=1.5, ramp_s=1.0, interval_s=0.25)
    intervals = _split(text, chunk=4096)
    final = parse_fio_text(text)[0]["read"]
    after_reset = [i for i in intervals if i.read_lat_us is not None]
    assert after_reset and all(i.read_MBps >= 0 for i in intervals)
    # no interval can claim more bytes than the whole post-ramp result plus the ramp itself
    assert max(i.read_MBps for i in intervals) < 100 * final["MBps"] + 1


def test_text_between_documents_and_counter_resets_are_tolerated():
    def doc(io, ios, runtime, mean):
        side = {"io_bytes": io, "total_ios": ios, "runtime": runtime,
                "lat_ns": {"mean": mean, "N": ios}}
        return json.dumps({"timestamp_ms": 1000 + runtime, "jobs": [{"read": side, "write": {}}]}, indent=1)

    text = ("note: both iodepth >= 1 and synchronous I/O engine are selected\n"
            + doc(1_000_000, 100, 1000, 50_000) + "\n"
            + doc(3_000_000, 300, 2000, 60_000) + "\nfio: {not json} text\n"
            + doc(500_000, 50, 500, 40_000) + "\n"        # reset (ramp end): new baseline
            + doc(1_500_000, 150, 1500, 45_000) + "\n"
            + doc(1_500_100, 150, 1550, 45_000) + "\n")   # final doc 50 ms later: dropped
    intervals = _split(text, chunk=50)
    assert [round(i.read_MBps, 3) for i in intervals] == [1.0, 2.0, 1.0]
    assert intervals[1].read_iops == pytest.approx(200.0)
    # (60000*300 - 50000*100) / 200 ns = 65 µs
    assert intervals[1].read_lat_us == pytest.approx(65.0)
    assert intervals[2].read_lat_us == pytest.approx((45_000 * 150 - 40_000 * 50) / 100 / 1000)


def test_iops_counts_completed_ios_while_the_queue_drains():
    """At the end (or after a graceful stop) fio issues nothing while its queue completes:
    total_ios stands still, the bytes and the latency's N go on; IOPS follows the completions."""
    def doc(ios_issued, done, runtime):
        side = {"io_bytes": done * 4096, "total_ios": ios_issued, "runtime": runtime,
                "lat_ns": {"mean": 2e9, "N": done}}
        return json.dumps({"jobs": [{"read": side, "write": {}}]}, indent=1)

    text = "\n".join([doc(376, 120, 1000), doc(496, 240, 2000), doc(496, 360, 3000)]) + "\n"
    intervals = _split(text, chunk=len(text))
    assert [round(i.read_iops) for i in intervals] == [120, 120, 120]


def test_a_bin_key_is_counted_in_the_bucket_a_histogram_counts_it_in():
    """The live path maps fio's bin keys to buckets with fio's own rule instead of a numpy
    Histogram per new key (benchmarks/gui_overhead.py: the worker's first documents); every
    bucket's midpoint and edges, and a few odd latencies, land where Histogram.from_bins puts them."""
    from app.engines.fio.live import _bucket_of
    from app.stats.histogram import PLAT_NR, Histogram, bucket_bounds, idx_to_val
    values = {0, 1, 127, 128, 129, 10**12, 2**62}
    for i in range(PLAT_NR):
        low, high = bucket_bounds(i)
        values |= {idx_to_val(i), low, high - 1}
    for v in sorted(values):
        assert _bucket_of(str(v)) == Histogram.from_bins({str(v): 1}).counts[0][0], v


@pytest.mark.parametrize("key", ["-5", "abc", "1.5", ""])
def test_a_damaged_bin_key_in_a_live_document_is_one_valueerror_line(key):
    doc = {"jobs": [{"read": {"io_bytes": 4096, "total_ios": 1, "runtime": 1000,
                              "clat_ns": {"N": 1, "mean": 100.0, "bins": {key: 1}}}}]}
    with pytest.raises(ValueError, match="histogram .* damaged") as caught:
        IntervalSplitter().update(doc)
    assert "\n" not in str(caught.value)


def _doc(runtime_ms: int, count, io_bytes=4096, read=None) -> dict:
    side = {"io_bytes": io_bytes, "total_ios": 1, "runtime": runtime_ms,
            "clat_ns": {"N": 1000, "mean": 100.0, "bins": {"100000": count}}}
    return {"jobs": [{"read": side if read is None else read}]}


@pytest.mark.parametrize("later", [_doc(2000, "2000"), _doc(2000, None), _doc(2000, 2000, "x"),
                                   _doc(2000, 2000, read=5), {"jobs": [3]}])
def test_a_damaged_value_in_a_live_document_is_one_valueerror_line(later):
    """Not a TypeError from deep inside: a count, a byte total or a direction that is not what
    fio writes is a damaged document, said in one line."""
    splitter = IntervalSplitter()
    splitter.update(_doc(1000, 1000))
    with pytest.raises(ValueError, match="damaged") as caught:
        splitter.update(later)
    assert "\n" not in str(caught.value)


def _p99_by_histogram(later: dict, earlier: dict) -> float | None:
    """The rule as Histogram states it: the interval's counts, then fio's percentile."""
    from app.stats.histogram import Histogram, enough_ios
    if not earlier.keys() <= later.keys():
        return None
    interval = sorted((i, c - earlier.get(i, 0)) for i, c in later.items() if c != earlier.get(i, 0))
    if any(c < 0 for _, c in interval) or not enough_ios(sum(c for _, c in interval), 99.0):
        return None
    return Histogram(interval).percentile(99.0) / 1000.0


def test_the_interval_p99_walked_from_the_top_is_fios_rule_from_the_bottom():
    """The live p99 reads only the slowest buckets (benchmarks/jsonplus_parse.py); on random
    cumulative histograms, empty intervals, single buckets, ties at the rank and buckets that
    went down, it gives what the whole interval histogram gives."""
    import random

    from app.engines.fio.live import _bucket_of, _interval_p99, _Totals
    from app.stats.histogram import idx_to_val
    rng = random.Random(7)
    cases = 0
    for _ in range(3000):
        buckets = rng.sample(range(1856), rng.choice([1, 2, 5, 40, 300]))
        earlier = {i: rng.choice([0, 1, 5, 90, 10**6]) for i in buckets if rng.random() < 0.7}
        later = {i: earlier.get(i, 0) + rng.choice([0, 0, 1, 3, 99, 900, 10**5]) for i in buckets}
        if rng.random() < 0.05 and earlier:   # a bucket went down: fio restarted the job
            later[next(iter(earlier))] = -1
        key = {i: str(idx_to_val(i)) for i in buckets}   # fio's bin keys: the midpoints
        now = _Totals(2.0, {}, {"read": {key[i]: c for i, c in later.items()}})
        prev = _Totals(1.0, {}, {"read": {key[i]: c for i, c in earlier.items()}})
        for i in buckets:
            _bucket_of(key[i])   # as _totals does for every new key
        assert _interval_p99(now, prev, "read") == _p99_by_histogram(later, earlier)
        cases += _p99_by_histogram(later, earlier) is not None
    assert cases > 500   # most draws have enough I/Os for a p99
