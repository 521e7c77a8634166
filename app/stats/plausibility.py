"""Results checked against physics: a workload faster than the link it had to cross, or
answering faster than any drive can, measured a cache or RAM, not the drive .

At run start :func:`at_run_start` records in run.json (``plausibility``) the negotiated link's
ceiling where the OS tells it (app/drive/link.py; unknown means no throughput check, never a
guess) and the latency floor. Export compares every workload's mean against them
(:func:`check`); app/results/plausibility_notes.py turns the flags into table notes, figure lines and
captions and report sentences. Runs made before this existed have no ``plausibility`` record
and get no check, so they export byte for byte as before.

The latency floor, per I/O, is ``LATENCY_FLOOR_US`` plus the block's transfer time over the link
where its ceiling is known (``bs_bytes / ceiling_MBps`` is in µs, since 1 MB/s = 1 B/µs): each
I/O's data has to cross the link, so 128 KiB cannot come from a SATA drive in less than 218 µs.
Why 3 µs: the fastest drives ever sold answer a 4 KiB read in about 5 to 10 µs, measured the way
this app measures (fio through the kernel, QD1): Intel specifies its Optane SSD DC P4800X at
"< 10 µs typical" and AnandTech measured a mean of 8.9 µs (anandtech.com/show/11209, "Checking
Intel's Numbers"); its successor, the Optane P5800X, is marketed at about 5 µs (Intel's figure
as reviews quote it, not checked against Intel's page here; KitGuru measured 74,875 QD1 IOPS,
13 µs, on Windows). NAND flash needs 50 µs and more to read a page. Below 3 µs, a command's trips over PCIe (doorbell, command fetch, data, completion,
interrupt) and the kernel's own path leave nothing for the medium, while the page cache and
tmpfs answer in 1 to 2 µs (a tmpfs folder gave 456,000 QD1 IOPS, 2.2 µs). The mean and
the median are checked: a median under the floor means most I/Os never reached the drive. These
floors are the ones measured here, not a published figure.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.drive.link import negotiated_link
from app.model.info import Link, RunInfo
from app.model.summary import Stat, WorkloadSummary
from app.results.run_results import ExperimentResults

LATENCY_FLOOR_US = 3.0
DIRECTIONS = ("read", "write")


def at_run_start(drive: dict[str, Any], medium: dict[str, Any] | None,
                 sys_root: str = "/sys") -> dict[str, Any]:
    """run.json's ``plausibility``: {link (or None), link_reason, latency_floor_us}."""
    try:
        link, why = negotiated_link(drive or {}, medium, sys_root)
    except (OSError, ValueError, KeyError, TypeError) as exc:  # a surprising /sys: no check
        link, why = None, f"the link could not be read ({exc})"
    return {"link": link, "link_reason": why, "latency_floor_us": LATENCY_FLOOR_US}


@dataclass(frozen=True)
class Flag:
    experiment: str
    label: str
    direction: str       # read | write | total
    kind: str            # link (MB/s above the ceiling) | floor (latency under the floor)
    what: str            # "MB/s", "mean latency", "median latency"
    value: float
    limit: float


def limits(info: RunInfo) -> tuple[Link | None, float | None, float | None] | None:
    """(link, ceiling MB/s, latency floor µs) a run recorded, or None for runs without them."""
    phys = info.plausibility
    if phys is None:
        return None
    link = phys.link
    ceiling = _positive(link.ceiling_MBps) if link else None
    return (link if ceiling else None), ceiling, _positive(phys.latency_floor_us)


def check(info: RunInfo, parts: Iterable[ExperimentResults]) -> list[Flag]:
    """Every workload mean beyond the run's recorded limits, in experiment and plan order."""
    found = limits(info)
    if found is None:
        return []
    link, ceiling, floor = found
    half = bool(link and link.duplex == "half")
    return [flag for part in parts for row in part.workloads
            for flag in row_flags(part.id, row, ceiling, floor, half)]


def row_flags(eid: str, row: WorkloadSummary, ceiling: float | None, floor: float | None,
              half_duplex: bool = False) -> list[Flag]:
    """One workload's flags. Each direction is checked on its own (PCIe and USB 3 carry both
    at once); on a half-duplex link (SATA, USB 2.0) read and write also share the ceiling."""
    out = []
    label, bs = row.label, row.bs_bytes
    for direction in DIRECTIONS:
        side = row.side(direction)
        if side is None:
            continue
        mbps = side.MBps.mean
        if ceiling and mbps is not None and mbps > ceiling:
            out.append(Flag(eid, label, direction, "link", "MB/s", mbps, ceiling))
        if floor:
            limit = floor + (bs / ceiling if ceiling and bs else 0.0)
            for stat, what in (("mean", "mean latency"), ("p50", "median latency")):
                value = _mean(side.lat_us.get(stat))
                if value is not None and 0 < value < limit:
                    out.append(Flag(eid, label, direction, "floor", what, value, limit))
                    break
    total = row.total_MBps.mean
    both = row.read is not None and row.write is not None
    if (half_duplex and both and ceiling and total is not None and total > ceiling
            and not any(f.kind == "link" for f in out)):
        out.append(Flag(eid, label, "total", "link", "MB/s", total, ceiling))
    return out


def _mean(stat: Stat | None) -> float | None:
    return stat.mean if stat is not None else None


def _positive(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
        and value > 0 else None
