"""A vendor spec record and a drive's identity as typed values.

Why typed: the spec is read by the comparison, its table and figure, the window's status line and
report.md; JSON lives only in the files (resources/vendor_specs.json, the user's specs file,
run.json's ``vendor_spec``), read once here. ``record`` keeps the JSON object exactly as read, so
a record written back (into a run, into the user's file) loses no key this version does not know.
How specs are found for a drive is app/specs/catalog.py; how they are compared, app/specs/match.py.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.specs.model_match import (
    MAX_PATTERN_CHARS,
    ModelPattern,
    normalize,
    parse_patterns,
    patterns_from_regex,
)

MAX_PART_NUMBERS = 64

#: The four 'up to' figures a record may state: key, label, unit.
FIGURES = (("seq_read_mbps", "Sequential read", "MB/s"),
           ("seq_write_mbps", "Sequential write", "MB/s"),
           ("rand_read_iops", "4 KiB random read", "IOPS"),
           ("rand_write_iops", "4 KiB random write", "IOPS"))


#: Longest text kept of a record's field, by kind: a name (vendor, family, id, a block size)
#: and a sentence (notes, the source). A record from a shared run folder can carry megabytes; the
#: report would lay them out (quadratic in the PDF step), so the rest is cut, visibly.
NAME_CHARS, SENTENCE_CHARS = 200, 2000


def _text(value: object, limit: int = NAME_CHARS) -> str | None:
    if not isinstance(value, (str, int, float)) or not str(value).strip():
        return None
    text = str(value)
    return text if len(text) <= limit else text[:limit] + f"… (cut at {limit} characters)"


def _required(value: object, limit: int = NAME_CHARS) -> str:
    return _text(value, limit) or ""


def positive(value: object) -> bool:
    """A finite number above zero (JSON's NaN, Infinity and 1e400 are not: no vendor states
    them, and they break the arithmetic and the figures downstream)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) \
        and math.isfinite(value) and value > 0


def _count(value: object) -> int | None:
    return int(value) if isinstance(value, (int, float)) and positive(value) else None


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and positive(value) else None


def _model_patterns(data: Mapping[str, Any]) -> tuple[tuple[ModelPattern, ...], str | None]:
    """A record's patterns: ``model_match``, else an older record's ``model_regex`` translated
    (app/specs/model_match.py), with a one-line note when that one cannot be."""
    if "model_match" in data:
        return parse_patterns(data.get("model_match")), None
    regex = data.get("model_regex")
    if not regex:
        return (), None
    texts = patterns_from_regex(regex) if isinstance(regex, str) else None
    if texts is None:
        return (), ("its model_regex is not plain text and was ignored (a regular expression "
                    "from a file is never run): it matches a drive by its part numbers only")
    return parse_patterns(texts), None


@dataclass(frozen=True)
class Conditions:
    """The vendor's test conditions as the source states them (None: not stated). Threads may
    be stated per side (``seq_threads``, ``rand_threads``) or once for both (``threads``)."""

    seq_bs: str | None = None
    seq_qd: int | None = None
    seq_threads: int | None = None
    rand_bs: str | None = None
    rand_qd: int | None = None
    rand_threads: int | None = None
    note: str | None = None

    @classmethod
    def from_json(cls, data: object) -> Conditions:
        tc = data if isinstance(data, Mapping) else {}
        both = _count(tc.get("threads"))
        return cls(_text(tc.get("seq_bs")), _count(tc.get("seq_qd")),
                   _count(tc.get("seq_threads")) or both, _text(tc.get("rand_bs")),
                   _count(tc.get("rand_qd")), _count(tc.get("rand_threads")) or both,
                   _text(tc.get("note"), SENTENCE_CHARS))

    def side(self, sequential: bool) -> tuple[str | None, int | None, int | None]:
        """Block size text, queue depth and threads of one side."""
        if sequential:
            return self.seq_bs, self.seq_qd, self.seq_threads
        return self.rand_bs, self.rand_qd, self.rand_threads


@dataclass(frozen=True)
class DriveKey:
    """What identifies a measured drive to a spec: its model string, its (masked) serial, and the
    volume (block device, else mount point) for a drive that reports neither, e.g. a virtual
    disk. A spec the user enters for a drive without a known model attaches to the serial, or
    to the volume when there is no serial (:meth:`VendorSpec.attached_to_drive`)."""

    model: str | None = None
    serial: str | None = None
    volume: str | None = None

    def to_json(self) -> dict[str, str]:
        return {k: v for k, v in (("serial", self.serial), ("volume", self.volume)) if v}


@dataclass(frozen=True)
class VendorSpec:
    """One spec record (see resources/vendor_specs.json for the fields' meaning)."""

    id: str
    patterns: tuple[ModelPattern, ...]   # model_match (or a translated model_regex)
    source_url: str
    source_kind: str
    vendor: str | None = None
    family: str | None = None
    part_numbers: tuple[str, ...] = ()
    capacity_gb: float | None = None
    interface: str | None = None
    figures: Mapping[str, float] = field(default_factory=dict)  # key -> 'up to' value
    conditions: Conditions = Conditions()
    notes: str | None = None
    attached: DriveKey | None = None   # the drive the user entered it for (serial or volume)
    pattern_note: str | None = None    # why an older record's model_regex is not used
    record: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> VendorSpec:
        at = data.get("attached_to")
        attached = DriveKey(None, _text(at.get("serial")), _text(at.get("volume"))) \
            if isinstance(at, Mapping) else None
        parts = data.get("part_numbers")
        cap = data.get("capacity_gb")
        patterns, note = _model_patterns(data)
        return cls(
            _required(data.get("id")), patterns,
            _required(data.get("source_url"), SENTENCE_CHARS), _required(data.get("source_kind")),
            _text(data.get("vendor")), _text(data.get("family")),
            tuple(str(p) for p in parts[:MAX_PART_NUMBERS]
                  if isinstance(p, str) and p.strip() and len(p) <= MAX_PATTERN_CHARS)
            if isinstance(parts, list) else (),
            _number(cap), _text(data.get("interface")),
            {k: v for k, *_ in FIGURES if (v := _number(data.get(k))) is not None},
            Conditions.from_json(data.get("test_conditions")), _text(data.get("notes"), SENTENCE_CHARS),
            attached if attached and (attached.serial or attached.volume) else None, note,
            dict(data))

    def to_json(self) -> dict[str, Any]:
        return dict(self.record)

    @property
    def name(self) -> str:
        """'Samsung PM9A1 512 GB'; parts a spec does not state are left out (never 'None GB')."""
        name = " ".join(x for x in (self.vendor, self.family) if x)
        if self.capacity_gb:
            return f"{name} {self.capacity_gb:g} GB".strip()
        return name or self.id or "unnamed spec"

    def describes_model(self, model: str | None) -> bool:
        """True when the drive's model string is this record's (a model pattern or a part
        number it contains); linear in the model's length, see app/specs/model_match.py."""
        normalized = normalize(model) if model else ""
        return self.pattern_finds(normalized) or self.part_number_in(normalized)

    def pattern_finds(self, normalized_model: str) -> bool:
        """One of the model patterns finds the model (normalized with ``normalize``)."""
        return bool(normalized_model) and any(p.matches(normalized_model) for p in self.patterns)

    def part_number_in(self, normalized_model: str) -> bool:
        """The model (normalized) holds one of the part numbers."""
        return bool(normalized_model) and any(
            p in normalized_model for p in (normalize(n) for n in self.part_numbers) if p)

    def attached_to_drive(self, drive: DriveKey) -> bool:
        """True when the user entered this record for this very drive: same serial, or (neither
        having a serial) the same volume."""
        at = self.attached
        if at is None:
            return False
        if at.serial or drive.serial:
            return bool(at.serial and at.serial == drive.serial)
        return bool(at.volume and at.volume == drive.volume)
