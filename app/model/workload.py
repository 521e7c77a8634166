"""A workload: what one trial asks the drive to do, independent of the engine.

Names follow fio (``rw`` values read, write, randread, randwrite, randrw, rw); the DiskSpd adapter
maps them. Outstanding I/O is ``iodepth x numjobs`` (fio) = ``-o x -t`` (DiskSpd).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from app.units import block_label

RW_MODES = ("read", "write", "randread", "randwrite", "randrw", "rw")
#: The single-direction modes in words, for choices people pick (a form's "random read").
RW_WORDS = {"randread": "random read", "randwrite": "random write", "read": "sequential read",
            "write": "sequential write"}
_MIXED = ("randrw", "rw")


def outstanding(workload: Mapping[str, Any]) -> int:
    """I/Os in flight for a workload as run.json stores it: iodepth x numjobs. The one place
    this is computed; a field an imported result leaves out counts as 1."""
    return (workload.get("iodepth") or 1) * (workload.get("numjobs") or 1)


def workload_key(workload: Mapping[str, Any]) -> str:
    """The stable identifier that groups a workload's repetitions, e.g. 'randrw-4096-q1-t1-m70'."""
    w = workload
    mix = f"-m{w['rwmixread']}" if w.get("rwmixread") is not None else ""
    return f"{w.get('rw')}-{w.get('bs_bytes')}-q{w.get('iodepth')}-t{w.get('numjobs')}{mix}"


@dataclass(frozen=True)
class Workload:
    rw: str
    bs_bytes: int
    iodepth: int = 1
    numjobs: int = 1
    rwmixread: int | None = None

    def __post_init__(self) -> None:
        if self.rw not in RW_MODES:
            raise ValueError(f"unknown rw mode {self.rw!r}; expected one of {', '.join(RW_MODES)}")
        if self.bs_bytes < 512 or self.bs_bytes % 512:
            raise ValueError(f"block size must be a multiple of 512 bytes, got {self.bs_bytes}")
        if self.iodepth < 1 or self.numjobs < 1:
            raise ValueError("iodepth and numjobs must be at least 1")
        if self.rw in _MIXED:
            if self.rwmixread is None or not 0 <= self.rwmixread <= 100:
                raise ValueError("a mixed workload needs rwmixread between 0 and 100")
        elif self.rwmixread is not None:
            raise ValueError(f"rwmixread applies only to mixed workloads, not {self.rw}")

    @property
    def random(self) -> bool:
        return self.rw.startswith("rand")

    @property
    def outstanding(self) -> int:
        """Outstanding I/O the engine keeps in flight: iodepth x numjobs."""
        return outstanding(self.to_json())

    @property
    def direction(self) -> str:
        """'read', 'write' or 'mix70' (read share of a mixed workload)."""
        if self.rw in _MIXED:
            return f"mix{self.rwmixread}"
        return "read" if self.rw in ("read", "randread") else "write"

    @property
    def reads(self) -> bool:
        return self.direction != "write" and not (self.rw in _MIXED and self.rwmixread == 0)

    @property
    def writes(self) -> bool:
        return self.direction != "read" and not (self.rw in _MIXED and self.rwmixread == 100)

    @property
    def label(self) -> str:
        """CrystalDiskMark-style name, e.g. 'RND4K Q32T1 read', 'SEQ1M Q8T1 write'."""
        kind = "RND" if self.random else "SEQ"
        return f"{kind}{block_label(self.bs_bytes)} Q{self.iodepth}T{self.numjobs} {self.direction}"

    @property
    def key(self) -> str:
        """Stable identifier used to group repetitions and to name raw files."""
        return workload_key(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Workload:
        """ValueError naming what is wrong when ``data`` is not a valid workload; an iodepth or
        numjobs left out is 1, fio's default (as :func:`outstanding` counts it)."""
        missing = [k for k in ("rw", "bs_bytes") if data.get(k) is None]
        if missing:
            raise ValueError(f"the workload names no {', '.join(missing)}")
        return cls(data["rw"], data["bs_bytes"], data.get("iodepth") or 1, data.get("numjobs") or 1,
                   data.get("rwmixread"))
