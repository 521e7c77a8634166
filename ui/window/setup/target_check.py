"""Whether Run may use a target folder, asked off the GUI thread (no Qt): the same check the run
makes (app.paths.check_target), whether another run holds the folder now, its free space and the
test files an earlier run left. The drive panel asks again every few seconds, since the answer
changes while the path does not (another run takes or frees the folder).
"""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from app.paths import TargetRefused, check_target, folder_in_use, leftover_test_files

WATCH_MS = 3000   # how often the folder's state is looked at again


@dataclass(frozen=True)
class TargetReport:
    path: str
    size_bytes: int | None
    ok: bool
    reason: str
    free_bytes: int | None
    total_bytes: int | None
    leftovers: tuple[str, ...]
    remote: str = ""          # the fio server the folder is on ("": this computer)


def inspect_target(path: str, size_bytes: int | None) -> TargetReport:
    """The live check (runs in a pool thread): refusal reason, free space, leftovers."""
    free = total = None
    here = Path(os.path.abspath(os.path.expanduser(path))) if path.strip() else None
    while here is not None and not here.exists() and here != here.parent:
        here = here.parent
    if here is not None:
        try:
            usage = shutil.disk_usage(here)
            free, total = usage.free, usage.total
        except OSError:
            pass
    try:
        check_target(path, size_bytes or 0)
        ok, reason = True, ""
        holder = folder_in_use(os.path.expanduser(path))
        if holder:
            ok, reason = False, (f"the folder is in use by run {holder} (another SSD Profiler "
                                 "run); wait for it to end or choose another folder")
    except TargetRefused as exc:
        ok, reason = False, str(exc)
    leftovers = tuple(str(p) for p in leftover_test_files(path)) if path.strip() else ()
    return TargetReport(path, size_bytes, ok, reason, free, total, leftovers)


def suggested_folder(mountpoint: str) -> str:
    """Where to test on a volume: the mount point if we may write there, else the home folder
    when it lives on that volume (the usual case for '/'), else the mount point (refused, with
    the reason shown)."""
    if os.access(mountpoint, os.W_OK):
        return mountpoint
    home = os.path.expanduser("~")
    if os.path.realpath(home).startswith(mountpoint.rstrip(os.sep) + os.sep) or mountpoint == os.sep:
        return home
    return mountpoint


