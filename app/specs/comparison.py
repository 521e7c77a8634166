"""The vendor comparison as typed values: what app/specs/match.py computes and the report's
table and figure (app/specs/outputs.py) and the window's Figures tab read.

Why typed: the comparison is read in three places (table, figure, the window's status line);
with attributes each reader states what it needs, and a renamed field is a type error rather
than a silent None (docs/architecture.md, "The one currency").
"""
from __future__ import annotations

from dataclasses import dataclass

from app.model.summary import Stat
from app.model.workload import Workload
from app.specs.record import VendorSpec
from app.units import format_size


@dataclass(frozen=True)
class Setup:
    """The vendor's test set-up for one metric: block size (None when unstated for sequential),
    queue depth and threads (usual vendor practice when unstated, and then ``assumed``)."""

    bs: int | None
    qd: int
    threads: int
    assumed: bool
    usual_bs: int | None = None   # when ``bs`` is unstated: the block size vendors usually test at

    @property
    def outstanding(self) -> int:
        return self.qd * self.threads

    def text(self, short: bool = False) -> str:
        """'4KiB QD32 × 16 threads' (+ ' (usual practice, assumed)' when the source did not
        state queue depth and threads; ' (assumed)' when ``short``)."""
        threads = f"{self.threads} thread{'s' if self.threads != 1 else ''}"
        bs = f"{format_size(self.bs)} " if self.bs else ""
        assumed = (" (assumed)" if short else " (usual practice, assumed)") if self.assumed else ""
        return f"{bs}QD{self.qd} × {threads}{assumed}"


@dataclass(frozen=True)
class Measured:
    """The workload row set beside a vendor figure: its stat of the metric, and where it is."""

    stat: Stat
    label: str
    experiment: str
    workload: Workload

    @property
    def mean(self) -> float:
        return self.stat.mean or 0.0

    @property
    def outstanding(self) -> int:
        return self.workload.outstanding

    @property
    def q_t(self) -> tuple[int, int]:
        """Queue depth and threads."""
        return self.workload.iodepth, self.workload.numjobs


@dataclass(frozen=True)
class VendorRow:
    """One metric the spec states, with what was measured (None: not measured in this run)."""

    metric: str
    label: str
    unit: str
    spec: float
    spec_conditions: str
    vendor_setup: Setup
    match: str
    explanation: str
    measured: Measured | None = None
    pct: float | None = None
    pct_std: float | None = None

    @property
    def like_for_like(self) -> bool:
        return self.measured is not None and self.match == "like for like"

    @property
    def best_available(self) -> bool:
        """A measurement is shown but not under the vendor's conditions (the match says which)."""
        return self.measured is not None and not self.like_for_like

    @property
    def vendor_at(self) -> str:
        return self.vendor_setup.text()

    @property
    def measured_at(self) -> str | None:
        m = self.measured
        if m is None:
            return None
        qd, threads = m.q_t
        return (f"{m.label} ({m.experiment}, QD{qd} × {threads} thread(s) = {m.outstanding} "
                "outstanding I/O)")


@dataclass(frozen=True)
class VendorComparison:
    """Measured against one spec: a row per metric it states, the link's ceiling, and a sentence
    when the spec's drive is not (known to be) the measured one (None: it is)."""

    spec: VendorSpec
    model: str | None
    rows: tuple[VendorRow, ...]
    interface: str | None
    ceiling_MBps: float | None
    link_known: bool
    drive_mismatch: str | None = None
