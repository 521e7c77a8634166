"""``run --dry-run --remote ...`` on the terminal: the plan of a remote run, every
client command with the job files it would send, and the time it would take with each job's
cost on the server counted (app/remote/extra_time.py). Nothing is sent: jobs/remote/remote_dry_run.py.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from rich import box
from rich.table import Table

from app.engines.shell_quote import command_line
from app.experiments.plan import trial_kind
from app.remote.extra_time import REMOTE_JOB_S
from app.units import duration_text, human_bytes
from jobs.remote.remote_dry_run import RemotePlanned, plan_remote, removal_jobs
from ui.cli.remote_args import remote_spec
from ui.cli.results import console_for


def cmd_remote_dry_run(args: argparse.Namespace, settings: dict[str, str]) -> int:
    spec = remote_spec(args)
    if spec is None:
        raise ValueError("a remote dry run needs --remote")  # the caller checks args.remote first
    planned = plan_remote(args.experiments, settings, spec, args.target, seed=args.seed)
    if args.json:
        print(json.dumps(planned.to_json(), indent=2, allow_nan=False))
    else:
        print_remote_plan(sys.stdout, planned)
    return 0


def print_remote_plan(stream: TextIO, planned: RemotePlanned) -> None:
    console = console_for(stream)

    def say(text: str) -> None:
        console.print(text, markup=False, soft_wrap=True)

    plan, cost, n = planned.plan, planned.cost, len(planned.hosts)
    where = ", ".join(planned.hosts)
    say(f"Plan: {len(plan.trials)} trials on {n} fio server{'s' if n > 1 else ''} ({where})"
        + (", every trial on all of them at once" if n > 1 else "")
        + f", about {duration_text(planned.estimated_s)}: {duration_text(plan.estimated_s)} of "
        f"measuring plus {cost.jobs} jobs x {REMOTE_JOB_S:g} s on the server (its idle loop and "
        f"connection, measured on loopback; a network adds more), with {planned.engine_version} "
        f"(seed {plan.seed})")
    table = Table(box=box.SIMPLE_HEAD)
    for name in ("#", "Experiment", "Workload", "Trial", "Time"):
        table.add_column(name, justify="right" if name in ("#", "Time") else "left")
    for trial in plan.trials:
        table.add_row(str(trial.index + 1), trial.experiment, trial.workload.label,
                      trial_kind(trial.warmup, trial.repetition, trial.precondition),
                      duration_text(trial.runtime_s + trial.ramp_s))
    console.print(table)
    say(f"Before anything is written, on each server: {len(planned.probes)} read-only probe jobs "
        "(fio --readonly, a 4 KiB read; a folder answers EISDIR), one per folder of the path: "
        + ", ".join(line.split("=", 1)[1] for p in planned.probes for line in p.splitlines()
                    if line.startswith("filename=")))
    say("Client commands and the job files they send (<run id> and <random> are drawn when the "
        "run starts; the job files assume a Linux server):")
    for step in planned.steps:
        label = f"{step.trial.index + 1}" if step.trial else step.what
        say(f"{label}: {command_line(list(step.argv))}")
        for path, text in step.jobs:
            say(f"    {path}:")
            for line in text.splitlines():
                say(f"      {line}")
    size = max(e.size for e in plan.experiments)
    say(f"Target: {planned.folder} on {where} (test files in {planned.folder.name}/ssd-profiler-data/, "
        f"at most {human_bytes(size)} per host at a time; free space there is not checked). After "
        f"each experiment its test file is removed by a read-only fio job with unlink=1 "
        f"({len(removal_jobs(planned))} in all), at the end the empty data folder by rmdir (fio's "
        "exec engine).")
    if planned.ssh:
        say("Drive identity and temperature would be read with: "
            + "; ".join(command_line(list(a)) for a in planned.ssh))
    else:
        say("Drive identity and temperature: not available remotely (no --ssh given).")
    say("Nothing was sent and nothing was written: this was a dry run (no server was contacted; "
        "each server's fio version, OS and the folder are checked when the run starts).")
