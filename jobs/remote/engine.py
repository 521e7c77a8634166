"""A remote target's engine: every trial runs as ``fio --client`` against one running
``fio --server``, or several at once.

:class:`RemoteFioEngine` is the :class:`app.engines.base.Engine` the runner drives: the same
argv builder as a local run (app/engines/fio/argv.py), rewritten into a job file plus the client's
flags (app/engines/fio/jobfile.py). With several servers one client process runs them all in
parallel (``--client=A flags jobA --client=B flags jobB``, app/engines/fio/multi_host.py) and
their results are combined into the trial's one measurement (app/engines/fio/host_sum.py); each
host gets its own test file name (:func:`host_file`), so two servers on one machine never share
a file. Its files on the servers are made and removed by jobs/remote/folder.py.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from app.engines.base import LiveAdapter
from app.engines.fio import FioEngine, prepare_argv, trial_argv
from app.engines.fio.jobfile import LIVE_DEBUG, job_text, live_options, split_argv
from app.engines.fio.multi_host import MultiHostLive, parse_multi_final
from app.engines.fio.remote_result import RemoteFioLive, ServerLost, parse_remote_final
from app.experiments.plan import Trial
from jobs.remote.jobs import RemoteJobs

log = logging.getLogger(__name__)


class RemoteServerLost(RuntimeError):
    """The fio server went away during the run: the remaining trials cannot run."""


def host_file(path: str | PurePosixPath | Path, index: int, hosts: int) -> PurePosixPath:
    """The test file of host ``index`` (0-based): the run's name itself with one host, else the
    name with ``-h1``, ``-h2``... before its suffix."""
    posix = PurePosixPath(path)
    return posix if hosts == 1 else posix.with_name(f"{posix.stem}-h{index + 1}{posix.suffix}")


class RemoteFioEngine:
    """fio on this machine driving one or several fio servers (an :class:`app.engines.base.Engine`)."""

    name = "fio"

    def __init__(self, local: FioEngine, jobs: RemoteJobs | Sequence[RemoteJobs], platform: str):
        self.hosts = [jobs] if isinstance(jobs, RemoteJobs) else list(jobs)
        self.path, self.version, self.platform = local.path, local.version, platform
        self.addresses = [str(j.address) for j in self.hosts]
        self.where = ", ".join(self.addresses)
        self.job_dir: Path | None = None    # the run folder's raw/, once it exists
        self.lost: str | None = None
        self.last_job_argv: list[str] = []  # the first host's job file as a local fio argv

    def trial_argv(self, trial: Trial, test_file: Path | PurePosixPath, stop_token: Path) -> list[str]:
        locals_ = [trial_argv(self.path, trial, self._file(test_file, i), stop_token, platform=self.platform)
                   for i in range(len(self.hosts))]
        return self._client_argv(locals_, trial.name, live_options(trial), [LIVE_DEBUG], stop_token)

    def prepare_argv(self, test_file: Path | PurePosixPath, size_bytes: int, stop_token: Path, direct: bool = True) -> list[str]:
        locals_ = [prepare_argv(self.path, self._file(test_file, i), size_bytes, stop_token, direct,
                                platform=self.platform) for i in range(len(self.hosts))]
        return self._client_argv(locals_, f"prepare_{PurePosixPath(test_file).stem}", [], [], stop_token)

    def _file(self, test_file: Path | PurePosixPath, index: int) -> PurePosixPath:
        return host_file(test_file, index, len(self.hosts))

    def _client_argv(self, locals_: list[list[str]], name: str, extra: list[str], flags: list[str],
                     stop_token: Path) -> list[str]:
        """One job file per host, in the run folder's raw/ (the exact job beside its output), or
        in the runner's private folder that holds the stop token. Each ``--client`` is followed
        at once by its job file, then by its flags (app/engines/fio/multi_host.py says why)."""
        if self.lost:
            raise RemoteServerLost(f"{self.lost}; the run stopped, finished trials are kept")
        folder = self.job_dir or Path(stop_token).parent
        argv = [self.path]
        for i, (jobs, local) in enumerate(zip(self.hosts, locals_, strict=True)):
            client, job = split_argv(local)
            if i == 0:
                self.last_job_argv = [local[0], *job, *(f"--{line}" for line in extra)]
            label = name if len(self.hosts) == 1 else f"{name}@{jobs.address}"
            path = folder / (re.sub(r"[^A-Za-z0-9._+-]", "_", label) + ".fio")
            self._write_job(path, job_text(job, extra))
            argv += [f"--client={jobs.client}", str(path), *client, *flags]
        return argv

    def _write_job(self, path: Path, text: str) -> None:
        path.write_text(text, encoding="utf-8")

    @staticmethod
    def graceful_stop(stop_token: Path) -> Callable[[], None]:
        """The client watches the trigger file and asks every server to stop its job (verified:
        final result, rc 0, within ~0.3 s)."""
        return stop_token.touch

    def live(self, trial: Trial, test_file: Path) -> RemoteFioLive:
        w = trial.workload
        direction = ("read" if w.rw in ("read", "randread") or w.rwmixread == 100 else
                     "write" if w.rw in ("write", "randwrite") or w.rwmixread == 0 else None)
        return RemoteFioLive(direction) if len(self.hosts) == 1 else MultiHostLive(direction, self.addresses)

    def parse_final(self, text: str, source: str | None = None,
                    seen: LiveAdapter | None = None) -> list[dict[str, Any]]:
        try:
            if len(self.hosts) == 1:
                return parse_remote_final(text, source)
            return parse_multi_final(text, self.addresses, source)
        except ServerLost as exc:  # the next trial_argv stops the run: every trial would fail
            self.lost = f"the fio server at {exc.hosts or self.where} stopped answering ({exc.problem})"
            raise
