"""A remote run's files on its fio server(s), made and removed by fio jobs.

:class:`RemoteFolder` answers the runner like :class:`app.paths.OwnedFolder` does, with what a
fio server allows: test files get an unpredictable name (run id + random token) and are removed
by a read-only fio job with ``unlink=1`` (jobs/remote/jobs.py); their identity cannot be checked
remotely and no lock can be taken there, which docs/usage.md ("Remote profiling") says. With several
servers each host has its own file (jobs/remote.host_file) and every job here runs on all hosts
at once (each costs ~1.3 s of the server's idle loop, so hosts are not waited for one by one).
"""
from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path, PurePosixPath
from typing import TypeVar

from app.paths import FileSwapped
from app.paths.owned import TEST_FILE_PREFIX, TEST_FILE_SUFFIX
from app.paths.target import CheckedTarget, shown
from jobs.remote.engine import host_file
from jobs.remote.jobs import ENOENT, RemoteJobs, read_probe, remove_data_dir

log = logging.getLogger(__name__)
T = TypeVar("T")


def on_each(hosts: Sequence[RemoteJobs], work: Callable[[int, RemoteJobs], T]) -> list[T]:
    """``work(index, host)`` for every host at once; the results in host order. Every job it
    runs is bounded (RemoteJobs.run), so this is too."""
    if len(hosts) <= 1:
        return [work(0, hosts[0])] if hosts else []
    with ThreadPoolExecutor(max_workers=len(hosts), thread_name_prefix="remote-host") as pool:
        return list(pool.map(lambda pair: work(*pair), enumerate(hosts)))


class RemoteFolder:
    """``<folder>/ssd-profiler-data`` on each remote machine, for one run (the runner's owner)."""

    def __init__(self, target: CheckedTarget, run_id: str, jobs: RemoteJobs | Sequence[RemoteJobs]):
        self.target, self.run_id = target, run_id
        self.hosts = [jobs] if isinstance(jobs, RemoteJobs) else list(jobs)
        self._files: set[str] = set()
        #: why the servers are not asked any more (one stopped answering): a removal job would
        #: only wait out its own timeout on each, so what is left there is named instead
        self.lost: str | None = None

    def new_test_file(self, tag: str, size_bytes: int) -> PurePosixPath:
        """Only a name: fio creates the file with the first job (it cannot be made exclusively
        from here); the random part keeps anyone from planting a link under it beforehand."""
        safe = re.sub(r"[^a-z0-9-]", "-", tag.lower())[:40]
        name = f"{TEST_FILE_PREFIX}{self.run_id}-{safe}-{secrets.token_hex(8)}{TEST_FILE_SUFFIX}"
        self._files.add(name)
        return PurePosixPath(self.target.data_dir) / name

    def verify(self, path: PurePosixPath | Path) -> None:
        """Only that the name is one this run made: a file's identity cannot be read remotely."""
        if PurePosixPath(path).name not in self._files or PurePosixPath(path).parent != PurePosixPath(self.target.data_dir):
            raise FileSwapped(f"{shown(path)} is not a file this run created")

    def remove(self, path: PurePosixPath | Path) -> bool:
        """Delete a test file through every server; True when it is gone everywhere (or was
        never made)."""
        return not self._remove(path)

    def _remove(self, path: PurePosixPath | Path) -> list[tuple[str, PurePosixPath]]:
        """(host, its file) of each host where its file could not be removed."""
        self.verify(path)
        n = len(self.hosts)
        if self.lost:
            return [(str(j.address), host_file(path, i, n)) for i, j in enumerate(self.hosts)]

        def unlink(i: int, jobs: RemoteJobs) -> tuple[str, PurePosixPath] | None:
            mine = host_file(path, i, n)
            outcome = jobs.run(read_probe(mine, unlink=True))
            if outcome.rc == 0 or outcome.errno() == ENOENT:  # ENOENT: never laid out
                return None
            log.info("removing %s on %s failed: %s", mine, jobs.address, outcome.reason())
            return str(jobs.address), mine

        left = [where for where in on_each(self.hosts, unlink) if where]
        if not left:
            self._files.discard(PurePosixPath(path).name)
        return left

    def release(self) -> list[str]:
        """Remove the test files still named here, then try to remove the data folder on each
        host whose files are gone; one warning line per thing left on a remote machine."""
        kept, dirty = [], set()
        for name in sorted(self._files):
            path = PurePosixPath(self.target.data_dir) / name
            for where, mine in self._remove(path):
                dirty.add(where)
                why = f" ({self.lost})" if self.lost else ""
                kept.append(f"{shown(mine)} could not be removed on {where}{why}; remove it there "
                            "yourself")
        clean = [j for j in self.hosts if str(j.address) not in dirty]
        for lines in on_each(clean, lambda _i, jobs: remove_data_dir(jobs, PurePosixPath(self.target.data_dir))):
            kept += lines
        for jobs in self.hosts:
            jobs.close()
        return kept

    def leftovers(self) -> list[tuple[Path, int]]:
        return []  # a fio server cannot list a folder

    def remove_leftovers(self) -> list[tuple[Path, int]]:
        return []
