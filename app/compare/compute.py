"""Two or more runs side by side: workload by workload, the ratio and difference of
each metric against the first run, whether the difference is larger than the runs' own spread,
and every condition in which the runs differ, listed, never hidden.

"Larger than the spread" is Welch's t-test on the repetitions (two-sided, 5 %): it needs at least
two measured repetitions on each side; with fewer, the call is "n too small", not a guess. The
t distribution's tail comes from the regularized incomplete beta function (Numerical Recipes'
continued fraction, app/stats/welch.py), so no SciPy is needed.
"""
from __future__ import annotations

import statistics
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from app.experiments import CATALOG
from app.model.info import Engine
from app.model.percentiles import too_few_text
from app.model.run import Run
from app.model.status import RunStatus
from app.params import fields_of, format_value
from app.runs import RunTables
from app.stats.welch import ALPHA, welch_p

METRICS = (("iops", "IOPS", "{:,.0f}"), ("MBps", "MB/s", "{:,.1f}"),
           ("lat_mean_us", "mean latency (µs)", "{:,.1f}"), ("lat_p99_us", "p99 latency (µs)", "{:,.1f}"))


def welch(a: list[float], b: list[float]) -> float | None:
    """Two-sided p-value of Welch's t-test (app/stats/welch.py); None with fewer than two values
    on a side."""
    if len(a) < 2 or len(b) < 2:
        return None
    return welch_p(statistics.fmean(a), statistics.stdev(a), len(a),
                   statistics.fmean(b), statistics.stdev(b), len(b))


KEYS = ["experiment", "workload", "direction"]
COLUMNS = [*KEYS, "metric", "base_run", "run", "base_mean", "mean", "ratio", "difference",
           "n_base", "n", "p_value", "call"]


def measured(trials: pd.DataFrame) -> pd.DataFrame:
    """The trials that count (finished, not warm-ups): what the table and the figures rest on."""
    if trials.empty or "status" not in trials:
        return trials
    return trials[(trials["status"] == "done") & (~trials["warmup"].astype(bool))]


def plan_order(tables: RunTables, run: str) -> dict[tuple[str, str, str], int]:
    """(experiment, workload, direction) -> its place in ``run``'s plan (its summary's order),
    so rows follow the plan, not the randomized order in which the trials ran."""
    w = tables.workloads
    if w.empty:
        return {}
    mine = w[w["run"] == run]
    keys = zip(mine["experiment"], mine["workload"], mine["direction"])
    return {key: i for i, key in enumerate(dict.fromkeys(keys))}


def compare(tables: RunTables) -> pd.DataFrame:
    """One row per (experiment, workload, direction, metric, run) for every run after the first,
    against the first: both means, the ratio, the difference, the p-value and the call."""
    runs = list(tables.runs["run"])
    if len(runs) < 2:
        raise ValueError("compare needs at least two runs")
    base, rows = runs[0], []
    order = plan_order(tables, base)
    rows_in = measured(tables.trials)
    groups = [] if rows_in.empty else sorted(rows_in.groupby(KEYS, sort=False),
                                             key=lambda item: order.get(item[0], len(order)))
    for (exp, workload, direction), group in groups:
        values = {run: g for run, g in group.groupby("run")}
        if base not in values:
            continue
        for other in runs[1:]:
            if other not in values:
                continue
            for column, label, _ in METRICS:
                a, b = (list(values[r][column].dropna()) for r in (base, other))
                if not a or not b:
                    continue
                thin = [n for r in (base, other) if (n := too_few_beyond(values[r], column)) is not None]
                if thin:   # a percentile on too few I/Os is compared with nothing: the one mark
                    rows.append({"experiment": exp, "workload": workload, "direction": direction,
                                 "metric": label, "base_run": base, "run": other,
                                 "base_mean": None, "mean": None, "ratio": None, "difference": None,
                                 "n_base": len(a), "n": len(b), "p_value": None,
                                 "call": too_few_text(min(thin))})
                    continue
                mean_a, mean_b = statistics.fmean(a), statistics.fmean(b)
                p = welch(a, b)
                rows.append({"experiment": exp, "workload": workload, "direction": direction,
                             "metric": label, "base_run": base, "run": other,
                             "base_mean": mean_a, "mean": mean_b,
                             "ratio": mean_b / mean_a if mean_a else None,
                             "difference": mean_b - mean_a, "n_base": len(a), "n": len(b),
                             "p_value": p, "call": _call(p)})
    return pd.DataFrame(rows, columns=COLUMNS)


def too_few_beyond(trials: pd.DataFrame, column: str) -> int | None:
    """The fewest I/Os beyond a percentile ``column`` (e.g. lat_p99_us) among the trials whose
    own percentile rests on too few (app/model/percentiles.py); None when none does or the
    column is no percentile."""
    flag = f"{column}_too_few_ios"
    if flag not in trials:
        return None
    thin = trials[trials[flag].fillna(False).astype(bool)]
    return None if thin.empty else int(thin[f"{column}_ios_beyond"].min())


def _call(p: float | None) -> str:
    if p is None:
        return "n too small (needs 2+ repetitions each)"
    return "larger than the spread" if p < ALPHA else "within the spread"


def _shown(kind: str | None, value: object) -> object:
    """A parameter as --set writes it ('32MiB', not 33554432); as stored when unknown."""
    try:
        return format_value(kind, value) if kind and value is not None else value
    except (TypeError, ValueError):
        return value


def mismatches(runs: list[Run]) -> list[str]:
    """Conditions that differ between the runs, one sentence each (empty: like with like)."""
    out = []
    infos = [r.info for r in runs]

    def differ(what: str, values: Sequence[object]) -> None:
        shown = [str(v) for v in values]
        if len(set(shown)) > 1:
            out.append(f"{what} differs: " + " vs ".join(shown))

    engines = [i.engine or Engine() for i in infos]
    differ("engine", [f"{e.name} {e.version or ''}".strip() for e in engines])
    differ("experiments", [", ".join(e.id or "?" for e in r.experiments) for r in runs])
    kinds = [_lat_kinds(r) for r in runs]
    if len(set(kinds) - {"unknown"}) > 1:   # a run without measurements says nothing here
        differ("latency kind (total = submission + completion)", kinds)
    differ("drive", [(i.drive.model if i.drive else None) or "unknown" for i in infos])
    differ("file system", [(i.target.fs_type if i.target else None) or "unknown" for i in infos])
    params = [{e.id: e.params for e in r.experiments} for r in runs]
    for eid in sorted(set.intersection(*(set(p) for p in params)) if params else ()):
        shown = {f.name: f.metadata["kind"] for f in fields_of(CATALOG[eid])} if eid in CATALOG else {}
        for name in sorted(set().union(*(p[eid] for p in params))):
            differ(f"{eid} {name}", [_shown(shown.get(name), p[eid].get(name)) for p in params])
    temps = [i.max_temperature_c for i in infos]
    known = [t for t in temps if t is not None]
    if len(known) == len(temps) and known and max(known) - min(known) >= 5:
        out.append("maximum drive temperature differs: " + " vs ".join(f"{t:.0f} °C" for t in known))
    for run in runs:   # a killed or cancelled run compared as if whole: its share of workloads
        if run.status != RunStatus.DONE:
            how = ("did not record its end (still going on, or interrupted)"
                   if run.status == RunStatus.RUNNING else f"is {run.status}")
            out.append(f"{Path(run.info.dir or '?').name} {how}: only its finished trials count")
    return out


def _lat_kinds(run: Run) -> str:
    """'total', 'completion' or both: which latency a run's measurements carry."""
    kinds = {side.lat_kind for t in run.trials if t.measurement
             for _, side in t.measurement.sides() if side.lat_kind}
    return " and ".join(sorted(kinds)) or "unknown"
