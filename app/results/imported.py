"""A run folder made from imported engine outputs (``ssd-profiler import --save``): one trial
per measurement in a run of the ``imported`` experiment, written like any run folder so that it
exports, opens and compares like one.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app import __version__
from app.experiments.registry import IMPORTED
from app.model.measurement import Measurement
from app.model.run import Run
from app.model.status import RunStatus, TrialStatus
from app.model.workload import Workload
from app.results.build import build_results
from app.store.run_folder import SCHEMA_VERSION


def _label(m: Measurement, w: Mapping[str, Any]) -> str:
    try:
        return Workload.from_json(dict(w)).label
    except (KeyError, TypeError, ValueError):
        return m.job or "imported job"


def run_from_measurements(measurements: list[dict[str, Any]],
                          title: str = "Imported measurements") -> dict[str, Any]:
    """A minimal run record (experiment ``imported``), each measurement one trial.

    Measurements with the same workload are aggregated as repetitions by the summary, which is
    what a user importing several runs of one job expects; the ``imported`` table still lists
    every job on its own row. Host, drive and target are unknown (None) unless the caller adds
    them, e.g. ``record["drive"] = {"model": ...}`` so the vendor comparison can match.
    """
    trials = []
    typed = [Measurement.from_json(m) for m in measurements]
    for i, (raw, m) in enumerate(zip(measurements, typed)):
        w = {k: m.workload.get(k) for k in ("rw", "bs_bytes", "iodepth", "numjobs", "rwmixread")}
        failed = m.failed or not (m.read or m.write)
        trials.append({"index": i, "experiment": IMPORTED, "workload": w, "label": _label(m, w),
                       "repetition": 1, "warmup": False, "runtime_s": m.workload.get("runtime_s"),
                       "status": TrialStatus.FAILED if failed else TrialStatus.DONE, "error": m.error,
                       "measurement": raw, "source": m.source})
    first = typed[0] if typed else None
    record = {"schema_version": SCHEMA_VERSION, "status": RunStatus.DONE, "app_version": __version__,
            "started_at": None, "ended_at": None, "origin": "import",
            "experiments": [{"id": IMPORTED, "title": title, "params": {},
                             "workload_keys": []}],
            "seed": None, "target": None, "drive": None, "host": None,
            "engine": {"name": first.engine if first else None,
                       "version": first.engine_version if first else None, "path": None},
            "planned_trials": [], "trials": trials, "summary": {}}
    record["summary"] = build_results(Run.from_json(record)).summary_json()  # pooled percentiles
    return record
