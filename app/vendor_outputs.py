"""The vendor comparison (app/vendor.py) as a table and a figure: it is not an experiment, it
reads the whole run, so it lives beside the experiments rather than in the registry."""
from __future__ import annotations

from app.figures import Axis, Figure, HLine, Series
from app.tables import Column, Table

_SHORT = {"seq_read_mbps": "Seq. read", "seq_write_mbps": "Seq. write",
          "rand_read_iops": "4K random read", "rand_write_iops": "4K random write"}


def _compact(value: float, unit: str) -> str:
    return f"{value / 1e6:.2f} M {unit}" if value >= 1e6 else f"{value:,.0f} {unit}"


def _spec_name(spec: dict) -> str:
    """'Samsung PM9A1 512 GB'; parts a spec does not state are left out (never 'None GB')."""
    name = " ".join(str(x) for x in (spec.get("vendor"), spec.get("family")) if x)
    cap = spec.get("capacity_gb")
    return f"{name} {cap:g} GB" if isinstance(cap, (int, float)) else (name or "unnamed spec")


def vendor_figure(comparison: dict) -> Figure | None:
    """Measured as % of the vendor's 'up to' figure, one bar per metric that was measured."""
    rows = [r for r in comparison.get("rows", []) if r.get("pct") is not None]
    if not rows:
        return None
    x = tuple(float(i) for i in range(len(rows)))
    labels = tuple(f"{r['pct']:.0f} % ({r['measured']['mean']:,.0f} {r['unit']})" for r in rows)
    spec = comparison.get("spec") or {}
    return Figure(
        id="vendor-comparison", experiment="vendor",
        title="Measured against the vendor spec: " + _spec_name(spec),
        x_axis=Axis("Metric (vendor 'up to' value)",
                    tuple((i, f"{_SHORT.get(r['metric'], r['label'])} ({_compact(r['spec'], r['unit'])})")
                          for i, r in zip(x, rows))),
        y_axis=Axis("Measured / vendor spec (%)"),
        series=(Series("measured (% of spec)", x, tuple(r["pct"] for r in rows),
                       tuple(r.get("pct_std") or 0.0 for r in rows), kind="bar",
                       point_labels=labels, bar_width=0.5),),
        hlines=(HLine(100.0, "vendor spec = 100 %", color=1),),
        caption="Vendor figures are 'up to' values under the vendor's own test conditions; "
                "see the comparison table.")


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
