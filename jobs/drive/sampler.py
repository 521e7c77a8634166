"""A thread that reads the drive temperature at a fixed rate beside the engine.

Readings are ``(t_s, temperature_c)`` tuples on the runner's clock (``t_s = time - t0_epoch``, the
same clock as engine samples), taken on ticks aligned to t0 (t_s ~ 0, 1, 2 … at 1 Hz) so they line
up with fio's per-second intervals. The interval is never below 0.5 s: an NVMe temperature read
fetches a SMART log page, and polling too often has been reported to warm the drive
(acidanthera/bugtracker#2272). A failed read is kept as ``(t_s, None)`` so gaps stay visible; the
sampler keeps going (a drive can answer again) and logs once per run of failures.
Only tuples cross threads; ``stop()`` joins with a bound and never waits on a hung read.
Time comes from a ``Clock`` (``now`` and ``wait``), so tests can run the loop on a fake clock
in milliseconds instead of sleeping real seconds.
"""
from __future__ import annotations

import collections
import logging
import math
import threading
import time
from typing import Protocol

log = logging.getLogger(__name__)

MIN_INTERVAL_S = 0.5


class Source(Protocol):
    """What the sampler reads: an ``app.drive.thermal.TemperatureSource`` or anything with
    ``read() -> float`` that raises on failure."""

    def read(self) -> float: ...


class Clock(Protocol):
    """Where the sampler's time comes from: ``now()`` in seconds on the runner's clock, and
    ``wait(stop, timeout)``, which returns True as soon as ``stop`` is set, or False after
    ``timeout`` seconds of this clock have passed."""

    def now(self) -> float: ...

    def wait(self, stop: threading.Event, timeout: float) -> bool: ...


class SystemClock:
    """The runner's clock: epoch seconds (``time.time``, like ``t0_epoch`` and engine samples)."""

    def now(self) -> float:
        return time.time()

    def wait(self, stop: threading.Event, timeout: float) -> bool:
        return stop.wait(timeout)


SYSTEM_CLOCK = SystemClock()


class TemperatureSampler:
    """``start(t0_epoch, interval_s)``, then ``drain()`` new readings or ``latest()``; ``stop()``
    when the run ends. ``source`` is an ``app.drive.thermal.TemperatureSource`` (anything with
    ``read() -> float`` that raises on failure)."""

    def __init__(self, source: Source, interval_s: float = 1.0, clock: Clock = SYSTEM_CLOCK):
        self.source, self.clock = source, clock
        self.interval_s = self._checked(interval_s)
        self.t0 = 0.0
        self.last_error: str | None = None
        self.failures = 0
        self._lock = threading.Lock()
        self._new: collections.deque[tuple[float, float | None]] = collections.deque()
        self._all: list[tuple[float, float | None]] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @staticmethod
    def _checked(interval_s: float) -> float:
        if interval_s < MIN_INTERVAL_S:
            log.warning("temperature interval %.3g s raised to the minimum of %.1f s", interval_s, MIN_INTERVAL_S)
        return max(float(interval_s), MIN_INTERVAL_S)

    # -- control ------------------------------------------------------------------------------
    def start(self, t0_epoch: float, interval_s: float | None = None) -> None:
        if self._thread is not None:
            raise RuntimeError("the temperature sampler was already started")
        self.t0 = float(t0_epoch)
        if interval_s is not None:
            self.interval_s = self._checked(interval_s)
        self._thread = threading.Thread(target=self._loop, name="temperature-sampler", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> bool:
        """Ask the thread to end and wait at most ``timeout`` s; True when it has ended. A read
        still in flight (smartctl has its own timeout) finishes in the daemon thread, unused."""
        self._stop.set()
        if self._thread is None:
            return True
        self._thread.join(timeout)
        if self._thread.is_alive():
            log.warning("temperature sampler still busy after %.1f s; left to finish on its own", timeout)
            return False
        return True

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # -- readings -----------------------------------------------------------------------------
    def latest(self) -> tuple[float, float | None] | None:
        with self._lock:
            return self._all[-1] if self._all else None

    def drain(self) -> list[tuple[float, float | None]]:
        """Readings taken since the last drain, oldest first."""
        with self._lock:
            out = list(self._new)
            self._new.clear()
        return out

    def readings(self, t_from: float = -math.inf, t_to: float = math.inf) -> list[tuple[float, float | None]]:
        """All readings with ``t_from <= t_s <= t_to`` (e.g. one trial's, for throttle flags)."""
        with self._lock:
            return [r for r in self._all if t_from <= r[0] <= t_to]

    def temperature_at(self, t_s: float, max_age_s: float | None = None) -> float | None:
        """The latest valid reading at or before ``t_s``, at most ``max_age_s`` old (default two
        intervals): what to put into an engine sample's ``temperature_c``."""
        age = 2 * self.interval_s if max_age_s is None else max_age_s
        with self._lock:
            for when, value in reversed(self._all):
                if when <= t_s + 1e-6:
                    return value if value is not None and t_s - when <= age else None
        return None

    # -- thread -------------------------------------------------------------------------------
    def _next_tick(self, now: float) -> float:
        """The tick to read at: the current one if it passed less than a quarter interval ago
        (so a sampler started at t0 reads at t_s ~ 0), else the next one."""
        k = max(math.floor((now - self.t0) / self.interval_s), 0)
        tick = self.t0 + k * self.interval_s
        return tick if now - tick < 0.25 * self.interval_s else tick + self.interval_s

    def _loop(self) -> None:
        tick = self._next_tick(self.clock.now())
        while not self.clock.wait(self._stop, max(0.0, tick - self.clock.now())):
            before = self.clock.now()
            value = self._read()
            t_s = round((before + self.clock.now()) / 2 - self.t0, 3)
            with self._lock:
                self._all.append((t_s, value))
                self._new.append((t_s, value))
            tick += self.interval_s
            now = self.clock.now()
            if tick <= now:  # a slow read: skip the ticks it overran instead of bursting
                tick = self._next_tick(now)

    def _read(self) -> float | None:
        try:
            value = float(self.source.read())
        except Exception as exc:  # any failure of a sensor is a gap in the series, not a crash
            self.failures += 1
            if self.last_error != str(exc):
                log.warning("temperature read failed: %s", exc)
            self.last_error = str(exc)
            return None
        if self.last_error is not None:
            log.info("temperature readable again")
        self.last_error = None
        return value
