"""What the runner asks of an engine, written down once so fio and DiskSpd answer the same way.

The runner (jobs/run/runner.py) drives any engine through :class:`Engine` and never asks which one it
has. Everything here is pure: an engine object builds argv lists and parses text. Starting the
process, stopping it, reading OS counters and probing ``--version`` are jobs/ (jobs/engine/factory.py
locates and probes, jobs/engine/diskspd_live.py samples OS counters and sets DiskSpd's stop event), so
the parsers can be tested on fixture text without a machine that has the engine.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

from app.model.interval import Interval

if TYPE_CHECKING:  # only for annotations: the live parsers stay light to import
    from app.experiments.plan import Trial


class Hold(NamedTuple):
    """A trial started ahead and held before its first I/O (jobs/run/held_starts.py): its argv, the
    line its stdout shows once per job when it waits at the hold, and the line it shows once per
    job when its I/O is over (its result is then fixed; only the engine's tear-down is left, and
    the next trial may start under it). None: the end is seen only when the engine exits."""

    argv: list[str]
    ready_marker: bytes
    jobs: int
    io_done_marker: bytes | None = None


@runtime_checkable
class LiveAdapter(Protocol):
    """Live values of one trial. ``feed`` is called with the stdout text that arrived since the
    last call as it arrives, and at least every ``feed_every_s`` seconds when that is not None
    (with empty text, so an adapter whose engine prints nothing can sample a clock; without
    one, a quiet engine is looked at once a second). When the trial has ended, ``final_intervals`` gets the whole stdout and may return a
    series that replaces the live one in samples.csv (DiskSpd's ``-D`` series, exact where the
    live one came from OS counters); ``replaces_live_series`` says beforehand whether it will, so
    live samples are kept apart until then."""

    replaces_live_series: bool
    feed_every_s: float | None

    def feed(self, text: str) -> list[Interval]: ...

    def final_intervals(self, text: str) -> list[Interval] | None: ...


@runtime_checkable
class Engine(Protocol):
    """An engine found on this machine, as the runner uses it.

    - ``name`` ("fio", "diskspd"), ``version`` (for run.json and progress lines), ``path``;
    - ``trial_argv``: the argv of one trial; ``stop_token`` is a path private to the run that the
      engine may use to be told to stop (fio's trigger file; DiskSpd names its event after it);
    - ``prepare_argv``: fill the test file once before reads, or None when the engine fills it
      itself;
    - ``graceful_stop``: a callable asking a running engine to end and print its result; process
      control calls it first, then terminates, then kills;
    - ``live``: a :class:`LiveAdapter` for one trial, asked for after ``trial_argv``;
    - ``parse_final``: the process's stdout -> measurements; ``seen``, the trial's live adapter,
      may spare parsing again what it parsed while the trial ran.

    Optional (looked up with getattr, so an engine without it starts each trial the usual way):
    ``held_argv(argv, gate_fd, jobs)`` -> :class:`Hold` or None: the trial started ahead, held
    after its set-up until ``jobs`` lines arrive on the inherited pipe ``gate_fd``.
    """

    name: str
    path: str

    @property
    def version(self) -> str | None: ...

    def trial_argv(self, trial: Trial, test_file: Path, stop_token: Path) -> list[str]: ...

    def prepare_argv(self, test_file: Path, size_bytes: int, stop_token: Path,
                     direct: bool = True) -> list[str] | None: ...

    def graceful_stop(self, stop_token: Path) -> Callable[[], None]: ...

    def live(self, trial: Trial, test_file: Path) -> LiveAdapter: ...

    def parse_final(self, text: str, source: str | None = None,
                    seen: LiveAdapter | None = None) -> list[dict[str, Any]]: ...
