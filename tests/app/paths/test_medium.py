"""What a folder really sits on (app/paths/medium.py): the kernel's mount by device number, the
block stack walked in /sys, and a policy per medium. Real tmpfs, loop and overlay mounts where the
tests run as root; a synthetic /sys tree for the layers that cannot be made here (LVM on LUKS)."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from app.paths import TargetRefused, check_target
from app.paths.medium import classify, parse_mountinfo

from conftest import mounted, needs_fio, needs_root, run_cli

TINY = ["--set", "runtime=1s", "--set", "size=16MiB", "--set", "repetitions=1", "--set", "warmup=false"]


def test_mountinfo_escapes_and_fields():
    text = ("36 35 98:0 / /mnt/my\\040drive rw,noatime master:1 - ext4 /dev/sda1 rw\n"
            "37 35 0:45 / /srv/share rw - nfs4 server:/export\\040x rw,vers=4.2\n")
    assert parse_mountinfo(text) == [("98:0", "/mnt/my drive", "ext4", "/dev/sda1", "rw"),
                                     ("37" and "0:45", "/srv/share", "nfs4", "server:/export x",
                                      "rw,vers=4.2")]


def _sys_tree(root: Path) -> None:
    """nvme0n1p3 -> LUKS (dm-0) -> LVM vg-root (dm-1), as /sys/class/block lays it out."""
    disk = root / "devices" / "nvme0n1"
    (disk / "nvme0n1p3").mkdir(parents=True)
    (disk / "nvme0n1p3" / "partition").write_text("3\n")
    cls = root / "class" / "block"
    cls.mkdir(parents=True)
    os.symlink(disk, cls / "nvme0n1")
    os.symlink(disk / "nvme0n1p3", cls / "nvme0n1p3")
    for dm, name, uuid, slave in (("dm-0", "luks-abc", "CRYPT-LUKS2-abc", "nvme0n1p3"),
                                  ("dm-1", "vg-root", "LVM-xyz", "dm-0")):
        (cls / dm / "dm").mkdir(parents=True)
        (cls / dm / "dm" / "name").write_text(name + "\n")
        (cls / dm / "dm" / "uuid").write_text(uuid + "\n")
        (cls / dm / "slaves").mkdir()
        (cls / dm / "slaves" / slave).write_text("")


def test_lvm_on_luks_on_a_partition_is_named_layer_by_layer(tmp_path):
    sys_root = tmp_path / "sys"
    _sys_tree(sys_root)
    folder = tmp_path / "data"
    folder.mkdir()
    st = os.stat(folder)
    mountinfo = (f"40 1 {os.major(st.st_dev)}:{os.minor(st.st_dev)} / {tmp_path} rw - ext4 "
                 f"/dev/mapper/vg-root rw\n")
    medium = classify(folder, mountinfo, str(sys_root))
    assert medium.kind == "drive" and medium.mount_point == str(tmp_path)
    assert medium.line() == "ext4 on LVM vg-root on LUKS luks-abc on nvme0n1p3 on nvme0n1"


@needs_root
def test_a_folder_in_a_tmpfs_is_refused_unless_allowed(tmp_path):
    with mounted(["-t", "tmpfs", "-o", "size=2g", "tmpfs"], tmp_path / "ram") as ram:
        medium = classify(ram)
        assert medium.kind == "ram" and medium.fs_type == "tmpfs" and medium.mount_point == str(ram)
        with pytest.raises(TargetRefused) as caught:
            check_target(ram / "bench", 1 << 20)
        assert "is in memory (tmpfs): a result would measure RAM, not a drive" in str(caught.value)
        assert "\n" not in str(caught.value)
        assert check_target(ram / "bench", 1 << 20, ("ram",)).medium.kind == "ram"
        done = run_cli("run", "zero-queue", "--target", str(ram / "bench"), *TINY)
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
        assert "in memory (tmpfs)" in done.stderr and os.listdir(ram) == []


@needs_root
@needs_fio
def test_an_allowed_ram_run_is_recorded_as_ram_not_as_the_root_disk(tmp_path):
    with mounted(["-t", "tmpfs", "-o", "size=2g", "tmpfs"], tmp_path / "ram") as ram:
        done = run_cli("run", "zero-queue", "--target", str(ram), *TINY, "--allow-medium", "ram",
                       "--out", str(tmp_path / "runs"), "--json", "--set", "direct=false")
        assert done.returncode == 0, done.stderr
        assert "note: the target is in memory (tmpfs)" in done.stderr
        record = json.loads((Path(json.loads(done.stdout)["run_dir"]) / "run.json").read_text())
        assert record["target"]["medium"]["kind"] == "ram"
        assert record["drive"]["mountpoint"] == str(ram) and record["drive"]["model"] is None
        assert record["drive"]["device"] == "tmpfs"


@needs_root
def test_a_loop_mounted_image_names_its_backing_file(tmp_path):
    image = tmp_path / "disk image.img"
    with open(image, "wb") as handle:
        handle.truncate(32 << 20)
    if subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], capture_output=True).returncode != 0:
        pytest.skip("mkfs.ext4 is not available")
    with mounted(["-o", "loop", str(image)], tmp_path / "mnt") as mnt:
        medium = classify(mnt)
        assert medium.kind == "loop" and medium.fs_type == "ext4"
        assert str(image) in medium.line() and medium.stack[1].startswith("loop")
        assert "loop-mounted image" in medium.note
        done = run_cli("drives", "--json")
        row = next(r for r in json.loads(done.stdout) if r["mountpoint"] == str(mnt))
        assert row["medium"]["kind"] == "loop" and str(image) in row["medium"]["line"]


@needs_root
def test_an_overlay_names_the_file_system_of_its_upper_folder(tmp_path):
    for name in ("lower", "upper", "work"):
        (tmp_path / name).mkdir()
    options = f"lowerdir={tmp_path / 'lower'},upperdir={tmp_path / 'upper'},workdir={tmp_path / 'work'}"
    with mounted(["-t", "overlay", "overlay", "-o", options], tmp_path / "merged") as merged:
        medium = classify(merged)
        assert medium.kind == "overlay" and medium.stack[0] == "overlay"
        assert medium.stack[1] == classify(tmp_path).fs_type  # the upper folder's own file system
        assert str(tmp_path / "upper") in medium.note
        assert check_target(merged / "x", 1 << 20).medium.kind == "overlay"  # allowed, with its note
