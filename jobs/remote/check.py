"""Checking remote targets before anything is written, through each fio server.

Every server is checked with read-only fio jobs, one path component at a time from ``/`` down to
the folder (fio creates missing parent folders of any path it is given, even read-only, so a
path is only probed once its parent is known to exist): every component must be a folder
(EISDIR), the folder itself included. The first answer also carries the server's banner: its fio
version must be this machine's (fio's client/server protocol differs between versions) and its
OS not Windows. With several servers each is checked the same way, all at once; the first
refusal (in the order the hosts were given) is the one reported.
"""
from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from app.engines.fio.remote_result import parse_banner, probe_devices
from app.paths import TargetRefused
from app.paths.target import shown
from app.remote.target import ancestors
from jobs.remote.folder import on_each
from jobs.remote.jobs import EISDIR, ENOENT, JobOutcome, RemoteJobs, read_probe


@dataclass(frozen=True)
class RemoteFacts:
    hostname: str
    os: str
    fio_version: str
    device: str | None


def check_hosts(hosts: list[RemoteJobs], folder: PurePosixPath, local_version: str) -> list[RemoteFacts]:
    """:func:`check_remote` on every host at once; raises the first host's TargetRefused."""
    return on_each(hosts, lambda _i, jobs: check_remote(jobs, folder, local_version))


def check_remote(jobs: RemoteJobs, folder: PurePosixPath, local_version: str) -> RemoteFacts:
    """Probe the folder through the server, read-only; raises TargetRefused (one line)."""
    where, banner, devices = str(jobs.address), None, []
    for path in ancestors(folder):
        outcome = jobs.run(read_probe(path), banner=banner is None)
        if banner is None:
            banner = _check_server(outcome, where, local_version)
        code = outcome.errno()
        if code == EISDIR:
            devices = probe_devices(outcome.stdout)
            continue
        what = "the remote target" if path == folder else "its parent folder"
        if code == ENOENT:
            raise TargetRefused(f"{what} {shown(path)} does not exist on {where}; create the folder "
                                f"there first (mkdir -p {shown(folder)}) or check the path")
        if code in (0, errno.EIO):
            raise TargetRefused(f"{what} {shown(path)} on {where} is a file or a device, not a folder; "
                                "choose a folder on the drive (the app never writes to raw devices)")
        if code is None:
            raise TargetRefused(f"the fio server at {where} ran no probe of {shown(path)}: "
                                f"{outcome.reason()}")
        raise TargetRefused(f"{what} {shown(path)} on {where} cannot be used: {os.strerror(code)}")
    if banner is None:  # ancestors() always holds the folder itself: the loop asked once
        raise TargetRefused(f"the fio server at {where} was not asked about {shown(folder)}")
    return RemoteFacts(banner["hostname"], banner["os"], banner["fio"], devices[0] if devices else None)


def _check_server(outcome: JobOutcome, where: str, local_version: str) -> dict[str, Any]:
    banner = parse_banner(outcome.stdout)
    if banner is None:
        raise TargetRefused(f"no fio server answered at {where} ({outcome.reason()}); start one there "
                            f"with: fio --server=ip:127.0.0.1,{where.rsplit(':', 1)[1]} (see docs/usage.md, "
                            "Remote profiling)")
    if banner["fio"] != local_version:
        raise TargetRefused(f"the fio server at {where} runs {banner['fio']} but this machine has "
                            f"{local_version}; fio's client and server must be the same version")
    if banner["os"] == "Windows":
        raise TargetRefused(f"the fio server at {where} runs on Windows, which remote targets do "
                            "not support (their paths need ':'); use DiskSpd or fio there directly")
    return banner
