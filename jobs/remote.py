"""A remote target's engine and files (issue 18): every trial runs as ``fio --client`` against a
running ``fio --server``, and every file the run makes there is made and removed by fio jobs.

:class:`RemoteFioEngine` is the :class:`app.engines.base.Engine` the runner drives: the same
argv builder as a local run (app/engines/fio/argv.py), rewritten into a job file plus the client's
flags (app/engines/fio/jobfile.py). :class:`RemoteFolder` answers the runner like
:class:`app.paths.OwnedFolder` does, with what a fio server allows: test files get an
unpredictable name (run id + random token) and are removed by a read-only fio job with
``unlink=1`` (jobs/remote_jobs.py); their identity cannot be checked remotely and no lock can be
taken there, which README's "Remote profiling" says.
"""
from __future__ import annotations

import logging
import re
import secrets
from pathlib import Path, PurePosixPath

from app.engines.fio import FioEngine, prepare_argv, trial_argv
from app.engines.fio.jobfile import LIVE_DEBUG, client_argv, job_text, live_options, split_argv
from app.engines.fio.remote_result import RemoteFioLive, ServerLost, parse_remote_final
from app.paths import FileSwapped
from app.paths.owned import TEST_FILE_PREFIX, TEST_FILE_SUFFIX
from app.paths.target import CheckedTarget, shown
from app.plan import Trial
from jobs.remote_jobs import ENOENT, RemoteJobs, read_probe, remove_data_dir

log = logging.getLogger(__name__)


class RemoteServerLost(RuntimeError):
    """The fio server went away during the run: the remaining trials cannot run."""


class RemoteFioEngine:
    """fio on this machine driving a fio server (an :class:`app.engines.base.Engine`)."""

    name = "fio"

    def __init__(self, local: FioEngine, jobs: RemoteJobs, platform: str):
        self.path, self.version = local.path, local.version
        self.client, self.where, self.platform = jobs.client, str(jobs.address), platform
        self.job_dir: Path | None = None    # the run folder's raw/, once it exists
        self.lost: str | None = None
        self.last_job_argv: list[str] = []  # the job file's options as a local fio argv

    def trial_argv(self, trial: Trial, test_file, stop_token: Path) -> list[str]:
        local = trial_argv(self.path, trial, test_file, stop_token, platform=self.platform)
        return self._client_argv(local, trial.name, live_options(trial), [LIVE_DEBUG], stop_token)

    def prepare_argv(self, test_file, size_bytes: int, stop_token: Path, direct: bool = True) -> list[str]:
        local = prepare_argv(self.path, test_file, size_bytes, stop_token, direct, platform=self.platform)
        return self._client_argv(local, f"prepare_{PurePosixPath(test_file).stem}", [], [], stop_token)

    def _client_argv(self, local: list[str], name: str, extra: list[str], flags: list[str],
                     stop_token: Path) -> list[str]:
        """The job file goes to the run folder's raw/ (the exact job beside its output), or to
        the runner's private folder that holds the stop token."""
        if self.lost:
            raise RemoteServerLost(f"{self.lost}; the run stopped, finished trials are kept")
        client, job = split_argv(local)
        self.last_job_argv = [local[0], *job, *(f"--{line}" for line in extra)]
        folder = self.job_dir or Path(stop_token).parent
        path = folder / (re.sub(r"[^A-Za-z0-9._+-]", "_", name) + ".fio")
        path.write_text(job_text(job, extra), encoding="utf-8")
        return client_argv(self.path, self.client, [*client, *flags], str(path))

    @staticmethod
    def graceful_stop(stop_token: Path):
        """The client watches the trigger file and asks the server to stop the job (verified:
        final result, rc 0, within ~0.3 s)."""
        return stop_token.touch

    def live(self, trial: Trial, test_file) -> RemoteFioLive:
        w = trial.workload
        direction = ("read" if w.rw in ("read", "randread") or w.rwmixread == 100 else
                     "write" if w.rw in ("write", "randwrite") or w.rwmixread == 0 else None)
        return RemoteFioLive(direction)

    def parse_final(self, text: str, source: str | None = None) -> list[dict]:
        try:
            return parse_remote_final(text, source)
        except ServerLost as exc:  # the next trial_argv stops the run: every trial would fail
            self.lost = f"the fio server at {self.where} stopped answering ({exc.problem})"
            raise


class RemoteFolder:
    """``<folder>/ssd-profiler-data`` on the remote machine, for one run (the runner's owner)."""

    def __init__(self, target: CheckedTarget, run_id: str, jobs: RemoteJobs):
        self.target, self.run_id, self.jobs = target, run_id, jobs
        self._files: set[str] = set()

    def new_test_file(self, tag: str, size_bytes: int) -> PurePosixPath:
        """Only a name: fio creates the file with the first job (it cannot be made exclusively
        from here); the random part keeps anyone from planting a link under it beforehand."""
        safe = re.sub(r"[^a-z0-9-]", "-", tag.lower())[:40]
        name = f"{TEST_FILE_PREFIX}{self.run_id}-{safe}-{secrets.token_hex(8)}{TEST_FILE_SUFFIX}"
        self._files.add(name)
        return PurePosixPath(self.target.data_dir) / name

    def verify(self, path) -> None:
        """Only that the name is one this run made: a file's identity cannot be read remotely."""
        if PurePosixPath(path).name not in self._files or PurePosixPath(path).parent != self.target.data_dir:
            raise FileSwapped(f"{shown(path)} is not a file this run created")

    def remove(self, path) -> bool:
        """Delete a test file through the server; True when it is gone (or was never made)."""
        self.verify(path)
        outcome = self.jobs.run(read_probe(PurePosixPath(path), unlink=True))
        gone = outcome.rc == 0 or outcome.errno() == ENOENT  # ENOENT: never laid out
        if gone:
            self._files.discard(PurePosixPath(path).name)
        else:
            log.info("removing %s on %s failed: %s", path, self.jobs.address, outcome.reason())
        return gone

    def release(self) -> list[str]:
        """Remove the test files still named here, then try to remove the data folder; one
        warning line per thing left on the remote machine."""
        kept = []
        for name in sorted(self._files):
            path = PurePosixPath(self.target.data_dir) / name
            if not self.remove(path):
                kept.append(f"{shown(path)} could not be removed on {self.jobs.address}; "
                            "remove it there yourself")
        if not kept:
            kept += remove_data_dir(self.jobs, PurePosixPath(self.target.data_dir))
        self.jobs.close()
        return kept

    def leftovers(self) -> list:
        return []  # a fio server cannot list a folder

    def remove_leftovers(self) -> list:
        return []
