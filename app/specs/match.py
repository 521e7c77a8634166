"""Measured against the vendor's 'up to' figures, with the conditions and the link that explain
the gap, read from a run's typed results (docs/architecture.md).

Why a comparison needs more than a percentage: vendors measure on a fresh drive, inside the SLC
cache, at deep queues and many threads, on the raw device; a file-level test at QD1 reaches a
fraction of that. So every row states the vendor's test conditions next to ours, and MB/s rows
name the interface ceiling (SATA III, PCIe 3.0/4.0/5.0 x4), so a low number is explained. The
specs themselves (where they come from, how they match a drive) are app/specs/catalog.py.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from app.model.info import Drive, Link, RunInfo
from app.model.summary import Stat
from app.model.workload import Workload
from app.results.run_results import ExperimentResults, RunResults
from app.specs.catalog import METRICS, drive_key, drive_model, spec_for_run
from app.specs.comparison import Measured, Setup, VendorComparison, VendorRow
from app.specs.record import VendorSpec
from app.units import UnitError, format_size, parse_size

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
LIKE = "like for like"


def vendor_setup(spec: VendorSpec, key: str) -> Setup:
    """The vendor's test set-up for one metric (see :class:`Setup`)."""
    seq = key.startswith("seq")
    usual_bs, usual_qd, usual_threads = USUAL["seq" if seq else "rand"]
    stated, qd, threads = spec.conditions.side(seq)
    try:
        bs = parse_size(stated) if stated else (None if seq else usual_bs)
    except UnitError:
        bs = None if seq else usual_bs
    return Setup(bs, qd or usual_qd, threads or usual_threads, not qd or not threads, usual_bs)


def _pure(w: Workload, write: bool) -> bool:
    """Only the metric's direction: a 0 %-read mix is a pure write, a 100 % one a pure read."""
    return (w.writes and not w.reads) if write else (w.reads and not w.writes)


def _candidates(parts: Sequence[ExperimentResults], key: str, bs: int | None,
                field: str) -> list[Measured]:
    """Every measured workload of the run, whatever experiment ran it, with the metric's access
    pattern (random or sequential), only its direction, and the vendor's block size where one
    is stated."""
    random, write = key.startswith("rand"), "write" in key
    out = []
    for part in parts:
        for row in part.workloads:
            try:
                w = row.workload
            except (TypeError, ValueError):
                continue  # an imported result without a whole workload cannot be matched
            if w.random != random or not _pure(w, write) or (bs is not None and w.bs_bytes != bs):
                continue
            side = row.side("write" if write else "read")
            stat: Stat | None = getattr(side, field) if side else None
            if stat is not None and stat.mean is not None:
                out.append(Measured(stat, row.label, part.id, w))
    return out


def match_measured(parts: Sequence[ExperimentResults], key: str, field: str,
                   setup: Setup) -> tuple[Measured | None, str]:
    """The measurement closest to the vendor's conditions, and how it matches.

    Closest: among the run's workloads of the same pattern, direction and block size
    (:func:`_candidates`), the vendor's very queue depth and threads; else the most outstanding
    I/O (QD × threads) at or below the vendor's (a deeper queue than the vendor's would flatter
    the drive), else the least above it; among equals the best mean. Where the source states no
    block size, the queue depth decides first (a sequential write at the vendor's QD32 is the
    like-for-like load, whatever its block size, rather than a QD1 one at the usual block size),
    and the best block-size match is named beside it. The text says "like for like", or what the
    best available is and where it was measured."""
    found = _candidates(parts, key, setup.bs, field)
    if not found:
        return None, "not measured"
    target = setup.outstanding
    usual = setup.bs or setup.usual_bs  # a source without a block size: the usual one

    def depth(c: Measured) -> tuple[bool, bool, int]:
        below = c.outstanding <= target
        return (c.q_t == (setup.qd, setup.threads), below,
                c.outstanding if below else -c.outstanding)

    def rank(c: Measured) -> tuple[bool | int | float, ...]:
        same = usual is None or c.workload.bs_bytes == usual
        return (*depth(c), same, c.mean) if setup.bs is None else (same, *depth(c), c.mean)
    got = max(found, key=rank)
    same_bs = usual is None or got.workload.bs_bytes == usual
    if got.q_t == (setup.qd, setup.threads) and same_bs:
        return got, LIKE
    qd, threads = got.q_t
    blocks = "" if same_bs else f", {format_size(got.workload.bs_bytes)} blocks"
    spec_bs = "" if same_bs or usual is None else \
        f", {format_size(usual)} blocks{' (usual practice, assumed)' if setup.bs is None else ''}"
    how = ("queue-depth match" if got.q_t == (setup.qd, setup.threads) else "best available")
    text = (f"{how}: {got.label} (QD{qd} × {threads}{blocks}) of {got.experiment}; "
            f"the spec is at Q{setup.qd}T{setup.threads}{spec_bs}")
    sized = [c for c in found if usual is not None and c.workload.bs_bytes == usual]
    if not same_bs and sized:
        beside = max(sized, key=lambda c: (*depth(c), c.mean))
        unit = "MB/s" if field == "MBps" else "IOPS"
        text += (f"; best block-size match beside it: {beside.label} of {beside.experiment}, "
                 f"{beside.mean:,.0f} {unit}")
    return got, text


def drive_mismatch(spec: VendorSpec, info: RunInfo) -> str | None:
    """A sentence when the spec's drive is not (known to be) the measured drive, else None: a
    spec attached to a virtual disk, or typed for another model, compares two different things."""
    key = drive_key(info)
    if key.model and spec.describes_model(key.model):
        return None
    medium = info.target.medium if info.target and info.target.medium else {}
    if key.model:
        measured = f"reports the model {key.model}"
    elif "virtual" in (medium.get("kind"), info.drive.bus if info.drive else None):
        measured = "is a virtual disk (no model reported)"
    else:
        measured = "reports no model"
    how = " (you attached it to this drive)" if spec.attached_to_drive(key) else ""
    return (f"The spec is for {spec.name}{how}, but the measured drive {measured}: the "
            "comparison holds only if that drive really is this model" +
            (", and a virtual disk's numbers are the host's storage and cache" if
             "virtual" in measured else "") + ".")


def _conditions(spec: VendorSpec, key: str) -> str:
    """The vendor's test conditions for one metric, or the usual practice when unstated."""
    seq = key.startswith("seq")
    bs, qd, threads = spec.conditions.side(seq)
    if not qd and not threads:
        usual = "128 KiB at QD32, 1 thread" if seq else "4 KiB at QD32 × 16 threads"
        return (f"not stated by the source (usual vendor practice: {usual}, fresh drive, "
                "inside the SLC cache)")
    parts = [bs, f"QD{qd}" if qd else None,
             f"{threads} thread{'s' if threads != 1 else ''}" if threads else None]
    note = spec.conditions.note
    return " ".join(p for p in parts if p) + (f" ({note})" if note else "")


def compare(parts: Sequence[ExperimentResults], spec: VendorSpec,
            info: RunInfo | None = None) -> VendorComparison:
    """Measured against spec, one row per metric the spec states (measured may be missing)."""
    info = info or RunInfo()
    link = drive_link_ceiling(info.drive)
    ceiling = link or interface_ceiling(spec.interface)
    rows = []
    for key, label, unit, _rw, _bs, field in METRICS:
        value = spec.figures.get(key)
        if not value:
            continue
        setup = vendor_setup(spec, key)
        got, match = match_measured(parts, key, field, setup)
        pct = pct_std = None
        if got:
            std = got.stat.std
            pct, pct_std = 100.0 * got.mean / value, 100.0 * std / value if std else None
        rows.append(VendorRow(key, label, unit, value, _conditions(spec, key), setup, match,
                              _explain(value, pct, got, setup, ceiling, unit), got, pct,
                              pct_std))
    return VendorComparison(spec, drive_model(info), tuple(rows),
                            ceiling[0] if ceiling else None, ceiling[1] if ceiling else None,
                            link is not None, drive_mismatch(spec, info))


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


def compare_results(results: RunResults, record: Mapping[str, Any] | None = None
                    ) -> VendorComparison | None:
    """The comparison of a run's results with ``record`` (a spec given for this export), else
    the spec that matches its drive; None without one."""
    info = results.run.info
    spec = VendorSpec.from_json(record) if record else spec_for_run(info)
    return compare(results.parts, spec, info) if spec else None
