"""Finding a record of the bundled spec catalog by what a student knows: the vendor, the
family or a part number ("PM9A1", "990 PRO", "MZVL2512HCJQ"), for a drive that reports no model
or one the catalog does not match by itself. The window's vendor-spec dialog fills its form
from the record chosen."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.specs.record import VendorSpec

MIN_CHARS = 3   # fewer characters match half the catalog


def typed(records: Sequence[Mapping[str, Any]]) -> list[VendorSpec]:
    """The catalog's records as typed specs, in catalog order; one that does not read is left
    out (the catalog's own tests keep the bundled ones valid)."""
    out = []
    for record in records:
        try:
            out.append(VendorSpec.from_json(record))
        except (TypeError, ValueError):
            continue
    return out


def _words(spec: VendorSpec) -> str:
    parts = [spec.vendor, spec.family, spec.id, *spec.part_numbers]
    return " ".join(p for p in parts if p).lower()


def label(spec: VendorSpec) -> str:
    """'Samsung PM9A1, 512 GB (MZVL2512HCJQ-00BL7)': what the dialog lists."""
    return (" ".join(x for x in (spec.vendor, spec.family) if x)
            + (f", {spec.capacity_gb:,g} GB" if spec.capacity_gb is not None else "")
            + (f" ({spec.part_numbers[0]})" if spec.part_numbers else ""))


def search(text: str, specs: Sequence[VendorSpec],
           capacity_gb: float | None = None) -> list[VendorSpec]:
    """The records whose vendor, family, id or part numbers contain every word typed (case and
    spacing ignored), the one nearest the drive's capacity first when it is known; [] for
    fewer than MIN_CHARS characters."""
    words = text.lower().split()
    if len("".join(words)) < MIN_CHARS:
        return []
    found = [s for s in specs if all(w in _words(s) for w in words)]
    if capacity_gb:
        found.sort(key=lambda s: abs((s.capacity_gb or 1e9) - capacity_gb))
    return found
