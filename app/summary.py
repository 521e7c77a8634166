"""A run's summary: repetitions aggregated per workload, and each experiment's findings
(derived by the experiment's own module, found in the registry).

Only measured trials that finished count (warm-ups, failed and cancelled trials are left out and
shown as such elsewhere). Every figure is mean ± sample std with n, from :mod:`app.analysis`.
"""
from __future__ import annotations

import csv
from pathlib import Path

from app import analysis
from app.experiments.registry import results_for

LAT_KEYS = ("mean", "p50", "p95", "p99", "p99.9", "p99.99", "max")


def _direction_summary(trials: list[dict], direction: str) -> dict | None:
    sides = [(t["measurement"] or {}).get(direction) for t in trials]
    sides = [s for s in sides if s]
    if not sides:
        return None
    lat = [s.get("lat_us") or {} for s in sides]
    return {
        "iops": analysis.summarize([s.get("iops") for s in sides]),
        "MBps": analysis.summarize([s.get("MBps") for s in sides]),
        "lat_kind": sides[0].get("lat_kind"),
        "lat_us": {k: analysis.summarize([l.get(k) for l in lat]) for k in LAT_KEYS},
    }


def workload_summary(trials: list[dict]) -> dict:
    """Mean ± std (n) of one workload's repetitions."""
    first = trials[0]
    totals = [(t["measurement"] or {}).get("total") or {} for t in trials]
    return {
        "key": _key(first), "label": first["label"], "workload": first["workload"],
        "n": len(trials),
        "total_iops": analysis.summarize([x.get("iops") for x in totals]),
        "total_MBps": analysis.summarize([x.get("MBps") for x in totals]),
        "read": _direction_summary(trials, "read"),
        "write": _direction_summary(trials, "write"),
    }


def _key(trial: dict) -> str:
    w = trial["workload"]
    mix = f"-m{w['rwmixread']}" if w.get("rwmixread") is not None else ""
    return f"{w['rw']}-{w['bs_bytes']}-q{w['iodepth']}-t{w['numjobs']}{mix}"


def read_samples(run_dir: str | Path, trials: set[int] | None = None) -> list[dict]:
    """samples.csv as dicts of floats (None for empty cells); only the rows of ``trials`` when
    given (a day-long trial at 0.1 s has 864,000 rows: read what is needed, row by row)."""
    path = Path(run_dir) / "samples.csv"
    if not path.exists():
        return []
    out = []
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if trials is not None and int(row["trial"]) not in trials:
                continue
            parsed = {k: (float(v) if v not in ("", None) else None) for k, v in row.items()}
            parsed["trial"] = int(parsed["trial"])
            out.append(parsed)
    return out


def summarize_run(record: dict, run_dir: str | Path | None = None) -> dict:
    """Per experiment: workload rows (in plan order) and findings."""
    run_dir = run_dir or record.get("dir")
    measured = [t for t in record.get("trials", [])
                if t["status"] == "done" and not t["warmup"] and t.get("measurement")]
    series_trials = {t["index"] for t in measured if results_for(t["experiment"]).needs_samples}
    samples = read_samples(run_dir, series_trials) if run_dir and series_trials else []
    out = {}
    for exp in record.get("experiments", []):
        eid = exp["id"]
        mine = [t for t in measured if t["experiment"] == eid]
        order = exp.get("workload_keys") or []
        groups: dict[str, list[dict]] = {}
        for t in mine:
            groups.setdefault(_key(t), []).append(t)
        keys = [k for k in order if k in groups] + [k for k in groups if k not in order]
        rows = [workload_summary(groups[k]) for k in keys]
        out[eid] = {"workloads": rows,
                    "findings": results_for(eid).findings(rows, mine, samples)}
    return out
