"""What more than one experiment module uses to state its findings: the tail spread of each
workload, and numbers worded for a sentence at the report's precision (app/units.py). Experiment
modules never import each other, so what two of them share lives here (docs/architecture.md)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.model.summary import Stat, WorkloadSummary
from app.results.figure import mean
from app.stats import analysis
from app.stats.derived import TailSpread
from app.units import mean_pm


@dataclass(frozen=True)
class TailSpreads:
    """Percentile / p50 ratios of each workload's main direction, by workload label (the
    findings of zero-queue and tail-latency)."""

    by_label: Mapping[str, TailSpread]

    def of(self, label: str) -> TailSpread | None:
        return self.by_label.get(label)

    def to_json(self) -> dict[str, Any]:
        return {"tail_spread": {k: v.to_json() for k, v in self.by_label.items()}}


def spread_findings(rows: Iterable[WorkloadSummary]) -> TailSpreads:
    """Percentile / p50 ratios of each workload's main direction, keyed by workload label."""
    return TailSpreads({r.label: analysis.tail_spread(
        {k: mean(v) for k, v in (r.main.lat_us if r.main else {}).items()}) for r in rows})


def ratio_text(x: float | None) -> str:
    """A ratio for a sentence, e.g. '3.2×'."""
    return "n/a" if x is None else f"{x:.1f}×"


def stat_text(stat: Stat | None, unit: str = "") -> str:
    """A statistic for a sentence: '71.7 ± 3.6 µs' (app/units.py precision; '–' unknown)."""
    if stat is None or stat.mean is None:
        return "–"
    return mean_pm(stat.mean, stat.std) + (f" {unit}" if unit else "")


def values_text(values: Sequence[float | None], unit: str = "", with_n: bool = True) -> str:
    """Mean ± sample std of per-repetition values for a sentence, with their n:
    '7.12 ± 0.25 GB (n = 2)'."""
    stat = Stat.from_json(analysis.summarize(list(values)))
    return stat_text(stat, unit) + (f" (n = {stat.n})" if with_n else "")
