"""A workload's repetitions in one line: mean ± sample std with n, per metric.

:class:`Stat` is what ``app.stats.analysis.summarize`` returns; :class:`WorkloadSummary` is one row of
run.json's ``summary[experiment]["workloads"]``, which tables, figures and findings read.
Converters keep run.json's shape, so summaries written by earlier versions load as they are.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from app.model.measurement import LatencyKind, frozen
from app.model.percentiles import LAT_KEYS, ios_beyond, too_few_text
from app.model.precision import Precision
from app.model.workload import Workload, outstanding


@dataclass(frozen=True)
class Stat:
    """Mean and *sample* standard deviation (ddof=1) of the n values that were present; mean is
    None when n == 0 and std when n < 2.

    ``too_few`` is set on a percentile whose repetition with the fewest I/Os has fewer than 10
    I/Os beyond it (app/model/percentiles.py): how many it has. Such a percentile is never a
    value in a table, sentence or figure: :attr:`known` is None and :meth:`text` is the mark;
    mean and std stay for CSV and JSON, which write them beside the flag."""

    mean: float | None
    std: float | None
    n: int
    too_few: int | None = None

    @property
    def known(self) -> float | None:
        """The mean a reader may state: None when unknown or resting on too few I/Os."""
        return None if self.too_few is not None else self.mean

    def mark(self) -> str | None:
        """'too few I/Os (4)' for a too-few percentile, else None."""
        return None if self.too_few is None else too_few_text(self.too_few)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Stat:
        data = data or {}
        return cls(data.get("mean"), data.get("std"), data.get("n", 0),
                   int(data.get("ios_beyond") or 0) if data.get("too_few") else None)

    def to_json(self) -> dict[str, Any]:
        out = {"mean": self.mean, "std": self.std, "n": self.n}
        if self.too_few is not None:   # the value kept only beside its flag
            out.update(too_few=True, ios_beyond=self.too_few)
        return out


@dataclass(frozen=True)
class Pooled:
    """Percentiles (µs) of every I/O of a workload's measured repetitions, from their merged
    histogram (app.stats.histogram): the value, its 95 % interval and how many I/Os it rests on.
    ``too_few`` names the percentiles with fewer than 10 I/Os beyond them (app/model/percentiles.py):
    never a value in a table, sentence or figure (:meth:`known` is None, :meth:`mark` says why);
    the value stays in ``values`` for CSV and JSON, beside the flag."""

    ios: int
    values: Mapping[str, float | None]
    ci95: Mapping[str, tuple[float, float] | None]
    max: float | None
    too_few: tuple[str, ...] = ()

    def known(self, key: str) -> float | None:
        """The pooled ``key`` a reader may state: None when missing or resting on too few I/Os."""
        return None if key in self.too_few else self.values.get(key)

    def mark(self, key: str) -> str | None:
        """'too few I/Os (3)' (the pooled I/Os beyond ``key``) when ``key`` is too few, else None."""
        return too_few_text(ios_beyond(key, self.ios)) if key in self.too_few else None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Pooled:
        keys = [k for k in data if k.startswith("p")]
        return cls(data.get("ios", 0), frozen({k: data[k] for k in keys}),
                   frozen({k: tuple(v) if v else None for k, v in (data.get("ci95") or {}).items()}),
                   data.get("max"), tuple(data.get("too_few") or ()))

    def to_json(self) -> dict[str, Any]:
        return {**self.values, "max": self.max, "ios": self.ios,
                "ci95": {k: list(v) if v else None for k, v in self.ci95.items()},
                "too_few": list(self.too_few)}


@dataclass(frozen=True)
class DirectionSummary:
    iops: Stat
    MBps: Stat
    lat_kind: LatencyKind | None
    lat_us: Mapping[str, Stat]
    pooled: Pooled | None = None      # run.json: lat_us["pooled"], beside the per-repetition stats

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DirectionSummary:
        kind = data.get("lat_kind")
        lat = dict(data.get("lat_us") or {})
        pooled = lat.pop("pooled", None)
        return cls(Stat.from_json(data.get("iops")), Stat.from_json(data.get("MBps")),
                   LatencyKind(kind) if kind else None,
                   frozen({k: Stat.from_json(v) for k, v in lat.items()}),
                   Pooled.from_json(pooled) if pooled else None)

    def to_json(self) -> dict[str, Any]:
        lat = {k: v.to_json() for k, v in self.lat_us.items()}
        if self.pooled is not None:
            lat["pooled"] = self.pooled.to_json()
        return {"iops": self.iops.to_json(), "MBps": self.MBps.to_json(), "lat_kind": self.lat_kind,
                "lat_us": lat}


@dataclass(frozen=True)
class WorkloadSummary:
    """One workload's row. ``workload_json`` is run.json's ``workload`` as written (what generic
    tables list, and what :meth:`to_json` gives back byte for byte); :attr:`workload` is it typed,
    which an experiment reads for its own rows (``row.workload.rw``)."""

    key: str
    label: str
    workload_json: Mapping[str, Any]
    n: int
    total_iops: Stat
    total_MBps: Stat
    read: DirectionSummary | None
    write: DirectionSummary | None
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: the achieved ± of a workload measured to a precision target (None: fixed time)
    precision: Precision | None = None

    KEYS = frozenset(("key", "label", "workload", "n", "total_iops", "total_MBps", "read", "write",
                      "precision"))

    @cached_property
    def workload(self) -> Workload:
        """The workload typed. ValueError for a row of imported results whose engine output left
        a field out (text output names none): those rows are read through ``workload_json`` by
        the generic tables; an experiment's own rows always hold a complete workload."""
        return Workload.from_json(self.workload_json)

    @property
    def outstanding(self) -> int:
        return outstanding(self.workload_json)

    @property
    def bs_bytes(self) -> int | None:
        """The workload's block size, also for an imported row without a complete workload."""
        bs = self.workload_json.get("bs_bytes")
        return int(bs) if isinstance(bs, (int, float)) and not isinstance(bs, bool) and bs > 0 else None

    @property
    def main(self) -> DirectionSummary | None:
        """The direction a workload is about: read, unless it only writes."""
        return self.read or self.write

    @property
    def direction(self) -> str:
        """'read' or 'write': the direction a single-direction workload is about."""
        return "read" if self.read else "write"

    def side(self, direction: str) -> DirectionSummary | None:
        return self.read if direction == "read" else self.write

    def lat(self, stat: str, direction: str | None = None) -> Stat | None:
        """One latency statistic (mean ± std, n) of ``direction`` or the main direction."""
        side = self.side(direction) if direction else self.main
        return side.lat_us.get(stat) if side else None

    @property
    def lat_kind(self) -> LatencyKind | None:
        """The latency kind of the first direction that reports one (read before write)."""
        return next((s.lat_kind for s in (self.read, self.write) if s and s.lat_kind), None)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> WorkloadSummary:
        side = {d: DirectionSummary.from_json(data[d]) if data.get(d) else None for d in ("read", "write")}
        return cls(data["key"], data["label"], frozen(data["workload"]), data["n"],
                   Stat.from_json(data.get("total_iops")), Stat.from_json(data.get("total_MBps")),
                   side["read"], side["write"],
                   frozen({k: v for k, v in data.items() if k not in cls.KEYS}),
                   Precision.from_json(data.get("precision")))

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "workload": dict(self.workload_json), "n": self.n,
                "total_iops": self.total_iops.to_json(), "total_MBps": self.total_MBps.to_json(),
                "read": self.read.to_json() if self.read else None,
                "write": self.write.to_json() if self.write else None, **self.extra,
                **({"precision": self.precision.to_json()} if self.precision else {})}


__all__ = ["LAT_KEYS", "DirectionSummary", "Stat", "WorkloadSummary"]
