"""Cloud-synced folders (OneDrive, Dropbox, iCloud Drive, Google Drive), found before a run.

Why: OneDrive's Files On-Demand is the default home of Documents on many Windows laptops and a
student picks Documents. A sync client watches every file there: it reads what the benchmark
writes to upload it, and may replace a file by a placeholder. The run still goes ahead (people
may want it), with the reason shown before Run and in every table, caption and report.md.

Two signs, both cheap: the folder lies under a known sync root (the clients' own environment
variables on Windows, their usual folders in the home on every system), or Windows marks the
folder with a cloud-file attribute (recall on open or on data access, pinned, unpinned).
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

# FILE_ATTRIBUTE_* of the Windows cloud files API (placeholders and their pin state)
CLOUD_ATTRIBUTES = 0x00040000 | 0x00080000 | 0x00100000 | 0x00400000
ENV_ROOTS = ("OneDrive", "OneDriveConsumer", "OneDriveCommercial")
HOME_ROOTS = ("OneDrive", "Dropbox", "Google Drive", "iCloudDrive", "Library/Mobile Documents",
              "Library/CloudStorage")


def sync_roots(home: str | os.PathLike[str],
               environ: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """(root folder, client name) candidates, from the environment and the home folder."""
    env: Mapping[str, str] = os.environ if environ is None else environ
    home = Path(home)
    out = [(env[k], "OneDrive") for k in ENV_ROOTS if env.get(k)]
    for rel in HOME_ROOTS:
        out.append((str(home / rel), _client(rel)))
    if home.is_dir():   # "OneDrive - University", "Dropbox (Lab)": the suffixed forms
        out += [(str(p), _client(p.name)) for p in home.iterdir()
                if p.name.startswith(("OneDrive - ", "Dropbox (")) and p.is_dir()]
    return out


def cloud_folder(folder: str | os.PathLike[str], home: str | os.PathLike[str] | None = None,
                 environ: Mapping[str, str] | None = None) -> str | None:
    """'OneDrive (C:\\Users\\me\\OneDrive)' when ``folder`` is synced, else None."""
    folder = os.path.normcase(os.path.realpath(folder))
    for root, client in sync_roots(home or Path.home(), environ):
        root_n = os.path.normcase(os.path.realpath(root))
        if folder == root_n or folder.startswith(root_n.rstrip(os.sep) + os.sep):
            return f"{client} ({root})"
    attributes = getattr(_stat(folder), "st_file_attributes", 0)
    if attributes & CLOUD_ATTRIBUTES:
        return "a cloud-files placeholder folder (Windows)"
    return None


def _client(name: str) -> str:
    for client in ("OneDrive", "Dropbox", "Google Drive"):
        if name.startswith(client):
            return client
    return "iCloud Drive" if "Mobile Documents" in name or name.startswith("iCloud") else "a cloud sync client"


def _stat(folder: str) -> os.stat_result | None:
    try:
        return os.stat(folder)
    except OSError:
        return None
