"""Comparing runs (app/compare*.py, app/runs.py): the significance call, mismatched conditions,
the DataFrames a notebook gets, the comparison's figures as data and its export's files."""
from __future__ import annotations

import random

import pytest

from app.compare.compute import compare, mismatches, welch
from app.compare.export import export_comparison
from app.compare.figures import RUN_COLORS
from app.compare.report import build_comparison
from app.model.run import Run
from app.results.figure import READ, WRITE
from app.runs import load_runs

from conftest import FIXTURES

RUN = sorted((FIXTURES / "runs").glob("2026*"))[0]


def test_welch_matches_the_textbook_value():
    # scipy.stats.ttest_ind([1, 2, 3, 4], [2, 4, 6, 8, 10], equal_var=False).pvalue
    assert welch([1, 2, 3, 4], [2, 4, 6, 8, 10]) == pytest.approx(0.0691336, abs=1e-6)
    assert welch([1.0], [2.0, 3.0]) is None  # one repetition: no call


def test_the_call_finds_a_real_difference_and_not_a_made_up_one():
    rng = random.Random(17)
    same = [welch([rng.gauss(100, 5) for _ in range(5)], [rng.gauss(100, 5) for _ in range(5)])
            for _ in range(400)]
    differ = [welch([rng.gauss(100, 5) for _ in range(5)], [rng.gauss(120, 5) for _ in range(5)])
              for _ in range(400)]
    assert 0.02 <= sum(p < 0.05 for p in same) / 400 <= 0.09   # ~5 % false alarms
    assert sum(p < 0.05 for p in differ) / 400 >= 0.95          # a 4-sigma shift is found


def test_load_runs_gives_the_documented_tables():
    tables = load_runs([RUN])
    assert list(tables.runs["run"]) == [RUN.name]
    for column in ("run", "experiment", "trial", "workload", "direction", "iops", "MBps",
                   "lat_kind", "lat_p99_us", "warmup", "status", "outstanding"):
        assert column in tables.trials.columns
    for column in ("n", "iops_mean", "iops_std", "MBps_mean", "lat_p99.99_us_mean", "lat_kind"):
        assert column in tables.workloads.columns
    assert {"run", "trial", "t_s", "read_MBps"} <= set(tables.samples.columns)
    assert (tables.workloads["n"] == 2).all() and len(tables.workloads) == 16  # one per workload and direction


def test_a_run_compared_with_itself_is_all_within_the_spread():
    table = compare(load_runs([RUN, RUN]))
    # except the p99 of QD1 and QD4 of its 1 s queue-depth sweep: a repetition's own p99 rests
    # on 1 and 5 I/Os, so it is compared with nothing and says so (app/model/percentiles.py)
    thin = table[table["call"].str.startswith("too few I/Os")]
    assert [(r.workload, r.metric, r.call) for r in thin.itertuples()] == [
        ("RND4K Q1T1 read", "p99 latency (µs)", "too few I/Os (1)"),
        ("RND4K Q4T1 read", "p99 latency (µs)", "too few I/Os (5)")]
    assert thin["mean"].isna().all() and thin["ratio"].isna().all()
    rest = table.drop(thin.index)
    assert len(rest) > 0 and (rest["ratio"] == 1.0).all()
    assert set(rest["call"]) == {"within the spread"}


def test_mismatched_conditions_are_listed():
    a = {"engine": {"name": "fio", "version": "fio-3.33"}, "drive": {"model": "X"},
         "experiments": [{"id": "zero-queue", "params": {"size": 2**30, "direct": True}}]}
    b = {"engine": {"name": "diskspd", "version": "2.2"}, "drive": {"model": "X"},
         "experiments": [{"id": "zero-queue", "params": {"size": 2**31, "direct": True}}],
         "max_temperature_c": 70}
    notes = mismatches([_run(a), _run(b)])
    assert "engine differs: fio fio-3.33 vs diskspd 2.2" in notes
    assert "zero-queue size differs: 1GiB vs 2GiB" in notes   # as --set writes sizes
    assert not any("direct" in n or "drive" in n for n in notes)


def test_mismatches_list_experiments_and_latency_kinds():
    def record(eid: str, kind: str) -> dict:
        return {"experiments": [{"id": eid, "params": {}}],
                "trials": [{"index": 0, "experiment": eid, "status": "done",
                            "measurement": {"read": {"lat_kind": kind}, "write": None}}]}
    notes = mismatches([_run(record("zero-queue", "total")), _run(record("imported", "completion"))])
    assert "experiments differs: zero-queue vs imported" in notes
    assert "latency kind (total = submission + completion) differs: total vs completion" in notes


def test_a_run_that_did_not_end_is_named_among_the_notes():
    """A run killed with kill -9 (run.json still says running) or cancelled was compared as if
    whole, under 'conditions match'."""
    notes = mismatches([_run({"dir": "/r/a"}), _run({"status": "running", "dir": "/r/b_killed"}),
                        _run({"status": "cancelled", "dir": "/r/c"})])
    assert notes == ["b_killed did not record its end (still going on, or interrupted): only its "
                     "finished trials count", "c is cancelled: only its finished trials count"]


def _run(record: dict) -> Run:
    return Run.from_json({"status": "done", **record})


def _copy(tmp_path, n: int = 1) -> list:
    """The fixture run and n copies of it (a run compared with its copy: same numbers)."""
    import shutil
    return [RUN] + [shutil.copytree(RUN, tmp_path / f"copy{i}" / RUN.name) for i in range(n)]


def test_comparison_figures_colour_by_run_in_plan_order(tmp_path):
    c = build_comparison(_copy(tmp_path))
    assert c.labels[0] != c.labels[1] and c.labels[0].endswith("(run 1)")
    assert c.names[1] == f"{RUN.name} (2)"  # a run and its copy stay apart
    ids = [f.id for f in c.figures]
    for eid in ("zero-queue", "block-size", "rw-mix", "queue-depth", "tail-latency", "slc-cache"):
        assert {f"compare-{eid}-{m}" for m in ("iops", "mbps", "lat-mean", "lat-p99", "live")} <= set(ids)
    for fig in c.figures:
        for series in (s for part in (fig.panels or (fig,)) for s in part.series):
            assert series.color in RUN_COLORS and series.color not in (READ, WRITE)
            assert series.name in c.labels
    zq = next(f for f in c.figures if f.id == "compare-zero-queue-iops")
    assert [t for _, t in zq.x_axis.ticks] == ["RND4K Q1T1 read", "RND4K Q1T1 write",
                                               "SEQ128K Q1T1 read", "SEQ128K Q1T1 write"]
    assert list(c.table["workload"][:4]) == ["RND4K Q1T1 read"] * 4   # the plan's order
    live = next(f for f in c.figures if f.id == "compare-zero-queue-live")
    assert len(live.panels) == 4 and all(min(s.x) > 0 for p in live.panels for s in p.series)


def test_a_data_only_export_writes_the_tables_and_the_report_section(tmp_path):
    c = build_comparison(_copy(tmp_path))
    out = export_comparison(c, tmp_path / "cmp")
    assert sorted(p.name for p in out.iterdir()) == [
        ".ssd-profiler-export.json", "comparison.csv", "comparison.md", "report.md"]
    report = (out / "report.md").read_text()
    assert report.startswith("## Comparison of runs") and "was not drawn" in report
    assert "| Run | Workload | Metric |" in report and c.labels[1] in report
    with pytest.raises(ValueError, match="another run"):
        export_comparison(build_comparison(_copy(tmp_path / "three", 2)), out)


def test_compare_needs_two_readable_runs(tmp_path):
    with pytest.raises(ValueError, match="at least two"):
        build_comparison([RUN])
    with pytest.raises(ValueError):
        build_comparison([RUN, tmp_path])


def test_the_same_run_named_twice_is_refused_even_through_a_link(tmp_path):
    link = tmp_path / "again"
    link.symlink_to(RUN)
    with pytest.raises(ValueError, match="named twice"):
        build_comparison([RUN, link])
