"""The figures and the vendor-spec status of a run folder, computed off the GUI thread. No Qt.

Why from the folder and not from the run model: the export reads the folder too
(app.report.export.export_run), so the same results (app.results.load) and vendor lookup make
the Figures tab show exactly what the report will hold, for a live run once
it has ended and for a reopened one alike. The result is a frozen value (figure specs are frozen
dataclasses of tuples; the spec travels as JSON text), handed to the GUI thread once.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

from app.model.info import Drive
from app.report.outputs import build_figures
from app.results.figure import Figure
from app.results.load import load_results
from app.results.run_results import RunResults
from app.vendor import match as vendor_compare
from app.vendor import specs as vendor
from app.vendor.comparison import VendorComparison

ORIGINS = {"run": "this run's run.json", "user": "your specs file",
           "built-in": "the built-in list"}


@dataclass(frozen=True)
class VendorStatus:
    """What the window says about the vendor comparison of the shown run."""

    model: str | None           # the drive's model string as recorded, None when unknown
    drive_note: str             # why the model is unknown (virtual disk, no identity)
    spec_name: str | None       # e.g. "WD_BLACK SN750 SE 1TB"; None: no spec matched
    origin: str | None          # run | user | built-in
    source: str                 # the record's source_url and kind
    spec_json: str | None       # the matched record, to prefill the edit dialog
    rows: tuple[str, ...]       # "4 KiB random read: 12 % of 800,000 IOPS"
    before_run: bool = False    # the target's drive, no run shown: nothing is compared yet

    @property
    def text(self) -> str:
        whose = "the target's drive" if self.before_run else "this run"
        if self.spec_name is None:
            if self.model:
                return f"No vendor spec for {self.model}: enter one (Vendor spec...)."
            return ("Drive model unknown" + (f" ({self.drive_note})" if self.drive_note else "")
                    + f": enter the vendor spec for {whose} (Vendor spec...).")
        where = ORIGINS.get(self.origin or "", self.origin or "")
        measured = ("compared once a run has ended" if self.before_run else
                    "; ".join(self.rows) if self.rows else "nothing comparable measured in this run")
        return f"Vendor spec: {self.spec_name} (from {where}; source: {self.source}). {measured}."


@dataclass(frozen=True)
class RunFigures:
    run_dir: str
    status: str
    figures: tuple[Figure, ...]
    vendor: VendorStatus


def _spec_name(spec: dict) -> str:
    parts = [str(spec.get(k)) for k in ("vendor", "family") if spec.get(k)]
    if spec.get("capacity_gb"):
        parts.append(f"{spec['capacity_gb']:g} GB" if isinstance(spec["capacity_gb"], (int, float))
                     else str(spec["capacity_gb"]))
    return " ".join(parts) or str(spec.get("id") or "unnamed spec")


def _vendor_status(results: RunResults) -> tuple[VendorStatus, VendorComparison | None]:
    info = results.run.info
    drive = info.drive or Drive()
    model = vendor.drive_model(info)
    note = str(drive.extra.get("identity_note") or "")
    if not model and drive.bus == "virtual":
        note = note or "virtual disk"
    spec, origin = vendor.spec_with_origin(info)
    if spec is None:
        return VendorStatus(model, note, None, None, "", None, ()), None
    comparison = vendor_compare.compare(results.parts, spec, info)
    rows = tuple(f"{r.label}: {r.pct:.0f} % of {r.spec:,.0f} {r.unit}"
                 for r in comparison.rows if r.pct is not None)
    source = f"{spec.get('source_url') or 'not given'} ({spec.get('source_kind') or '?'})"
    return (VendorStatus(model, note, _spec_name(spec), origin, source, json.dumps(spec), rows),
            comparison)


def drive_vendor_status(model: str | None, note: str = "") -> VendorStatus:
    """The spec of the target's drive before any run (a pool thread: reads the specs files)."""
    spec, origin = vendor.spec_for_drive(model)
    if spec is None:
        return VendorStatus(model, note, None, None, "", None, (), before_run=True)
    source = f"{spec.get('source_url') or 'not given'} ({spec.get('source_kind') or '?'})"
    return VendorStatus(model, note, _spec_name(spec), origin, source, json.dumps(spec), (),
                        before_run=True)


def load_run_figures(run_dir: str | os.PathLike, results: RunResults | None = None) -> RunFigures:
    """Figure specs and vendor status of a run folder; raises ValueError if it is not one.

    The same results as the export (app.results.load.load_results), so the tab shows exactly
    what the report will hold: a cancelled run's stored summary may be partial, the results
    are rebuilt from what finished. ``results``: those a reopened run was just built with from
    the same folder (reading a 10,000-trial run.json again took seconds, and the GIL from the
    window's first paint)."""
    if results is None:
        results = load_results(run_dir).results
    status, comparison = _vendor_status(results)
    figures = build_figures(results, comparison)
    return RunFigures(str(run_dir), str(results.run.status), tuple(figures), status)
