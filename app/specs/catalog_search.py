"""Finding a record of the bundled spec catalog by what a student knows: the vendor, the
family or a part number ("PM9A1", "990 PRO", "MZVL2512HCJQ"), for a drive that reports no model
or one the catalog does not match by itself. The window's vendor-spec dialog fills its form
from the record chosen."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

MIN_CHARS = 3   # fewer characters match half the catalog


def _words(record: Mapping[str, Any]) -> str:
    parts = [record.get("vendor"), record.get("family"), record.get("id"),
             *(record.get("part_numbers") or ())]
    return " ".join(str(p) for p in parts if p).lower()


def label(record: Mapping[str, Any]) -> str:
    """'Samsung PM9A1, 512 GB (MZVL2512HCJQ-00BL7)': what the dialog lists."""
    size = record.get("capacity_gb")
    parts = record.get("part_numbers") or ()
    return (" ".join(str(x) for x in (record.get("vendor"), record.get("family")) if x)
            + (f", {size:,} GB" if isinstance(size, (int, float)) else "")
            + (f" ({parts[0]})" if parts else ""))


def search(text: str, records: Sequence[Mapping[str, Any]],
           capacity_gb: float | None = None) -> list[Mapping[str, Any]]:
    """The records whose vendor, family, id or part numbers contain every word typed (case and
    spacing ignored), the one nearest the drive's capacity first when it is known; [] for
    fewer than MIN_CHARS characters."""
    words = text.lower().split()
    if len("".join(words)) < MIN_CHARS:
        return []
    found = [r for r in records if all(w in _words(r) for w in words)]
    if capacity_gb:
        found.sort(key=lambda r: abs((r.get("capacity_gb") or 1e9) - capacity_gb))
    return found
