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
from app.specs import catalog as vendor
from app.specs import match as vendor_compare
from app.specs.comparison import VendorComparison
from app.specs.record import DriveKey, VendorSpec

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
    drive: DriveKey | None = None   # serial and volume: a spec entered is attached to them
    mismatch: str | None = None     # the spec's drive is not (known to be) the measured one

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
        warn = f" {self.mismatch}" if self.mismatch else ""
        return (f"Vendor spec: {self.spec_name} (from {where}; source: {self.source}). "
                f"{measured}.{warn}")


@dataclass(frozen=True)
class RunFigures:
    run_dir: str
    status: str
    figures: tuple[Figure, ...]
    vendor: VendorStatus


def _source(spec: VendorSpec) -> str:
    return f"{spec.source_url or 'not given'} ({spec.source_kind or '?'})"


def _vendor_status(results: RunResults) -> tuple[VendorStatus, VendorComparison | None]:
    info = results.run.info
    drive = info.drive or Drive()
    model = vendor.drive_model(info)
    note = drive.identity_note or ""
    if not model and drive.bus == "virtual":
        note = note or "virtual disk"
    key = vendor.drive_key(info)
    spec, origin = vendor.spec_with_origin(info)
    if spec is None:
        return VendorStatus(model, note, None, None, "", None, (), drive=key), None
    comparison = vendor_compare.compare(results.parts, spec, info)
    rows = tuple(f"{r.label}: {r.pct:.0f} % of {r.spec:,.0f} {r.unit}"
                 + (" (best available)" if r.best_available else "")
                 for r in comparison.rows if r.pct is not None)
    return (VendorStatus(model, note, spec.name, origin, _source(spec), json.dumps(spec.to_json()),
                         rows, drive=key, mismatch=comparison.drive_mismatch), comparison)


def drive_vendor_status(drive: DriveKey, note: str = "") -> VendorStatus:
    """The spec of the target's drive before any run (a pool thread: reads the specs files),
    found by its model or, for one entered for this very drive, its serial or volume."""
    spec, origin = vendor.spec_for_drive(drive)
    if spec is None:
        return VendorStatus(drive.model, note, None, None, "", None, (), before_run=True,
                            drive=drive)
    return VendorStatus(drive.model, note, spec.name, origin, _source(spec),
                        json.dumps(spec.to_json()), (), before_run=True, drive=drive)


def load_run_figures(run_dir: str | os.PathLike[str], results: RunResults | None = None) -> RunFigures:
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
