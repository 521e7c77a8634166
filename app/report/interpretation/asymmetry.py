"""Reads against writes: which mechanism the run's numbers show.

A NAND program takes several times a read, so a write slower than a read (beyond the noise)
shows program time or the flash-translation work behind it (mapping updates, garbage
collection); a write faster than a read shows write buffering (DRAM or SLC acknowledges the
write before it is programmed, while a read must fetch from flash); equal within the noise
shows neither, and the sentence says so. The mix's total IOPS are set beside what the two pure
costs predict (the harmonic blend), which shows whether reads and writes interfere.
"""
from __future__ import annotations

from app.experiments.common import noise_text, separated, stat_text
from app.model.summary import Stat, WorkloadSummary
from app.report.interpretation.facts import AGREE, find, num, rows
from app.results.run_results import RunResults
from app.units import ratio


def _which(read: Stat, write: Stat, slower_is_write: str, faster_is_write: str, what: str,
           noise: str) -> str:
    split = separated(read, write)
    if split is False:
        return f"{noise} {noise_text(read, write)}"
    tested = "" if split else " (one repetition: not tested against the noise)"
    r, w = read.mean or 0.0, write.mean or 0.0
    if w > r:
        return slower_is_write.format(x=ratio(w / r) if r else "n/a") + tested
    return faster_is_write.format(x=ratio(r / w) if w else "n/a") + tested


def asymmetry_reading(results: RunResults, eid: str) -> list[str]:
    """At QD1 for the zero-queue section, at the mix's depth for the rw-mix section."""
    if eid == "rw-mix":
        mix = rows(results, "rw-mix")
        return _mix(mix) if mix else []
    out = []
    zq = rows(results, "zero-queue")
    rd, wr = find(zq, rw="randread"), find(zq, rw="randwrite")
    if rd and wr and rd.lat("mean") and wr.lat("mean"):
        r, w = rd.lat("mean"), wr.lat("mean")
        assert r is not None and w is not None
        head = (f"At QD1, {rd.label} takes {stat_text(r, 'µs')} and {wr.label} "
                f"{stat_text(w, 'µs')}: ")
        out.append(head + _which(
            r, w,
            "a write takes {x} the time of a read, the signature of NAND program time (or of "
            "the mapping and garbage-collection work behind it) showing through the write buffer",
            "a read takes {x} the time of a write, the signature of write buffering: the drive "
            "acknowledges a write from its DRAM or SLC buffer before programming it, while a read "
            "must fetch from flash", "latency",
            "the difference is within the noise, so no read/write asymmetry shows at one I/O in "
            "flight: the write buffer hides program time at this load") + ".")
    return out


def _mix(mix: tuple[WorkloadSummary, ...]) -> list[str]:
    reads, writes = find(mix, rwmixread=100), find(mix, rwmixread=0)
    if not (reads and writes and reads.total_iops.mean and writes.total_iops.mean):
        return []
    qd = reads.outstanding
    out = [f"At QD{qd}, pure reads reach {stat_text(reads.total_iops)} IOPS and pure writes "
           f"{stat_text(writes.total_iops)}: " + _which(
               reads.total_iops, writes.total_iops,
               "writes sustain {x} the IOPS of reads, so at this depth the write buffer absorbs "
               "writes faster than flash serves reads",
               "reads sustain {x} the IOPS of writes: with a queue, program time and the "
               "garbage collection it triggers limit writes", "IOPS",
               "the IOPS difference is within the noise, so at this depth neither direction is "
               "the bottleneck") + "."]
    middle = [r for r in mix if 0 < (r.workload.rwmixread or 0) < 100 and r.total_iops.mean]
    if middle:
        m = min(middle, key=lambda r: abs((r.workload.rwmixread or 0) - 50))
        f = (m.workload.rwmixread or 0) / 100
        blend = 1 / (f / reads.total_iops.mean + (1 - f) / writes.total_iops.mean)
        off = (m.total_iops.mean or 0) / blend - 1
        spread = 2 * (m.total_iops.std or 0.0)   # about the 95 % range of one repetition
        if abs(off) <= AGREE or abs((m.total_iops.mean or 0) - blend) <= spread:
            said = ("as the two pure costs predict, within the mix's own spread (two sample std): "
                    "no interference between reads and writes shows")
        elif off < 0:
            said = ("below what the two pure costs predict: reads wait behind writes' programs "
                    "and garbage collection (read/write interference)")
        else:
            said = ("above what the two pure costs predict: the drive serves reads and writes "
                    "on separate paths at once")
        out.append(f"The {m.workload.rwmixread} % read mix reaches "
                   f"{stat_text(m.total_iops)} IOPS against {num(blend)} predicted by blending "
                   f"the pure costs ({off:+.0%}), {said}.")
    return out
