"""What a target folder really sits on, asked of the kernel: RAM, a network share, FUSE, an
overlay, a loop-mounted image, a virtual disk or a drive, and the stack of block layers between
the file system and the disks.

The mount is found by device number in the kernel's own table (``/proc/self/mountinfo``: every
mount, pseudo and network ones included), never by matching path prefixes over a filtered list:
a folder on a tmpfs under ``/`` has the tmpfs's device number, not the root disk's. Block devices
are walked down through ``/sys/class/block`` (partition, device-mapper with LVM or LUKS named,
md RAID, loop to its backing file). Where this cannot be read (macOS, Windows, a sandbox), the
mount comes from psutil and the kind from the file-system type alone.

Each kind carries one sentence of what it means for the numbers; RAM is refused by
app/paths/target.py unless the user allows it (people do benchmark RAM disks, knowingly).
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from app.paths.cloud import cloud_folder

RAM_FS = frozenset({"tmpfs", "ramfs"})
NETWORK_FS = frozenset({"nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "virtiofs", "ceph",
                        "glusterfs", "afs", "fuse.sshfs", "fuse.rclone", "fuse.s3fs", "davfs"})
UNION_FS = frozenset({"overlay", "aufs", "unionfs", "fuse.unionfs", "fuse.mergerfs"})
VIRTUAL_VENDORS = ("QEMU", "VMware", "VBOX", "Virtual", "Msft", "virtio", "Xen")
NOTES = {
    "ram": "is in memory ({fs}): a result would measure RAM, not a drive",
    "network": "is a network share ({fs}): the network is part of every number",
    "fuse": "is a FUSE file system ({fs}): a user-space program is part of every number",
    "overlay": "is an overlay mount: writes land on {upper}, through the overlay",
    "loop": "is a loop-mounted image ({backing}): the image file's own drive and file system "
            "are part of every number",
    "virtual": "is a virtual disk ({disk}): the host's storage and its cache decide the numbers",
    "zram": "is a compressed RAM disk (zram): a result would measure RAM and the CPU",
    "cloud": "is in a folder synced by {client}: the sync client reads and uploads what the "
             "benchmark writes, and is part of every number",
}


@dataclass(frozen=True)
class Medium:
    kind: str                       # drive | virtual | loop | overlay | network | fuse | ram | zram | unknown
    fs_type: str | None
    mount_point: str | None
    source: str | None              # the mount's source: /dev/nvme0n1p3, server:/export, tmpfs
    stack: tuple[str, ...] = ()     # file system first, then each block layer, disks last
    note: str = ""                  # one sentence for tables, captions and report.md ("" = a drive)
    extra: dict[str, Any] = field(default_factory=dict)

    def line(self) -> str:
        """E.g. 'ext4 on LVM vg-root on LUKS on nvme0n1p3 on nvme0n1'."""
        return " on ".join(self.stack) if self.stack else (self.fs_type or "unknown")

    @classmethod
    def from_json(cls, record: object) -> Medium | None:
        """run.json's ``medium`` (None: a record from before it was written)."""
        if not isinstance(record, Mapping):
            return None
        stack = record.get("stack")
        return cls(str(record.get("kind") or ""), record.get("fs_type"), record.get("mount_point"),
                   record.get("source"), tuple(stack) if isinstance(stack, list) else (),
                   str(record.get("note") or ""))

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["stack"] = list(self.stack)
        out["line"] = self.line()
        return out


def classify(folder: str | os.PathLike[str], mountinfo: str | None = None, sys_root: str = "/sys",
             depth: int = 0) -> Medium:
    """The medium of an existing ``folder``; a cloud-synced folder is named as such, with the
    stack of what it is on (app/paths/cloud.py)."""
    medium = _classify(folder, mountinfo, sys_root, depth)
    client = cloud_folder(folder) if depth == 0 and medium.kind not in ("ram", "zram") else None
    if client is None:
        return medium
    return Medium("cloud", medium.fs_type, medium.mount_point, medium.source, medium.stack,
                  NOTES["cloud"].format(client=client), {"under": medium.kind})


def _classify(folder: str | os.PathLike[str], mountinfo: str | None, sys_root: str, depth: int) -> Medium:
    folder = os.path.realpath(folder)
    entry = _mount_of(folder, mountinfo)
    if entry is None:
        return _from_psutil(folder)
    fs, mount_point, source, options = entry
    if fs in RAM_FS:
        return _medium("ram", fs, mount_point, source, (fs,), fs=fs)
    if fs in NETWORK_FS or fs.startswith(("nfs", "smb")):
        return _medium("network", fs, mount_point, source, (f"{fs} {source}",), fs=fs)
    if fs in UNION_FS:
        upper = _option(options, "upperdir")
        below = classify(upper, mountinfo, sys_root, depth + 1) if upper and depth < 4 and os.path.isdir(upper) else None
        stack = (fs, *(below.stack if below else ()))
        return _medium("overlay", fs, mount_point, source, stack,
                       upper=f"{upper} ({below.line()})" if below else "its upper folder")
    if fs.startswith("fuse") and fs != "fuseblk":
        return _medium("fuse", fs, mount_point, source, (f"{fs} {source}",), fs=fs)
    layers, kind, detail = _block_stack(source, sys_root, depth)
    stack = (fs, *layers)
    if kind == "loop":
        return _medium("loop", fs, mount_point, source, stack, backing=detail)
    if kind in ("virtual", "zram"):
        return _medium(kind, fs, mount_point, source, stack, disk=detail)
    return Medium("drive" if layers else "unknown", fs, mount_point, source, stack)


def _medium(kind: str, fs_type: str | None, mount_point: str | None, source: str | None,
            stack: Iterable[str], **words: str) -> Medium:
    return Medium(kind, fs_type, mount_point, source, tuple(stack), NOTES[kind].format(**words))


# -- the kernel's mount table ------------------------------------------------------------------
def _unescape(text: str) -> str:
    """mountinfo writes space, tab, newline and backslash as octal escapes (\\040 ...)."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and text[i + 1:i + 4].isdigit():
            out.append(chr(int(text[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def parse_mountinfo(text: str) -> list[tuple[str, str, str, str, str]]:
    """(major:minor, mount point, fs type, source, super options) of every mount, in order."""
    rows = []
    for line in text.splitlines():
        parts = line.split(" ")
        if "-" not in parts or len(parts) < 10:
            continue
        sep = parts.index("-")
        rows.append((parts[2], _unescape(parts[4]), parts[sep + 1], _unescape(parts[sep + 2]),
                     parts[sep + 3] if len(parts) > sep + 3 else ""))
    return rows


def _mount_of(folder: str, mountinfo: str | None) -> tuple[str, str, str, str] | None:
    if mountinfo is None:
        try:
            mountinfo = Path("/proc/self/mountinfo").read_text(encoding="utf-8", errors="surrogateescape")
        except OSError:
            return None
    try:
        st = os.stat(folder)
    except OSError:
        return None
    dev = f"{os.major(st.st_dev)}:{os.minor(st.st_dev)}"
    best = None
    for devno, mount_point, fs, source, options in parse_mountinfo(mountinfo):
        inside = folder == mount_point or folder.startswith(mount_point.rstrip("/") + "/")
        if devno == dev and inside and (best is None or len(mount_point) >= len(best[1])):
            best = (fs, mount_point, source, options)
    return best


def _option(options: str, name: str) -> str | None:
    for item in options.split(","):
        key, _, value = item.partition("=")
        if key == name:
            return _unescape(value)
    return None


def _from_psutil(folder: str) -> Medium:
    fs = mount_fs_type(Path(folder))
    drive_type = _windows_drive_type(folder)   # a mapped lab share, a RAM disk driver
    if drive_type == DRIVE_REMOTE:
        return _medium("network", fs, None, None, (f"{fs or 'network drive'}",), fs=fs or "mapped drive")
    if drive_type == DRIVE_RAMDISK:
        return _medium("ram", fs, None, None, (fs or "RAM disk",), fs=fs or "RAM disk")
    if fs in RAM_FS:
        return _medium("ram", fs, None, None, (fs,), fs=fs)
    if fs and (fs in NETWORK_FS or fs.lower() in ("smbfs", "nfs", "webdav", "afpfs")):
        return _medium("network", fs, None, None, (fs,), fs=fs)
    return Medium("unknown", fs, None, None, (fs,) if fs else ())


DRIVE_REMOTE, DRIVE_RAMDISK = 4, 6   # GetDriveTypeW answers (Windows)


def _windows_drive_type(folder: str) -> int | None:
    """Windows' own word on the volume of ``folder`` (None elsewhere or when it cannot say)."""
    if not sys.platform.startswith("win"):
        return None
    import ctypes  # noqa: PLC0415 - Windows only
    root = os.path.splitdrive(folder)[0] + "\\"
    try:
        return int(ctypes.windll.kernel32.GetDriveTypeW(root))
    except (AttributeError, OSError):
        return None


def mount_fs_type(folder: Path) -> str | None:
    """File-system type of the mount holding ``folder`` (the longest mount point that contains
    it; the last one mounted wins, as the kernel shows it). None when it cannot be told."""
    try:
        import psutil
        partitions = psutil.disk_partitions(all=True)
    except Exception:  # noqa: BLE001 - no mount table (a sandbox): the other checks still hold
        return None
    text, best, best_len = os.path.normcase(str(folder)), None, -1
    for part in partitions:
        mount = os.path.normcase(part.mountpoint)
        inside = text == mount or text.startswith(mount.rstrip("/\\") + os.sep) or mount in ("/", "\\")
        if inside and len(mount) >= best_len:
            best, best_len = part.fstype, len(mount)
    return best or None


# -- block layers in /sys -----------------------------------------------------------------------
def _block_stack(source: str, sys_root: str, depth: int) -> tuple[tuple[str, ...], str, str]:
    """(layers below the file system, 'loop' | 'virtual' | 'zram' | 'drive' | '', detail)."""
    name = os.path.basename(source) if source.startswith("/dev/") else ""
    if source.startswith("/dev/mapper/"):
        name = _dm_name_to_dev(name, sys_root) or name
    if not name or not os.path.isdir(f"{sys_root}/class/block/{name}"):
        return (), "", ""
    return _walk(name, sys_root, depth, 0)


def _walk(name: str, sys_root: str, depth: int, level: int) -> tuple[tuple[str, ...], str, str]:
    base = f"{sys_root}/class/block/{name}"
    if level > 8:
        return (name,), "drive", name
    if os.path.exists(f"{base}/partition"):
        parent = os.path.basename(os.path.dirname(os.path.realpath(base)))
        below, kind, detail = _walk(parent, sys_root, depth, level + 1)
        return (name, *below), kind, detail
    if name.startswith("loop"):
        backing = _read(f"{base}/loop/backing_file") or "unknown file"
        return (f"{name} (image {backing})",), "loop", backing
    if name.startswith("zram"):
        return (name,), "zram", name
    slaves = sorted(os.listdir(f"{base}/slaves")) if os.path.isdir(f"{base}/slaves") else []
    if len(slaves) == 1:  # LVM, LUKS: one device below
        layers, kind, detail = _walk(slaves[0], sys_root, depth, level + 1)
        return (_layer_label(name, base), *layers), kind, detail
    if slaves:  # md RAID, a striped LV: several devices below, named, the first one's kind
        _, kind, detail = _walk(slaves[0], sys_root, depth, level + 1)
        return (f"{_layer_label(name, base)} over {' + '.join(slaves)}",), kind, detail
    vendor = " ".join(filter(None, (_read(f"{base}/device/vendor"), _read(f"{base}/device/model"))))
    vendor = vendor.replace("0x1af4", "virtio")  # the PCI vendor id sysfs gives a virtio disk
    if name.startswith(("vd", "xvd")) or any(v.lower() in vendor.lower() for v in VIRTUAL_VENDORS):
        return (name,), "virtual", f"{name}{', ' + vendor if vendor else ''}"
    return (name,), "drive", name


def _layer_label(name: str, base: str) -> str:
    uuid = _read(f"{base}/dm/uuid") or ""
    dm_name = _read(f"{base}/dm/name") or name
    if uuid.startswith("CRYPT-"):
        return f"LUKS {dm_name}"
    if uuid.startswith("LVM-"):
        return f"LVM {dm_name}"
    level = _read(f"{base}/md/level")
    if level:
        return f"{name} ({level})"
    return dm_name


def _dm_name_to_dev(mapper_name: str, sys_root: str) -> str | None:
    root = f"{sys_root}/class/block"
    for dev in os.listdir(root) if os.path.isdir(root) else ():
        if _read(f"{root}/{dev}/dm/name") == mapper_name:
            return dev
    return None


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace").strip() or None
    except OSError:
        return None
