"""Setting up a run: every check first, then the run folder, then a runner ready to iterate.

Shared by the command line and the window so both refuse the same things the same way. Nothing is
written before the parameters, the target and the engine have all been checked.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app import __version__
from app.drive.identity import describe_drive, temperature_source
from app.engines.base import Engine
from app.engines.fio import FioEngine
from app.experiments.base import Experiment
from app.experiments.plan import RunPlan, experiments_from_settings, plan_run
from app.host import host_info
from app.params import values_json
from app.paths import CheckedTarget, OwnedFolder, check_target, new_run_id
from app.paths.direct_io import probe_direct_io
from app.remote.target import RemoteSpec
from app.specs import catalog as vendor
from app.stats.plausibility import at_run_start
from app.store.run_folder import RunStore, default_runs_root
from app.store.runs_root import check_runs_root
from jobs.drive.monitor import DriveMonitor
from jobs.engine import quiet
from jobs.engine.factory import cpu_clock_test, locate_engine
from jobs.run.cancel import Cancel
from jobs.run.runner import TrialRunner


@dataclass
class RunSession:
    plan: RunPlan
    target: CheckedTarget
    store: RunStore
    runner: TrialRunner
    cancel: threading.Event
    #: (path, size) of the test files a crashed run left, removed before this one
    removed_leftovers: tuple[tuple[Path, int], ...] = ()

    def close(self) -> None:
        """Release the target when the runner never ran (its own end releases it otherwise)."""
        self.runner.close()


def prepare_run(names: list[str], settings: dict[str, str], target: str,
                runs_root: Path | None = None, seed: int | None = None,
                command_line: list[str] | None = None, engine_path: str | None = None,
                watchdog_grace_s: float = 30.0, engine: str | None = None,
                cancel: threading.Event | None = None, remove_leftovers: bool = False,
                wait_for_folder_s: float = 0.0, allow_media: tuple[str, ...] = (),
                remote: str | RemoteSpec | None = None) -> RunSession:
    """Raises ParamError, TargetRefused (FolderInUse) or EngineNotFound before writing anything
    but, once every argument is valid, the lock in the target's data folder (released again).

    ``engine`` is "fio" or "diskspd" (None: DiskSpd on Windows when installed, else fio).
    ``cancel`` may be set by a signal before the run starts: then no run folder is made.
    Leftovers of crashed runs are removed only here, after every check and under the lock.
    ``remote`` ("host[:port]" of a running fio server, a comma list of several, or an
    app.remote.target.RemoteSpec) makes ``target`` a folder there."""
    cancel = cancel or Cancel()
    if remote is not None:  #: everything remote lives in jobs/remote/remote_session.py
        from jobs.remote.remote_session import prepare_remote_run
        parts = prepare_remote_run(names, settings, remote, target, runs_root, seed, command_line,
                                   engine_path, watchdog_grace_s, engine, cancel)
        if parts is None:
            raise RunCancelledEarly("cancelled before the run started; nothing was written")
        return RunSession(*parts)
    experiments = experiments_from_settings(names, settings)
    check_runs_root(runs_root)  # a runs folder that cannot be made: refused, nothing written
    checked = check_target(target, max(e.size for e in experiments), allow_media)
    found = locate_engine(engine, engine_path)
    plan = plan_run(experiments, seed)
    run_id = new_run_id()
    owner = OwnedFolder(checked, run_id)
    owner.acquire(wait_for_folder_s, cancel.is_set)
    clock_test = cpu_clock_test(found)  # runs beside the checks below; awaited at their end
    try:
        removed = tuple(owner.remove_leftovers()) if remove_leftovers else ()
        direct_io = probe_direct_io(owner, experiments, checked.fs_type)  # may refuse: exit 2
        session = _start_session(plan, experiments, checked, owner, found, runs_root,
                                 command_line, watchdog_grace_s, cancel, removed, direct_io)
    except BaseException:
        clock_test()
        owner.release()
        raise
    passed = clock_test()
    if isinstance(found, FioEngine):
        found.cpu_clock = passed
    return session


def _start_session(plan: RunPlan, experiments: list[Experiment], checked: CheckedTarget,
                   owner: OwnedFolder, engine: Engine, runs_root: Path | None,
                   command_line: list[str] | None, watchdog_grace_s: float, cancel: threading.Event,
                   removed: tuple[tuple[Path, int], ...], direct_io: dict[str, Any]) -> RunSession:
    drive = describe_drive(checked.folder)  # identity, link, health: the SMART snapshot before
    medium = checked.medium.to_json() if checked.medium else None
    source, temperature_reason = temperature_source(drive)
    record = {
        "app_version": __version__,
        "run_id": owner.run_id,
        "command_line": command_line,
        "experiments": [{"id": e.id, "title": e.title, "params": values_json(e),
                         "workload_keys": [w.key for w in e.workloads()]} for e in experiments],
        "seed": plan.seed,
        "target": {"folder": str(checked.folder), "requested": checked.requested,
                   "data_dir": str(checked.data_dir), "fs_type": checked.fs_type,
                   "free_bytes": checked.free_bytes, "total_bytes": checked.total_bytes,
                   "medium": medium},
        "drive": drive,
        "plausibility": at_run_start(drive, medium),  # the link's ceiling, the latency floor
        "direct_io": direct_io,
        "vendor_spec": vendor.spec_at_run_start(drive),  # the user's own spec for this model
        "temperature": {"source": source.name if source else None,
                        "detail": source.detail if source else None,
                        "reason": temperature_reason if source is None else ""},
        "host": {**host_info(), **quiet.host_fields()},
        "engine": {"name": engine.name, "version": engine.version, "path": engine.path},
        "planned_trials": [t.to_json() for t in plan.trials],
    }
    if cancel.is_set():
        raise RunCancelledEarly("cancelled before the run started; nothing was written")
    store = RunStore.create(runs_root or default_runs_root(), [e.id for e in experiments], record)
    monitor = DriveMonitor(drive, source, min(e.interval for e in experiments))
    runner = TrialRunner(plan, owner, engine, store, cancel, watchdog_grace_s, monitor)
    return RunSession(plan, checked, store, runner, cancel, removed)


class RunCancelledEarly(Exception):
    """A signal or the user cancelled before the run folder existed."""
