"""The experiment catalog (DESIGN §6): seven frozen dataclasses of tunable parameters.

Each experiment lists its workloads; planning (repetitions, warm-up, order) lives in app/plan.py.
Defaults come from the course reports; every value can be changed with ``--set NAME=VALUE``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from app.params import ParamError, fields_of, param, validate
from app.units import GiB, KiB, MiB, format_size
from app.workloads import Workload

_POW2_BS = tuple(KiB * 2**i for i in range(2, 11))  # 4 KiB .. 1 MiB
_SIZE_MIN, _SIZE_MAX = 16 * MiB, 16 * 1024 * GiB
_DIRECTIONS = ("read", "write")


@dataclass(frozen=True)
class Experiment:
    """Parameters every experiment shares (CLI names as field names, canonical units)."""

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    summary: ClassVar[str] = ""

    runtime: float = param(30.0, kind="duration", minimum=1.0, maximum=24 * 3600.0,
                           help="measured time per trial")
    ramp: float = param(0.0, kind="duration", minimum=0.0, maximum=3600.0,
                        help="time fio runs before it starts counting (ramp_time)")
    size: int = param(GiB, kind="size", minimum=_SIZE_MIN, maximum=_SIZE_MAX,
                      help="size of the test file")
    repetitions: int = param(3, kind="int", minimum=1, maximum=100,
                             help="measured trials per workload (mean ± sample std)")
    warmup: bool = param(True, kind="bool", help="one unmeasured warm-up trial per workload first")
    randomize: bool = param(True, kind="bool",
                            help="shuffle workloads within each repetition round (seed recorded)")
    direct: bool = param(True, kind="bool", help="direct I/O, bypassing the OS page cache")
    interval: float = param(1.0, kind="duration", minimum=0.1, maximum=60.0,
                            help="live sample interval")

    def __post_init__(self) -> None:
        """Every instance is checked, however it was made (CLI, window, saved JSON, code), so a
        value that would fail later in a Workload or in fio is refused here, naming its field."""
        validate(self)
        for field in fields_of(self):
            if not field.metadata.get("block"):
                continue
            value = getattr(self, field.name)
            too_big = [bs for bs in (value if isinstance(value, tuple) else (value,))
                       if bs > self.size]
            if too_big:
                raise ParamError(field.name, f"{format_size(max(too_big))} is larger than the test "
                                             f"file (size {format_size(self.size)}); use a smaller "
                                             "block size or a larger size")

    def workloads(self) -> list[Workload]:  # pragma: no cover - abstract
        raise NotImplementedError

    def max_duration_s(self) -> float:
        """Upper bound of one trial's engine time, for the watchdog and the ETA."""
        return self.runtime + self.ramp


@dataclass(frozen=True)
class ZeroQueue(Experiment):
    id: ClassVar[str] = "zero-queue"
    title: ClassVar[str] = "Zero-queue latency baselines (QD1)"
    summary: ClassVar[str] = "one I/O in flight: the drive's own access time, avg and percentiles"

    random_bs: int = param(4 * KiB, kind="size", minimum=512, maximum=64 * MiB, block=True,
                           help="block size of the random read and write")
    seq_bs: int = param(128 * KiB, kind="size", minimum=512, maximum=64 * MiB, block=True,
                        help="block size of the sequential read and write")

    def workloads(self) -> list[Workload]:
        return [Workload("randread", self.random_bs), Workload("randwrite", self.random_bs),
                Workload("read", self.seq_bs), Workload("write", self.seq_bs)]


@dataclass(frozen=True)
class BlockSize(Experiment):
    id: ClassVar[str] = "block-size"
    title: ClassVar[str] = "Block-size sweep"
    summary: ClassVar[str] = "IOPS to bandwidth crossover, random and sequential"

    block_sizes: tuple[int, ...] = param(_POW2_BS, kind="size_list", minimum=512, maximum=64 * MiB,
                                         block=True, help="block sizes to sweep")
    patterns: tuple[str, ...] = param(("random", "sequential"), kind="choice_list",
                                      choices=("random", "sequential"), help="access patterns")
    direction: str = param("read", kind="choice", choices=_DIRECTIONS, help="read or write")
    iodepth: int = param(8, kind="int", minimum=1, maximum=1024, help="queue depth")

    def workloads(self) -> list[Workload]:
        return [Workload(_rw(pattern, self.direction), bs, self.iodepth)
                for pattern in self.patterns for bs in self.block_sizes]


@dataclass(frozen=True)
class RwMix(Experiment):
    id: ClassVar[str] = "rw-mix"
    title: ClassVar[str] = "Read/write mix sweep"
    summary: ClassVar[str] = "read/write asymmetry: IOPS and latency per direction"

    mixes: tuple[int, ...] = param((100, 70, 50, 0), kind="int_list", minimum=0, maximum=100,
                                   help="read share in percent")
    bs: int = param(4 * KiB, kind="size", minimum=512, maximum=64 * MiB, block=True,
                    help="block size")
    pattern: str = param("random", kind="choice", choices=("random", "sequential"),
                         help="access pattern")
    iodepth: int = param(8, kind="int", minimum=1, maximum=1024, help="queue depth")

    def workloads(self) -> list[Workload]:
        rw = "randrw" if self.pattern == "random" else "rw"
        return [Workload(rw, self.bs, self.iodepth, rwmixread=mix) for mix in self.mixes]


@dataclass(frozen=True)
class QueueDepth(Experiment):
    id: ClassVar[str] = "queue-depth"
    title: ClassVar[str] = "Queue-depth sweep"
    summary: ClassVar[str] = "throughput vs latency, the knee and Little's Law"

    queue_depths: tuple[int, ...] = param((1, 2, 4, 8, 16, 32, 64, 128, 256), kind="int_list",
                                          minimum=1, maximum=1024,
                                          help="outstanding I/O levels to sweep")
    sweep: str = param("iodepth", kind="choice", choices=("iodepth", "numjobs"),
                       help="raise iodepth (one job) or numjobs (iodepth 1)")
    bs: int = param(4 * KiB, kind="size", minimum=512, maximum=64 * MiB, block=True,
                    help="block size")
    rw: str = param("randread", kind="choice", choices=("randread", "randwrite", "read", "write"),
                    help="access pattern and direction")

    def workloads(self) -> list[Workload]:
        if self.sweep == "numjobs":
            return [Workload(self.rw, self.bs, 1, level) for level in self.queue_depths]
        return [Workload(self.rw, self.bs, level) for level in self.queue_depths]


@dataclass(frozen=True)
class TailLatency(Experiment):
    id: ClassVar[str] = "tail-latency"
    title: ClassVar[str] = "Tail latency"
    summary: ClassVar[str] = "p50 .. p99.99 at a mid queue depth and at the knee"

    queue_depths: tuple[int, ...] = param((8, 32), kind="int_list", minimum=1, maximum=1024,
                                          help="queue depths (a mid one and the knee)")
    bs: int = param(4 * KiB, kind="size", minimum=512, maximum=64 * MiB, block=True,
                    help="block size")
    rw: str = param("randread", kind="choice", choices=("randread", "randwrite", "read", "write"),
                    help="access pattern and direction")

    def workloads(self) -> list[Workload]:
        return [Workload(self.rw, self.bs, qd) for qd in self.queue_depths]


@dataclass(frozen=True)
class SlcCache(Experiment):
    id: ClassVar[str] = "slc-cache"
    title: ClassVar[str] = "Sustained sequential write (SLC cache)"
    summary: ClassVar[str] = "write until the fast cache runs out: GB before the drop, MB/s after"

    runtime: float = param(120.0, kind="duration", minimum=1.0, maximum=24 * 3600.0,
                           help="how long to keep writing (the time bound)")
    size: int = param(8 * GiB, kind="size", minimum=_SIZE_MIN, maximum=_SIZE_MAX,
                      help="size of the test file, rewritten in a loop (bounded by free space)")
    repetitions: int = param(1, kind="int", minimum=1, maximum=100,
                             help="measured trials (each one fills the cache again)")
    warmup: bool = param(False, kind="bool",
                         help="a warm-up would fill the cache before the measurement: off")
    bs: int = param(MiB, kind="size", minimum=4 * KiB, maximum=64 * MiB, block=True,
                    help="block size")
    iodepth: int = param(32, kind="int", minimum=1, maximum=1024, help="queue depth")

    def workloads(self) -> list[Workload]:
        return [Workload("write", self.bs, self.iodepth)]


@dataclass(frozen=True)
class Quick(Experiment):
    id: ClassVar[str] = "quick"
    title: ClassVar[str] = "Quick check (CrystalDiskMark-style)"
    summary: ClassVar[str] = "SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1, read and write"

    runtime: float = param(5.0, kind="duration", minimum=1.0, maximum=3600.0,
                           help="measured time per trial")
    profile: str = param("nvme", kind="choice", choices=("nvme", "default"),
                         help="nvme: SEQ128K Q32T1 and RND4K Q32T16; default: SEQ1M Q1T1, RND4K Q32T1")

    def workloads(self) -> list[Workload]:
        if self.profile == "nvme":
            grid = [("", MiB, 8, 1), ("", 128 * KiB, 32, 1), ("rand", 4 * KiB, 32, 16),
                    ("rand", 4 * KiB, 1, 1)]
        else:
            grid = [("", MiB, 8, 1), ("", MiB, 1, 1), ("rand", 4 * KiB, 32, 1), ("rand", 4 * KiB, 1, 1)]
        return [Workload(prefix + direction, bs, qd, jobs)
                for prefix, bs, qd, jobs in grid for direction in _DIRECTIONS]


def _rw(pattern: str, direction: str) -> str:
    return ("rand" if pattern == "random" else "") + direction


CATALOG: dict[str, type[Experiment]] = {
    cls.id: cls for cls in (ZeroQueue, BlockSize, RwMix, QueueDepth, TailLatency, SlcCache, Quick)
}
ALL = [eid for eid in CATALOG if eid != "quick"]  # what `run all` means (DESIGN §3.1)

PRESETS: dict[str, dict[str, str]] = {
    "course": {},
    "quick": {"runtime": "5s", "repetitions": "1", "warmup": "false", "size": "256MiB"},
}


def expand_ids(names: list[str]) -> list[str]:
    """Experiment ids from the command line: ``all`` expands, order kept, duplicates dropped."""
    out: list[str] = []
    for name in names:
        for eid in (ALL if name == "all" else [name]):
            if eid not in CATALOG:
                raise KeyError(f"unknown experiment {eid!r}; known: {', '.join(CATALOG)}, all")
            if eid not in out:
                out.append(eid)
    return out
