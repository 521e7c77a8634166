"""Measured against the vendor's 'up to' figures, with the conditions and the link that explain
the gap, read from a run's typed results (docs/architecture.md).

Why a comparison needs more than a percentage: vendors measure on a fresh drive, inside the SLC
cache, at deep queues and many threads, on the raw device; a file-level test at QD1 reaches a
fraction of that. So every row states the vendor's test conditions next to ours, and MB/s rows
name the interface ceiling (SATA III, PCIe 3.0/4.0/5.0 x4), so a low number is explained. The
specs themselves (where they come from, how they match a drive) are app/vendor/specs.py.
"""
from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from app.model.info import Drive, Link, RunInfo
from app.model.summary import Stat
from app.results.run_results import ExperimentResults, RunResults
from app.units import UnitError, parse_size
from app.vendor.comparison import Measured, Setup, VendorComparison, VendorRow
from app.vendor.specs import METRICS, drive_model, spec_for_run

#: Raw link bandwidth per direction after line encoding, before protocol overhead, MB/s (10^6).
INTERFACE_CEILINGS_MBPS = {
    "SATA II": 300.0,             # 3 Gb/s, 8b/10b
    "SATA III": 600.0,            # 6 Gb/s, 8b/10b
    "PCIe 3.0 x4": 3938.5,        # 8 GT/s x 4 lanes, 128b/130b
    "PCIe 4.0 x4": 7876.9,        # 16 GT/s
    "PCIe 5.0 x4": 15753.8,       # 32 GT/s
}
_GEN_RATE_GTS = {"1": 2.5, "2": 5.0, "3": 8.0, "4": 16.0, "5": 32.0, "6": 64.0}


def drive_link_ceiling(drive: Drive | None) -> tuple[str, float] | None:
    """The ceiling of the link the drive actually negotiated, from its identity in run.json:
    ``link`` {speed_gts, width, text} (Linux sysfs) or a text, else a SATA ``bus``."""
    if drive is None:
        return None
    link = drive.link
    if isinstance(link, Link) and link.speed_gts and link.width:
        gts, width = float(link.speed_gts), int(link.width)
        enc = 128 / 130 if gts >= 8 else 0.8
        return link.text or f"PCIe {gts:g} GT/s x{width}", round(gts * 1000 * width * enc / 8, 1)
    if isinstance(link, str):
        return interface_ceiling(link)
    if (drive.bus or "").upper() == "SATA":
        return interface_ceiling("SATA III")
    return interface_ceiling(drive.interface)


def interface_ceiling(interface: str | None) -> tuple[str, float] | None:
    """(normalized name, MB/s) for e.g. 'PCIe 4.0 x4', 'PCIe Gen3 x2', 'SATA 6Gb/s'."""
    if not interface or not isinstance(interface, str):
        return None
    text = interface.lower()
    if "sata" in text:
        name = "SATA II" if re.search(r"3\s*gb|sata\s*ii\b", text) else "SATA III"
        return name, INTERFACE_CEILINGS_MBPS[name]
    m = re.search(r"(?:pcie|gen)\s*(?:gen\s*)?(\d)(?:\.0)?", text)
    if not m or m.group(1) not in _GEN_RATE_GTS:
        return None
    found = re.search(r"x\s*(\d+)", text)
    lanes = int(found[1]) if found else 4
    gen = m.group(1)
    enc = 0.8 if gen in ("1", "2") else 128 / 130
    return f"PCIe {gen}.0 x{lanes}", round(_GEN_RATE_GTS[gen] * 1000 * lanes * enc / 8, 1)


USUAL = {"seq": (128 * 1024, 32, 1), "rand": (4096, 32, 16)}  # bs, QD, threads vendors use
LIKE, SAME_OUTSTANDING, NO_MATCH = ("like for like", "same outstanding I/O",
                                    "no like-for-like measurement")


def vendor_setup(spec: Mapping[str, Any], key: str) -> Setup:
    """The vendor's test set-up for one metric (see :class:`Setup`)."""
    tc = spec.get("test_conditions") or {}
    kind = "seq" if key.startswith("seq") else "rand"
    usual_bs, usual_qd, usual_threads = USUAL[kind]
    stated = tc.get(f"{kind}_bs")
    try:
        bs = parse_size(stated) if stated else (None if kind == "seq" else usual_bs)
    except UnitError:
        bs = None if kind == "seq" else usual_bs
    qd = tc.get(f"{kind}_qd")
    threads = tc.get(f"{kind}_threads") or tc.get("threads")
    return Setup(bs, int(qd or usual_qd), int(threads or usual_threads), not qd or not threads)


def _candidates(parts: Sequence[ExperimentResults], rw: str, bs: int | None,
                field: str) -> list[Measured]:
    out = []
    for part in parts:
        for row in part.workloads:
            w = row.workload
            if w.get("rw") != rw or (bs is not None and w.get("bs_bytes") != bs):
                continue
            side = row.side("read" if "read" in rw else "write")
            stat: Stat | None = getattr(side, field) if side else None
            if stat is not None and stat.mean is not None:
                out.append(Measured(stat, row.label, part.id, w))
    return out


def match_measured(parts: Sequence[ExperimentResults], rw: str, bs: int | None, field: str,
                   setup: Setup) -> tuple[Measured | None, str]:
    """The measurement to set beside the vendor's figure, and how well it matches: the same
    queue depth and threads (like for like), else the same outstanding I/O (QD × threads),
    else the one whose outstanding I/O is nearest (no like-for-like measurement). Among equals
    the highest mean. The block size must match where the vendor states one."""
    found = _candidates(parts, rw, bs or setup.bs, field)
    if not found:
        return None, NO_MATCH
    target = setup.outstanding

    def best(rows: list[Measured]) -> Measured:
        return max(rows, key=lambda c: c.mean)
    exact = [c for c in found if c.q_t == (setup.qd, setup.threads)]
    if exact:
        return best(exact), LIKE
    same = [c for c in found if c.outstanding == target]
    if same:
        return best(same), SAME_OUTSTANDING
    gap = min(abs(math.log(c.outstanding / target)) for c in found)
    return best([c for c in found if abs(math.log(c.outstanding / target)) == gap]), NO_MATCH


def _conditions(spec: Mapping[str, Any], key: str) -> str:
    """The vendor's test conditions for one metric, or the usual practice when unstated."""
    tc = spec.get("test_conditions") or {}
    seq = key.startswith("seq")
    bs, qd = tc.get("seq_bs" if seq else "rand_bs"), tc.get("seq_qd" if seq else "rand_qd")
    threads = tc.get("seq_threads" if seq else "rand_threads") or tc.get("threads")
    if not qd and not threads:
        usual = "128 KiB at QD32, 1 thread" if seq else "4 KiB at QD32 × 16 threads"
        return (f"not stated by the source (usual vendor practice: {usual}, fresh drive, "
                "inside the SLC cache)")
    parts = [str(bs) if bs else None, f"QD{qd}" if qd else None,
             f"{threads} thread{'s' if threads != 1 else ''}" if threads else None]
    return " ".join(p for p in parts if p) + (f" ({tc['note']})" if tc.get("note") else "")


def compare(parts: Sequence[ExperimentResults], spec: Mapping[str, Any],
            info: RunInfo | None = None) -> VendorComparison:
    """Measured against spec, one row per metric the spec states (measured may be missing)."""
    info = info or RunInfo()
    link = drive_link_ceiling(info.drive)
    ceiling = link or interface_ceiling(spec.get("interface"))
    rows = []
    for key, label, unit, rw, bs, field in METRICS:
        value = spec.get(key)
        if not value:
            continue
        setup = vendor_setup(spec, key)
        got, match = match_measured(parts, rw, bs, field, setup)
        pct = pct_std = None
        if got:
            std = got.stat.std
            pct, pct_std = 100.0 * got.mean / value, 100.0 * std / value if std else None
            qd, threads = got.q_t
            if match == SAME_OUTSTANDING:
                match = f"{match} ({got.outstanding}) as QD{qd} × {threads}"
            elif match == NO_MATCH:
                match = f"{match} (nearest: QD{qd} × {threads}, {got.outstanding} outstanding I/O)"
        rows.append(VendorRow(key, label, unit, float(value), _conditions(spec, key), setup,
                              match if got else "not measured",
                              _explain(float(value), pct, got, setup, ceiling, unit), got, pct,
                              pct_std))
    return VendorComparison(spec, drive_model(info), tuple(rows),
                            ceiling[0] if ceiling else None, ceiling[1] if ceiling else None,
                            link is not None)


def _explain(spec: float, pct: float | None, got: Measured | None, setup: Setup,
             ceiling: tuple[str, float] | None, unit: str) -> str:
    if not got:
        return "not measured in this run"
    notes = []
    out, vendor_out = got.outstanding, setup.outstanding
    if out < vendor_out:
        notes.append(f"{out} I/O in flight here against about {vendor_out} in the vendor's test")
    if ceiling:
        name, mbps = ceiling
        limit = mbps if unit == "MB/s" else mbps * 1e6 / 4096
        shown = f"{limit:,.0f} MB/s" if unit == "MB/s" else f"≈ {limit / 1e6:.2f} M IOPS at 4 KiB"
        if spec > limit:
            notes.append(f"the spec exceeds the {name} ceiling ({shown}): the link, not the drive, "
                         "is the limit")
        elif got.mean >= 0.9 * limit:
            notes.append(f"at the {name} ceiling ({shown})")
        else:
            notes.append(f"the {name} ceiling ({shown}) is not the limit")
    if pct is not None and pct < 50:
        notes.append("file-level test through the file system, not the raw device; vendors test "
                     "fresh drives inside the SLC cache")
    return "; ".join(notes)


def compare_results(results: RunResults) -> VendorComparison | None:
    """The comparison of a run's results with the spec that matches its drive; None without one."""
    info = results.run.info
    spec = spec_for_run(info)
    return compare(results.parts, spec, info) if spec else None
