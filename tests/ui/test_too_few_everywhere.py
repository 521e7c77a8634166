"""A course run on too few I/Os: the real fio, 1 s trials, zero-queue and tail-latency (their
p99.9 and p99.99 rest on a handful of I/Os per trial), run with ``--json`` and exported.

The one rule (app/model/percentiles.py): a percentile with fewer than 10 I/Os beyond it is never
a value in report.md, the Markdown tables, the findings or the figures (checked on the figures as
data, app/results/figure.py); it is marked 'too few I/Os (n)', n the I/Os beyond it; CSV and
``--json`` keep the value only beside a too-few flag; the finding that would compute p99.9/p50
says it is unknown and what runtime would make it known.
"""
from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pytest

from app.experiments.registry import results_for
from app.model.percentiles import PERCENTILE_KEYS, too_few_text
from app.report.outputs import findings
from app.results.load import load_results
from app.units import mean_pm, sig

from conftest import run_cli

SETTINGS = ("--set", "runtime=1s", "--set", "size=16MiB", "--set", "repetitions=2",
            "--set", "warmup=false")


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    base = tmp_path_factory.mktemp("course")
    done = run_cli("run", "zero-queue", "tail-latency", "--target", str(base / "t"), "--out",
                   str(base / "runs"), "--seed", "7", *SETTINGS, "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    record = json.loads(done.stdout)
    export = base / "export"
    done = run_cli("export", record["run_dir"], "--out", str(export))
    assert done.returncode == 0, done.stderr[-2000:]
    return record, load_results(record["run_dir"]).results, export


def _thin(results):
    """(experiment, row, direction, key, Stat) of every per-repetition percentile on too few
    I/Os, and (experiment, row, direction, key, Pooled) of every pooled one."""
    per_rep, pooled = [], []
    for part in results.parts:
        for row in part.workloads:
            for d in ("read", "write"):
                side = row.side(d)
                if side is None:
                    continue
                per_rep += [(part.id, row, d, k, s) for k in PERCENTILE_KEYS
                            if (s := side.lat_us.get(k)) is not None and s.too_few is not None]
                if side.pooled:
                    pooled += [(part.id, row, d, k, side.pooled) for k in side.pooled.too_few]
    return per_rep, pooled


def test_too_few_percentiles_are_never_a_number_in_the_report_tables_or_findings(course):
    _, results, export = course
    per_rep, pooled = _thin(results)
    assert any(k == "p99.9" for _, _, _, k, _ in per_rep), "1 s trials: p99.9 should be thin"
    report = (export / "report.md").read_text()
    tables = {p.name: p.read_text() for p in (export / "tables").glob("*.md")}
    words = "\n".join(line for part in results.parts for line in findings(part, results))
    for eid, row, _, key, stat in per_rep:
        # its value as report.md (3 significant digits) and as the Markdown tables write it, in
        # the lines that name this workload (fio's percentiles are bucket edges, so another
        # workload's percentile can be the very same mean ± std)
        name = row.label.rsplit(" ", 1)[0]   # 'SEQ128K Q1T1', the findings' name for both sides
        mine = [line for text in (report, words, *tables.values()) for line in text.splitlines()
                if name in line]
        assert mine, (eid, row.label)
        for text in (mean_pm(stat.mean, stat.std), f"{stat.mean:,.1f} ± {stat.std:,.1f}"):
            assert not any(text in line for line in mine), (eid, row.label, key, text)
        lines = tables[f"{eid}.md"].splitlines()
        header = next(x for x in lines if x.startswith("| Workload |")).split(" | ")
        shown = [i for i, name in enumerate(header) if name.startswith(f"{key} lat.")]
        if shown:   # the table's column of this percentile holds the mark
            line = next(x for x in lines if x.startswith(f"| {row.label} |")).split(" | ")
            assert line[shown[0]] == too_few_text(stat.too_few), (row.label, key, line)
    for eid, row, _, key, p in pooled:
        value = p.values[key]
        # the cell of this row and percentile, in the pooled table file and in report.md: another
        # percentile or workload may hold the same rounded number, so the check is cell-exact
        table = tables[f"{eid}-pooled.md"]
        in_table, in_report = _pooled_cells(table, row.label, key), _pooled_cells(report, row.label, key)
        assert in_table or f"| {key} (µs, 95 % CI) |" not in table, (eid, row.label, key)
        assert len(in_report) == len(in_table), (eid, row.label, key)   # the report shows it too
        for cell in in_table + in_report:
            assert cell == p.mark(key), (eid, row.label, key, cell)
        assert f"{value:,.1f} [" not in "".join(in_table) and f"{sig(value)} [" not in "".join(in_report)


def _pooled_cells(markdown: str, label: str, key: str) -> list[str]:
    """The cells under a pooled table's ``<key> (µs, 95 % CI)`` column in the rows of ``label``."""
    cells, column = [], None
    for line in markdown.splitlines():
        if not line.startswith("|"):
            column = None
            continue
        parts = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if parts[0] == "Workload":
            heading = f"{key} (µs, 95 % CI)"
            column = parts.index(heading) if heading in parts else None
        elif column is not None and parts[0] == label:
            cells.append(parts[column])
    return cells


def test_the_ratio_that_would_use_it_is_unknown_and_says_what_runtime_would_give_it(course):
    _, results, export = course
    report = (export / "report.md").read_text()
    per_rep, _ = _thin(results)
    thin_tails = {(eid, row.label) for eid, row, _, k, _ in per_rep if k == "p99.9"}
    assert thin_tails
    for eid, label in thin_tails:
        said = [x for x in report.splitlines() if x.startswith(f"- {label}: ")
                and "p99.9/p50" in x]
        assert said, (eid, label)
        for line in said:
            assert "p99.9/p50 =" not in line or "unknown" in line, line
            assert "p99.9 needs about 10,000 I/Os per trial: a runtime of about" in line, line
            assert "s at this IOPS (" in line, line
    assert "tail amplification p99.9/p50 unknown" in report


def test_figures_never_draw_a_too_few_percentile(course):
    _, results, _ = course
    per_rep, pooled = _thin(results)
    for part in results.parts:
        series = []   # (figure or panel id, series)
        for fig in results_for(part.id).figures(part, results):
            for f in (fig, *fig.panels):
                for s in f.series:
                    if f.id.endswith("exceedance") and s.name.endswith(" I/Os"):
                        continue   # the merged histogram's every bucket: no percentile claimed
                    series.append((f.id, s))
                    assert not any("too few I/Os" in t and "(" not in t
                                   for t in (s.point_labels or ())), s.point_labels
        thin = ([(row, d, s.mean) for eid, row, d, _, s in per_rep if eid == part.id]
                + [(row, d, p.values[k]) for eid, row, d, k, p in pooled if eid == part.id])
        for row, direction, v in thin:
            # the workload's own series (fio's percentiles are bucket edges: another workload's
            # percentile may be the very same number); all of them where none is named for it
            mine = [s for fid, s in series if row.label in s.name
                    or (row.label.rsplit(" ", 1)[0].lower() in fid and s.name == direction)]
            drawn = [y for s in (mine or [s for _, s in series]) for y in (*s.x, *s.y)]
            for unit in (1.0, 1e-3):   # µs or ms
                assert not any(math.isclose(v * unit, d, rel_tol=1e-9) for d in drawn), (row.label, v)


def test_csv_and_json_keep_the_value_only_beside_its_flag(course):
    record, results, export = course
    per_rep, _ = _thin(results)
    for eid, row, _, key, stat in per_rep:
        if eid != "zero-queue":
            continue
        rows = list(csv.DictReader(io.StringIO((export / "tables" / "zero-queue.csv").read_text())))
        mine = next(r for r in rows if r["rw"] == row.workload.rw
                    and r["bs_bytes"] == str(row.workload.bs_bytes))
        column = f"lat_{key}_us"
        if column + "_mean" in mine:   # the table shows this percentile
            assert mine[column + "_too_few"] == "true"
            assert float(mine[column + "_mean"]) == round(stat.mean, 3)
    # --json (run.json's summary): the value with too_few and the I/Os beyond it
    for eid, row, d, key, stat in per_rep:
        got = next(w for w in record["summary"][eid]["workloads"] if w["key"] == row.key)
        assert got[d]["lat_us"][key] == {"mean": stat.mean, "std": stat.std, "n": stat.n,
                                          "too_few": True, "ios_beyond": stat.too_few}
    known = [(eid, w, k) for eid, part in record["summary"].items() for w in part["workloads"]
             for k in PERCENTILE_KEYS if (w["read"] or w["write"])["lat_us"][k].get("too_few")
             is None]
    assert known, "some percentile rests on enough I/Os"
    assert Path(record["run_dir"]).is_dir()
