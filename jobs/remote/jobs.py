"""Small fio jobs through a fio server, each waited for with a bound.

They validate the remote folder before anything is written, remove the run's test files and, at
the very end, its empty data folder. Facts they rest on (fio 3.33 client and server, verified):

- every job through the server costs ~1.3 s (app/remote/extra_time.py): the server's connection loop
  idles up to 1 s before it starts a job it has received (server.c ``handle_connection``), so
  jobs are few;
- ``--readonly`` (a command-line flag the client passes on; ``readonly`` in a job file is a "Bad
  option" and the job is silently dropped) refuses writes and refuses to create a missing file;
- but fio creates missing *parent folders* of a filename even under ``--readonly``
  (filesetup.c ``create_work_dirs``): a path is probed only once its parent is known to exist;
- ``unlink=1`` deletes the job's file under ``--readonly`` too; a missing file gives ENOENT;
- fio has no way to remove a folder but its ``exec`` engine, which runs a program on the server:
  ``program=rmdir`` (rmdir never removes a folder that still holds anything). exec splits its
  arguments at spaces and expands ``%r``/``%n``, so a data folder whose path has either is left.
"""
from __future__ import annotations

import secrets
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from app.engines.fio.jobfile import client_address, client_argv
from app.engines.fio.remote_result import client_problem, probe_answers
from app.paths.target import shown
from app.remote.target import RemoteAddress
from jobs.engine.process import NO_WINDOW

JOB_TIMEOUT_S = 30.0
ENOENT, EISDIR = 2, 21


@dataclass(frozen=True)
class JobOutcome:
    rc: int | None       # None: no answer within the time limit
    stdout: str
    stderr: str

    def reason(self) -> str:
        text = client_problem(self.stdout) or self.stderr.strip().replace("\n", "; ")
        return text or (f"no answer within {JOB_TIMEOUT_S:.0f} s" if self.rc is None else f"rc {self.rc}")

    def errno(self) -> int | None:
        """The error of the (first) job, None when the server ran none."""
        answers = probe_answers(self.stdout)
        return answers[0][0] if answers else None


class RemoteJobs:
    """Jobs through one server, started from a private working folder (0700): fio reads a local
    file named like the ``--client`` value as a host list, so the client never runs elsewhere."""

    def __init__(self, fio: str, address: RemoteAddress):
        self.fio, self.address = fio, address
        self.client = client_address(address.host, address.port, address.ipv6)
        self._workdir: Path | None = None   # made at the first job (a dry run makes none)

    @property
    def workdir(self) -> Path:
        if self._workdir is None:
            self._workdir = Path(tempfile.mkdtemp(prefix="ssd-profiler-remote-"))
        return self._workdir

    def run(self, text: str, readonly: bool = True, banner: bool = False) -> JobOutcome:
        job = self.workdir / f"job-{secrets.token_hex(4)}.fio"
        job.write_text(text, encoding="utf-8")
        flags = (["--readonly"] if readonly else []) + [
            f"--output-format={'normal,json' if banner else 'json'}"]  # the banner needs normal
        argv = client_argv(self.fio, self.client, flags, str(job))
        try:
            done = subprocess.run(argv, cwd=self.workdir, capture_output=True, text=True,
                                  errors="replace", timeout=JOB_TIMEOUT_S, stdin=subprocess.DEVNULL,
                                  creationflags=NO_WINDOW)
            return JobOutcome(done.returncode, done.stdout, done.stderr)
        except subprocess.TimeoutExpired as exc:
            return JobOutcome(None, _text(exc.stdout), _text(exc.stderr))
        except OSError as exc:
            return JobOutcome(None, "", f"cannot run {self.fio}: {exc.strerror}")
        finally:
            job.unlink(missing_ok=True)

    def close(self) -> None:
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)


def _text(data: bytes | str | None) -> str:
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else (data or "")


def read_probe(path: PurePosixPath, unlink: bool = False) -> str:
    """A read-only 4 KiB job on ``path``: a folder answers EISDIR, a missing path ENOENT, a file or
    device reads (or EIO when shorter than 4 KiB); with ``unlink`` fio deletes the file after."""
    return (f"[{'remove' if unlink else 'probe'}]\nfilename={path}\nrw=read\nbs=4k\nsize=4k\n"
            "ioengine=psync\n" + ("unlink=1\n" if unlink else ""))


def remove_data_dir(jobs: RemoteJobs, data_dir: PurePosixPath) -> list[str]:
    """rmdir the (empty) data folder through fio's exec engine, then check it is gone; a warning
    line when it stays (it holds nothing of ours then, or its path cannot be passed to exec)."""
    where = str(jobs.address)
    left = [f"the empty folder {shown(data_dir)} stays on {where}: fio cannot remove folders "
            f"whose path has a space or '%'; remove it there with rmdir"]
    if " " in str(data_dir) or "%" in str(data_dir):
        return left
    jobs.run(f"[rmdir]\nioengine=exec\nprogram=rmdir\narguments={data_dir}\nstd_redirect=0\n"
             "grace_time=0\ntime_based\nruntime=200ms\n", readonly=False)
    after = jobs.run(read_probe(data_dir))
    if after.errno() == ENOENT:
        return []
    if after.errno() == EISDIR:  # still there: not empty (not ours to empty), or no rmdir there
        return [f"the folder {shown(data_dir)} stays on {where} (rmdir did not remove it: it is "
                "not empty, or the server has no rmdir)"]
    return [f"could not check that {shown(data_dir)} was removed on {where}: {after.reason()}"]
