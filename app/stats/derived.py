"""What app/stats/analysis.py derives, as frozen values: an experiment's findings hold them and
``to_json`` gives the exact run.json form (keys and order as earlier versions wrote them, so a
run's summary stays byte for byte the same). See docs/architecture.md, "The one currency"."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Derived:
    """A derived value whose run.json form is its fields, in order."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Knee(Derived):
    """The one knee of a queue-depth sweep (app/stats/knee.py: ``rule`` says how it is found,
    in one sentence), and the other points for what they are: the peak, and the first level
    reaching 90 % of it. ``power`` is IOPS per µs of mean latency at the knee; ``reached`` is
    False when IOPS still grew by the rule's step at the deepest level (the knee is then the
    deepest level, a lower bound). Latencies are mean latencies in µs."""

    knee_level: int
    knee_iops: float
    knee_lat_us: float
    power: float
    peak_iops: float
    peak_level: int
    p90_level: int
    p90_iops: float
    rule: str = ""
    reached: bool = True
    peak_lat_us: float | None = None
    p90_lat_us: float | None = None



@dataclass(frozen=True)
class LittlesLawPoint(Derived):
    """L = IOPS x latency at one level of a sweep, and L over the outstanding I/O asked for."""

    level: Any
    outstanding: Any
    iops: float | None
    lat_us: float | None
    L: float | None
    ratio: float | None



@dataclass(frozen=True)
class Crossover(Derived):
    """Where one access pattern turns from IOPS-limited to bandwidth-limited (see crossover)."""

    crossover_bs_bytes: float | None
    below_bs_bytes: int | None
    above_bs_bytes: int | None
    bw_saturation_bs_bytes: int
    peak_MBps: float
    peak_iops: float
    note: str | None = None



@dataclass(frozen=True)
class CacheExhaustion(Derived):
    """Where a sustained write fell off its fast (SLC) cache, if it did (see cache_exhaustion)."""

    drop_observed: bool
    t_drop_s: float | None
    gb_before_drop: float | None
    MBps_before: float | None
    MBps_after: float | None
    baseline_MBps: float | None
    total_gb: float
    threshold_MBps: float | None
    min_duration_s: float | None
    note: str
    #: ± of t_drop_s and gb_before_drop (app/stats/cliff.py says what they cover)
    t_resolution_s: float | None = None
    gb_resolution: float | None = None
    #: intervals the step spread over (0: on a sample boundary), in neither MBps_before nor _after
    transitional_intervals: int | None = None



@dataclass(frozen=True)
class TailSpread:
    """Percentile / p50 ratios of one workload's latency (None where a value is missing)."""

    p95_over_p50: float | None
    p99_over_p50: float | None
    p99_9_over_p50: float | None
    p99_99_over_p50: float | None

    def to_json(self) -> dict[str, Any]:
        return {"p95_over_p50": self.p95_over_p50, "p99_over_p50": self.p99_over_p50,
                "p99.9_over_p50": self.p99_9_over_p50, "p99.99_over_p50": self.p99_99_over_p50}
