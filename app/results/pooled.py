"""Pooled percentiles in tables and text: every I/O of a workload's repetitions at once (issue 15).

Why beside the per-repetition columns and not instead of them: the pooled p99 is the p99 of the
I/Os measured (from the merged fio json+ histogram, with a 95 % interval and the number of I/Os it
rests on), while mean ± std of each repetition's own p99 shows how much one run differs from the
next. A student needs both: the first to state the tail, the second to see whether it is stable.
A percentile with fewer than 10 I/Os beyond it is printed as "too few I/Os (n)", never as a number.
DiskSpd reports percentiles without bins: its runs keep the per-repetition values and say why.
"""
from __future__ import annotations

from app.model.percentiles import POOLED_PERCENTILES, percentile_key
from app.model.workload import workload_key
from app.results.figure import Series
from app.results.table import LABEL, W_COLS, Column, N, Table, workload_cells, workload_table
from app.stats.histogram import Histogram

POOLED_KEYS = tuple(percentile_key(p) for p in POOLED_PERCENTILES)


def directions(row: dict) -> list[str]:
    return [d for d in ("read", "write") if row.get(d)]


def pooled_of(row: dict, direction: str) -> dict | None:
    """The row's ``lat_us.pooled`` of ``direction`` (None: no histogram, e.g. DiskSpd)."""
    return (((row.get(direction) or {}).get("lat_us") or {}).get("pooled")) or None


def merged_histogram(record: dict, eid: str, row: dict, direction: str) -> Histogram | None:
    """The merged histogram of a workload's measured repetitions (None unless every one has bins)."""
    key, merged, seen = row.get("key") or workload_key(row["workload"]), Histogram(), 0
    for t in record.get("trials", []):
        if (t.get("experiment") != eid or t.get("warmup") or t.get("status") != "done"
                or workload_key(t.get("workload") or {}) != key):
            continue
        bins = (((t.get("measurement") or {}).get(direction)) or {}).get("hist_ns")
        if not bins:
            return None
        merged, seen = merged + Histogram.from_bins(bins), seen + 1
    return merged if seen and merged.ios else None


def pooled_text(pooled: dict, key: str, digits: int = 1) -> str:
    """'412.7 [398.3, 430.1]' (µs, 95 % interval) or 'too few I/Os (3,105)'."""
    value = pooled.get(key)
    if value is None:
        return "–"
    if key in (pooled.get("too_few") or ()):
        return f"too few I/Os ({pooled.get('ios', 0):,})"
    ci = (pooled.get("ci95") or {}).get(key)
    text = f"{value:,.{digits}f}"
    return text + (f" [{ci[0]:,.{digits}f}, {ci[1]:,.{digits}f}]" if ci else "")


def pooled_table(cls, tid: str, title: str, rows: list[dict], record: dict,
                 keys: tuple[str, ...] = POOLED_KEYS, kind: str = "unknown kind") -> Table | None:
    """One row per workload and direction: I/Os pooled, then each percentile with its 95 %
    interval (Markdown: one cell; CSV: value, low and high columns). None without histograms."""
    cols = [*W_COLS, LABEL, Column("Direction", "direction"), Column("I/Os pooled", "ios", 0)]
    for k in keys:
        cols += [Column(f"{k} (µs, 95 % CI)", f"{k}_text", where="md"),
                 Column(k, f"{k}_us", where="csv"), Column(k, f"{k}_ci95_low_us", where="csv"),
                 Column(k, f"{k}_ci95_high_us", where="csv")]
    cols.append(N)
    data = []
    for row in rows:
        for d in directions(row):
            pooled = pooled_of(row, d)
            if not pooled:
                continue
            cells = []
            for k in keys:
                thin = k in (pooled.get("too_few") or ())
                ci = (pooled.get("ci95") or {}).get(k) or (None, None)
                cells += [pooled_text(pooled, k), None if thin else pooled.get(k),
                          None if thin else ci[0], None if thin else ci[1]]
            data.append((*workload_cells(row), d, pooled.get("ios"), *cells, row["n"]))
    if not data:
        return None
    notes = (f"Pooled: the percentile of every I/O of the n measured repetitions together, read "
             f"from fio's merged latency histogram ({kind} latency, µs); in brackets its 95 % "
             "confidence interval (distribution-free, from the binomial order statistics, to the "
             "histogram's bucket edges). 'too few I/Os (N)': fewer than 10 of the N pooled I/Os "
             "lie beyond that percentile, so it is not stated. The per-repetition mean ± std is "
             "in the table above.",)
    return workload_table(cls.id, tid, title, cols, data, record, rows, notes, cls=cls)


def per_repetition_notes(rows: list[dict], record: dict) -> tuple[str, ...]:
    """What the percentile cells of a main table are: with histograms, where the pooled ones
    are; with DiskSpd, why there are none. Runs from before json+ get no note, so the tables of
    an old run folder export byte for byte as they did (tests/fixtures/runs)."""
    if any(pooled_of(r, d) for r in rows for d in directions(r)):
        return ("Percentile cells: mean ± std of each repetition's own percentile; the pooled "
                "percentiles of all I/Os, with 95 % intervals, are in the 'pooled' table.",)
    if (record.get("engine") or {}).get("name") == "diskspd":
        return ("Percentile cells: mean ± std of each repetition's own percentile; DiskSpd "
                "reports percentiles without histogram bins, so no pooled percentiles of all "
                "I/Os are given.",)
    return ()


def pooled_series(name: str, xs: list[float], rows: list[dict], key: str, factor: float = 1.0,
                  **kw) -> Series | None:
    """The pooled ``key`` (e.g. p99) of each row's main direction at ``xs``, error bars its 95 %
    interval; rows without a histogram or with too few I/Os beyond ``key`` are left out."""
    pts = []
    for x, row in zip(xs, rows):
        pooled = pooled_of(row, "read" if row.get("read") else "write") or {}
        value, ci = pooled.get(key), (pooled.get("ci95") or {}).get(key)
        if value is None or key in (pooled.get("too_few") or ()):
            continue
        y = value * factor
        pts.append((x, y, (y - ci[0] * factor, ci[1] * factor - y) if ci else 0.0))
    if not pts:
        return None
    return Series(name, tuple(p[0] for p in pts), tuple(p[1] for p in pts),
                  tuple(p[2] for p in pts), **kw)
