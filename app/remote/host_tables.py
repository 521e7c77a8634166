"""Per-host results of a run on several fio servers: one row per workload and host.

The experiment's own tables show the hosts together (IOPS and MB/s summed, latency over all
their I/Os: app/engines/fio/host_sum.py); this table shows what each host did on its own, so a
slow or failing drive is not hidden by the sum. Cells are mean ± sample std over the measured,
finished repetitions, like every other table; latency is of the workload's main direction (read,
unless it only writes). Runs on one host, or local runs, have no such table.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.model.measurement import DirectionResult, Measurement
from app.model.percentiles import ios_beyond, too_few
from app.model.run import Run
from app.model.status import TrialStatus
from app.model.trial import TrialResult
from app.results.table import IOPS, MBPS, Column, Table, lat_column, too_few_flags
from app.stats.analysis import summarize

HOST = Column("Host", "host", where="both")
WORKLOAD = Column("Workload", "label", where="both")
N = Column("n", "n", 0)


def _side(m: Measurement) -> DirectionResult | None:
    mixed = m.extra.get("mixed")
    return m.read or m.write or (DirectionResult.from_json(mixed) if mixed else None)


def _hosts(t: TrialResult) -> list[Mapping[str, Any]]:
    """Each host's own measurement of a finished, measured trial ([] on one host)."""
    m = t.measurement
    if t.warmup or t.status != TrialStatus.DONE or m is None:
        return []
    return list(m.extra.get("hosts") or [])


def host_rows(run: Run, eid: str) -> list[dict[str, Any]]:
    """``{label, host, n, iops, MBps, lat_mean_us, lat_p99_us, lat_kind}`` in plan order of the
    workloads, hosts in the order they were given; [] without per-host results."""
    groups: dict[tuple[str, str], list[Measurement]] = {}
    block: dict[tuple[str, str], int | None] = {}
    for t in run.trials:
        if t.experiment == eid:
            for h in _hosts(t):
                key = (t.label or "", h.get("address") or "")
                groups.setdefault(key, []).append(Measurement.from_json(h))
                block[key] = t.bs_bytes
    rows = []
    for (label, host), parts in groups.items():
        sides = [_side(p) for p in parts]
        rows.append({"label": label, "host": host, "n": len(parts),
                     "iops": summarize([p.total_iops for p in parts]),
                     "MBps": summarize([p.total_MBps for p in parts]),
                     "lat_mean_us": summarize([s.lat("mean") if s else None for s in sides]),
                     "lat_p99_us": _p99(sides, block.get((label, host))),
                     "lat_kind": next((s.lat_kind for s in sides if s and s.lat_kind), None)})
    return rows


def _p99(sides: list[DirectionResult | None], bs: int | None) -> dict[str, Any]:
    """Mean ± std of each repetition's p99 on this host, flagged too few (app/model/
    percentiles.py) when the repetition with the fewest I/Os (bytes / block size) has fewer
    than 10 beyond it: then a table shows the mark, never the value."""
    out = dict(summarize([s.lat("p99") if s else None for s in sides]))
    ios = [round(s.io_bytes / bs) for s in sides if s and s.io_bytes and bs]
    if ios and too_few("p99", min(ios)):
        out.update(too_few=True, ios_beyond=ios_beyond("p99", min(ios)))
    return out


def host_table(run: Run, eid: str) -> Table | None:
    rows = host_rows(run, eid)
    if not rows:
        return None
    kind = rows[0]["lat_kind"] or "unknown kind"
    cols = [WORKLOAD, HOST, IOPS, MBPS, lat_column("mean", "lat_mean", kind),
            lat_column("p99", "lat_p99", kind), N]
    cols, data = too_few_flags(cols, [(r["label"], r["host"], r["iops"], r["MBps"], r["lat_mean_us"],
                                       r["lat_p99_us"], r["n"]) for r in rows])
    notes = ("Each host on its own (the tables above show the hosts together: IOPS and MB/s "
             "summed, latency over all their I/Os). Cells: mean ± sample std over n repetitions.",)
    return Table(f"{eid}-hosts", f"{eid}: per host", tuple(cols), tuple(data), notes, eid)


def host_tables(run: Run) -> list[Table]:
    return [t for e in run.experiments if (t := host_table(run, e.id))]


def hosts_json(run: Run) -> dict[str, list[dict[str, Any]]]:
    """``{experiment id: host_rows}`` for ``run --json`` (empty for one host)."""
    return {e.id: rows for e in run.experiments if (rows := host_rows(run, e.id))}
