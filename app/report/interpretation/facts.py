"""Small shared readers of a run's typed results for the interpretation modules: a part's rows
by workload, relative differences in words, a verdict word. Nothing here decides a claim."""
from __future__ import annotations

from collections.abc import Sequence

from app.model.summary import Stat, WorkloadSummary
from app.results.figure import mean
from app.results.run_results import ExperimentResults, RunResults
from app.units import sig

#: Two estimates of one quantity agree when they are within this fraction of each other.
AGREE = 0.10


def rows(results: RunResults, eid: str) -> tuple[WorkloadSummary, ...]:
    part = results.part(eid)
    return part.workloads if part else ()


def find(rows_: Sequence[WorkloadSummary], **want: object) -> WorkloadSummary | None:
    """The first row whose workload has every given field (rw, bs_bytes, iodepth...)."""
    return next((r for r in rows_ if all(r.workload_json.get(k) == v for k, v in want.items())), None)


def lat(row: WorkloadSummary | None, stat: str = "mean", direction: str | None = None) -> float | None:
    return mean(row.lat(stat, direction)) if row else None


def off_by(measured: float, predicted: float) -> float:
    """measured / predicted − 1: +0.25 is 25 % above the prediction."""
    return measured / predicted - 1.0


def pct_text(x: float) -> str:
    """'+12 %' / '−8 %' for a relative difference."""
    return f"{'+' if x >= 0 else '−'}{abs(x) * 100:.0f} %"


def verdict(ok: bool) -> str:
    return "holds" if ok else "does not hold"


def num(x: float | None, unit: str = "") -> str:
    return "–" if x is None else sig(x) + (f" {unit}" if unit else "")


def stat_of(values: Sequence[float]) -> Stat:
    """A mean-only Stat of known values (for the Welch helpers, n as given)."""
    known = [v for v in values if v is not None]
    return Stat(sum(known) / len(known) if known else None, None, len(known))


def part_or_none(results: RunResults, eid: str) -> ExperimentResults | None:
    part = results.part(eid)
    return part if part and part.workloads else None
