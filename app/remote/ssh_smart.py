"""A remote drive's identity and temperature through ``ssh HOST smartctl``: the pure
part. What may be typed, the command, and what run.json keeps.

A fio job cannot read SMART, so a remote target has no drive identity or temperature unless the
user names an SSH destination per server (``--ssh USER@HOST``). Then jobs/remote/ssh_smartctl.py runs
``ssh -o BatchMode=yes -o ConnectTimeout=5 -- DEST smartctl -j -a DEVICE`` before and after the
run (``-j -A`` for the live temperature of a one-host run), every call bounded. Without ``--ssh``,
or when it fails, run.json says "not available remotely" with the reason, never a guess.

Nothing typed reaches a shell unchecked: ssh hands the remote command to the remote user's
shell as one string, so the device must be a plain ``/dev/...`` path (letters, digits, ``._-/``);
a destination can never start with ``-`` (ssh would read an option such as
``-oProxyCommand=...``), and ``--`` ends ssh's options before it too.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from app.drive.identity import mask_serial
from app.paths import TargetRefused
from app.paths.target import shown

SSH_ENV = "SSD_PROFILER_SSH"      # the ssh program to run (a path or a name on PATH)
NOT_REMOTE = "not available remotely"
NO_SSH = f"{NOT_REMOTE}: a fio job cannot read SMART; give --ssh USER@HOST to read it with smartctl"
_DEST = re.compile(r"^(?:[A-Za-z0-9_][A-Za-z0-9._-]{0,31}@)?"
                   r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])$")
_DEVICE = re.compile(r"^/dev/[A-Za-z0-9][A-Za-z0-9._/-]{0,100}$")
_DEVICE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def check_ssh_destination(text: str) -> str:
    raw = text or ""
    if raw.startswith("-"):
        raise TargetRefused(f"--ssh {shown(raw)} starts with '-', which ssh would read as an option; "
                            "give USER@HOST or a Host name from your ~/.ssh/config")
    if not _DEST.match(raw):
        raise TargetRefused(f"--ssh {shown(raw)} is not USER@HOST; give e.g. --ssh you@labserver "
                            "(letters, digits, '.', '_' and '-'; no spaces or quotes)")
    return raw


def check_smart_device(text: str) -> str:
    raw = text or ""
    if not _DEVICE.match(raw) or ".." in raw.split("/"):
        raise TargetRefused(f"--smart-device {shown(raw)} is not a device path; give e.g. "
                            "--smart-device /dev/nvme0n1 (letters, digits, '.', '_', '-' and '/')")
    return raw


def ssh_for_hosts(ssh: Sequence[str], hosts: int) -> list[str | None]:
    """The ssh destination of each host (None: not given). One ``--ssh`` per ``--remote``, in the
    same order, or none at all."""
    if not ssh:
        return [None] * hosts
    if len(ssh) != hosts:
        raise TargetRefused(f"{len(ssh)} --ssh for {hosts} --remote hosts; give one --ssh per "
                            "--remote, in the same order, or none")
    return [check_ssh_destination(s) for s in ssh]


def device_path(name: str | None) -> str | None:
    """``/dev/NAME`` for the block device fio named under the folder, when it is a plain name."""
    return f"/dev/{name}" if name and _DEVICE_NAME.match(name) else None


def ssh_argv(ssh: str, dest: str, device: str, args: Sequence[str] = ("-j", "-a"),
             connect_timeout_s: int = 5, check: bool = True) -> list[str]:
    """The command; ``check=False`` only for a dry run's placeholder device (never run)."""
    return [ssh, "-o", "BatchMode=yes", "-o", f"ConnectTimeout={connect_timeout_s}", "--",
            check_ssh_destination(dest), "smartctl", *args,
            check_smart_device(device) if check else device]


def command_text(dest: str, device: str, args: Sequence[str] = ("-j", "-a")) -> str:
    return f"ssh {dest} smartctl {' '.join(args)} {device}"


def remote_drive(where: str, device: str | None, parsed: Mapping[str, Any] | None, reason: str,
                 command: str | None) -> dict[str, Any]:
    """run.json's ``drive`` for one remote host: identity from smartctl (serial masked) or, with
    ``reason``, every field None. ``device`` is what was asked (or fio's name for it)."""
    out: dict[str, Any] = {"device": device, "remote": where, "model": None, "serial": None, "firmware": None,
           "capacity_bytes": None, "temperature_c": None, "warning_temp_c": None,
           "critical_temp_c": None, "smart": None, "smart_source": command,
           "reason": reason, "smart_reason": reason}
    if parsed is not None:
        for key in ("model", "firmware", "capacity_bytes", "temperature_c", "warning_temp_c",
                    "critical_temp_c"):
            out[key] = parsed.get(key)
        out["serial"] = mask_serial(parsed.get("serial"))
        out["smart"] = {**parsed, "serial": out["serial"], "source": command}
        out["reason"] = out["smart_reason"] = ""
    return out
