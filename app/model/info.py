"""What a run says about itself: the descriptive blocks of run.json (host, drive, engine, target
and its remote hosts, temperature, plausibility limits, direct I/O) as typed values.

Why typed: every reader (report.md, the vendor comparison, compare, the CLI) used to dig the same
keys out of dicts with ``.get`` chains and its own idea of what a missing block means. These
classes read a block once, with the tolerance run folders of every earlier version need
(docs/architecture.md, "Run folders of earlier versions"): a key a version did not write is
None, a key this version does not know is carried in ``extra`` and written back unchanged (key
order too), and a value of the wrong type is a ValueError naming the field (``drive.model``),
which app/store/run_folder.py turns into one line naming the file. :attr:`app.model.run.Run.info`
reads the run's blocks into :class:`RunInfo`.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from app.model.measurement import frozen

B = TypeVar("B", bound="Block")
Reader = Callable[[object, str], Any]


def _scalar(*kinds: type) -> Reader:
    def read(value: object, where: str) -> Any:
        if value is None:
            return None
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise ValueError(f"{where}: expected {names}, not {type(value).__name__}")
        return value
    return read


def _mapping(value: object, where: str) -> Mapping[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: expected an object, not {type(value).__name__}")
    return frozen(value)


def _objects(value: object, where: str) -> tuple[Mapping[str, Any], ...] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise ValueError(f"{where}: expected a list, not {type(value).__name__}")
    return tuple(_mapping(v, f"{where}[{i}]") or frozen({}) for i, v in enumerate(value))


def _strings(value: object, where: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{where}: expected a list of text")
    return tuple(value)


def _json(value: object) -> Any:
    """A field's value as run.json holds it."""
    if isinstance(value, Block):
        return value.to_json()
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    if isinstance(value, Mapping):
        return dict(value)
    return value


#: How a field is read, by its annotation; blocks add themselves below their definitions.
READERS: dict[str, Reader] = {
    "str | None": _scalar(str), "int | None": _scalar(int), "float | None": _scalar(int, float),
    "bool | None": _scalar(bool), "Mapping[str, Any] | None": _mapping,
    "tuple[Mapping[str, Any], ...] | None": _objects, "tuple[str, ...] | None": _strings,
}


@dataclass(frozen=True, kw_only=True)
class Block:
    """One JSON object of run.json: its known keys as fields, the rest in ``extra``."""

    extra: Mapping[str, Any] = field(default_factory=dict)
    keys: tuple[str, ...] = field(default=(), repr=False, compare=False)  # as read, in order

    @classmethod
    def from_json(cls: type[B], data: object, where: str) -> B | None:
        """None for a missing block; ValueError naming ``where`` and the field for a wrong type."""
        if data is None:
            return None
        if not isinstance(data, Mapping):
            raise ValueError(f"{where}: expected an object, not {type(data).__name__}")
        known = {f.name: str(f.type) for f in fields(cls) if f.name not in ("extra", "keys")}
        values = {name: READERS[kind](data.get(name), f"{where}.{name}" if where else name)
                  for name, kind in known.items()}
        return cls(**values, extra=frozen({k: v for k, v in data.items() if k not in known}),
                   keys=tuple(str(k) for k in data))

    def __bool__(self) -> bool:
        """An empty object is false, as the dict it was read from was to the readers before."""
        return bool(self.keys)

    def to_json(self) -> dict[str, Any]:
        """The object as it was read, key for key and in the same order."""
        return {k: self.extra[k] if k in self.extra else _json(getattr(self, k)) for k in self.keys}


def _block(cls: type[Block]) -> None:
    """Let fields be of block ``cls`` (``Drive | None``) or a list of them (never null items)."""
    def many(value: object, where: str) -> tuple[Block, ...] | None:
        if value is None:
            return None
        if not isinstance(value, list):
            raise ValueError(f"{where}: expected a list, not {type(value).__name__}")
        return tuple(cls.from_json(_mapping(v, f"{where}[{i}]") or _null(f"{where}[{i}]"),
                                   f"{where}[{i}]") or cls() for i, v in enumerate(value))
    READERS[f"{cls.__name__} | None"] = cls.from_json
    READERS[f"tuple[{cls.__name__}, ...] | None"] = many


def _null(where: str) -> Mapping[str, Any]:
    raise ValueError(f"{where}: expected an object, not null")


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


_block(Host)
_block(Link)


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


_block(Medium)


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

    @property
    def link_text(self) -> str | None:
        return self.link.text if isinstance(self.link, Link) else self.link


_block(Drive)


@dataclass(frozen=True, kw_only=True)
class RemoteHost(Block):
    """One fio server of a remote run (jobs/remote/record.py)."""

    host: str | None = None
    port: int | None = None
    fio_version: str | None = None
    hostname: str | None = None


_block(RemoteHost)


@dataclass(frozen=True, kw_only=True)
class RemoteLive(Block):
    """Which series a remote run shows live (fio's client sends only some while a trial runs)."""

    available: tuple[str, ...] | None = None
    not_available: tuple[str, ...] | None = None


_block(RemoteLive)


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


for _block_cls in (Remote, Target, Engine, Temperature, Plausibility, DirectIO):
    _block(_block_cls)


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
    planned_trials: tuple[Mapping[str, Any], ...] | None = None
    app_version: str | None = None
    origin: str | None = None
    max_temperature_c: float | None = None
    error: str | None = None   # why the run failed (a failed or interrupted run)

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> RunInfo:
        """The info of a run's extra keys (never None: an empty record gives all None)."""
        return cls.from_json(data, "") or cls()
