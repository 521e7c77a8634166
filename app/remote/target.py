"""A remote target: a folder on another machine, reached through ``fio --server``.

fio's server has no folder checks of its own and fio follows whatever path it is given, so the
spelling of the remote folder is judged here, before anything is sent, with the same refusals as
a local target where a string can decide (the rest is probed through the server, see
jobs/remote/remote_session.py):

- absolute POSIX paths only: a relative path would be resolved against the server's own working
  folder, which nobody chose;
- no ``.``/``..`` components: the path that is checked must be the path that is written;
- the device and kernel trees (``/dev``, ``/proc``, ``/sys``, however many slashes) are refused;
- ``:`` is refused: fio splits a filename at ':' into several files (a folder ``a:b`` would make
  fio write ``a`` beside it);
- ``;`` and ``#`` are refused: in a fio job file they start a comment and would cut the path
  short (verified with fio 3.33: ``/x/semi;colon/f`` opens ``/x/semi``);
- ``$`` is refused: fio expands ``${VAR}`` in job files with the *server's* environment
  (verified: ``/x/dol${HOME}x`` became ``/x/dol/rootx``, and fio created it);
- control characters (a newline would end the job-file line) and NUL are refused.

Windows servers are not supported: their paths need ':' after the drive letter.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from app.paths.target import DATA_DIR, NAME_MAX_BYTES, PATH_MAX_BYTES, SYSTEM_TREES, TargetRefused, shown

DEFAULT_PORT = 8765          # fio's own default for --server and --client
_HOST_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9.-]{0,252}[A-Za-z0-9])?$")
_IPV6 = re.compile(r"^\[([0-9A-Fa-f:.]+)\](?::(\d+))?$")
_FORBIDDEN = {":": "':' (fio splits file names there)", ";": "';' (a comment in a fio job file)",
              "#": "'#' (a comment in a fio job file)",
              "$": "'$' (fio expands ${...} with the server's environment)"}


@dataclass(frozen=True)
class RemoteAddress:
    host: str
    port: int
    ipv6: bool = False

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if self.ipv6 else f"{self.host}:{self.port}"


@dataclass(frozen=True)
class RemoteSpec:
    """What a remote run was asked for: ``hosts`` (each ``HOST[:PORT]``, or a comma list), the
    ssh destination of each host for smartctl (``ssh``: none, or one per host in order) and the
    device smartctl asks there (None: the one fio names under the folder)."""

    hosts: tuple[str, ...]
    ssh: tuple[str, ...] = ()
    smart_device: str | None = None


def parse_remote(text: str) -> RemoteAddress:
    """``host``, ``host:port``, ``[v6addr]`` or ``[v6addr]:port``; port 8765 by default."""
    raw = (text or "").strip()
    if not raw:
        raise TargetRefused("--remote needs a host, e.g. --remote labserver or --remote 127.0.0.1:8765")
    v6 = _IPV6.match(raw)
    if v6:
        host, port_text, ipv6 = v6.group(1), v6.group(2) or "", True
    else:
        if raw.count(":") > 1:
            raise TargetRefused(f"remote {shown(raw)}: write an IPv6 address in brackets, e.g. [::1]:8765")
        host, sep, port_text = raw.partition(":")
        ipv6 = False
        if not _HOST_NAME.match(host):
            raise TargetRefused(f"remote host {shown(host)} is not a host name or IPv4 address; "
                                "write HOST, HOST:PORT or [IPv6]:PORT (letters, digits, '.' and "
                                "'-'; no spaces or quotes)")
        if sep and not port_text:
            raise TargetRefused(f"remote {shown(raw)}: the port after ':' is missing")
    if not port_text:
        return RemoteAddress(host, DEFAULT_PORT, ipv6)
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise TargetRefused(f"remote port {shown(port_text)} is not a port number (1-65535)")
    return RemoteAddress(host, int(port_text), ipv6)


def parse_remotes(values: str | Sequence[str] | None) -> tuple[RemoteAddress, ...]:
    """Several fio servers (``--remote`` repeated, each value may also be a comma list), in order.
    Refused: an empty item and the same host and port twice (the workload would run twice on one
    server and be summed); two servers on one machine are two ports."""
    texts = [values] if isinstance(values, str) else list(values or [])
    out: list[RemoteAddress] = []
    for text in texts or [""]:
        items = (text or "").split(",")
        for item in items:
            if not item.strip() and len(items) > 1:
                raise TargetRefused(f"--remote {shown(text)} has an empty host between commas; write "
                                    "h1:port,h2:port or repeat --remote")
            address = parse_remote(item)
            if any((a.host.lower(), a.port) == (address.host.lower(), address.port) for a in out):
                raise TargetRefused(f"remote {address} is given twice; give each fio server once "
                                    "(two servers on one machine listen on two ports)")
            out.append(address)
    return tuple(out)


def check_remote_folder(text: str) -> PurePosixPath:
    """The remote folder as fio will be given it; raises TargetRefused (one line)."""
    raw = text or ""
    if not raw.strip():
        raise TargetRefused("no remote target folder given")
    if any(ord(c) < 32 or ord(c) == 127 for c in raw):
        raise TargetRefused(f"remote target {shown(raw)} contains a control character (a newline "
                            "or tab); choose a folder name without one")
    for char, why in _FORBIDDEN.items():
        if char in raw:
            raise TargetRefused(f"remote target {shown(raw)} contains {why}; choose a folder "
                                "whose path has none")
    if not raw.startswith("/"):
        raise TargetRefused(f"remote target {shown(raw)} is not an absolute path; give the full "
                            "path on the remote machine, e.g. /home/you/ssdtest")
    parts = [p for p in raw.split("/") if p]
    if any(p in (".", "..") for p in parts):
        raise TargetRefused(f"remote target {shown(raw)} contains '.' or '..'; give the folder's "
                            "plain path")
    spaced = next((p for p in parts if p != p.rstrip()), None)
    if spaced is not None:  # each folder of the path is probed by a job file ending in it
        raise TargetRefused(f"remote target {shown(raw)}: the folder name {shown(repr(spaced))} "
                            "ends in a space, which fio drops from a job file (it would look for "
                            f"{shown(repr(spaced.rstrip()))}); rename the folder")
    folder = PurePosixPath("/", *parts)
    if not parts:
        raise TargetRefused("the remote target is the root folder '/'; choose a folder on the drive")
    text_folder = str(folder)
    if any(text_folder == t or text_folder.startswith(t + "/") for t in SYSTEM_TREES):
        raise TargetRefused(f"remote target {shown(folder)} is a device node or system file (devices, "
                            "kernel state), not a folder on a drive; choose a folder on the drive "
                            "(the app never writes to raw devices)")
    encoded = str(folder / DATA_DIR).encode("utf-8", "surrogateescape")
    if len(encoded) > PATH_MAX_BYTES or any(len(p.encode("utf-8", "surrogateescape")) > NAME_MAX_BYTES
                                            for p in parts):
        raise TargetRefused(f"remote target {shown(folder)[:60]}... is too long; choose a shorter path")
    return folder


def ancestors(folder: PurePosixPath) -> list[PurePosixPath]:
    """``/a``, ``/a/b``, ... up to and including ``folder``, shallowest first."""
    return [PurePosixPath("/", *folder.parts[1:i + 1]) for i in range(1, len(folder.parts))]
