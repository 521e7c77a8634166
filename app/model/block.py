"""One JSON object of run.json read as a typed block: its known keys as fields, read with the
tolerance run folders of every earlier version need, the rest kept in ``extra`` and written back
unchanged (docs/architecture.md, "Run folders of earlier versions"). The blocks themselves are in
app/model/info.py; a block class makes itself readable as a field type with
:func:`register_block`."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from itertools import repeat
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
    if not isinstance(value, list) or not all(map(isinstance, value, repeat(str))):
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
        known = _known(cls)
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


_KNOWN: dict[type, dict[str, str]] = {}


def _known(cls: type[Block]) -> dict[str, str]:
    """A block class's fields and how each is read, looked up once per class (a run's planned
    trials are 10,000 blocks)."""
    known = _KNOWN.get(cls)
    if known is None:
        known = _KNOWN[cls] = {f.name: str(f.type) for f in fields(cls) if f.name not in ("extra", "keys")}
    return known


def register_block(cls: type[Block]) -> None:
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
