"""DiskSpd (Windows): argv builders (argv.py), the ``-Rxml`` parser (xml.py) and the text parser
(text.py), and :class:`DiskSpdEngine`, which ties them to one DiskSpd executable.

Pure, like all of app/engines. What needs the OS is handed in by jobs/ when it builds the engine
(jobs/engine/factory.py): ``live``, a factory of live adapters that read the OS disk counters, and
``stop``, which turns an event name into a callable that sets that named event (Win32). Without
them the engine still runs: no live values until the XML's series arrives, and a stop that does
nothing, so process control terminates, then kills.
"""
from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.engines.base import LiveAdapter
from app.engines.diskspd.argv import (
    EXECUTABLES,
    PREPARE_BS,
    PREPARE_QD,
    PREPARE_RATE_MiBps,
    event_name,
    parse_version,
    prepare_argv,
    prepare_seconds,
    size_arg,
    trial_argv,
    version_argv,
    write_buffer_bytes,
    write_percent,
)
from app.engines.diskspd.text import looks_like_diskspd, parse_diskspd_output
from app.engines.diskspd.xml import xml_intervals
from app.experiments.plan import Trial
from app.model.interval import Interval

__all__ = ["EXECUTABLES", "PREPARE_BS", "PREPARE_QD", "PREPARE_RATE_MiBps", "DiskSpdEngine",
           "XmlSeriesLive", "event_name", "looks_like_diskspd", "parse_diskspd_output",
           "parse_version", "prepare_argv", "prepare_seconds", "size_arg", "trial_argv",
           "version_argv", "write_buffer_bytes", "write_percent"]

LiveFactory = Callable[[Trial, Path], LiveAdapter]
StopFactory = Callable[[str], Callable[[], None]]


class XmlSeriesLive:
    """Live adapter without OS counters: nothing while DiskSpd runs (it prints nothing), then
    DiskSpd's own ``-D`` series from the XML, ending when the process has just exited."""

    def __init__(self, clock: Callable[[], float] = time.time):
        self._clock = clock

    replaces_live_series = True
    feed_every_s: float | None = None   # nothing live: the XML series comes at the end

    def feed(self, text: str) -> list[Interval]:
        return []

    def final_intervals(self, text: str) -> list[Interval] | None:
        return xml_intervals(text, self._clock())


def _size_or_zero(path: Path | str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _no_stop() -> None:
    """No named event to set (outside Windows, or no stop given); terminate and kill follow."""


class DiskSpdEngine:
    """DiskSpd found on this machine (an :class:`app.engines.base.Engine`): its path and version,
    and the adapter functions of this package.

    ``version`` reads "DiskSpd 2.2" (from ``-?``) so that progress lines and reports name the
    tool, as fio's "fio-3.33" does; measurements keep the XML's ``<Version>`` text as it is.

    ``trial_argv``/``prepare_argv`` remember the event name they put into ``-yp`` (per stop
    token) for ``graceful_stop``: the runner always asks for the argv first, then for the live
    adapter and the stop callable."""

    name = "diskspd"

    def __init__(self, path: str, version: str | None, live: LiveFactory | None = None,
                 stop: StopFactory | None = None):
        self.path = path
        self.version = version
        self._live = live
        self._stop = stop
        self._events: dict[str, str] = {}
        self._nonce = itertools.count(1)

    def _event(self, stop_token: Path) -> str:
        name = event_name(stop_token, next(self._nonce))
        self._events[str(stop_token)] = name
        return name

    def trial_argv(self, trial: Trial, test_file: Path, stop_token: Path) -> list[str]:
        """``-c`` only when the test file is not yet written (the app creates it empty, see
        app.paths: it is missing or shorter than the trial's size; argv.py docstring)."""
        return trial_argv(self.path, trial, test_file, self._event(stop_token),
                          create=_size_or_zero(test_file) < trial.size_bytes)

    def prepare_argv(self, test_file: Path, size_bytes: int, stop_token: Path,
                     direct: bool = True) -> list[str]:
        return prepare_argv(self.path, test_file, size_bytes, self._event(stop_token), direct)

    def graceful_stop(self, stop_token: Path) -> Callable[[], None]:
        name = self._events.get(str(stop_token)) or event_name(stop_token)
        return self._stop(name) if self._stop is not None else _no_stop

    def live(self, trial: Trial, test_file: Path) -> LiveAdapter:
        return self._live(trial, test_file) if self._live is not None else XmlSeriesLive()

    def parse_final(self, text: str, source: str | None = None,
                    seen: LiveAdapter | None = None) -> list[dict[str, Any]]:
        return parse_diskspd_output(text, source)
