"""Declarative experiment parameters: one field declaration gives validation, JSON, presets
and the generated form (after PyMeasure's declarative parameters; docs/architecture.md).

A parameter is a dataclass field whose metadata says its *kind*. Values are stored in canonical
units (sizes in bytes, durations in seconds); what users type (``64MiB``, ``2m``, ``4k,8k``) is
coerced here and nowhere else.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from app.units import UnitError, format_duration, format_size, parse_duration, parse_size, quote_input

KINDS = ("duration", "size", "int", "bool", "choice", "size_list", "int_list", "choice_list")
LIST_KINDS = {"size_list": "size", "int_list": "int", "choice_list": "choice"}
SECTOR = 512        # block sizes are whole sectors: direct I/O needs it, engines would round
MAX_TEXT = 1000     # longest value text (a list of a hundred sizes); longer is refused unread
MAX_ITEMS = 100     # most values in one list: each is a workload, times repetitions, times runtime
_MAX_MESSAGE = 300
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_.-]{1,60}", re.ASCII)
_INT_RE = re.compile(r"\s*([+-]?\d+)\s*", re.ASCII)
#: How a value of each kind is typed (a hint under a form field); kinds not listed need none.
KIND_HINTS = {"duration": "e.g. 30s, 500ms, 2m", "size": "e.g. 4k, 64KiB, 1GiB (k = KiB)",
              "size_list": "comma-separated, e.g. 4k,64k,1MiB",
              "int_list": "comma-separated, e.g. 1,4,16"}


def one_line(text: str, limit: int = _MAX_MESSAGE) -> str:
    """``text`` as one printable line: control and invisible characters escaped, shortened."""
    out = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in str(text))
    return out if len(out) <= limit else out[:limit - 3] + "..."


class ParamError(ValueError):
    """A parameter value that cannot be used; ``name`` says which field (the window puts the
    message beside it). The text is always one short line whatever the user typed, because the
    command line prints it as its single error line."""

    def __init__(self, name: str, message: str):
        self.name = name
        self.message = one_line(message)
        shown = name if _PLAIN_NAME.fullmatch(str(name)) else quote_input(name)
        super().__init__(f"{shown}: {self.message}")


def param(default: Any, *, kind: str, help: str, label: str | None = None,
          minimum: float | None = None, maximum: float | None = None,
          choices: tuple[str, ...] | None = None, choice_words: Mapping[str, str] | None = None,
          block: bool = False) -> Any:
    """Declare a tunable parameter (use as a dataclass field default). ``label`` is what forms
    call it (default: its name in words; the name stays what ``--set`` takes and run.json
    records), ``help`` what it is; ``choice_words`` say a choice in words ("random read" for
    randread). ``minimum``/``maximum`` bound every item of a list kind; ``block`` marks a block
    size: a multiple of SECTOR bytes and no larger than the experiment's test file (checked in
    Experiment.__post_init__)."""
    assert kind in KINDS, kind
    meta = {"kind": kind, "help": help, "label": label, "minimum": minimum, "maximum": maximum,
            "choices": choices, "choice_words": choice_words, "block": block}
    return dataclasses.field(default=default, metadata=meta)


def label_of(field: dataclasses.Field[Any]) -> str:
    """What a form calls ``field``: its declared label, else its name in words."""
    return field.metadata["label"] or field.name.replace("_", " ").capitalize()


def fields_of(cls_or_obj: Any) -> list[dataclasses.Field[Any]]:
    return [f for f in dataclasses.fields(cls_or_obj) if "kind" in f.metadata]


def unit_of(kind: str) -> str | None:
    return {"duration": "s", "size": "bytes", "size_list": "bytes"}.get(kind)


def _split(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        return list(value)
    return [part for part in str(value).replace(";", ",").split(",") if part.strip()]


def _to_int(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    match = _INT_RE.fullmatch(str(value)) if not isinstance(value, (bool, float)) else None
    if not match:
        raise ValueError(f"{quote_input(value)} is not a whole number")
    return int(match.group(1))


def parse_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on", "y"):
        return True
    if text in ("0", "false", "no", "off", "n"):
        return False
    raise ValueError(f"not a yes/no value: {quote_input(value)} (use true or false)")


def _parse_one(kind: str, value: Any) -> Any:
    if kind == "duration":
        return parse_duration(value)
    if kind == "size":
        return parse_size(value.strip() if isinstance(value, str) else value)
    if kind == "int":
        return _to_int(value)
    if kind == "bool":
        return parse_bool(value)
    return str(value).strip()  # choice


def coerce(field: dataclasses.Field[Any], value: Any) -> Any:
    """Canonical value for ``field`` from user input or JSON; raises ParamError only."""
    kind, name = field.metadata["kind"], field.name
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise ParamError(name, f"the value is too long ({len(value)} characters; at most "
                               f"{MAX_TEXT})")
    try:
        if kind in LIST_KINDS:
            result: Any = tuple(_parse_one(LIST_KINDS[kind], v) for v in _split(value))
        else:
            result = _parse_one(kind, value)
    except (UnitError, ValueError, TypeError, ArithmeticError) as exc:
        raise ParamError(name, str(exc)) from None
    check_value(field, result)
    return result


def check_value(field: dataclasses.Field[Any], value: Any) -> None:
    """One field's canonical value against its declaration: type, non-empty list without
    repeats, choices, minimum/maximum per item, whole sectors for block sizes."""
    meta, name, kind = field.metadata, field.name, field.metadata["kind"]
    item_kind = LIST_KINDS.get(kind, kind)
    if item_kind != kind:
        if not isinstance(value, tuple):
            raise ParamError(name, "must be a list of values")
        if not value:
            raise ParamError(name, "needs at least one value")
        if len(value) > MAX_ITEMS:
            raise ParamError(name, f"has {len(value)} values; at most {MAX_ITEMS}")
        twice = next((v for i, v in enumerate(value) if v in value[:i]), None)
        if twice is not None:
            raise ParamError(name, f"has {_shown(item_kind, twice)} twice")
    for item in value if item_kind != kind else (value,):
        _check_item(meta, name, item_kind, item)


def _check_item(meta: Mapping[str, Any], name: str, kind: str, item: Any) -> None:
    kinds: dict[str, type | tuple[type, ...]] = {"duration": (int, float), "size": int, "int": int,
                                                 "bool": bool, "choice": str}
    wanted = kinds[kind]
    if not isinstance(item, wanted) or (isinstance(item, bool) and kind != "bool"):
        wanted_text = {"duration": "a duration", "size": "a size", "int": "a whole number",
                       "bool": "true or false", "choice": "text"}[kind]
        raise ParamError(name, f"{quote_input(item)} is not {wanted_text}")
    if meta["choices"] and item not in meta["choices"]:
        raise ParamError(name, f"{quote_input(item)} is not one of {', '.join(meta['choices'])}")
    if kind in ("bool", "choice"):
        return
    low, high = meta["minimum"], meta["maximum"]
    allowed = "" if low is None or high is None else \
        f" (allowed: {_shown(kind, low)} to {_shown(kind, high)})"
    if low is not None and not item >= low:  # `not >=`: NaN is refused too
        raise ParamError(name, f"{_shown(kind, item)} is below the minimum "
                               f"{_shown(kind, low)}{allowed}")
    if high is not None and not item <= high:
        raise ParamError(name, f"{_shown(kind, item)} is above the maximum "
                               f"{_shown(kind, high)}{allowed}")
    if meta["block"] and isinstance(item, int) and item % SECTOR:
        raise ParamError(name, f"{_shown(kind, item)} is not a multiple of {SECTOR} bytes "
                               "(use e.g. 512, 4k, 64KiB, 1MiB)")


def _shown(kind: str, value: Any) -> str:
    """A value in a message, as people write it, kept short (a typed 10**30 stays readable)."""
    try:
        return one_line(format_value(kind, value), 40)
    except (ValueError, OverflowError):  # NaN or infinity, only from code, not from typing
        return repr(value)


def validate(obj: Any) -> None:
    """Every parameter of an experiment instance, however it was made (CLI, window, JSON, code)."""
    for field in fields_of(obj):
        check_value(field, getattr(obj, field.name))


def format_value(kind: str, value: Any) -> str:
    """How a canonical value is written back for people (forms, CLI, reports)."""
    if kind in LIST_KINDS:
        return ",".join(format_value(LIST_KINDS[kind], v) for v in value)
    if kind == "duration":
        return format_duration(float(value))
    if kind == "size":
        return format_size(int(value))
    if kind == "bool":
        return "true" if value else "false"
    return str(value)


def build(cls: Any, settings: Mapping[str, Any] | None = None) -> Any:
    """An instance of ``cls`` with ``settings`` (name -> user value) coerced and validated."""
    settings = dict(settings or {})
    known = {f.name: f for f in fields_of(cls)}
    unknown = sorted(set(settings) - set(known))
    if unknown:
        raise ParamError(unknown[0], f"unknown parameter for {cls.id}; known: {', '.join(known)}")
    values = {name: coerce(known[name], value) for name, value in settings.items()}
    try:
        return cls(**values)  # __post_init__ checks the fields together (block size vs size)
    except ParamError:
        raise
    except (ValueError, TypeError) as exc:
        raise ParamError(cls.id, str(exc)) from None


def build_or_none(cls: Any, settings: Mapping[str, Any]) -> Any | None:
    """:func:`build`, or None when ``settings`` do not build: for values read back from a run
    folder, which may come from another version or from someone else, so whatever they hold
    (wrong kinds, out of range, parameters this version does not know) never raises."""
    try:
        return build(cls, settings)
    except (ValueError, TypeError, ArithmeticError, LookupError, RecursionError):
        return None   # ParamError is a ValueError; the others from an experiment's own checks


def values_json(obj: Any) -> dict[str, Any]:
    """Canonical parameter values as JSON-ready data (lists for tuples)."""
    return {f.name: list(v) if isinstance(v := getattr(obj, f.name), tuple) else v
            for f in fields_of(obj)}


def describe(cls: Any) -> list[dict[str, Any]]:
    """The parameters of ``cls`` for ``experiments --json`` and for generated forms."""
    out = []
    for f in fields_of(cls):
        meta = f.metadata
        default = f.default
        out.append({
            "name": f.name, "kind": meta["kind"], "unit": unit_of(meta["kind"]),
            "default": list(default) if isinstance(default, tuple) else default,
            "default_text": format_value(meta["kind"], default), "label": label_of(f),
            "help": meta["help"], "hint": KIND_HINTS.get(meta["kind"]),
            "choices": list(meta["choices"]) if meta["choices"] else None,
            "choice_words": dict(meta["choice_words"]) if meta["choice_words"] else None,
            "minimum": meta["minimum"], "maximum": meta["maximum"],
            "multiple_of": SECTOR if meta["block"] else None,
        })
    return out
