"""``run --dry-run --remote ...``: the plan of a remote run, with nothing sent.

The same spelling checks as a real remote run (parameters, addresses, the folder, ssh
destinations) answer the same way, and this machine's fio is asked its version, but **no
connection is made** to any server and nothing is written anywhere: the client commands and job
files are built by the same engine as a run's (jobs/remote/engine.py) and only kept in memory. What
only a server can tell (its fio version and OS, whether the folder exists, the block device
under it) is checked when the run starts; the job files assume a Linux server (libaio).
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from app.experiments.plan import RunPlan, Trial, experiments_from_settings, plan_run
from app.paths.owned import TEST_FILE_PREFIX, TEST_FILE_SUFFIX
from app.paths.target import DATA_DIR
from app.remote.extra_time import RemoteCost, remote_cost
from app.remote.ssh_smart import check_smart_device, ssh_argv, ssh_for_hosts
from app.remote.target import RemoteSpec, ancestors, check_remote_folder, parse_remotes
from jobs.engine.factory import locate_fio
from jobs.remote.engine import RemoteFioEngine, host_file
from jobs.remote.jobs import RemoteJobs, read_probe

RUN_RAW = Path("<run folder>") / "raw"
ASSUMED_PLATFORM = "linux"


@dataclass(frozen=True)
class RemoteStep:
    """One client invocation: what it is, its argv, and each job file it sends (path, text)."""

    what: str
    argv: tuple[str, ...]
    jobs: tuple[tuple[str, str], ...]
    trial: Trial | None = None


@dataclass(frozen=True)
class RemotePlanned:
    plan: RunPlan
    folder: PurePosixPath
    hosts: tuple[str, ...]
    engine_version: str | None
    probes: tuple[str, ...]          # the read-only probe job of each path component
    steps: tuple[RemoteStep, ...]    # prefill passes and trials, in run order
    cost: RemoteCost
    ssh: tuple[tuple[str, ...], ...]  # the ssh command each host's drive would be read with

    @property
    def estimated_s(self) -> float:
        return self.plan.estimated_s + self.cost.overhead_s

    def to_json(self) -> dict[str, Any]:
        return {"experiments": [e.id for e in self.plan.experiments], "seed": self.plan.seed,
                "remote": list(self.hosts), "target": str(self.folder),
                "engine": "fio", "engine_version": self.engine_version,
                "trials": len(self.plan.trials), "measuring_s": self.plan.estimated_s,
                "estimated_s": self.estimated_s, "remote_jobs": self.cost.to_json(),
                "probes": list(self.probes), "ssh": [list(a) for a in self.ssh],
                "connected": False, "written": False, "assumed_server_os": "Linux",
                "steps": [{"what": s.what, **({"trial": s.trial.to_json()} if s.trial else {}),
                           "argv": list(s.argv),
                           "job_files": [{"path": p, "text": t} for p, t in s.jobs]}
                          for s in self.steps]}


class _DryEngine(RemoteFioEngine):
    """The run's engine, keeping its job files in memory instead of writing them."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.job_dir = RUN_RAW
        self.sent: list[tuple[str, str]] = []

    def _write_job(self, path: Path, text: str) -> None:
        self.sent.append((str(path), text))

    def step(self, what: str, argv: list[str], trial: Trial | None = None) -> RemoteStep:
        step = RemoteStep(what, tuple(argv), tuple(self.sent), trial)
        self.sent = []
        return step


def plan_remote(names: list[str], settings: dict[str, str], spec: RemoteSpec, target: str,
                seed: int | None = None, engine_path: str | None = None) -> RemotePlanned:
    """Raises ParamError, TargetRefused or EngineNotFound like a real run; connects to nothing."""
    experiments = experiments_from_settings(names, settings)
    addresses, folder = parse_remotes(spec.hosts), check_remote_folder(target)
    dests = ssh_for_hosts(spec.ssh, len(addresses))
    device = check_smart_device(spec.smart_device) if spec.smart_device else "<device fio reports>"
    local = locate_fio(engine_path)
    plan = plan_run(experiments, seed)
    engine = _DryEngine(local, [RemoteJobs(local.path, a) for a in addresses], ASSUMED_PLATFORM)
    stop = Path(tempfile.gettempdir()) / "ssd-profiler-engine-<random>" / "stop"
    steps = []
    for exp in plan.experiments:
        test_file = folder / DATA_DIR / f"{TEST_FILE_PREFIX}<run id>-{exp.id}-<random>{TEST_FILE_SUFFIX}"
        for n in range(exp.prefill_passes()):
            argv = engine.prepare_argv(test_file, exp.size, stop, exp.direct)
            steps.append(engine.step(f"prefill {exp.id} ({n + 1} of {exp.prefill_passes()})", argv))
        for trial in (t for t in plan.trials if t.experiment == exp.id):
            steps.append(engine.step("trial", engine.trial_argv(trial, test_file, stop), trial))
    return RemotePlanned(plan, folder, tuple(map(str, addresses)), local.version,
                         tuple(read_probe(p) for p in ancestors(folder)), tuple(steps),
                         remote_cost(plan, len(ancestors(folder))),
                         tuple(tuple(ssh_argv("ssh", d, device, check=bool(spec.smart_device)))
                               for d in dests if d))


def removal_jobs(planned: RemotePlanned) -> list[str]:
    """The test files the run would remove at the end of each experiment (per host)."""
    n = len(planned.hosts)
    return [str(host_file(planned.folder / DATA_DIR / f"{TEST_FILE_PREFIX}<run id>-{e.id}-<random>"
                          f"{TEST_FILE_SUFFIX}", i, n)) for e in planned.plan.experiments for i in range(n)]
