"""Fakes for tests: executables (``fio``, ``smartctl``) live beside this file; ``fake_sysfs``
builds a small sysfs tree in a temp folder with the layout the kernel uses (symlinks included),
so sysfs readers are tested without NVMe hardware."""
from __future__ import annotations

import os
from pathlib import Path


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n")


def _link(link: Path, target: Path) -> None:
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(os.path.relpath(target, link.parent))


def fake_sysfs(root: Path, nvme_hwmon: bool = True, multipath: bool = False) -> Path:
    """A tree with:
    - NVMe ``nvme0n1`` (partitions p1, p2) on controller ``nvme0`` at PCI 0000:01:00.0, link
      16 GT/s x4 (capable of 16 GT/s x4), hwmon ``nvme`` with 41.85 °C, max 84 °C, crit 88 °C
      (``multipath``: namespace under subsystem ``nvme-subsys0`` with controller ``nvme0``);
    - ``dm-0``: dm-crypt (CRYPT- uuid) on ``nvme0n1p2``, and ``dm-1`` (LVM) on ``dm-0``;
    - SATA ``sda`` (partition sda1) behind ata1 with a ``drivetemp`` hwmon at 35 °C;
    - ``vda``: a virtio disk without sensors.
    """
    devices = root / "devices"
    pci = devices / "pci0000:00" / "0000:00:01.0" / "0000:01:00.0"
    for name, value in (("current_link_speed", "16.0 GT/s PCIe"), ("current_link_width", "4"),
                        ("max_link_speed", "16.0 GT/s PCIe"), ("max_link_width", "4")):
        _write(pci / name, value)
    ctrl = pci / "nvme" / "nvme0"
    for name, value in (("model", "WDS200T1X0E-00AFY0"), ("serial", "215119800624"),
                        ("firmware_rev", "614600WD"), ("transport", "pcie")):
        _write(ctrl / name, value)
    _link(ctrl / "device", pci)
    if nvme_hwmon:
        for name, value in (("name", "nvme"), ("temp1_input", "41850"), ("temp1_max", "84850"),
                            ("temp1_crit", "88850"), ("temp1_label", "Composite")):
            _write(ctrl / "hwmon3" / name, value)
    _link(root / "class" / "nvme" / "nvme0", ctrl)
    if multipath:
        subsys = devices / "virtual" / "nvme-subsystem" / "nvme-subsys0"
        _write(subsys / "model", "WDS200T1X0E-00AFY0")
        _link(subsys / "nvme0", ctrl)
        ns = subsys / "nvme0n1"
        _link(ns / "device", subsys)
    else:
        ns = ctrl / "nvme0n1"
        _link(ns / "device", ctrl)
    _write(ns / "size", str(2_000_398_934_016 // 512))
    _write(ns / "queue" / "rotational", "0")
    _write(ns / "removable", "0")
    for part in ("nvme0n1p1", "nvme0n1p2"):
        _write(ns / part / "partition", part[-1])
        _link(root / "class" / "block" / part, ns / part)
    _link(root / "block" / "nvme0n1", ns)
    _link(root / "class" / "block" / "nvme0n1", ns)
    _link(root / "dev" / "block" / "259:2", ns / "nvme0n1p2")

    virtual = devices / "virtual" / "block"
    _write(virtual / "dm-0" / "dm" / "uuid", "CRYPT-LUKS2-0123456789abcdef-luks")
    _link(virtual / "dm-0" / "slaves" / "nvme0n1p2", ns / "nvme0n1p2")
    _write(virtual / "dm-1" / "dm" / "uuid", "LVM-abcdef")
    _link(virtual / "dm-1" / "slaves" / "dm-0", virtual / "dm-0")
    for dm in ("dm-0", "dm-1"):
        _link(root / "class" / "block" / dm, virtual / dm)
        _link(root / "block" / dm, virtual / dm)

    scsi = devices / "pci0000:00" / "0000:00:17.0" / "ata1" / "host0" / "target0:0:0" / "0:0:0:0"
    for name, value in (("vendor", "ATA"), ("model", "Samsung SSD 860"), ("rev", "2B6Q"),
                        ("uevent", "DEVTYPE=scsi_device\nDRIVER=sd")):
        _write(scsi / name, value)
    for name, value in (("name", "drivetemp"), ("temp1_input", "35000")):
        _write(scsi / "hwmon" / "hwmon5" / name, value)
    sda = scsi / "block" / "sda"
    _link(sda / "device", scsi)
    _write(sda / "size", str(500_107_862_016 // 512))
    _write(sda / "queue" / "rotational", "0")
    _write(sda / "sda1" / "partition", "1")
    _link(root / "block" / "sda", sda)
    _link(root / "class" / "block" / "sda", sda)
    _link(root / "class" / "block" / "sda1", sda / "sda1")

    virtio = devices / "pci0000:00" / "0000:00:02.0" / "virtio1"
    _write(virtio / "uevent", "DRIVER=virtio_blk")
    vda = virtio / "block" / "vda"
    _link(vda / "device", virtio)
    _write(vda / "serial", "overlayblk")
    _write(vda / "size", "536870912")
    _write(vda / "queue" / "rotational", "1")
    _link(root / "block" / "vda", vda)
    _link(root / "class" / "block" / "vda", vda)
    return root
