"""What the terminal prints on stdout once a run has ended, and for ``--dry-run``: a results
table per experiment (mean ± sample std over n repetitions, the same cells as the report's
tables) with its findings, or the plan. Drawn by rich: boxes on a terminal, plain aligned text
in a pipe or a file (wide enough not to wrap).
"""
from __future__ import annotations

from typing import TextIO

from rich import box
from rich.console import Console
from rich.table import Table

from app.engines.shell_quote import command_line
from app.experiments.base import prefill_note
from app.experiments.plan import trial_kind
from app.model.run import Run
from app.remote.host_tables import host_table
from app.report.outputs import findings
from app.results.figure import LATENCY_KINDS
from app.results.load import load_results
from app.results.table import IOPS, MBPS, Column, md_cell
from app.specs.comparison import VendorComparison
from app.specs.match import compare_results
from app.stats.io_counts import reach_warnings
from app.units import block_label, duration_text, human_bytes
from jobs.run.dry_run import EXAMPLE_WRITE_MBPS, PlannedRun
from ui.cli.terminal import SafeConsole

LAT_MEAN, LAT_P99 = Column("Mean latency (µs)", "lat_mean_us", 1, True), Column("p99 (µs)", "p99", 1, True)


def console_for(stream: TextIO) -> Console:
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    return SafeConsole(file=stream, highlight=False, width=None if tty else 160, no_color=not tty)


def print_results(stream: TextIO, run_dir: str) -> None:
    """Per experiment: one row per workload, then its findings sentences."""
    console = console_for(stream)
    results = load_results(run_dir).results
    for part in results.parts:
        rows = part.workloads
        if not rows:
            console.print(f"{part.id}: no finished measured trial", markup=False)
            continue
        kinds = {r.main.lat_kind for r in rows if r.main} - {None}
        kind = LATENCY_KINDS.get(str(next(iter(kinds))), "latency") if len(kinds) == 1 else "latency"
        table = Table(title=f"{part.id}: mean ± sample std over n repetitions ({kind})",
                      box=box.SIMPLE_HEAD, title_justify="left")
        for name, right in (("Workload", False), ("n", True), (IOPS.name, True), (MBPS.name, True),
                            (LAT_MEAN.name, True), (LAT_P99.name, True)):
            table.add_column(name, justify="right" if right else "left")
        precise = any(r.precision for r in rows)  # measured to a target: its achieved ±
        if precise:
            table.add_column("Achieved ± (95 %)")
        for r in rows:
            table.add_row(r.label, str(r.n), md_cell(IOPS, r.total_iops),
                          md_cell(MBPS, r.total_MBps), md_cell(LAT_MEAN, r.lat("mean")),
                          md_cell(LAT_P99, r.lat("p99")),
                          *([r.precision.text(advice=False) if r.precision else "fixed time"]
                            if precise else []))
        console.print(table)
        for r in rows:   # a target not reached: what would reach it (docs/precision.md)
            advice = r.precision.advice() if r.precision and not r.precision.reached else ""
            if advice:
                console.print(f"  {r.label}, target not reached: {advice}.", markup=False,
                              soft_wrap=True)
        print_host_table(console, results.run, part.id)
        for sentence in findings(part, results):
            console.print(f"  {sentence}", markup=False, soft_wrap=True)
        console.print()
    print_vendor(console, compare_results(results))


def print_vendor(console: Console, cmp: VendorComparison | None) -> None:
    """The vendor comparison, when the run has a spec (its own, ``--vendor-spec``, a match)."""
    if cmp is None:
        return
    console.print(f"vendor: measured against {cmp.spec.name} ({cmp.spec.source_kind} source: "
                  f"{cmp.spec.source_url})", markup=False, soft_wrap=True)
    if cmp.drive_mismatch:
        console.print(f"  warning: {cmp.drive_mismatch}", markup=False, soft_wrap=True)
    for row in cmp.rows:
        match = row.match + (" (the vendor's conditions assumed: usual practice)"
                             if row.vendor_setup.assumed and "assumed" not in row.match else "")
        got = (f"{row.measured.mean:,.0f} {row.unit} = {row.pct:.1f} % of {row.spec:,.0f}; "
               f"{match}" if row.measured and row.pct is not None else match)
        console.print(f"  {row.label}: {got}", markup=False, soft_wrap=True)
    console.print()


def print_host_table(console: Console, run: Run, eid: str) -> None:
    """A run on several fio servers: what each host did on its own (app/remote/host_tables.py)."""
    found = host_table(run, eid)
    if found is None:
        return
    table = Table(title=f"{found.title}, each on its own (the table above: all hosts together)",
                  box=box.SIMPLE_HEAD, title_justify="left")
    for column in found.columns:
        table.add_column(column.name, justify="left" if column.key in ("label", "host") else "right")
    for row in found.rows:
        table.add_row(*(md_cell(c, v) for c, v in zip(found.columns, row, strict=True)))
    console.print(table)


def print_plan(stream: TextIO, planned: PlannedRun) -> None:
    """``--dry-run``: every trial with its engine command, then what the run would write."""
    console = console_for(stream)
    plan = planned.plan
    console.print(f"Plan: {len(plan.trials)} trials, {plan.time_text()} of "
                  f"measuring with {planned.engine_version or planned.engine_name} (seed {plan.seed})",
                  markup=False)
    table = Table(box=box.SIMPLE_HEAD)
    for name in ("#", "Experiment", "Workload", "Trial", "Time"):
        table.add_column(name, justify="right" if name in ("#", "Time") else "left")
    for trial, _argv in planned.commands:
        kind = trial_kind(trial.warmup, trial.repetition, trial.precondition)
        table.add_row(str(trial.index + 1), trial.experiment, trial.workload.label, kind,
                      duration_text(trial.runtime_s + trial.ramp_s) if trial.precision is None else
                      f"{duration_text(trial.min_s)}-{duration_text(trial.runtime_s + trial.ramp_s)}")
    console.print(table)
    console.print("Engine command of each trial (<run id> and <random> are drawn when the run starts):",
                  markup=False)
    for trial, argv in planned.commands:
        console.print(f"{trial.index + 1}: {command_line(argv)}", markup=False, soft_wrap=True)
    example_gb = planned.write_seconds * EXAMPLE_WRITE_MBPS / 1000  # MB/s x s = MB; GB = 10^9 B
    fill = (f"{human_bytes(planned.prefill_bytes)} to fill test files once"
            if planned.prefill_bytes else "nothing before the trials")
    console.print(
        f"Target: {planned.target.folder} (test files in {planned.target.data_dir.name}/, "
        f"at most {human_bytes(planned.test_file_bytes)} at a time, removed at the end).\n"
        f"Writes: {fill} ({prefill_note(planned.plan.experiments)}), then "
        f"{duration_text(planned.write_seconds)} of time-based writing whose bytes depend on the "
        f"drive (at {EXAMPLE_WRITE_MBPS:,.0f} MB/s: {example_gb:,.1f} GB)"
        + (f", and {human_bytes(planned.volume_bytes)} of volume-bound writes" if planned.volume_bytes else "")
        + ".\n"
        f"Block sizes: {', '.join(sorted({block_label(t.workload.bs_bytes) for t, _ in planned.commands}))}."
        "\nNothing was written: this was a dry run.", markup=False, soft_wrap=True)
    exps = planned.plan.experiments
    notes = [n for i, e in enumerate(exps) if (n := e.follow_note(exps[:i]))]
    for warning in [*reach_warnings(planned.plan), *notes]:
        console.print(f"Note: {warning}", markup=False, soft_wrap=True)
