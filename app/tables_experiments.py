"""The tables of each experiment (model and writers in app/tables.py).

Every workload table starts with the workload's parameters as CSV-only columns (rw, bs_bytes,
iodepth, numjobs, rwmixread) and its label as a Markdown-only column, so a CSV row says exactly
what was run and the Markdown stays readable.
"""
from __future__ import annotations

from app.figures import main_side
from app.tables import Column, Table, parameter_notes

W_KEYS = ("rw", "bs_bytes", "iodepth", "numjobs", "rwmixread")
W_COLS = tuple(Column(k, k, where="csv") for k in W_KEYS)
LABEL = Column("Workload", "label", where="md")
N = Column("n", "n", 0)


def _kind(rows: list[dict]) -> str:
    for r in rows:
        for side in (r.get("read"), r.get("write")):
            if side and side.get("lat_kind"):
                return side["lat_kind"]
    return "unknown kind"


def _lat(name: str, key: str, kind: str) -> Column:
    return Column(f"{name} lat. (µs, {kind})", f"{key}_us", 1, True)


def _w(row: dict) -> tuple:
    return tuple(row["workload"].get(k) for k in W_KEYS)


def _lat_stat(row: dict, stat: str, direction: str | None = None) -> dict | None:
    side = (row.get(direction) if direction else main_side(row)) or {}
    return (side.get("lat_us") or {}).get(stat)


def _table(eid: str, tid: str, title: str, cols: list[Column], rows: list[tuple],
           record: dict, source_rows: list[dict], extra_notes: tuple = ()) -> Table:
    return Table(tid, title, tuple(cols), tuple(rows),
                 tuple(extra_notes) + parameter_notes(record, eid, source_rows), eid)


def _level(row: dict) -> int:
    return (row["workload"].get("iodepth") or 1) * (row["workload"].get("numjobs") or 1)


def tables_for(eid: str, part: dict, record: dict) -> list[Table]:
    rows = part.get("workloads") or []
    kind = _kind(rows)
    base = [*W_COLS, LABEL]
    iops = Column("IOPS", "iops", 0, True)
    mbps = Column("MB/s", "MBps", 1, True)
    if eid == "zero-queue":
        stats = ("mean", "p50", "p95", "p99", "p99.9")
        cols = base + [iops, mbps] + [_lat(s, f"lat_{s}", kind) for s in stats] + [N]
        data = [(*_w(r), r["label"], r["total_iops"], r["total_MBps"],
                 *(_lat_stat(r, s) for s in stats), r["n"]) for r in rows]
        return [_table(eid, "zero-queue", f"Zero-queue baselines (QD1), {kind} latency", cols, data,
                       record, rows)]
    if eid == "block-size":
        rows = sorted(rows, key=lambda r: (not r["workload"]["rw"].startswith("rand"),
                                           r["workload"]["bs_bytes"]))
        cols = base + [Column("Block size (KiB)", "bs_KiB", 0), iops, mbps,
                       _lat("mean", "lat_mean", kind), _lat("p99", "lat_p99", kind), N]
        data = [(*_w(r), r["label"], r["workload"]["bs_bytes"] // 1024, r["total_iops"],
                 r["total_MBps"], _lat_stat(r, "mean"), _lat_stat(r, "p99"), r["n"]) for r in rows]
        return [_table(eid, "block-size", "Block-size sweep", cols, data, record, rows)]
    if eid == "rw-mix":
        rows = sorted(rows, key=lambda r: -(r["workload"].get("rwmixread") or 0))
        side = lambda r, d, f: (r.get(d) or {}).get(f)  # noqa: E731
        cols = base + [Column("Read share (%)", "read_share_pct", 0),
                       Column("Read IOPS", "read_iops", 0, True),
                       Column("Write IOPS", "write_iops", 0, True),
                       Column("Total IOPS", "total_iops", 0, True),
                       Column("Total MB/s", "total_MBps", 1, True),
                       _lat("Read mean", "read_lat_mean", kind), _lat("Write mean", "write_lat_mean", kind),
                       _lat("Read p99", "read_lat_p99", kind), _lat("Write p99", "write_lat_p99", kind), N]
        data = [(*_w(r), r["label"], r["workload"].get("rwmixread"), side(r, "read", "iops"),
                 side(r, "write", "iops"), r["total_iops"], r["total_MBps"],
                 _lat_stat(r, "mean", "read"), _lat_stat(r, "mean", "write"),
                 _lat_stat(r, "p99", "read"), _lat_stat(r, "p99", "write"), r["n"]) for r in rows]
        return [_table(eid, "rw-mix", "Read/write mix sweep", cols, data, record, rows)]
    if eid == "queue-depth":
        rows = sorted(rows, key=_level)
        cols = base + [Column("Outstanding I/O", "outstanding", 0), iops, mbps,
                       _lat("mean", "lat_mean", kind), _lat("p99", "lat_p99", kind), N]
        data = [(*_w(r), r["label"], _level(r), r["total_iops"], r["total_MBps"],
                 _lat_stat(r, "mean"), _lat_stat(r, "p99"), r["n"]) for r in rows]
        return [_table(eid, "queue-depth", "Queue-depth sweep", cols, data, record, rows),
                littles_law_table(part, record, kind)]
    if eid == "tail-latency":
        stats = ("mean", "p50", "p95", "p99", "p99.9", "p99.99")
        cols = base + [Column("Outstanding I/O", "outstanding", 0)] + [
            _lat(s, f"lat_{s}", kind) for s in stats] + [
            Column("p99/p50", "p99_over_p50", 2), Column("p99.99/p50", "p99.99_over_p50", 2), N]
        spread = (part.get("findings") or {}).get("tail_spread") or {}
        data = [(*_w(r), r["label"], _level(r), *(_lat_stat(r, s) for s in stats),
                 (spread.get(r["label"]) or {}).get("p99_over_p50"),
                 (spread.get(r["label"]) or {}).get("p99.99_over_p50"), r["n"]) for r in rows]
        return [_table(eid, "tail-latency", f"Tail latency, {kind} latency", cols, data, record, rows)]
    if eid == "slc-cache":
        cols = base + [Column("Write MB/s (whole trial)", "write_MBps", 1, True),
                       _lat("mean", "lat_mean", kind), _lat("p99", "lat_p99", kind), N]
        data = [(*_w(r), r["label"], (r.get("write") or {}).get("MBps"), _lat_stat(r, "mean"),
                 _lat_stat(r, "p99"), r["n"]) for r in rows]
        return [_table(eid, "slc-cache", "Sustained sequential write", cols, data, record, rows),
                cache_table(part)]
    if eid == "quick":
        return [quick_table(rows, record, kind)]
    if eid == "imported":
        return [imported_table(record)]
    cols = base + [iops, mbps, _lat("mean", "lat_mean", kind), _lat("p99", "lat_p99", kind), N]
    data = [(*_w(r), r["label"], r["total_iops"], r["total_MBps"], _lat_stat(r, "mean"),
             _lat_stat(r, "p99"), r["n"]) for r in rows]
    return [_table(eid, eid, eid, cols, data, record, rows)]


def littles_law_table(part: dict, record: dict, kind: str) -> Table:
    law = (part.get("findings") or {}).get("littles_law") or []
    cols = [Column("Outstanding I/O", "outstanding", 0), Column("IOPS", "iops", 0),
            Column(f"Mean lat. (µs, {kind})", "lat_mean_us", 1),
            Column("L = IOPS × latency", "L", 2), Column("L / outstanding", "ratio", 3)]
    rows = [(p.get("outstanding"), p.get("iops"), p.get("lat_us"), p.get("L"), p.get("ratio"))
            for p in sorted(law, key=lambda p: p.get("outstanding") or 0)]
    return Table("queue-depth-littles-law", "Little's Law check (L = λ·W)", tuple(cols),
                 tuple(rows), ("IOPS and latency are means over repetitions; latency in seconds "
                               "for L (µs / 10^6). A ratio near 1 means the requested queue is "
                               "kept full; well below 1, time is lost outside the device.",),
                 "queue-depth")


def cache_table(part: dict) -> Table:
    found = (part.get("findings") or {}).get("cache_exhaustion") or []
    cols = [Column("Repetition", "repetition", 0), Column("Written (GB)", "total_GB", 2),
            Column("Baseline MB/s", "baseline_MBps", 1), Column("Drop seen", "drop_observed"),
            Column("GB before drop", "gb_before_drop", 2), Column("Drop at (s)", "t_drop_s", 1),
            Column("MB/s before", "MBps_before", 1), Column("MB/s after", "MBps_after", 1),
            Column("Note", "note")]
    rows = [(f.get("repetition"), f.get("total_gb"), f.get("baseline_MBps"), f.get("drop_observed"),
             f.get("gb_before_drop"), f.get("t_drop_s"), f.get("MBps_before"), f.get("MBps_after"),
             f.get("note")) for f in found]
    return Table("slc-cache-exhaustion", "Cache exhaustion per trial", tuple(cols), tuple(rows),
                 ("GB = 10^9 bytes; MB/s before/after are time-weighted means of the per-interval "
                  "samples before and from the drop.",), "slc-cache")


def quick_table(rows: list[dict], record: dict, kind: str) -> Table:
    """CrystalDiskMark layout: one line per test, read and write side by side."""
    tests: dict[str, dict] = {}
    for r in rows:
        name = r["label"].rsplit(" ", 1)[0]
        tests.setdefault(name, {})["write" if r.get("read") is None else "read"] = r
    cols = [Column("Test", "test")]
    for d in ("read", "write"):
        cols += [Column(f"{d.title()} MB/s", f"{d}_MBps", 1, True),
                 Column(f"{d.title()} IOPS", f"{d}_iops", 0, True),
                 Column(f"{d.title()} mean lat. (µs, {kind})", f"{d}_lat_mean_us", 1, True)]
    cols.append(Column("n", "n", 0))
    data = []
    for name, pair in tests.items():
        cells = [name]
        for d in ("read", "write"):
            side = (pair.get(d) or {}).get(d) or {}
            cells += [side.get("MBps"), side.get("iops"), (side.get("lat_us") or {}).get("mean")]
        cells.append(min(p["n"] for p in pair.values()))
        data.append(tuple(cells))
    return _table("quick", "quick", "Quick check (CrystalDiskMark-style)", cols, data,
                  record, rows, ("Unlike CrystalDiskMark (best of N), cells are mean ± std.",))


def imported_table(record: dict) -> Table:
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


def vendor_table(cmp: dict) -> Table:
    spec = cmp.get("spec") or {}
    cols = [Column("Metric", "metric"), Column("Vendor 'up to'", "spec", 0),
            Column("Unit", "unit"), Column("Vendor test conditions", "spec_conditions"),
            Column("Measured", "measured", 0, True), Column("Measured at", "measured_at"),
            Column("% of spec", "pct_of_spec", 1), Column("Why the gap", "explanation")]
    rows = [(r["label"], r["spec"], r["unit"], r["spec_conditions"], r["measured"],
             r["measured_at"], r["pct"], r["explanation"]) for r in cmp.get("rows", [])]
    source = "" if cmp.get("link_known") else " (from the spec; the negotiated link was not recorded)"
    ceiling = (f"Interface ceiling: {cmp['interface']} ≈ {cmp['ceiling_MBps']:,.0f} MB/s raw "
               f"link rate{source}." if cmp.get("interface") else "Interface ceiling: unknown.")
    notes = (f"Spec record `{spec.get('id')}` ({spec.get('source_kind')} source): "
             f"{spec.get('source_url')}" + (f". {spec['notes']}" if spec.get("notes") else ""),
             ceiling, "Measured: the best mean of any matching workload in this run.")
    return Table("vendor-comparison", "Measured against the vendor spec", tuple(cols),
                 tuple(rows), notes, "vendor")
