"""Live values: one :class:`Interval` as an engine reports it, one :class:`Sample` as the run
keeps it. They share their rates (:class:`Rates`) and differ only in how they are placed in time:
an engine knows wall-clock stamps and interval lengths, the run knows its trial and run time.

Rates are per interval, summed over the jobs of a trial (not fio's running averages); MB/s is
10^6 B/s; latency is the interval's mean latency in µs, *total* latency when the engine reports
it (fio ``lat_ns``), else completion latency (fio) or the OS's mean service time (DiskSpd's live
counters); None when no I/O completed.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, kw_only=True)
class Rates:
    read_MBps: float
    read_iops: float
    read_lat_us: float | None
    write_MBps: float
    write_iops: float
    write_lat_us: float | None
    read_p99_us: float | None = None    # from the interval's own histogram (fio json+), when it
    write_p99_us: float | None = None   # holds >= 1,000 I/Os (10 beyond the p99); else None

    def rates(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in RATE_NAMES}


RATE_NAMES = tuple(f.name for f in fields(Rates))


@dataclass(frozen=True, kw_only=True)
class Interval(Rates):
    """One live interval from an engine: when it ended (epoch seconds, None when the engine gives
    no clock) and how long it lasted (s)."""

    end_epoch_s: float | None
    duration_s: float

    def at(self, trial: int, t_s: float, temperature_c: float | None = None) -> Sample:
        """This interval as a run sample of ``trial``, ``t_s`` seconds into the run."""
        return Sample(trial=trial, t_s=t_s, temperature_c=temperature_c,
                      duration_s=self.duration_s, **self.rates())


SAMPLE_COLUMNS = ("trial", "t_s", "read_MBps", "read_iops", "read_lat_us",
                  "write_MBps", "write_iops", "write_lat_us", "temperature_c",
                  "read_p99_us", "write_p99_us", "duration_s")
"""samples.csv's columns, in file order (files written before ``duration_s`` lack it)."""


@dataclass(frozen=True, kw_only=True)
class Sample(Rates):
    """One row of samples.csv: an interval of ``trial`` ending ``t_s`` seconds into the run, with
    the drive temperature read at that moment when one is known, and how long the interval
    lasted as the engine timed it (``duration_s``, what its rates are per; None in files written
    before it was kept). Why both: ``t_s`` is when the engine's report came, which a busy host
    delays by a fraction of an interval, while its rates are over the engine's own clock, so
    data written (rate x time) is exact only with ``duration_s``; and a trial's first interval is
    short (the engine's report timer starts before the job does)."""

    trial: int
    t_s: float
    temperature_c: float | None = None
    duration_s: float | None = None

    def row(self) -> dict[str, Any]:
        """Its values by column (all plain numbers: ``asdict``'s deep copy is not needed, and at
        ten samples a second it was a tenth of the worker's time)."""
        return {k: getattr(self, k) for k in SAMPLE_COLUMNS}
