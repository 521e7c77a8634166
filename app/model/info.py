"""What a run says about itself: the descriptive blocks of run.json (host, drive, engine, target
and its remote hosts, temperature, plausibility limits, direct I/O) as typed values.

Why typed: every reader (report.md, the vendor comparison, compare, the CLI) needs the same
answer to what a missing or damaged block means, so it is given once, here. These classes read a
block once, with the tolerance run folders of every earlier version need
(docs/architecture.md, "Run folders of earlier versions"): a key a version did not write is
None, a key this version does not know is carried in ``extra`` and written back unchanged (key
order too), and a value of the wrong type is a ValueError naming the field (``drive.model``),
which app/store/run_folder.py turns into one line naming the file. :attr:`app.model.run.Run.info`
reads the run's blocks into :class:`RunInfo`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.model.block import READERS, Block, register_block


@dataclass(frozen=True, kw_only=True)
class Host(Block):
    hostname: str | None = None
    os: str | None = None
    os_release: str | None = None
    os_version: str | None = None
    machine: str | None = None
    cpu: str | None = None
    cpu_cores_logical: int | None = None
    cpu_cores_physical: int | None = None
    ram_bytes: int | None = None
    python: str | None = None
    #: The app's own CPU seconds (its threads; the engine's not counted) while its trials ran,
    #: over the trials' ``app_trials_s`` wall seconds: how much it shared the CPU with its run.
    app_cpu_s: float | None = None
    app_trials_s: float | None = None
    engine_cpu: int | None = None   # the one CPU the engine ran on, opted in (jobs/engine/quiet.py)
    app_below_engine: bool | None = None   # all the app's threads ran below the engine's priority


@dataclass(frozen=True, kw_only=True)
class Link(Block):
    """A negotiated link (app/drive/link.py) or a PCIe link as sysfs states it (app/drive/linux.py)."""

    kind: str | None = None
    text: str | None = None
    ceiling_MBps: float | None = None
    duplex: str | None = None
    source: str | None = None
    speed_gts: float | None = None
    width: int | None = None


register_block(Host)
register_block(Link)


def _link_or_text(value: object, where: str) -> Link | str | None:
    return value if isinstance(value, str) else Link.from_json(value, where)


READERS["Link | str | None"] = _link_or_text


@dataclass(frozen=True, kw_only=True)
class Medium(Block):
    """What the target folder sits on (app/paths/medium.py): a plain drive, or a virtual disk,
    loop image, network share... whose ``note`` says what that means for the numbers."""

    kind: str | None = None
    note: str | None = None
    line: str | None = None


register_block(Medium)


@dataclass(frozen=True, kw_only=True)
class Drive(Block):
    """The drive under the target folder; with several remote hosts, each host's in ``hosts``."""

    model: str | None = None
    firmware: str | None = None
    serial: str | None = None
    bus: str | None = None
    interface: str | None = None
    link: Link | str | None = None
    capacity_bytes: int | None = None
    total_bytes: int | None = None
    device: str | None = None
    disk_name: str | None = None
    fstype: str | None = None
    remote: str | None = None
    medium: Medium | None = None
    hosts: tuple[Drive, ...] | None = None
    identity_note: str | None = None   # why the drive named may not be all of the target

    @property
    def link_text(self) -> str | None:
        return self.link.text if isinstance(self.link, Link) else self.link


register_block(Drive)


@dataclass(frozen=True, kw_only=True)
class RemoteHost(Block):
    """One fio server of a remote run (jobs/remote/record.py)."""

    host: str | None = None
    port: int | None = None
    fio_version: str | None = None
    hostname: str | None = None


register_block(RemoteHost)


@dataclass(frozen=True, kw_only=True)
class RemoteLive(Block):
    """Which series a remote run shows live (fio's client sends only some while a trial runs)."""

    available: tuple[str, ...] | None = None
    not_available: tuple[str, ...] | None = None


register_block(RemoteLive)


@dataclass(frozen=True, kw_only=True)
class Remote(RemoteHost):
    """``target.remote``: the first host's fields, then every host."""

    hosts: tuple[RemoteHost, ...] | None = None
    live: RemoteLive | None = None

    @property
    def every_host(self) -> tuple[RemoteHost, ...]:
        return self.hosts or (self,)


@dataclass(frozen=True, kw_only=True)
class Target(Block):
    folder: str | None = None
    requested: str | None = None
    data_dir: str | None = None
    fs_type: str | None = None
    free_bytes: int | None = None
    total_bytes: int | None = None
    medium: Mapping[str, Any] | None = None
    remote: Remote | None = None


@dataclass(frozen=True, kw_only=True)
class Engine(Block):
    name: str | None = None
    version: str | None = None
    path: str | None = None


@dataclass(frozen=True, kw_only=True)
class Temperature(Block):
    source: str | None = None
    detail: str | None = None
    reason: str | None = None


@dataclass(frozen=True, kw_only=True)
class Plausibility(Block):
    """The limits a run recorded at its start (app/stats/plausibility.py)."""

    link: Link | None = None
    link_reason: str | None = None
    latency_floor_us: float | None = None


@dataclass(frozen=True, kw_only=True)
class DirectIO(Block):
    """Whether the run's I/O bypassed the page cache (app/paths/direct_io.py)."""

    requested: bool | None = None
    in_effect: bool | None = None
    how: str | None = None


@dataclass(frozen=True, kw_only=True)
class PlannedEntry(Block):
    """One trial of the plan as run.json lists it (``planned_trials``): what the report counts
    and the window draws its boundaries and progress from (ui/window/run/planned.py); the rest
    (size, interval, precision target...) stays in ``extra``."""

    index: int | None = None
    experiment: str | None = None
    label: str | None = None
    repetition: int | None = None
    warmup: bool | None = None
    runtime_s: float | None = None
    ramp_s: float | None = None
    workload: Mapping[str, Any] | None = None
    precondition: bool | None = None   # a preconditioning round (precondition=steady)


for _block_cls in (Remote, Target, Engine, Temperature, Plausibility, DirectIO, PlannedEntry):
    register_block(_block_cls)


@dataclass(frozen=True, kw_only=True)
class RunInfo(Block):
    """run.json's descriptive blocks and facts; the measured part is :class:`app.model.run.Run`.
    ``extra`` holds what no reader here types (SMART, writes, throttle, command line...)."""

    host: Host | None = None
    drive: Drive | None = None
    engine: Engine | None = None
    target: Target | None = None
    temperature: Temperature | None = None
    plausibility: Plausibility | None = None
    direct_io: DirectIO | None = None
    vendor_spec: Mapping[str, Any] | None = None
    seed: int | None = None
    started_at: str | None = None
    ended_at: str | None = None
    planned_trials: tuple[PlannedEntry, ...] | None = None
    app_version: str | None = None
    origin: str | None = None
    max_temperature_c: float | None = None
    error: str | None = None   # why the run failed (a failed or interrupted run)
    dir: str | None = None     # the run folder, as the reader added it (never written)

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> RunInfo:
        """The info of a run's extra keys (never None: an empty record gives all None)."""
        return cls.from_json(data, "") or cls()
