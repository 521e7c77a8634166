"""One module per experiment, and adding one is adding one file (docs/architecture.md).

A toy experiment defined and registered here (nowhere else) must reach every place an experiment
reaches: the catalog (`experiments --json`), planning, the summary, tables, figures and the
report's sentences. Then: registering keeps the catalog's order, imported results go through the
registry's fallback, and table cells carry the right numbers in the right units.
"""
from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from app.experiments import CATALOG, IMPORTED, Experiment, expand_ids, register, results_for
from app.experiments.plan import experiments_from_settings, plan_run
from app.experiments.registry import unregister
from app.model.interval import Sample
from app.model.summary import WorkloadSummary
from app.model.trial import TrialResult
from app.model.workload import Workload
from app.params import param, values_json
from app.report.outputs import build_figures, build_tables, findings
from app.results.figure import Axis, Figure, series_from
from app.results.run_results import ExperimentResults, RunResults
from app.results.table import (
    IOPS,
    LABEL,
    W_COLS,
    N,
    Table,
    md_cell,
    to_csv,
    to_markdown,
    workload_cells,
    workload_table,
)
from ui.cli.run_cmd import cmd_experiments

from conftest import results_of

TOY = "toy-depth"


@dataclass(frozen=True)
class ToyDepth(Experiment):
    """A toy: 4 KiB random reads at a few queue depths; it finds the best IOPS."""

    id: ClassVar[str] = TOY
    title: ClassVar[str] = "Toy depth"
    summary: ClassVar[str] = "a test-only experiment"

    depths: tuple[int, ...] = param((1, 4), kind="int_list", minimum=1, maximum=64,
                                    help="queue depths to try")

    def workloads(self) -> list[Workload]:
        return [Workload("randread", 4096, qd) for qd in self.depths]

    @classmethod
    def findings(cls, workloads: tuple[WorkloadSummary, ...], trials: tuple[TrialResult, ...],
                 samples: tuple[Sample, ...]) -> Best:
        best = max(workloads, key=lambda r: r.total_iops.mean or 0)
        return Best(best.label, best.total_iops.mean)

    @classmethod
    def tables(cls, part: ExperimentResults, run: RunResults) -> list[Table]:
        data = [(*workload_cells(r), r.total_iops, r.n) for r in part.workloads]
        return [workload_table(part, run, "toy-depth", "Toy depth", [*W_COLS, LABEL, IOPS, N],
                               data, cls=cls)]

    @classmethod
    def figures(cls, part: ExperimentResults, run: RunResults) -> list[Figure]:
        pts = [(r.workload.iodepth, r.total_iops) for r in part.workloads]
        series = series_from("IOPS", pts)
        return [Figure(id="toy-depth-iops", experiment=cls.id, title="Toy", x_axis=Axis("QD"),
                       y_axis=Axis("IOPS"), series=(series,) if series else ())]

    @classmethod
    def sentences(cls, part: ExperimentResults, run: RunResults) -> list[str]:
        best = part.found(Best)
        return [f"Best: {best.iops:,.0f} IOPS at {best.label}."] if best and best.iops else []


@dataclass(frozen=True)
class Best:
    """The toy's findings: the workload with the most IOPS."""

    label: str
    iops: float | None

    def to_json(self) -> dict[str, Any]:
        return {"best": {"label": self.label, "iops": self.iops}}


@pytest.fixture
def toy():
    register(ToyDepth)
    try:
        yield ToyDepth
    finally:
        unregister(TOY)
    assert TOY not in CATALOG


def _measurement(iops: float, bytes_per_s: float, lat_mean_us: float, p99_us: float) -> dict:
    """A normalized measurement: MB/s is 10^6 B/s."""
    read = {"io_bytes": 0, "iops": iops, "MBps": bytes_per_s / 1e6, "MiBps": bytes_per_s / 2**20,
            "lat_kind": "total",
            "lat_us": {"mean": lat_mean_us, "p50": lat_mean_us * 0.9, "p95": p99_us * 0.8,
                       "p99": p99_us, "p99.9": p99_us * 2, "p99.99": p99_us * 3,
                       "max": p99_us * 4}}
    return {"engine": "fio", "engine_version": "fio-3.33", "read": read, "write": None,
            "total": {"iops": iops, "MBps": bytes_per_s / 1e6}}


def _record(experiments: list, values) -> dict:
    """A finished run of ``experiments`` (no warm-up, fixed order); ``values(trial)`` gives the
    (iops, bytes/s, mean µs, p99 µs) of each trial."""
    plan = plan_run(experiments, seed=1)
    trials = []
    for t in plan.trials:
        trial = t.to_json()
        trial.update(status="done", measurement=_measurement(*values(trial)),
                     argv=["fio", "--direct=1", f"--name={t.name}"])
        trials.append(trial)
    return {"experiments": [{"id": e.id, "title": e.title, "params": values_json(e),
                             "workload_keys": [w.key for w in e.workloads()]} for e in experiments],
            "trials": trials, "engine": {"name": "fio", "version": "fio-3.33"}, "seed": 1}


def test_a_registered_experiment_is_in_the_catalog_json(toy, capsys):
    assert cmd_experiments(argparse.Namespace(json=True)) == 0
    catalog = json.loads(capsys.readouterr().out)
    assert [e["id"] for e in catalog][-1] == TOY
    toy_entry = catalog[-1]
    assert toy_entry["title"] == "Toy depth" and toy_entry["summary"] == "a test-only experiment"
    depths = next(p for p in toy_entry["parameters"] if p["name"] == "depths")
    assert depths["default"] == [1, 4] and depths["kind"] == "int_list"
    assert {p["name"] for p in toy_entry["parameters"]} >= {"runtime", "size", "repetitions"}
    assert TOY in expand_ids(["all"])


def test_a_registered_experiment_plans_summarizes_and_exports(toy):
    exps = experiments_from_settings([TOY], {"toy-depth.depths": "1,8", "repetitions": "2",
                                             "warmup": "false", "randomize": "false"})
    record = _record(exps, lambda t: (1000.0 * t["workload"]["iodepth"] + t["repetition"],
                                      4096e3 * t["workload"]["iodepth"], 80.0, 200.0))
    assert [t["experiment"] for t in record["trials"]] == [TOY] * 4
    summary = results_of(record)
    rows = summary.summary_json()[TOY]["workloads"]
    assert [r["n"] for r in rows] == [2, 2]
    assert summary.part(TOY).findings == Best(rows[1]["label"], 8001.5)
    assert summary.summary_json()[TOY]["findings"]["best"] == {"label": rows[1]["label"],
                                                               "iops": 8001.5}

    (table,) = build_tables(summary)
    assert table.id == "toy-depth" and table.experiment == TOY
    csv_text = to_csv(table)
    assert csv_text.splitlines()[0] == "rw,bs_bytes,iodepth,numjobs,rwmixread,iops_mean,iops_std,n"
    assert csv_text.splitlines()[2] == "randread,4096,8,1,,8001.500,0.707,2"
    assert "Parameters: `" in to_markdown(table) and "depths=1,8" in to_markdown(table)

    (fig,) = build_figures(summary)
    assert fig.id == "toy-depth-iops" and fig.series[0].x == (1, 8)
    assert fig.series[0].y == (1001.5, 8001.5)
    assert findings(summary.part(TOY), summary)[0] == f"Best: 8,002 IOPS at {rows[1]['label']}."
    assert findings(summary.part(TOY), summary)[1].startswith("Preconditioning: none")


def test_a_registered_experiment_goes_last_and_leaves_no_trace():
    before = list(CATALOG)
    register(ToyDepth)
    try:
        assert list(CATALOG) == [*before, TOY]    # registration order is the catalog's order
    finally:
        unregister(TOY)
    assert list(CATALOG) == before and IMPORTED not in CATALOG and TOY not in CATALOG


def test_ids_are_unique_and_imported_is_not_an_experiment(toy):
    @dataclass(frozen=True)
    class Clash(ToyDepth):
        pass

    with pytest.raises(ValueError, match="already registered"):
        register(Clash)

    @dataclass(frozen=True)
    class Fake(ToyDepth):
        id: ClassVar[str] = IMPORTED

    with pytest.raises(ValueError):
        register(Fake)


def test_imported_and_unknown_ids_export_through_the_fallback():
    empty = results_of({"experiments": [{"id": IMPORTED}], "trials": []})
    assert results_for(IMPORTED).tables(empty.parts[0], empty)[0].id == "imported"
    record = _record([experiments_from_settings(["zero-queue"], {"repetitions": "1"})[0]],
                     lambda t: (1000.0, 4096e3, 80.0, 200.0))
    for t in record["trials"]:
        t["experiment"] = "gone-experiment"
    record["experiments"][0]["id"] = "gone-experiment"
    summary = results_of(record)
    assert summary.summary_json()["gone-experiment"]["findings"] == {}
    (table,) = build_tables(summary)
    assert table.id == "gone-experiment" and len(table.rows) == 4
    assert build_figures(summary) == []
    assert [f for f in findings(summary.part("gone-experiment"), summary)
            if not f.startswith("Preconditioning:")] == []


def test_a_zero_queue_row_has_mb_per_s_in_decimal_units_and_mean_plus_minus_sample_std():
    (zq,) = experiments_from_settings(["zero-queue"], {"repetitions": "3", "warmup": "false",
                                                       "randomize": "false"})
    # repetitions 1..3: 400, 410, 420 MB/s (10^6 B/s; 381.5..400.5 MiB/s), 100, 110, 120 µs
    record = _record([zq], lambda t: (1000.0 * t["repetition"], (390 + 10 * t["repetition"]) * 1e6,
                                      90.0 + 10 * t["repetition"], 300.0))
    summary = results_of(record)
    table, ios = build_tables(summary)  # the table, then the I/Os its percentiles rest on
    assert ios.id == "zero-queue-io-counts"
    header = [c.key for c in table.columns]
    assert header[:7] == ["rw", "bs_bytes", "iodepth", "numjobs", "rwmixread", "label", "iops"]
    row = dict(zip(header, table.rows[0]))
    assert row["label"] == "RND4K Q1T1 read" and row["n"] == 3
    assert row["MBps"].mean == pytest.approx(410.0) and row["MBps"].std == pytest.approx(10.0)
    assert row["iops"].mean == pytest.approx(2000.0) and row["iops"].std == pytest.approx(1000.0)
    assert row["lat_mean_us"].mean == pytest.approx(110.0)
    columns = {c.key: c for c in table.columns}
    assert columns["MBps"].name == "MB/s" and columns["lat_mean_us"].name == "mean lat. (µs, total)"
    assert md_cell(columns["MBps"], row["MBps"]) == "410.0 ± 10.0"
    assert md_cell(columns["iops"], row["iops"]) == "2,000 ± 1,000"
    lines = to_csv(table).splitlines()
    assert lines[0].split(",")[5:9] == ["iops_mean", "iops_std", "MBps_mean", "MBps_std"]
    assert lines[1].startswith("randread,4096,1,1,,2000.000,1000.000,410.000,10.000,110.000,10.000,")
    assert lines[1].endswith(",3")
    assert any("MB/s = 10^6 B/s" in note for note in table.notes)


def test_block_size_and_queue_depth_tables_convert_sizes_and_levels():
    bs, qd = experiments_from_settings(
        ["block-size", "queue-depth"],
        {"repetitions": "1", "block-size.block_sizes": "4k,128k", "block-size.patterns": "random",
         "queue-depth.queue_depths": "1,4", "queue-depth.sweep": "numjobs"})
    record = _record([bs, qd], lambda t: (1000.0, 1e8, 100.0, 300.0))
    summary = results_of(record)
    tables = {t.id: t for t in build_tables(summary)}
    kib = [dict(zip([c.key for c in tables["block-size"].columns], r))["bs_KiB"]
           for r in tables["block-size"].rows]
    assert kib == [4, 128]
    cols = [c.key for c in tables["queue-depth"].columns]
    assert [dict(zip(cols, r))["outstanding"] for r in tables["queue-depth"].rows] == [1, 4]
    law = tables["queue-depth-littles-law"]
    # L = IOPS x latency = 1000/s x 100 µs = 0.1 I/O in flight; ratio = L / outstanding
    assert [r[3] for r in law.rows] == pytest.approx([0.1, 0.1])
    assert [r[4] for r in law.rows] == pytest.approx([0.1, 0.025])
