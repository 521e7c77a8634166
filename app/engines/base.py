"""What the runner asks of an engine, written down once so fio and DiskSpd answer the same way.

The runner (jobs/runner.py) drives any engine through :class:`Engine` and never asks which one it
has. Everything here is pure: an engine object builds argv lists and parses text. Starting the
process, stopping it, reading OS counters and probing ``--version`` are jobs/ (jobs/engines.py
locates and probes, jobs/diskspd_live.py samples OS counters and sets DiskSpd's stop event), so
the parsers can be tested on fixture text without a machine that has the engine.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:  # only for annotations: the live parsers that need Interval stay light to import
    from app.plan import Trial


@dataclass(frozen=True)
class Interval:
    """One live interval, summed over the jobs of a trial. Latency is mean *total* latency (µs)
    when the engine reports it (fio ``lat_ns``), else completion latency (fio) or the OS's mean
    service time (DiskSpd's live counters); None when no I/O completed."""

    end_epoch_s: float | None
    duration_s: float
    read_MBps: float
    read_iops: float
    read_lat_us: float | None
    write_MBps: float
    write_iops: float
    write_lat_us: float | None


@runtime_checkable
class LiveAdapter(Protocol):
    """Live values of one trial. ``feed`` is called at least every 0.2 s with the stdout text that
    arrived since the last call (possibly empty, so an engine that prints nothing can sample a
    clock). An adapter may also have ``final_intervals(stdout_text) -> list[Interval] | None``,
    whose series then replaces the live one in samples.csv (DiskSpd's ``-D`` series); a Protocol
    cannot say "optional", so the runner looks it up with ``getattr``."""

    def feed(self, text: str) -> list[Interval]: ...


@runtime_checkable
class Engine(Protocol):
    """An engine found on this machine (DESIGN §4), as the runner uses it.

    - ``name`` ("fio", "diskspd"), ``version`` (for run.json and progress lines), ``path``;
    - ``trial_argv``: the argv of one trial; ``stop_token`` is a path private to the run that the
      engine may use to be told to stop (fio's trigger file; DiskSpd names its event after it);
    - ``prepare_argv``: fill the test file once before reads, or None when the engine fills it
      itself;
    - ``graceful_stop``: a callable asking a running engine to end and print its result; process
      control calls it first, then terminates, then kills (DESIGN §7.4);
    - ``live``: a :class:`LiveAdapter` for one trial, asked for after ``trial_argv``;
    - ``parse_final``: the process's stdout -> measurements (DESIGN §3.2).
    """

    name: str
    version: str | None
    path: str

    def trial_argv(self, trial: Trial, test_file: Path, stop_token: Path) -> list[str]: ...

    def prepare_argv(self, test_file: Path, size_bytes: int, stop_token: Path,
                     direct: bool = True) -> list[str] | None: ...

    def graceful_stop(self, stop_token: Path) -> Callable[[], None]: ...

    def live(self, trial: Trial, test_file: Path) -> LiveAdapter: ...

    def parse_final(self, text: str, source: str | None = None) -> list[dict]: ...
