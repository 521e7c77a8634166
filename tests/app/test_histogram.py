"""fio's latency histogram (app/stats/histogram.py): bucket math exactly as fio's stat.c, percentiles
that equal the ones fio printed, pooling, interval differences and honest 95 % intervals."""
from __future__ import annotations

import json
import math
import random
import subprocess

import pytest

from app.engines.fio.result import parse_fio_text, split_documents
from app.model.measurement import Measurement
from app.results.summarize import pooled
from app.stats.histogram import (
    PLAT_NR,
    Histogram,
    bucket_bounds,
    enough_ios,
    idx_to_val,
    ios_needed,
    val_to_idx,
)

from conftest import FIXTURES, needs_fio

JSONPLUS = FIXTURES / "fio-local" / "fio-3.33-linux-libaio-randrw70-qd4-jsonplus-status.json"


def test_every_bucket_round_trips_and_buckets_tile_the_line():
    edge = 0
    for idx in range(PLAT_NR):
        low, high = bucket_bounds(idx)
        assert low == edge and low <= idx_to_val(idx) < high
        assert val_to_idx(idx_to_val(idx)) == idx == val_to_idx(low) == val_to_idx(high - 1)
        if idx >= 128:  # 64 buckets per power of two: at most 1/64 of the value wide
            assert (high - low) / low <= 1 / 64
        edge = high
    assert val_to_idx(10**15) == PLAT_NR - 1  # beyond the table: the last bucket


def _latency_objects(doc):
    for job in doc["jobs"]:
        for direction in ("read", "write"):
            for key in ("lat_ns", "clat_ns"):
                obj = job[direction].get(key) or {}
                if obj.get("bins"):
                    yield obj


def _check_against_fio(text: str) -> int:
    checked = 0
    for doc in split_documents(text):
        for obj in _latency_objects(doc):
            hist = Histogram.from_bins(obj["bins"])
            # a status document is read while fio counts: N and the bins may differ by the I/Os
            # completed meanwhile, a few, more on a loaded machine (seen: 4 of 2,670)
            slack = max(2, obj["N"] // 200)
            assert abs(hist.ios - obj["N"]) <= slack
            for p, value in obj["percentile"].items():
                mine = hist.percentile(float(p))
                if hist.ios == obj["N"]:
                    assert mine == value  # fio's rule, bucket for bucket
                else:  # fio ranked by its N, which the bins trail or lead by those I/Os
                    rank = float(p) / 100 * obj["N"]
                    assert hist.at_rank(rank - slack) <= value <= hist.at_rank(rank + slack)
                checked += 1
    return checked


def test_histogram_percentiles_are_fios_own_on_the_json_plus_fixture():
    assert _check_against_fio(JSONPLUS.read_text()) >= 5 * 4 * 5  # 5 docs x 2 dirs x 2 kinds


def test_the_parser_keeps_the_histogram_of_the_latency_it_reports():
    m = Measurement.from_json(parse_fio_text(JSONPLUS.read_text())[0])
    for _, side in m.sides():
        assert side.lat_kind == "total" and side.hist is not None
        assert side.hist.percentile(99) / 1000 == pytest.approx(side.lat("p99"))
        assert side.hist.ios == pytest.approx(side.iops * side.runtime_ms / 1000, rel=0.02)
    assert Measurement.from_json(m.to_json()) == m


def test_interval_histograms_add_up_to_the_final_one():
    docs = split_documents(JSONPLUS.read_text())
    for direction in ("read", "write"):
        hists = [Histogram.from_bins(d["jobs"][0][direction]["lat_ns"]["bins"]) for d in docs]
        intervals = [later - earlier for earlier, later in zip(hists, hists[1:])]
        assert all(i.ios > 0 for i in intervals)
        assert sum(intervals, hists[0]) == hists[-1]
    assert (hists[0] - hists[-1]) == Histogram()  # counters going back: no interval, not negative


def test_merging_repetitions_is_the_histogram_of_all_their_ios():
    rng = random.Random(4)
    a = [int(rng.lognormvariate(11, 0.6)) for _ in range(3000)]
    b = [int(rng.lognormvariate(11.3, 0.4)) for _ in range(5000)]
    ha, hb = (Histogram.from_bins([(v, 1) for v in xs]) for xs in (a, b))
    both = Histogram.from_bins([(v, 1) for v in a + b])
    assert ha + hb == both and both.ios == 8000
    for p in (50, 90, 99, 99.9):
        assert (ha + hb).percentile(p) == both.percentile(p)
        exact = sorted(a + b)[math.ceil(p / 100 * 8000) - 1]
        assert val_to_idx(exact) == val_to_idx(int(both.percentile(p)))  # the right bucket


def test_the_95_percent_interval_covers_the_true_percentile_about_95_percent_of_the_time():
    """1,000 simulated runs of 2,000 I/Os from a known distribution (fixed seed)."""
    rng = random.Random(2026)
    mu, sigma, p = 11.0, 0.5, 99.0
    true = math.exp(mu + sigma * 2.3263478740408408)  # lognormal p99
    covered = 0
    for _ in range(1000):
        hist = Histogram.from_bins([(int(rng.lognormvariate(mu, sigma)), 1) for _ in range(2000)])
        low, high = hist.ci95(p)
        covered += low <= true <= high
    assert 0.93 <= covered / 1000 <= 0.995, covered


def test_sample_size_honesty():
    assert ios_needed(99.99) == 100_000 and ios_needed(99) == 1000 and ios_needed(50) == 20
    assert enough_ios(100_000, 99.99) and not enough_ios(99_999, 99.99)


def test_pooled_percentiles_say_what_they_rest_on():
    m = Measurement.from_json(parse_fio_text(JSONPLUS.read_text())[0])
    got = pooled([m.read, m.read])  # the same repetition twice: same percentiles, twice the I/Os
    assert got.ios == 2 * m.read.hist.ios
    assert got.values["p99"] == pytest.approx(m.read.lat("p99"))
    low, high = got.ci95["p99"]
    assert low <= got.values["p99"] <= high
    assert "p99.99" in got.too_few and "p50" not in got.too_few  # ~10k I/Os: p99.99 not claimed
    assert pooled([m.read, Measurement.from_json({**m.to_json(), "read": {**m.to_json()["read"],
                                                   "hist_ns": None}}).read]) is None


@needs_fio
def test_fresh_fio_json_plus_agrees_with_its_own_percentiles(tmp_path):
    argv = ["fio", "--name=t", f"--filename={tmp_path / 'f.dat'}", "--size=8M", "--rw=randread",
            "--bs=4k", "--runtime=1", "--time_based", "--lat_percentiles=1",
            "--percentile_list=50:90:99:99.9", "--output-format=json+", "--status-interval=300ms"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert _check_against_fio(done.stdout) >= 8
    assert json.loads(json.dumps(parse_fio_text(done.stdout)[0]))["read"]["hist_ns"]


def test_live_intervals_carry_their_own_p99():
    """Each status document minus the one before is that interval's histogram: its p99 is the
    live tail (samples.csv read_p99_us / write_p99_us), None when too few I/Os to claim one."""
    from app.engines.fio.live import FioLive
    docs = split_documents(JSONPLUS.read_text())
    intervals = FioLive().feed(JSONPLUS.read_text())
    assert len(intervals) == len(docs)
    hists = [Histogram()] + [Histogram.from_bins(d["jobs"][0]["read"]["lat_ns"]["bins"]) for d in docs]
    for interval, earlier, later in zip(intervals, hists, hists[1:]):
        own = later - earlier
        expected = own.percentile(99) / 1000 if own.ios >= 1000 else None
        assert interval.read_p99_us == expected
        if expected is not None:
            assert interval.read_p99_us >= interval.read_lat_us  # a p99 above the mean
    assert sum(i.read_p99_us is not None for i in intervals) >= 3


def test_run_json_bins_decode_on_first_use_and_pool_in_one_pass():
    """run.json's [[midpoint, count], ...] lists stay undecoded until read; pooling many of
    them at once gives what adding them one by one gives."""
    lists = [[[idx_to_val(i), 1 + (i + k) % 5] for i in range(k, PLAT_NR, 7)] for k in range(30)]
    lazy = [Histogram.from_bins(b) for b in lists]
    pooled_once = Histogram.merged(lazy)
    one_by_one = Histogram()
    for b in lists:
        one_by_one = one_by_one + Histogram(Histogram.from_bins(b).counts)
    assert pooled_once == one_by_one and pooled_once.ios == sum(c for b in lists for _, c in b)
    assert Histogram.merged([lazy[0], Histogram(lazy[1].counts)]) == lazy[0] + lazy[1]
    assert Histogram.from_bins([(129, 2), (128, 1), (0, 0), (5, -3)]).counts == ((128, 3),)
    assert Histogram.from_bins({"129": 2, "64": 1}).to_bins() == [[64, 1], [129, 2]]


@pytest.mark.parametrize("bins", [
    [[1, None]], [[1, 2, 3]], [5], [["x", 1]], [[10**30, 1]], [[float("inf"), 1]], [[-5, 1]],
    [[100, 2**41]],
])
def test_a_damaged_bin_list_is_a_one_line_value_error_where_it_is_read(bins):
    hist = Histogram.from_bins(bins)   # a shared run.json: nothing is read yet
    with pytest.raises(ValueError, match="hist_ns") as caught:
        hist.percentile(99)
    assert "\n" not in str(caught.value)
    with pytest.raises(ValueError, match="hist_ns"):
        Histogram.merged([Histogram.from_bins([[100, 1]]), Histogram.from_bins(bins)])
