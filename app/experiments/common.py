"""What more than one experiment module uses to state its findings: the tail spread of each
workload, and numbers worded for a sentence at the report's precision (app/units.py). Experiment
modules never import each other, so what two of them share lives here (docs/architecture.md)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.model.summary import Stat, WorkloadSummary
from app.results.figure import mean
from app.results.table import Column
from app.stats import analysis
from app.stats.derived import TailSpread
from app.stats.io_counts import needs_runtime
from app.stats.welch import ALPHA, welch_p
from app.units import mean_pm

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults


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
    """A statistic for a sentence: '71.7 ± 3.6 µs' (app/units.py precision; '–' unknown;
    'too few I/Os (4)' for a percentile that may not be stated, app/model/percentiles.py)."""
    if stat is not None and stat.too_few is not None:
        return stat.mark() or "–"
    if stat is None or stat.mean is None:
        return "–"
    return mean_pm(stat.mean, stat.std) + (f" {unit}" if unit else "")


def tail_ratio_text(part: ExperimentResults, row: WorkloadSummary, key: str,
                    value: float | None, show: Callable[[float | None], str]) -> str:
    """A percentile / p50 ratio for a sentence (``show`` words it), or, when the percentile or
    the p50 rests on too few I/Os, 'unknown (p99.9 too few I/Os (1); p99.9 needs about ...)'."""
    why = [w for k in ("p50", key) if (w := needs_runtime(part, row, k))]
    return f"unknown ({'; '.join(why)})" if why else show(value)


def ratio_cell(row: WorkloadSummary, key: str, value: float | None) -> float | str | None:
    """A percentile / p50 ratio for a Markdown cell: the ratio, or the mark of the percentile
    (or p50) that rests on too few I/Os, never a number computed from it."""
    for k in (key, "p50"):
        stat = row.lat(k)
        if stat is not None and stat.too_few is not None:
            return f"{k} {stat.mark()}"
    return value


def ratio_cells(spread: TailSpreads, key: str, attr: str) -> list[tuple[Column, Any]]:
    """A percentile / p50 ratio column of a table: in Markdown the ratio or the mark of the
    too-few percentile it would rest on (:func:`ratio_cell`), in the CSV the ratio or empty."""
    def value(r: WorkloadSummary) -> float | None:
        found = spread.of(r.label)
        return getattr(found, attr) if found else None
    return [(Column(f"{key}/p50", f"{key}_over_p50", 2, where="md"),
             lambda r: ratio_cell(r, key, value(r))),
            (Column(f"{key}/p50", f"{key}_over_p50", 2, where="csv"), value)]


def separated(a: Stat | None, b: Stat | None) -> bool | None:
    """Whether Welch's t-test at 5 % separates the means of ``a`` and ``b`` (app/stats/welch.py);
    None when it cannot tell (a mean unknown or not to be stated, or fewer than two repetitions
    on a side)."""
    if a is None or b is None or a.known is None or b.known is None:
        return None
    p = welch_p(a.known, a.std or 0.0, a.n, b.known, b.std or 0.0, b.n)
    return None if p is None else p < ALPHA


def noise_text(a: Stat, b: Stat) -> str:
    """'(n = 2; Welch's t-test at 5 % does not separate them)': why a difference is not claimed."""
    n = f"n = {a.n}" if a.n == b.n else f"n = {a.n} and {b.n}"
    return f"({n}; Welch's t-test at 5 % does not separate them)"


def versus(a: Stat | None, b: Stat | None, claim: str, what: str = "") -> str:
    """``claim`` (e.g. 'writes take 1.34× the time of reads') only when the two means are
    :func:`separated`; else 'the [what] difference is within the noise (n = 2; ...)', so a
    finding never implies a difference its repetitions do not show. With fewer than two
    repetitions on a side there is no spread to test: the claim, saying so."""
    split = separated(a, b)
    if split or a is None or b is None or a.known is None or b.known is None:
        return claim
    if split is None:
        return f"{claim} (n = {min(a.n, b.n)}: one repetition, not tested against the noise)"
    return f"the {what + ' ' if what else ''}difference is within the noise {noise_text(a, b)}"


def values_text(values: Sequence[float | None], unit: str = "", with_n: bool = True) -> str:
    """Mean ± sample std of per-repetition values for a sentence, with their n:
    '7.12 ± 0.25 GB (n = 2)'."""
    stat = Stat.from_json(analysis.summarize(list(values)))
    return stat_text(stat, unit) + (f" (n = {stat.n})" if with_n else "")
