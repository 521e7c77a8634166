"""Volumes and the one a target lives on (basic: psutil partitions; identity comes later)."""
from __future__ import annotations

import os
from pathlib import Path

import psutil

_PSEUDO_FS = {"proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "securityfs", "pstore",
              "debugfs", "tracefs", "configfs", "fusectl", "mqueue", "hugetlbfs", "bpf", "autofs",
              "binfmt_misc", "nsfs", "squashfs", "efivarfs", "rpc_pipefs", "tmpfs", "overlay"}


def list_volumes() -> list[dict]:
    """Mounted volumes a user could test on: mount point, device, file system, size, free."""
    volumes = []
    seen = set()
    for part in psutil.disk_partitions(all=True):
        if part.mountpoint in seen:
            continue
        if part.fstype in _PSEUDO_FS and part.mountpoint != "/":
            continue
        try:
            usage = psutil.disk_usage(part.mountpoint)
        except (OSError, PermissionError):
            continue
        if usage.total == 0:
            continue
        seen.add(part.mountpoint)
        volumes.append({"mountpoint": part.mountpoint, "device": part.device,
                        "fstype": part.fstype, "total_bytes": usage.total,
                        "free_bytes": usage.free, "model": None})
    return sorted(volumes, key=lambda v: v["mountpoint"])


def volume_for(path: str | os.PathLike) -> dict | None:
    """The volume holding ``path`` (its longest matching mount point)."""
    here = Path(os.path.abspath(path))
    while not here.exists() and here != here.parent:
        here = here.parent
    real = os.path.realpath(here)
    best = None
    for volume in list_volumes():
        mount = volume["mountpoint"]
        inside = real == mount or real.startswith(mount.rstrip(os.sep) + os.sep)
        if inside and (best is None or len(mount) > len(best["mountpoint"])):
            best = volume
    return best
