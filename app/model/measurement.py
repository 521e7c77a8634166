"""What an engine measured in one job, per direction, as run.json keeps it.

An engine's parser returns this shape as JSON-ready dicts; :meth:`Measurement.from_json` reads it
into types and :meth:`Measurement.to_json` gives it back equal key for key, so a run folder
written by any version reads the same, and a key the app does not know yet is carried in
``extra``, not dropped. Units are in the names: MB/s = 10^6 B/s, MiB/s = 2^20 B/s, latency µs.
"""
from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from app.model.status import JobStatus
from app.stats.histogram import Histogram

DIRECTIONS = ("read", "write")


class LatencyKind(enum.StrEnum):
    """Which latency a number is: *total* (submission to completion: fio ``lat_ns``, DiskSpd) or
    *completion* (fio ``clat_ns``, used only when total latency was not reported)."""

    TOTAL = "total"
    COMPLETION = "completion"


def frozen(data: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """A read-only copy: a value in the model cannot be changed behind its owner's back."""
    return MappingProxyType(dict(data or {}))


def unknown(data: Mapping[str, Any], known: frozenset[str]) -> Mapping[str, Any]:
    """The keys of ``data`` the model does not name (a set: a 10,000-trial run asks 750,000 times)."""
    return frozen({k: v for k, v in data.items() if k not in known})


@dataclass(frozen=True)
class DirectionResult:
    """One direction (read or write) of a job: rates over the whole job and latency statistics
    in µs (``min``, ``mean``, the percentiles of app.model.percentiles, ``max``; None where the
    engine reported none)."""

    iops: float | None
    MBps: float | None
    io_bytes: int | None = None
    MiBps: float | None = None
    runtime_ms: float | None = None
    lat_kind: LatencyKind | None = None
    lat_us: Mapping[str, float | None] | None = None
    hist: Histogram | None = None     # fio json+: the histogram of the ``lat_kind`` latency
    #: fio's issued and completed I/O counts, kept only where they disagree (a flag:
    #: app/engines/fio/completed.py); then its IOPS and MB/s count different I/Os
    issued_completed: tuple[int, int] | None = None
    #: the app's own runs: the runtime (ms) between the two status documents its rates rest on
    #: (app/engines/fio/steady.py); None: the engine's rates over its runtime
    steady_ms: float | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    KEYS = frozenset(("io_bytes", "iops", "MBps", "MiBps", "runtime_ms", "lat_kind", "lat_us", "hist_ns",
                      "issued_completed", "steady_ms"))
    NUMBERS = ("iops", "MBps", "io_bytes", "MiBps", "runtime_ms")   # read as they are (None: absent)

    def lat(self, key: str) -> float | None:
        """One latency statistic in µs (``mean``, ``p99.9``, ...), None when absent."""
        return (self.lat_us or {}).get(key)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DirectionResult:
        kind, lat, bins = data.get("lat_kind"), data.get("lat_us"), data.get("hist_ns")
        return cls(**{k: data.get(k) for k in cls.NUMBERS},
                   lat_kind=LatencyKind(kind) if kind else None,
                   lat_us=None if lat is None else frozen(lat),
                   hist=Histogram.from_bins(bins) if bins else None,
                   issued_completed=_counts(data.get("issued_completed")), steady_ms=data.get("steady_ms"),
                   extra=unknown(data, cls.KEYS))

    def to_json(self) -> dict[str, Any]:
        lat = None if self.lat_us is None else dict(self.lat_us)
        out: dict[str, Any] = {"io_bytes": self.io_bytes, "iops": self.iops, "MBps": self.MBps,
               "MiBps": self.MiBps, "runtime_ms": self.runtime_ms, "lat_kind": self.lat_kind,
               "lat_us": lat}
        if self.hist is not None:
            out["hist_ns"] = self.hist.to_bins()
        if self.issued_completed is not None:
            out["issued_completed"] = list(self.issued_completed)
        if self.steady_ms is not None:
            out["steady_ms"] = self.steady_ms
        return {**out, **self.extra}


def _counts(value: Any) -> tuple[int, int] | None:
    """Two counts as run.json keeps them (``[issued, completed]``), else None."""
    if isinstance(value, (list, tuple)) and len(value) == 2 \
            and all(type(v) is int and v >= 0 for v in value):
        return int(value[0]), int(value[1])
    return None


def count_caveat(direction: str, counts: tuple[int, int]) -> str:
    """The one line that says a direction's issued and completed counts disagree, both counts
    and the likely cause (docs/precision.md, "Counting after the ramp")."""
    issued, completed = counts
    gap = (completed - issued) / issued if issued else float("inf")
    share = f" ({gap:+.1%})" if issued else ""
    cause = ("a queue in flight at the end of its ramp_time" if completed > issued else
             "I/Os still in flight when the job was ended")
    return (f"{direction}: fio counted {issued:,} I/Os issued but {completed:,} completed{share}, "
            f"likely {cause}; its iops counts the issued, its bandwidth the completed ones, so "
            "they disagree (kept as fio printed them)")


@dataclass(frozen=True)
class Measurement:
    """One job as an engine reported it. ``status`` is the engine's word ("ok" or "failed");
    ``workload`` is what the engine says it ran (with ``runtime_s``); the totals sum the
    directions. ``source`` names the file an imported result came from; ``job`` the job name."""

    engine: str | None
    status: str | None
    read: DirectionResult | None
    write: DirectionResult | None
    total_iops: float | None
    total_MBps: float | None
    workload: Mapping[str, Any] = field(default_factory=dict)
    engine_version: str | None = None
    source: str | None = None
    job: str | None = None
    error: str | None = None
    has_total: bool = True
    extra: Mapping[str, Any] = field(default_factory=dict)

    KEYS = frozenset(("engine", "engine_version", "source", "job", "status", "error", "workload",
                      "read", "write", "total"))
    TEXTS = ("engine", "status", "engine_version", "source", "job", "error")   # None: absent

    @property
    def failed(self) -> bool:
        return self.status == JobStatus.FAILED

    def side(self, direction: str) -> DirectionResult | None:
        return self.read if direction == "read" else self.write

    def sides(self) -> list[tuple[str, DirectionResult]]:
        """The directions that moved data, read first."""
        return [(d, s) for d in DIRECTIONS if (s := self.side(d)) is not None]

    @property
    def counts_disagree(self) -> bool:
        """A direction's issued and completed I/O counts disagree: its IOPS and MB/s are fio's
        but do not count the same I/Os (:meth:`caveats` says so)."""
        return any(s.issued_completed is not None for _, s in self.sides())

    def caveats(self) -> list[str]:
        """One line per direction whose issued and completed counts disagree."""
        return [count_caveat(d, s.issued_completed) for d, s in self.sides()
                if s.issued_completed is not None]

    @property
    def lat_kind(self) -> LatencyKind | None:
        """The latency kind of the first direction that reports one (read before write)."""
        return next((s.lat_kind for _, s in self.sides() if s.lat_kind), None)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Measurement:
        total = data.get("total")
        side = {d: DirectionResult.from_json(data[d]) if data.get(d) else None for d in DIRECTIONS}
        totals = total or {}
        return cls(**{k: data.get(k) for k in cls.TEXTS}, read=side["read"], write=side["write"],
                   total_iops=totals.get("iops"), total_MBps=totals.get("MBps"),
                   workload=frozen(data.get("workload")), has_total=total is not None,
                   extra=unknown(data, cls.KEYS))

    def to_json(self) -> dict[str, Any]:
        total = {"iops": self.total_iops, "MBps": self.total_MBps} if self.has_total else None
        return {"engine": self.engine, "engine_version": self.engine_version,
                "source": self.source, "job": self.job, "status": self.status,
                "error": self.error, "workload": dict(self.workload),
                "read": self.read.to_json() if self.read else None,
                "write": self.write.to_json() if self.write else None,
                "total": total, **self.extra}
