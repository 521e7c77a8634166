"""The one rule for "too few I/Os" (app/model/percentiles.py) on its boundary: 9 I/Os beyond a
percentile are too few, 10 are enough, and every reader (the summary's Stat, the Markdown and
CSV cells, the sentence helpers, the figure helpers) follows the same decision."""
from __future__ import annotations

import pytest

from app.experiments.common import stat_text
from app.model.percentiles import (
    MIN_BEYOND,
    ios_beyond,
    ios_needed,
    needs_text,
    too_few,
    too_few_text,
)
from app.model.summary import Pooled, Stat
from app.results.figure import mean, std
from app.results.table import IOPS, Column, Table, md_cell, to_csv, to_markdown, too_few_flags
from app.stats.histogram import enough_ios
from app.stats.io_counts import supports, thin_warnings

from conftest import results_of


@pytest.mark.parametrize(("key", "ios", "beyond"), [
    ("p99.9", 9_999, 9), ("p99.9", 10_000, 10), ("p99.9", 10_999, 10),
    ("p99", 999, 9), ("p99", 1_000, 10),
    ("p99.99", 99_999, 9), ("p99.99", 100_000, 10),
    ("p50", 19, 9), ("p50", 20, 10),
    ("p99.9", 1_000, 1),   # 0.1 % of 1,000 is 1, not 0.999...
])
def test_nine_beyond_is_too_few_and_ten_is_enough(key, ios, beyond):
    assert ios_beyond(key, ios) == beyond
    assert too_few(key, ios) is (beyond < MIN_BEYOND)
    assert enough_ios(ios, float(key[1:])) is (beyond >= MIN_BEYOND)   # the histogram's check
    assert (ios >= ios_needed(key)) is (beyond >= MIN_BEYOND)


def test_an_unknown_count_is_not_flagged_and_the_mark_and_runtime_are_worded_once():
    assert too_few("p99.9", None) is False
    assert too_few_text(9) == "too few I/Os (9)"
    assert needs_text("p99.9", 290.0) == ("p99.9 needs about 10,000 I/Os per trial: a runtime of "
                                          "about 35 s at this IOPS (290)")
    assert needs_text("p99.9", 9_782.0).endswith("about 1.1 s at this IOPS (9,782)")  # rounded up
    assert needs_text("p99.99", None) == "p99.99 needs about 100,000 I/Os per trial"


def _record(ios_per_rep: tuple[int, ...]):
    """A zero-queue run whose randread repetitions moved exactly these many 4 KiB I/Os in 1 s."""
    lat = {"mean": 100.0, "p50": 80.0, "p95": 150.0, "p99": 400.0, "p99.9": 2_000.0,
           "p99.99": 9_000.0, "max": 10_000.0}
    trials = [{"index": i, "experiment": "zero-queue", "status": "done", "repetition": i + 1,
               "label": "RND4K Q1T1 read", "runtime_s": 1.0,
               "workload": {"rw": "randread", "bs_bytes": 4096, "iodepth": 1, "numjobs": 1},
               "measurement": {"read": {"io_bytes": 4096 * n, "iops": float(n), "MBps": n * 0.004096,
                                        "runtime_ms": 1000, "lat_kind": "total",
                                        "lat_us": {**lat, "p99.9": lat["p99.9"] + i}}}}
              for i, n in enumerate(ios_per_rep)]
    return results_of({"trials": trials, "experiments": [{"id": "zero-queue", "params": {}}]})


@pytest.mark.parametrize(("fewest", "thin"), [(9_999, True), (10_000, False)])
def test_the_weakest_repetition_decides_for_every_reader(fewest, thin):
    run = _record((fewest, 20_000))
    part = run.part("zero-queue")
    row = part.workloads[0]
    stat = row.lat("p99.9")
    assert stat.mean == 2_000.5 and stat.std is not None     # the value is kept ...
    assert (stat.too_few == 9) if thin else (stat.too_few is None)
    assert supports(part, row, "p99.9") is not thin           # the figure's check agrees
    assert bool(thin_warnings(part, ("p99.9",))) is thin
    # ... but shown nowhere as a number when too few
    column = Column("p99.9 lat. (µs, total)", "lat_p99.9_us", 1, True)
    assert md_cell(column, stat) == ("too few I/Os (9)" if thin else "2,000.5 ± 0.7")
    assert stat_text(stat, "µs") == ("too few I/Os (9)" if thin else "2,000 ± <1 µs")
    assert mean(stat) == (None if thin else 2_000.5) and (std(stat) == 0.0) is thin
    spread = part.findings.of(row.label)
    assert (spread.p99_9_over_p50 is None) is thin            # no ratio from a thin percentile
    # JSON keeps the value beside its flag; a flag only where one is thin
    assert stat.to_json() == {"mean": 2_000.5, "std": stat.std, "n": 2,
                              **({"too_few": True, "ios_beyond": 9} if thin else {})}
    assert Stat.from_json(stat.to_json()) == stat
    # the CSV keeps the value only beside a too-few column (only where a column has one)
    cols, rows = too_few_flags([IOPS, column], [(row.total_iops, stat)])
    csv = to_csv(Table("t", "t", tuple(cols), tuple(rows)))
    header, line = csv.splitlines()
    if thin:
        assert header.endswith("lat_p99.9_us_mean,lat_p99.9_us_std,lat_p99.9_us_too_few")
        assert line.split(",")[-3:] == ["2000.500", "0.707", "true"]
    else:
        assert "too_few" not in header
    assert ("too few I/Os (9)" in to_markdown(Table("t", "t", tuple(cols), tuple(rows)))) is thin


def test_pooled_marks_count_the_ios_beyond_it():
    pooled = Pooled(9_999, {"p99.9": 700.0, "p99": 300.0}, {}, None, ("p99.9",))
    assert pooled.known("p99.9") is None and pooled.known("p99") == 300.0
    assert pooled.mark("p99.9") == "too few I/Os (9)" and pooled.mark("p99") is None


def test_tail_latency_says_its_growth_and_headline_are_unknown_and_what_would_give_them():
    from app.experiments.tail_latency import TailLatency
    lat = {"mean": 100.0, "p50": 80.0, "p95": 150.0, "p99": 400.0, "p99.9": 2_000.0,
           "p99.99": 9_000.0, "max": 10_000.0}
    trials = [{"index": i, "experiment": "tail-latency", "status": "done", "repetition": 1,
               "label": f"RND4K Q{qd}T1 read", "runtime_s": 1.0,
               "workload": {"rw": "randread", "bs_bytes": 4096, "iodepth": qd, "numjobs": 1},
               "measurement": {"read": {"io_bytes": 4096 * n, "iops": float(n), "MBps": 1.0,
                                        "runtime_ms": 1000, "lat_kind": "total",
                                        "lat_us": {**lat, "p99.9": p999}}}}
              for i, (qd, n, p999) in enumerate(((8, 20_000, 2_000.0), (32, 9_999, 3_456.0)))]
    run = results_of({"trials": trials, "experiments": [{"id": "tail-latency", "params": {}}]})
    part = run.part("tail-latency")
    words = TailLatency.sentences(part, run)
    assert ("How the p99.9 grows from QD8 to QD32 is unknown: QD32 p99.9 too few I/Os (9); p99.9 "
            "needs about 10,000 I/Os per trial: a runtime of about 1.1 s at this IOPS (9,999).") in words
    assert any(w.startswith("RND4K Q32T1 read: p50 ") and "p99.9 too few I/Os (9)" in w
               and "tail amplification p99.9/p50 = unknown (p99.9 too few I/Os (9); " in w
               for w in words)
    headline = TailLatency.headline(part, run)
    assert headline.value.startswith("unknown: p99.9 too few I/Os (9); p99.9 needs about 10,000")
    assert not any(x in t for x in ("3,456", "3,460", "43.2") for t in (headline.value, *words))

