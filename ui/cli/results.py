"""What the terminal prints on stdout once a run has ended, and for ``--dry-run``: a results
table per experiment (mean ± sample std over n repetitions, the same cells as the report's
tables) with its findings, or the plan. Drawn by rich: boxes on a terminal, plain aligned text
in a pipe or a file (wide enough not to wrap).
"""
from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table

from app.experiment_outputs import findings
from app.experiments.base import prefill_note
from app.figures import LATENCY_KINDS, lat_stat, main_side
from app.host_tables import host_table
from app.io_counts import reach_warnings
from app.plan import trial_kind
from app.shell_quote import command_line
from app.store import load_run
from app.tables import IOPS, MBPS, Column, md_cell
from app.units import block_label, duration_text, human_bytes
from jobs.dry_run import EXAMPLE_WRITE_MBPS
from ui.cli.terminal import SafeConsole

LAT_MEAN, LAT_P99 = Column("Mean latency (µs)", "lat_mean_us", 1, True), Column("p99 (µs)", "p99", 1, True)


def console_for(stream) -> Console:
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    return SafeConsole(file=stream, highlight=False, width=None if tty else 160, no_color=not tty)


def print_results(stream, run_dir: str) -> None:
    """Per experiment: one row per workload, then its findings sentences."""
    console = console_for(stream)
    record = load_run(run_dir)
    for exp in record.get("experiments", []):
        part = (record.get("summary") or {}).get(exp["id"]) or {}
        rows = part.get("workloads") or []
        if not rows:
            console.print(f"{exp['id']}: no finished measured trial", markup=False)
            continue
        kinds = {(main_side(r) or {}).get("lat_kind") for r in rows} - {None}
        kind = LATENCY_KINDS.get(next(iter(kinds)), "latency") if len(kinds) == 1 else "latency"
        table = Table(title=f"{exp['id']}: mean ± sample std over n repetitions ({kind})",
                      box=box.SIMPLE_HEAD, title_justify="left")
        for name, right in (("Workload", False), ("n", True), (IOPS.name, True), (MBPS.name, True),
                            (LAT_MEAN.name, True), (LAT_P99.name, True)):
            table.add_column(name, justify="right" if right else "left")
        for r in rows:
            table.add_row(r["label"], str(r["n"]), md_cell(IOPS, r.get("total_iops")),
                          md_cell(MBPS, r.get("total_MBps")), md_cell(LAT_MEAN, lat_stat(r, "mean")),
                          md_cell(LAT_P99, lat_stat(r, "p99")))
        console.print(table)
        print_host_table(console, record, exp["id"])
        for sentence in findings(exp["id"], part, record):
            console.print(f"  {sentence}", markup=False, soft_wrap=True)
        console.print()


def print_host_table(console: Console, record: dict, eid: str) -> None:
    """A run on several fio servers: what each host did on its own (app/host_tables.py)."""
    found = host_table(record, eid)
    if found is None:
        return
    table = Table(title=f"{found.title}, each on its own (the table above: all hosts together)",
                  box=box.SIMPLE_HEAD, title_justify="left")
    for column in found.columns:
        table.add_column(column.name, justify="left" if column.key in ("label", "host") else "right")
    for row in found.rows:
        table.add_row(*(md_cell(c, v) for c, v in zip(found.columns, row, strict=True)))
    console.print(table)


def print_plan(stream, planned) -> None:
    """``--dry-run``: every trial with its engine command, then what the run would write."""
    console = console_for(stream)
    plan = planned.plan
    console.print(f"Plan: {len(plan.trials)} trials, about {duration_text(plan.estimated_s)} of "
                  f"measuring with {planned.engine_version or planned.engine_name} (seed {plan.seed})",
                  markup=False)
    table = Table(box=box.SIMPLE_HEAD)
    for name in ("#", "Experiment", "Workload", "Trial", "Time"):
        table.add_column(name, justify="right" if name in ("#", "Time") else "left")
    for trial, _argv in planned.commands:
        kind = trial_kind(trial.warmup, trial.repetition, trial.precondition)
        table.add_row(str(trial.index + 1), trial.experiment, trial.workload.label, kind,
                      duration_text(trial.runtime_s + trial.ramp_s))
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
    for warning in reach_warnings(planned.plan):
        console.print(f"Note: {warning}", markup=False, soft_wrap=True)
