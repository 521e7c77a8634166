"""Setting up a run on a remote target (issue 18): every check first, through the server, then the
run folder and a runner whose trials run as ``fio --client``.

Nothing is written on either machine before the parameters, the remote address, the folder's
spelling (app/paths/remote_target.py), this machine's fio and the server have all been checked.
The server is checked with read-only fio jobs, one path component at a time from ``/`` down to
the folder (fio creates missing parent folders of any path it is given, even read-only, so a path
is only probed once its parent is known to exist): every component must be a folder (EISDIR), the
folder itself included. The first answer also carries the server's banner: its fio version must
be this machine's (fio's client/server protocol differs between versions) and its OS not Windows.

What a fio server cannot tell, and run.json says so instead of guessing: free space and the file
system (fio reports neither), the drive's identity, SMART and temperature (a fio job cannot read
them); the block device under the folder comes from fio's ``disk_util`` when the server is Linux.
"""
from __future__ import annotations

import errno
import os
import signal
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from app import __version__
from app.engines.fio.remote_result import LIVE_SERIES, parse_banner, probe_devices
from app.host import host_info
from app.params import values_json
from app.paths import CheckedTarget, TargetRefused, new_run_id
from app.paths.remote_target import ancestors, check_remote_folder, parse_remote
from app.paths.target import DATA_DIR, shown
from app.plan import experiments_from_settings, plan_run
from app.plausibility import at_run_start
from app.runs_root import check_runs_root
from app.store import RunStore, default_runs_root
from jobs.engines import locate_fio
from jobs.events import LogMessage, RunStarted, TrialFailed, TrialFinished
from jobs.remote import RemoteFioEngine, RemoteFolder
from jobs.remote_jobs import EISDIR, ENOENT, RemoteJobs, read_probe
from jobs.runner import TrialRunner

UNKNOWN = "not available remotely: a fio server reports neither"
_PLATFORMS = {"Linux": "linux", "Mac": "darwin"}


@dataclass(frozen=True)
class RemoteFacts:
    hostname: str
    os: str
    fio_version: str
    device: str | None


def check_remote(jobs: RemoteJobs, folder: PurePosixPath, local_version: str) -> RemoteFacts:
    """Probe the folder through the server, read-only; raises TargetRefused (one line)."""
    where, banner, devices = str(jobs.address), None, []
    for path in ancestors(folder):
        outcome = jobs.run(read_probe(path), banner=banner is None)
        if banner is None:
            banner = _check_server(outcome, where, local_version)
        code = outcome.errno()
        if code == EISDIR:
            devices = probe_devices(outcome.stdout)
            continue
        what = "the remote target" if path == folder else "its parent folder"
        if code == ENOENT:
            raise TargetRefused(f"{what} {shown(path)} does not exist on {where}; create the folder "
                                f"there first (mkdir -p {shown(folder)}) or check the path")
        if code in (0, errno.EIO):
            raise TargetRefused(f"{what} {shown(path)} on {where} is a file or a device, not a folder; "
                                "choose a folder on the drive (the app never writes to raw devices)")
        if code is None:
            raise TargetRefused(f"the fio server at {where} ran no probe of {shown(path)}: "
                                f"{outcome.reason()}")
        raise TargetRefused(f"{what} {shown(path)} on {where} cannot be used: {os.strerror(code)}")
    return RemoteFacts(banner["hostname"], banner["os"], banner["fio"], devices[0] if devices else None)


def _check_server(outcome, where: str, local_version: str) -> dict:
    banner = parse_banner(outcome.stdout)
    if banner is None:
        raise TargetRefused(f"no fio server answered at {where} ({outcome.reason()}); start one there "
                            f"with: fio --server=ip:127.0.0.1,{where.rsplit(':', 1)[1]} (see README, "
                            "Remote profiling)")
    if banner["fio"] != local_version:
        raise TargetRefused(f"the fio server at {where} runs {banner['fio']} but this machine has "
                            f"{local_version}; fio's client and server must be the same version")
    if banner["os"] == "Windows":
        raise TargetRefused(f"the fio server at {where} runs on Windows, which remote targets do "
                            "not support (their paths need ':'); use DiskSpd or fio there directly")
    return banner


class RemoteTrialRunner(TrialRunner):
    """The trial runner, saying right after RunStarted what a remote run cannot show live."""

    notes: tuple[LogMessage, ...] = ()
    #: fio's client, on SIGTERM, tells its server to stop the job; SIGKILL would leave it running
    on_app_death = int(signal.SIGTERM)

    def events(self):
        inner = super().events()
        try:
            for event in inner:
                if isinstance(event, (TrialFinished, TrialFailed)):
                    self._keep_job_argv()
                yield event
                if isinstance(event, RunStarted):
                    yield from self.notes
        finally:
            inner.close()  # a consumer that stops iterating ends the run like a cancel

    def _keep_job_argv(self) -> None:
        """run.json's trial keeps ``argv`` (the client command that ran) and ``job_argv``: the
        job file's options as a local fio argv, which reports read (data pattern, options)."""
        self.store.record["trials"][-1]["job_argv"] = list(self.engine.last_job_argv)
        self.store.save()


def prepare_remote_run(names, settings, remote: str, target: str, runs_root: Path | None, seed,
                       command_line, engine_path, watchdog_grace_s: float, engine: str | None,
                       cancel) -> tuple | None:
    """(plan, target, store, runner, cancel) for jobs.session.RunSession, or None when ``cancel``
    was set before the run folder existed. Raises like a local run (ParamError, TargetRefused,
    EngineNotFound) with nothing written."""
    if engine not in (None, "fio"):
        raise TargetRefused("a remote target runs fio (through fio --server); leave out --engine")
    experiments = experiments_from_settings(names, settings)
    check_runs_root(runs_root)
    address, folder = parse_remote(remote), check_remote_folder(target)
    local = locate_fio(engine_path)
    plan = plan_run(experiments, seed)
    jobs = RemoteJobs(local.path, address)
    try:
        facts = check_remote(jobs, folder, local.version)
        if cancel.is_set():
            jobs.close()
            return None
        checked = CheckedTarget(folder, folder / DATA_DIR, 0, 0, None, target, None)
        remote_engine = RemoteFioEngine(local, jobs, _PLATFORMS.get(facts.os, facts.os.lower()))
        record = _record(experiments, plan, checked, facts, address, local, remote_engine, command_line)
        store = RunStore.create(runs_root or default_runs_root(), [e.id for e in experiments], record)
    except BaseException:
        jobs.close()
        raise
    remote_engine.job_dir = store.dir / "raw"
    owner = RemoteFolder(checked, record["run_id"], jobs)
    runner = RemoteTrialRunner(plan, owner, remote_engine, store, cancel, watchdog_grace_s)
    runner.notes = (
        LogMessage(f"remote run on {address} ({facts.hostname}): live charts show "
                   f"{' and '.join(LIVE_SERIES['available'])} only; not available live remotely: "
                   f"{', '.join(LIVE_SERIES['not_available'])} (each trial's latency is in its results and samples.csv when it ends)",
                   "warning"),
        LogMessage(f"free space on {address} is not checked ({UNKNOWN}); the test file needs "
                   f"{max(e.size for e in experiments) >> 20} MiB there", "warning"))
    return plan, checked, store, runner, cancel


def _record(experiments, plan, checked, facts: RemoteFacts, address, local, engine, command_line) -> dict:
    return {
        "app_version": __version__,
        "run_id": new_run_id(),
        "command_line": command_line,
        "experiments": [{"id": e.id, "title": e.title, "params": values_json(e),
                         "workload_keys": [w.key for w in e.workloads()]} for e in experiments],
        "seed": plan.seed,
        "target": {"folder": str(checked.folder), "requested": checked.requested,
                   "data_dir": str(checked.data_dir), "fs_type": None, "free_bytes": None,
                   "total_bytes": None, "medium": None,
                   "remote": {"host": address.host, "port": address.port,
                              "fio_version": facts.fio_version, "hostname": facts.hostname,
                              "os": facts.os, "device": facts.device, "free_space": UNKNOWN,
                              "fs_type": UNKNOWN, "live": LIVE_SERIES}},
        "drive": {"device": facts.device, "remote": str(address),
                  "reason": "identity, SMART and temperature are not available remotely "
                            "(a fio job cannot read them)"},
        "plausibility": {**at_run_start({}, None), "link": None, "link_reason": "not available remotely"},
        "direct_io": {"requested": any(e.direct for e in experiments), "in_effect": None,
                      "how": "not probed: the target is remote"},
        "vendor_spec": None,
        "temperature": {"source": None, "detail": None, "reason": "not available remotely"},
        "host": host_info(),
        "engine": {"name": "fio", "version": local.version, "path": local.path,
                   "client_of": str(address)},
        "planned_trials": [t.to_json() for t in plan.trials],
    }
