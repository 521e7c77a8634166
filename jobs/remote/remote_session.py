"""Setting up a run on a remote target: every check first, through the server(s), then
the run folder and a runner whose trials run as ``fio --client``.

Nothing is written on any machine before the parameters, the remote addresses, the folder's
spelling (app/remote/target.py), the ssh destinations, this machine's fio and every server
have all been checked (jobs/remote/check.py: read-only probes, fio version, OS). Several servers
run every trial together (jobs/remote/engine.py) and are checked, and cleaned up, all at once.

What a fio server cannot tell is recorded as "not available remotely" instead of guessed
(jobs/remote/record.py): free space, file system and, unless ``--ssh`` names a way to run
smartctl there (jobs/remote/ssh_smartctl.py), the drive's identity, SMART and temperature.
"""
from __future__ import annotations

import dataclasses
import signal
import threading
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any

from app.experiments.base import Experiment
from app.experiments.plan import RunPlan, experiments_from_settings, plan_run
from app.paths import CheckedTarget, TargetRefused
from app.paths.target import DATA_DIR
from app.remote.extra_time import REMOTE_JOB_S, remote_estimate_s
from app.remote.ssh_smart import NO_SSH, check_smart_device, device_path, ssh_for_hosts
from app.remote.target import RemoteAddress, RemoteSpec, ancestors, check_remote_folder, parse_remotes
from app.store.run_folder import RunStore, default_runs_root
from app.store.runs_root import check_runs_root
from jobs.engine.factory import locate_fio
from jobs.engine.process import EngineProcess
from jobs.events import Event, LogMessage, RunStarted, TrialFailed, TrialFinished, TrialStarted
from jobs.remote.check import RemoteFacts, check_hosts
from jobs.remote.engine import RemoteFioEngine
from jobs.remote.folder import RemoteFolder, on_each
from jobs.remote.jobs import RemoteJobs
from jobs.remote.record import remote_record
from jobs.remote.ssh_smartctl import RemoteDriveMonitor, SshSmartctlSource, read_drive
from jobs.run.runner import TrialRunner

_PLATFORMS = {"Linux": "linux", "Mac": "darwin"}


class RemoteTrialRunner(TrialRunner):
    """The trial runner, with the remote run's estimate (each job's cost on the server included:
    the run's in RunStarted, each trial's in TrialStarted, so the time left stays right) and,
    right after RunStarted, what a remote run cannot show live."""

    notes: tuple[LogMessage, ...] = ()
    estimated_s: float | None = None
    #: fio's client, on SIGTERM, tells its servers to stop their jobs; SIGKILL would leave them
    on_app_death = int(signal.SIGTERM)
    engine: RemoteFioEngine

    def events(self) -> Generator[Event, None, None]:
        inner = super().events()
        try:
            for event in inner:
                if isinstance(event, (TrialFinished, TrialFailed)):
                    self._keep_job_argv()
                if isinstance(event, RunStarted) and self.estimated_s is not None:
                    event = dataclasses.replace(event, estimated_s=self.estimated_s)
                elif isinstance(event, TrialStarted):  # its wall time: the server's idle loop too
                    event = dataclasses.replace(event, expected_s=event.expected_s + REMOTE_JOB_S)
                yield event
                if isinstance(event, RunStarted):
                    yield from self.notes
        finally:
            inner.close()  # a consumer that stops iterating ends the run like a cancel

    def _check_stop(self, proc: EngineProcess, limit_s: float) -> None:
        """A trial past its time limit means a server that stopped answering (hung, stopped,
        its link gone): the client waits for it without end. The trial ends at the watchdog,
        and the run stops there like after a server that died, instead of every remaining
        trial waiting out its own limit; its files there are named, not waited on."""
        try:
            super()._check_stop(proc, limit_s)
        except TimeoutError:
            self.engine.lost = (f"the fio server at {self.engine.where} stopped answering (no "
                                f"result within the trial's time limit of {limit_s:.0f} s)")
            self.owner.lost = "it stopped answering"  # type: ignore[attr-defined]  # a remote run's owner is its RemoteFolder
            raise

    def _keep_job_argv(self) -> None:
        """run.json's trial keeps ``argv`` (the client command that ran) and ``job_argv``: the
        job file's options as a local fio argv, which reports read (data pattern, options)."""
        self.store.trial_completed(job_argv=list(self.engine.last_job_argv))


def prepare_remote_run(names: list[str], settings: dict[str, str], remote: str | RemoteSpec, target: str,
                       runs_root: Path | None, seed: int | None, command_line: list[str] | None,
                       engine_path: str | None, watchdog_grace_s: float, engine: str | None,
                       cancel: threading.Event
                       ) -> tuple[RunPlan, CheckedTarget, RunStore, TrialRunner, threading.Event] | None:
    """(plan, target, store, runner, cancel) for jobs.run.session.RunSession, or None when ``cancel``
    was set before the run folder existed. Raises like a local run (ParamError, TargetRefused,
    EngineNotFound) with nothing written."""
    spec = remote if isinstance(remote, RemoteSpec) else RemoteSpec((remote,))
    if engine not in (None, "fio"):
        raise TargetRefused("a remote target runs fio (through fio --server); leave out --engine")
    experiments = experiments_from_settings(names, settings)
    check_runs_root(runs_root)
    addresses, folder = parse_remotes(spec.hosts), check_remote_folder(target)
    dests = ssh_for_hosts(spec.ssh, len(addresses))
    smart_device = check_smart_device(spec.smart_device) if spec.smart_device else None
    local = locate_fio(engine_path)
    plan = plan_run(experiments, seed)
    hosts = [RemoteJobs(local.path, a) for a in addresses]
    try:
        facts = check_hosts(hosts, folder, local.version)
        drives = on_each(hosts, lambda i, jobs: read_drive(
            str(jobs.address), dests[i], smart_device or device_path(facts[i].device), NO_SSH))
        if cancel.is_set():
            raise _Cancelled
        # the folder is on the server (a PurePosixPath); the runner only hands it back to the
        # remote folder and engine, which never touch the local file system with it
        checked = CheckedTarget(folder, folder / DATA_DIR,  # type: ignore[arg-type]
                                0, 0, None, target, None)
        remote_engine = RemoteFioEngine(local, hosts, _PLATFORMS.get(facts[0].os, facts[0].os.lower()))
        dest = dests[0]
        source = (SshSmartctlSource(dest, drives[0]["device"])
                  if len(hosts) == 1 and dest is not None and drives[0]["temperature_c"] is not None
                  else None)
        record = remote_record(experiments, plan, checked, addresses, facts, local, command_line,
                               drives, source)
        store = RunStore.create(runs_root or default_runs_root(), [e.id for e in experiments], record)
    except _Cancelled:
        for jobs in hosts:
            jobs.close()
        return None
    except BaseException:
        for jobs in hosts:
            jobs.close()
        raise
    remote_engine.job_dir = store.dir / "raw"
    owner = RemoteFolder(checked, record["run_id"], hosts)
    monitor = RemoteDriveMonitor(record["drive"], drives, dests, source)
    # RemoteFolder is the runner's owner on the servers: the same methods as OwnedFolder, on
    # PurePosixPaths there
    runner = RemoteTrialRunner(plan, owner, remote_engine, store, cancel,  # type: ignore[arg-type]
                               watchdog_grace_s, monitor)
    runner.estimated_s = remote_estimate_s(plan, len(ancestors(folder)), probed=True)
    runner.notes = _notes(addresses, facts, experiments, drives, record["target"]["remote"]["live"])
    return plan, checked, store, runner, cancel


class _Cancelled(Exception):
    pass


def _notes(addresses: Sequence[RemoteAddress], facts: Sequence[RemoteFacts], experiments: Sequence[Experiment],
           drives: list[dict[str, Any]], live: dict[str, Any]) -> tuple[LogMessage, ...]:
    where = ", ".join(f"{a} ({f.hostname})" for a, f in zip(addresses, facts, strict=True))
    several = (f"; the {len(addresses)} hosts run every trial together: IOPS and MB/s are summed, "
               "latency is over all their I/Os, each host's own results are kept"
               if len(addresses) > 1 else "")
    notes = [LogMessage(f"remote run on {where}: live charts show "
                        f"{' and '.join(live['available'])} only; not available live remotely: "
                        f"{', '.join(live['not_available'])} (each trial's latency is in its "
                        f"results and samples.csv when it ends){several}", "warning"),
             LogMessage(f"free space on {', '.join(map(str, addresses))} is not checked (not "
                        "available remotely: a fio server reports neither); the test file needs "
                        f"{max(e.size for e in experiments) >> 20} MiB there", "warning")]
    for d in drives:
        if d["model"] or d["temperature_c"] is not None:
            temp = f", {d['temperature_c']:g} °C" if d["temperature_c"] is not None else ""
            notes.append(LogMessage(f"drive on {d['remote']}: {d['model'] or 'unknown model'}{temp} "
                                    f"({d['smart_source']})"))
        else:
            notes.append(LogMessage(f"drive identity and temperature on {d['remote']}: {d['reason']}",
                                    "warning"))
    return tuple(notes)
