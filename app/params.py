"""Declarative experiment parameters: one field declaration gives validation, JSON, presets
and the generated form (DESIGN §7.1, after PyMeasure's declarative parameters).

A parameter is a dataclass field whose metadata says its *kind*. Values are stored in canonical
units (sizes in bytes, durations in seconds); what users type (``64MiB``, ``2m``, ``4k,8k``) is
coerced here and nowhere else.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from app.units import UnitError, format_duration, format_size, parse_duration, parse_size

KINDS = ("duration", "size", "int", "bool", "choice", "size_list", "int_list", "choice_list")


class ParamError(ValueError):
    """A parameter value that cannot be used; ``name`` says which field."""

    def __init__(self, name: str, message: str):
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


def param(default: Any, *, kind: str, help: str, minimum: float | None = None,
          maximum: float | None = None, choices: tuple[str, ...] | None = None) -> Any:
    """Declare a tunable parameter (use as a dataclass field default)."""
    assert kind in KINDS, kind
    meta = {"kind": kind, "help": help, "minimum": minimum, "maximum": maximum, "choices": choices}
    return dataclasses.field(default=default, metadata=meta)


def fields_of(cls_or_obj) -> list[dataclasses.Field]:
    return [f for f in dataclasses.fields(cls_or_obj) if "kind" in f.metadata]


def unit_of(kind: str) -> str | None:
    return {"duration": "s", "size": "bytes", "size_list": "bytes"}.get(kind)


def _split(value: Any) -> list:
    if isinstance(value, (list, tuple)):
        return list(value)
    return [part for part in str(value).replace(";", ",").split(",") if part.strip()]


def _to_int(text: Any) -> int:
    if isinstance(text, bool):
        raise ValueError(text)
    if isinstance(text, float) and text.is_integer():
        return int(text)
    return int(str(text).strip())


def parse_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on", "y"):
        return True
    if text in ("0", "false", "no", "off", "n"):
        return False
    raise ValueError(f"not a yes/no value: {value!r} (use true or false)")


def coerce(field: dataclasses.Field, value: Any) -> Any:
    """Canonical value for ``field`` from user input or JSON; raises ParamError."""
    meta, name = field.metadata, field.name
    kind = meta["kind"]
    try:
        if kind == "duration":
            result: Any = parse_duration(value)
        elif kind == "size":
            result = parse_size(value)
        elif kind == "int":
            result = _to_int(value)
        elif kind == "bool":
            result = parse_bool(value)
        elif kind == "choice":
            result = str(value).strip()
        elif kind == "size_list":
            result = tuple(parse_size(v.strip() if isinstance(v, str) else v) for v in _split(value))
        elif kind == "int_list":
            result = tuple(_to_int(v) for v in _split(value))
        else:  # choice_list
            result = tuple(str(v).strip() for v in _split(value))
    except (UnitError, ValueError) as exc:
        raise ParamError(name, str(exc) if isinstance(exc, UnitError) else f"invalid value {value!r}: {exc}") from None
    _check_range(field, result)
    return result


def _check_range(field: dataclasses.Field, value: Any) -> None:
    meta, name = field.metadata, field.name
    items = value if isinstance(value, tuple) else (value,)
    if isinstance(value, tuple) and not value:
        raise ParamError(name, "needs at least one value")
    if isinstance(value, tuple) and len(set(value)) != len(value):
        raise ParamError(name, "has a value twice")
    for item in items:
        if meta["choices"] and item not in meta["choices"]:
            raise ParamError(name, f"{item!r} is not one of {', '.join(meta['choices'])}")
        if isinstance(item, bool) or not isinstance(item, (int, float)):
            continue
        if meta["minimum"] is not None and item < meta["minimum"]:
            raise ParamError(name, f"{format_value(meta['kind'], item)} is below the minimum "
                                   f"{format_value(meta['kind'], meta['minimum'])}")
        if meta["maximum"] is not None and item > meta["maximum"]:
            raise ParamError(name, f"{format_value(meta['kind'], item)} is above the maximum "
                                   f"{format_value(meta['kind'], meta['maximum'])}")


def format_value(kind: str, value: Any) -> str:
    """How a canonical value is written back for people (forms, CLI, reports)."""
    if kind in ("size_list", "int_list", "choice_list"):
        item_kind = {"size_list": "size", "int_list": "int", "choice_list": "choice"}[kind]
        return ",".join(format_value(item_kind, v) for v in value)
    if kind == "duration":
        return format_duration(float(value))
    if kind == "size":
        return format_size(int(value))
    if kind == "bool":
        return "true" if value else "false"
    return str(value)


def build(cls, settings: dict[str, Any] | None = None):
    """An instance of ``cls`` with ``settings`` (name -> user value) coerced and validated."""
    settings = dict(settings or {})
    known = {f.name: f for f in fields_of(cls)}
    unknown = sorted(set(settings) - set(known))
    if unknown:
        raise ParamError(unknown[0], f"unknown parameter for {cls.id}; known: {', '.join(known)}")
    values = {name: coerce(known[name], value) for name, value in settings.items()}
    try:
        return cls(**values)
    except ParamError:
        raise
    except ValueError as exc:
        raise ParamError(cls.id, str(exc)) from None


def values_json(obj) -> dict[str, Any]:
    """Canonical parameter values as JSON-ready data (lists for tuples)."""
    return {f.name: list(v) if isinstance(v := getattr(obj, f.name), tuple) else v
            for f in fields_of(obj)}


def describe(cls) -> list[dict[str, Any]]:
    """The parameters of ``cls`` for ``experiments --json`` and for generated forms."""
    out = []
    for f in fields_of(cls):
        meta = f.metadata
        default = f.default
        out.append({
            "name": f.name, "kind": meta["kind"], "unit": unit_of(meta["kind"]),
            "default": list(default) if isinstance(default, tuple) else default,
            "default_text": format_value(meta["kind"], default), "help": meta["help"],
            "choices": list(meta["choices"]) if meta["choices"] else None,
            "minimum": meta["minimum"], "maximum": meta["maximum"],
        })
    return out
