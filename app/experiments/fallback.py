"""Results no experiment module owns: ``imported`` measurements (``ssd-profiler import
--save``) and ids this version does not know (a run folder from another version).

They are not experiments (nothing to plan, no parameters, not in the catalog), but their run
folders must export like any other, so the registry hands out these stand-ins with the same
result interface as :class:`app.experiments.base.Experiment`.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from app.results.figure import Figure
from app.results.table import W_COLS, W_KEYS, Column, Table, generic_table

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults, RunResults

IMPORTED = "imported"


class UnregisteredResults:
    """An id no module registers: the plain workload table, nothing derived."""

    needs_samples = False

    def __init__(self, eid: str) -> None:
        self.id = eid

    def findings(self, workloads: tuple, trials: tuple, samples: tuple) -> Mapping[str, Any]:
        return {}

    def tables(self, part: ExperimentResults, run: RunResults) -> list[Table]:
        return self.dict_tables(part.to_json(), dict(run.record))

    def figures(self, part: ExperimentResults, run: RunResults) -> list[Figure]:
        return []

    def sentences(self, part: ExperimentResults, run: RunResults) -> list[str]:
        return self.dict_sentences(part.to_json(), dict(run.record))

    def dict_findings(self, rows: list[dict], trials: list[dict], samples: list[dict]) -> dict:
        return {}

    def dict_tables(self, part: dict, record: dict) -> list[Table]:
        return [generic_table(self.id, part, record)]

    def dict_figures(self, part: dict, kind: str | None, record: dict,
                samples: list[dict]) -> list[Figure]:
        return []

    def dict_sentences(self, part: dict, record: dict) -> list[str]:
        return []


class _Imported(UnregisteredResults):
    """Imported job entries: one row per job and direction, as the engine reported them
    (nothing aggregated, nothing guessed), and how many entries there were."""

    def dict_tables(self, part: dict, record: dict) -> list[Table]:
        return [_imported_table(record)]

    def dict_sentences(self, part: dict, record: dict) -> list[str]:
        n = len(record.get("trials", []))
        return [f"{n} imported job entr{'y' if n == 1 else 'ies'}, {len(part['workloads'])} "
                "distinct workloads (entries with the same workload are aggregated as "
                "repetitions)."]


ImportedResults = _Imported(IMPORTED)


def _imported_table(record: dict) -> Table:
    """One row per imported job and direction: nothing aggregated, nothing guessed."""
    cols = [Column("Job", "job"), Column("Source", "source"), *W_COLS[:4],
            Column("Direction", "direction"), Column("IOPS", "iops", 0), Column("MB/s", "MBps", 1),
            Column("Mean lat. (µs)", "lat_mean_us", 1), Column("p99 (µs)", "lat_p99_us", 1),
            Column("p99.9 (µs)", "lat_p99.9_us", 1), Column("Latency kind", "lat_kind"),
            Column("Engine", "engine_version")]
    rows = []
    for t in record.get("trials", []):
        m = t.get("measurement") or {}
        w = m.get("workload") or t.get("workload") or {}
        for d in ("read", "write"):
            side = m.get(d)
            if not side:
                continue
            lat = side.get("lat_us") or {}
            rows.append((m.get("job"), m.get("source"), *(w.get(k) for k in W_KEYS[:4]), d,
                         side.get("iops"), side.get("MBps"), lat.get("mean"), lat.get("p99"),
                         lat.get("p99.9"), side.get("lat_kind"), m.get("engine_version")))
    return Table("imported", "Imported measurements", tuple(cols), tuple(rows),
                 ("One row per job entry and direction as the engine reported it; workload "
                  "fields the file did not state are empty.",), "imported")
