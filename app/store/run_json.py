"""run.json's text: indented, with one line per record of a list, each record's line made once.

Why: the runner keeps run.json current while a run goes on, and serialising every trial again at
every save made a long run quadratic (10,000 trials: about 1 s of CPU per save by the end, and
hours of it over the run). A list of records (``trials``, ``planned_trials``) is written one
record per line, so a record's line can be kept (:class:`LineCache`) and a save serialises only
the records it has not seen; the file itself is still written whole and atomically
(app/store/atomic_write.py), at most every few seconds while trials end (``RunStore.save_soon``).
docs/architecture.md: the run folder.
"""
from __future__ import annotations

import json
from typing import Any


def json_text(data: Any, lines: LineCache | None = None) -> str:
    """Indented JSON, except that a list of records (run.json's trials) holds one record per line:
    indenting every key of every trial made a 10,000-trial run.json 3.3 times larger (182 MiB),
    past what the app itself agrees to read back, while one line per trial stays readable.
    ``lines``: the lines kept from earlier saves of the same record (the same text, made once)."""
    if not isinstance(data, dict):
        return json.dumps(data, indent=2, allow_nan=False)
    parts = []
    for key, value in data.items():
        if isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
            body = lines.of(key, value) if lines is not None else [_line(x) for x in value]
            text = "[\n" + ",\n".join(body) + "\n  ]"
        else:
            text = json.dumps(value, indent=2, allow_nan=False).replace("\n", "\n  ")
        parts.append(f"  {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}" if parts else "{}"


def _line(record: dict[str, Any]) -> str:
    return f"    {json.dumps(record, allow_nan=False)}"


class LineCache:
    """Each record's line of a list, kept with the record itself (by identity) once made.

    The last record of a list is made afresh at every save and kept only once another follows
    it: the runner completes a trial's record just after keeping it (a remote trial's job
    command line). Records further back are not changed in place; a run's final save starts
    from an empty cache all the same (``RunStore.finish``), so the file a run ends with is made
    from the records as they are."""

    def __init__(self) -> None:
        self._kept: dict[str, list[tuple[dict[str, Any], str]]] = {}

    def of(self, key: str, records: list[dict[str, Any]]) -> list[str]:
        kept = self._kept.get(key, [])
        out, keep = [], []
        for i, record in enumerate(records):
            line = kept[i][1] if i < len(kept) and kept[i][0] is record else _line(record)
            out.append(line)
            if i < len(records) - 1:
                keep.append((record, line))
        self._kept[key] = keep
        return out
