"""fio (every OS): argv builders (argv.py), the live JSON-stream splitter (live.py) and the final
parser (result.py), and :class:`FioEngine`, which ties them to one fio executable.

Pure, like all of app/engines: jobs/engine/factory.py finds fio and asks its ``--version`` before it
builds a :class:`FioEngine`, so the engine object never starts a process itself.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.engines.base import Hold, LiveAdapter
from app.engines.fio.argv import (
    HELD_MARKER,
    IO_DONE_MARKER,
    PERCENTILE_LIST,
    cpu_clock_argv,
    cpu_clock_passes,
    fio_path_arg,
    held_argv,
    ioengine_for,
    parse_version,
    prepare_argv,
    trial_argv,
    version_argv,
)
from app.engines.fio.live import FioLive
from app.engines.fio.result import parse_fio_text
from app.engines.fio.steady import with_steady_rates
from app.experiments.plan import Trial

__all__ = ["PERCENTILE_LIST", "FioEngine", "cpu_clock_argv", "cpu_clock_passes", "FioLive", "fio_path_arg",
           "ioengine_for", "parse_version", "prepare_argv", "trial_argv", "version_argv"]


class FioEngine:
    """fio found on this machine (an :class:`app.engines.base.Engine`): its path and version, and
    the adapter functions of this package."""

    name = "fio"
    #: fio stats and opens ``--filename`` like any file, so ``/proc/self/fd/N`` (an inherited
    #: descriptor of the app's own test file) works, direct I/O included: checked with fio 3.33
    #: under strace (newfstatat, then openat(O_RDWR|O_CREAT|O_DIRECT) in its job thread).
    takes_fd_paths = True

    def __init__(self, path: str, version: str, cpu_clock: bool = False):
        self.path = path
        self.version = version
        self.cpu_clock = cpu_clock  # fio's CPU-clock test passed once for this run

    def trial_argv(self, trial: Trial, test_file: Path, trigger_file: Path) -> list[str]:
        return trial_argv(self.path, trial, test_file, trigger_file, cpu_clock=self.cpu_clock)

    def held_argv(self, argv: list[str], gate_fd: int, jobs: int) -> Hold | None:
        """``argv`` held before its first I/O until ``jobs`` lines come through ``gate_fd``
        (None: cannot hold)."""
        held = held_argv(argv, gate_fd)
        return None if held is None else Hold(held, HELD_MARKER, jobs, IO_DONE_MARKER)

    def prepare_argv(self, test_file: Path, size_bytes: int, trigger_file: Path,
                     direct: bool = True) -> list[str]:
        return prepare_argv(self.path, test_file, size_bytes, trigger_file, direct)

    @staticmethod
    def graceful_stop(trigger_file: Path) -> Callable[[], None]:
        """fio ends all jobs, prints its final JSON and exits 0 when this file appears."""
        return trigger_file.touch

    def live(self, trial: Trial, test_file: Path) -> FioLive:
        return FioLive()

    def parse_final(self, text: str, source: str | None = None,
                    seen: LiveAdapter | None = None) -> list[dict[str, Any]]:
        """One of the app's own trials: fio's result with its IOPS and MB/s the steady rate
        from its status documents (app/engines/fio/steady.py), counted as the trial's live
        stream (``seen``) parsed them where it did; an import keeps fio's."""
        results = parse_fio_text(text, source)
        counts = seen.counts if isinstance(seen, FioLive) else None
        return [with_steady_rates(m, text, counts) for m in results] if len(results) == 1 else results
