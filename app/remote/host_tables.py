"""Per-host results of a run on several fio servers (issue 18): one row per workload and host.

The experiment's own tables show the hosts together (IOPS and MB/s summed, latency over all
their I/Os: app/engines/fio/host_sum.py); this table shows what each host did on its own, so a
slow or failing drive is not hidden by the sum. Cells are mean ± sample std over the measured,
finished repetitions, like every other table; latency is of the workload's main direction (read,
unless it only writes). Runs on one host, or local runs, have no such table.
"""
from __future__ import annotations

from app.model.status import TrialStatus
from app.results.table import IOPS, MBPS, Column, Table, lat_column
from app.stats.analysis import summarize

HOST = Column("Host", "host", where="both")
WORKLOAD = Column("Workload", "label", where="both")
N = Column("n", "n", 0)


def _side(part: dict) -> dict:
    return part.get("read") or part.get("write") or part.get("mixed") or {}


def host_rows(record: dict, eid: str) -> list[dict]:
    """``{label, host, n, iops, MBps, lat_mean_us, lat_p99_us, lat_kind}`` in plan order of the
    workloads, hosts in the order they were given; [] without per-host results."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for t in record.get("trials") or []:
        m = t.get("measurement") or {}
        if t.get("experiment") != eid or t.get("warmup") or t.get("status") != TrialStatus.DONE \
                or not m.get("hosts"):
            continue
        for h in m["hosts"]:
            groups.setdefault((t.get("label") or "", h.get("address") or ""), []).append(h)
    rows = []
    for (label, host), parts in groups.items():
        sides = [_side(p) for p in parts]
        lats = [s.get("lat_us") or {} for s in sides]
        rows.append({"label": label, "host": host, "n": len(parts),
                     "iops": summarize([(p.get("total") or {}).get("iops") for p in parts]),
                     "MBps": summarize([(p.get("total") or {}).get("MBps") for p in parts]),
                     "lat_mean_us": summarize([lat.get("mean") for lat in lats]),
                     "lat_p99_us": summarize([lat.get("p99") for lat in lats]),
                     "lat_kind": next((s.get("lat_kind") for s in sides if s.get("lat_kind")), None)})
    return rows


def host_table(record: dict, eid: str) -> Table | None:
    rows = host_rows(record, eid)
    if not rows:
        return None
    kind = rows[0]["lat_kind"] or "unknown kind"
    cols = (WORKLOAD, HOST, IOPS, MBPS, lat_column("mean", "lat_mean", kind),
            lat_column("p99", "lat_p99", kind), N)
    data = tuple((r["label"], r["host"], r["iops"], r["MBps"], r["lat_mean_us"], r["lat_p99_us"],
                  r["n"]) for r in rows)
    notes = ("Each host on its own (the tables above show the hosts together: IOPS and MB/s "
             "summed, latency over all their I/Os). Cells: mean ± sample std over n repetitions.",)
    return Table(f"{eid}-hosts", f"{eid}: per host", cols, data, notes, eid)


def host_tables(record: dict) -> list[Table]:
    return [t for e in record.get("experiments") or [] if (t := host_table(record, e["id"]))]


def hosts_json(record: dict) -> dict:
    """``{experiment id: host_rows}`` for ``run --json`` (empty for one host)."""
    return {e["id"]: rows for e in record.get("experiments") or [] if (rows := host_rows(record, e["id"]))}
