"""Whose export a folder holds: the identity the export marker stores (the run folder's name and
the run's start time), so a re-export of the same run may replace its files and an export of
another run may not (app/report/export_folder.py)."""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class RunIdentity:
    """Whose export a folder holds, as its marker says: the run folder's name and the run's
    start time (a comparison: ``compare:A+B`` and no start time)."""

    run_folder: str | None
    started_at: str | None

    @classmethod
    def from_marker(cls, marker: Mapping[str, Any]) -> RunIdentity:
        """The marker's identity; a value that is not text (a damaged marker) counts as none."""
        folder, started = (marker.get(k) for k in ("run_folder", "started_at"))
        return cls(folder if isinstance(folder, str) else None,
                   started if isinstance(started, str) else None)

    def same_run(self, other: RunIdentity) -> bool:
        """The start time (milliseconds, UTC) identifies a run, so a renamed or copied run
        folder still owns its export; a run made by ``import`` has none, and then the folder
        name counts."""
        if self.started_at or other.started_at:
            return self.started_at == other.started_at
        return self.run_folder == other.run_folder

    def to_json(self) -> dict[str, Any]:
        return {"run_folder": self.run_folder, "started_at": self.started_at}


def run_identity(started_at: str | None, run_dir: str | os.PathLike[str] | None) -> RunIdentity:
    """What the marker stores for a run: its folder's name and its start time."""
    return RunIdentity(Path(run_dir).resolve().name if run_dir else None, started_at)
