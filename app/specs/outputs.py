"""The vendor comparison (app/specs/catalog.py) as a table and a figure: it is not an experiment, it
reads the whole run, so it lives beside the experiments rather than in the registry."""
from __future__ import annotations

from app.results.figure import READ, WRITE, Axis, Figure, HLine, Series
from app.results.table import Column, Table
from app.specs.comparison import Measured, VendorComparison, VendorRow
from app.units import format_size

_SHORT = {"seq_read_mbps": "Seq. read", "seq_write_mbps": "Seq. write",
          "rand_read_iops": "4K random read", "rand_write_iops": "4K random write"}


def _compact(value: float, unit: str) -> str:
    return f"{value / 1e6:.2f} M {unit}" if value >= 1e6 else f"{value:,.0f} {unit}"


def _tick(row: VendorRow) -> str:
    """The metric and the vendor's figure, on two lines under the bar."""
    return f"{_SHORT.get(row.metric, row.label)}\n{_compact(row.spec, row.unit)}"


def _q_t(qd: object, threads: object) -> str:
    """CrystalDiskMark's short form of queue depth and threads: 'Q32T16'."""
    return f"Q{qd or 1}T{threads or 1}"


def _bar_label(row: VendorRow, measured: Measured) -> str:
    """Over the bar, two short lines: the percentage, and whether the measurement is like for
    like (its workload and the vendor's set-up are in the caption and the table: five lines
    over each bar were paragraphs at 4 pt in the PDF)."""
    return "\n".join((f"{row.pct:.0f} %", "like for like" if row.like_for_like else
                       f"best available ({_q_t(*measured.q_t)})"))


def _vendor_setup(row: VendorRow) -> str:
    setup = row.vendor_setup
    return (f"{format_size(setup.bs) + ' ' if setup.bs else ''}"
            f"{_q_t(setup.qd, setup.threads)}{', assumed' if setup.assumed else ''}")


def vendor_figure(comparison: VendorComparison) -> Figure | None:
    """Measured as % of the vendor's 'up to' figure, one bar per metric that was measured, read
    and write in their colours; over each bar the measured workload, the vendor's set-up and
    whether they are like for like."""
    rows = [(r, r.pct, r.measured) for r in comparison.rows
            if r.pct is not None and r.measured is not None]
    if not rows:
        return None
    series = []
    for direction, tint in (("read", READ), ("write", WRITE)):
        mine = [(float(i), r, pct, m) for i, (r, pct, m) in enumerate(rows)
                if ("write" in r.metric) == (direction == "write")]
        if not mine:
            continue
        series.append(Series(
            f"{direction}: measured as % of the vendor's figure", tuple(x for x, *_ in mine),
            tuple(pct for _, _, pct, _ in mine), tuple(r.pct_std or 0.0 for _, r, _, _ in mine),
            kind="bar", bar_width=0.5, color=tint,
            point_labels=tuple(_bar_label(r, m) for _, r, _, m in mine)))
    unmatched = [r.label for r, _, _ in rows if not r.like_for_like]
    return Figure(
        id="vendor-comparison", experiment="vendor",
        title="Measured against the vendor spec: " + comparison.spec.name
        + (" (not the measured drive?)" if comparison.drive_mismatch else ""),
        x_axis=Axis("Metric and the vendor's 'up to' value",
                    tuple((float(i), _tick(r)) for i, (r, _, _) in enumerate(rows))),
        y_axis=Axis("Measured / vendor spec (%)"), series=tuple(series),
        hlines=(HLine(100.0, "vendor spec = 100 %", color=6),),
        caption=(f"{comparison.drive_mismatch} " if comparison.drive_mismatch else "")
        + "Each bar is the run's measurement closest to the vendor's conditions, from any "
          "experiment: same pattern and direction, the vendor's block size (the usual one where the "
          "source states none) and queue depth and threads (like for like), else the most "
          "outstanding I/O at or below the vendor's. " + (
              "No like-for-like measurement for " + ", ".join(unmatched) + ": the best available "
              "is shown, marked. " if unmatched else "Every bar is like for like. ")
        + "Bars: " + "; ".join(f"{r.label}: {m.mean:,.0f} {r.unit}, {m.label} in {m.experiment} "
                               f"against the vendor's {_vendor_setup(r)}" for r, _, m in rows)
        + ". Vendor figures are 'up to' values under the vendor's own test conditions; see the "
          "comparison table.")


def vendor_table(cmp: VendorComparison) -> Table:
    """Compact, one line a metric (metric, the vendor's value, measured, % of spec, like for
    like, the conditions of both), the explanations as numbered notes under it: with them in a
    column, its cells wrapped to 30 lines and the table ran over 1.5 pages of the PDF."""
    spec = cmp.spec
    cols = [Column("Metric", "metric"), Column("Vendor 'up to'", "spec", 0),
            Column("Unit", "unit"), Column("Measured", "measured", 0, True),
            Column("% of spec", "pct_of_spec", 1), Column("Like for like", "like_for_like"),
            Column("Conditions (vendor; measured)", "conditions"), Column("Note", "note")]
    rows = [(r.label, r.spec, r.unit, r.measured.stat.to_json() if r.measured else None, r.pct,
             "yes" if r.like_for_like else "no",
             f"{r.vendor_at}; {r.measured.label if r.measured else 'not measured'}", f"[{k}]")
            for k, r in enumerate(cmp.rows, 1)]
    explained = tuple(
        f"[{k}] {r.label}: {r.explanation}. Vendor's conditions: {r.spec_conditions}. "
        f"Measured: {r.measured_at or 'not measured in this run'}"
        + ("" if r.like_for_like or r.measured is None else f" ({r.match})") + "."
        for k, r in enumerate(cmp.rows, 1))
    source = "" if cmp.link_known else " (from the spec; the negotiated link was not recorded)"
    ceiling = (f"Interface ceiling: {cmp.interface} ≈ {cmp.ceiling_MBps:,.0f} MB/s raw "
               f"link rate{source}." if cmp.interface else "Interface ceiling: unknown.")
    notes = explained + ((f"Drive mismatch: {cmp.drive_mismatch}",) if cmp.drive_mismatch else ()) + (
        f"Spec record `{spec.id}` ({spec.source_kind} source): {spec.source_url}"
        + (f". {spec.notes}" if spec.notes else "")
        + (f". The record's model match: {spec.pattern_note}" if spec.pattern_note else ""),
        ceiling, "Measured: among every workload of the run (any experiment) with the vendor's "
        "pattern, direction and block size, the one with the vendor's queue depth and threads "
        "(like for like), else the most outstanding I/O (QD × threads) at or below the "
        "vendor's, else the least above; among equals the best mean.")
    return Table("vendor-comparison", "Measured against the vendor spec", tuple(cols),
                 tuple(rows), notes, "vendor")
