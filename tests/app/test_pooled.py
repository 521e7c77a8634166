"""Pooled percentiles in the tables and figures (app/results/pooled.py): from the merged
histogram of a genuine fio json+ measurement, with 95 % intervals, "too few I/Os" instead of a
thin number, DiskSpd saying why it has none, and the pre-run warning."""
from __future__ import annotations

from app.engines.fio.result import parse_fio_text
from app.experiments.plan import experiments_from_settings, plan_run
from app.experiments.tail_latency import TailLatency
from app.experiments.zero_queue import ZeroQueue
from app.model.percentiles import ios_beyond
from app.results.pooled import merged_histogram, per_repetition_notes, pooled_table, pooled_text
from app.results.table import to_csv, to_markdown
from app.stats.io_counts import reach_warnings

from conftest import FIXTURES, results_of

JSONPLUS = FIXTURES / "fio-local" / "fio-3.33-linux-libaio-randrw70-qd4-jsonplus-status.json"
WORKLOAD = {"rw": "randread", "bs_bytes": 4096, "iodepth": 4, "numjobs": 1}


def _results(reps: int = 2, engine: str = "fio", bins: bool = True):
    measurement = parse_fio_text(JSONPLUS.read_text())[0]
    if not bins:
        measurement = {**measurement, **{d: {**measurement[d], "hist_ns": None}
                                         for d in ("read", "write")}}
    trials = [{"index": i, "experiment": "tail-latency", "workload": WORKLOAD,
               "label": "RND4K Q4T1 read", "repetition": i + 1, "warmup": False,
               "status": "done", "runtime_s": 1.0, "measurement": measurement}
              for i in range(reps)]
    record = {"engine": {"name": engine}, "trials": trials,
              "experiments": [{"id": "tail-latency", "params": {}}]}
    return results_of(record)


def test_the_pooled_table_gives_each_percentile_its_interval_or_says_too_few():
    run = _results()
    part = run.part("tail-latency")
    rows = part.workloads
    pooled = rows[0].read.pooled
    hist = merged_histogram(part, rows[0], "read")
    assert pooled.ios == hist.ios == 2 * (hist.ios // 2)
    table = pooled_table(TailLatency, part, run, "tail-latency-pooled", "t")
    md, csv = to_markdown(table), to_csv(table)
    low, high = pooled.ci95["p99"]
    assert f"{pooled.values['p99']:,.1f} [{low:,.1f}, {high:,.1f}]" in md
    # ~20k I/Os cannot carry p99.99: the mark names the pooled I/Os beyond it (the one rule)
    assert f"too few I/Os ({ios_beyond('p99.99', pooled.ios)})" in md
    assert f"{pooled.values['p99.99']:,.1f}" not in md
    header, row = csv.splitlines()[:2]
    cells = dict(zip(header.split(","), row.split(",")))
    assert float(cells["p99_ci95_low_us"]) <= float(cells["p99_us"]) <= float(cells["p99_ci95_high_us"])
    assert "p99_too_few" not in cells                             # a flag only where one is thin
    assert cells["p99.99_too_few"] == "true"                      # the value only beside its flag
    assert float(cells["p99.99_us"]) == round(pooled.values["p99.99"], 3)
    assert "pooled" in per_repetition_notes(rows, run)[0]


def test_without_bins_there_is_no_pooled_table_and_diskspd_says_why():
    run = _results(bins=False, engine="diskspd")
    part = run.part("tail-latency")
    rows = part.workloads
    assert pooled_table(TailLatency, part, run, "x", "t") is None
    assert "DiskSpd reports percentiles without histogram bins" in per_repetition_notes(rows, run)[0]
    tables = TailLatency.tables(part, run)
    assert [t.id for t in tables] == ["tail-latency", "tail-latency-io-counts"]
    assert per_repetition_notes(rows, _results(bins=False)) == ()   # old fio runs: bytes unchanged


def test_the_exceedance_plot_is_the_merged_histogram_with_marked_percentiles():
    run = _results()
    figures = TailLatency.figures(run.part("tail-latency"), run)
    exceedance = next(f for f in figures if f.id == "tail-latency-exceedance")
    curve, marks = exceedance.series
    assert len(curve.x) > 40 and list(curve.y) == sorted(curve.y, reverse=True)
    # a too-few percentile is no point on the figure (its x would be its value); the caption
    # names it with the one mark
    pooled = run.part("tail-latency").workloads[0].read.pooled
    assert "p99.99" not in marks.point_labels and marks.point_labels
    assert all(isinstance(e, tuple) for e in marks.xerr)
    assert (f"Left out: p99.99 of QD4 (too few I/Os ({ios_beyond('p99.99', pooled.ios)}))"
            in exceedance.caption)
    assert "merged latency histogram" in exceedance.caption
    without = _results(bins=False)
    fallback = TailLatency.figures(without.part("tail-latency"), without)
    assert "not from a histogram" in fallback[1].caption


def test_pooled_text_rounds_and_refuses_thin_percentiles():
    pooled = {"p99": 412.7, "ci95": {"p99": [398.25, 430.1]}, "ios": 3105, "too_few": ["p99.9"],
              "p99.9": 900.0}
    assert pooled_text(pooled, "p99") == "412.7 [398.2, 430.1]"
    assert pooled_text(pooled, "p99.9") == "too few I/Os (3)"   # 3 of 3,105 beyond p99.9


def test_a_short_plan_is_warned_before_it_runs_and_a_long_one_is_not():
    def warnings(runtime: str, reps: str) -> list[str]:
        settings = {"runtime": runtime, "repetitions": reps, "warmup": "false"}
        return reach_warnings(plan_run(experiments_from_settings(["tail-latency", "zero-queue"],
                                                                 settings), seed=1))
    short = warnings("1s", "1")
    assert any(w.startswith("tail-latency: p99.99 needs 100,000 I/Os") for w in short), short
    assert warnings("30s", "3") == []
    assert ZeroQueue.tail_claim == "p99.9" and TailLatency.tail_claim == "p99.99"


def test_one_repetition_is_drawn_once_and_two_both_ways():
    """One repetition's own percentiles are its pooled ones (one histogram): one line, not two
    identical ones; with two, the pooled line (95 % CIs) and the per-repetition one (± std)."""
    for reps, names in ((1, ["pooled"]), (2, ["pooled", "per repetition"])):
        run = _results(reps)
        fig = TailLatency.figures(run.part("tail-latency"), run)[0]
        assert [next(k for k in ("pooled", "per repetition") if k in s.name) for s in fig.series] == names
        assert fig.caption.startswith("One repetition:" if reps == 1 else "Solid: pooled")
