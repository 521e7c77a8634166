"""``ssh HOST smartctl`` for a remote run: the drive's identity before and after the
run and, with one host, its temperature while the run goes on (app/remote/ssh_smart.py says
what may be typed and what run.json keeps).

Every call is bounded (``READ_TIMEOUT_S``, and ssh's own ConnectTimeout) and ends, whatever
happens, as ``(parsed, "")`` or ``(None, one line)``: no ssh on this machine, a refused or
unreachable host, a key ssh cannot use without asking (BatchMode: it never prompts), smartctl
missing or not permitted there, a timeout. The ssh program is ``$SSD_PROFILER_SSH`` when set (the
tests use a fake one), else ``ssh``. ssh runs in a session of its own and the whole session is
killed at the timeout, so a hung helper can never hold a pipe (and the run) open.
"""
from __future__ import annotations

import logging
import os
import shutil
from collections.abc import Sequence
from typing import Any

from app.drive.bounded import run_bounded
from app.drive.smart import explain, no_data
from app.drive.smart_parse import parse_smartctl
from app.drive.thermal import TemperatureSource, TemperatureUnavailable
from app.model.trial import TrialResult
from app.params import one_line
from app.remote.ssh_smart import NOT_REMOTE, SSH_ENV, command_text, remote_drive, ssh_argv
from jobs.drive.monitor import DriveMonitor

log = logging.getLogger(__name__)

READ_TIMEOUT_S = 15.0       # one ssh + smartctl, connection included
POLL_INTERVAL_S = 5.0       # live temperature over ssh: a connection per read, so not every second


def ssh_program() -> str:
    return os.environ.get(SSH_ENV) or "ssh"


def read_remote_smart(dest: str, device: str, args: tuple[str, ...] = ("-j", "-a"),
                      timeout_s: float | None = None) -> tuple[dict[str, Any] | None, str]:
    """``ssh DEST smartctl ARGS DEVICE`` parsed: (normalized dict, "") or (None, one line)."""
    program = ssh_program()
    exe = program if os.sep in program else shutil.which(program)
    if not exe or not os.path.isfile(exe):
        return None, f"{NOT_REMOTE}: no ssh program here ({program}); install OpenSSH's client"
    rc, out, err = _bounded(ssh_argv(exe, dest, device, args), timeout_s or READ_TIMEOUT_S)
    if rc is None:
        return None, f"{NOT_REMOTE}: {command_text(dest, device, args)}: {err}"
    if rc == 255:  # ssh's own failure: refused, unreachable, no usable key, host key changed
        return None, f"{NOT_REMOTE}: ssh {dest} failed: {_last_line(err) or 'exit 255'}"
    if rc == 127:
        return None, f"{NOT_REMOTE}: smartctl is not installed on {dest} (or not on its PATH)"
    try:
        parsed = parse_smartctl(out, rc)
    except Exception as exc:  # noqa: BLE001 - whatever came back, the run goes on without it
        return None, one_line(f"{NOT_REMOTE}: unreadable smartctl output from {dest} ({exc})")
    if not no_data(rc) and any(parsed[k] is not None for k in ("model", "temperature_c", "assessment")):
        return parsed, ""
    return None, one_line(f"{NOT_REMOTE}: on {dest}, {explain(parsed, device, _last_line(err))}")


def _bounded(argv: list[str], timeout_s: float) -> tuple[int | None, bytes, str]:
    """Time and output bounded (app/drive/bounded.py): another machine's answer can be a
    stream that never ends; past the caps the ssh session is killed and the answer dropped."""
    return run_bounded(argv, timeout_s)


def _last_line(text: str) -> str:
    lines = [ln.strip() for ln in (text or "").splitlines() if ln.strip()]
    return one_line(lines[-1]) if lines else ""


def read_drive(where: str, dest: str | None, device: str | None, no_ssh: str) -> dict[str, Any]:
    """run.json's ``drive`` of one host: read through ssh when a destination and a device are
    known, else every field None and the reason ("not available remotely: ...")."""
    if dest is None:
        return remote_drive(where, device, None, no_ssh, None)
    if device is None:
        return remote_drive(where, None, None, f"{NOT_REMOTE}: fio named no block device under the "
                            "folder (tmpfs, NFS, btrfs...); give --smart-device /dev/...", None)
    parsed, reason = read_remote_smart(dest, device)
    return remote_drive(where, device, parsed, reason, command_text(dest, device))


class SshSmartctlSource(TemperatureSource):
    """The remote drive's temperature: ``ssh DEST smartctl -j -A DEVICE`` per read."""

    name = "ssh smartctl"

    def __init__(self, dest: str, device: str):
        self.dest, self.device = dest, device
        self.detail = command_text(dest, device, ("-j", "-A"))
        self.last: dict[str, Any] | None = None

    def read(self) -> float:
        parsed, reason = read_remote_smart(self.dest, self.device, ("-j", "-A"))
        if parsed is None or parsed.get("temperature_c") is None:
            raise TemperatureUnavailable(reason or f"smartctl on {self.dest} reports no temperature")
        self.last = parsed
        return float(parsed["temperature_c"])


class RemoteDriveMonitor(DriveMonitor):
    """The drive monitor of a remote run: SMART after the run through the same ssh, per host
    (``drives``: run.json's per-host drive dicts; ``dests``: their ssh destinations)."""

    def __init__(self, drive: dict[str, Any], drives: list[dict[str, Any]], dests: list[str | None],
                 source: SshSmartctlSource | None = None):
        super().__init__(drive, source, POLL_INTERVAL_S)
        self.drives, self.dests = drives, dests
        self.afters: list[tuple[dict[str, Any] | None, str]] = []

    def snapshot_after(self) -> tuple[dict[str, Any] | None, str]:
        self.afters = [read_remote_smart(dest, d["device"]) if dest and d.get("smart") else
                       (None, d.get("reason") or NOT_REMOTE)
                       for d, dest in zip(self.drives, self.dests, strict=True)]
        if len(self.afters) == 1:
            return self.afters[0]
        return None, f"{NOT_REMOTE} as one drive: several hosts (each in smart_after_hosts)"

    def after_run(self, trials: Sequence[TrialResult], prepared_bytes: int) -> dict[str, Any]:
        out = super().after_run(trials, prepared_bytes)
        if len(self.drives) > 1:
            out["smart_after_hosts"] = [{"remote": d["remote"], "smart_after": a, "reason": r}
                                        for d, (a, r) in zip(self.drives, self.afters, strict=True)]
        return out
