"""The negotiated link's ceiling (app/drive/link.py): PCIe, SATA and USB from sysfs trees built
in tmp_path the way the kernel lays them out, SATA from genuine smartctl JSON (tests/fixtures/
smartctl, PROVENANCE.md there), and no ceiling (never a guess) where the OS does not say."""
from __future__ import annotations

import os

import pytest

from app.drive import linux as devices_linux
from app.drive.link import negotiated_link, pcie_ceiling_mbps, sata_ceiling_mbps, usb_ceiling_mbps
from app.drive.smart import parse_smartctl
from tests.fakes import fake_sysfs

from conftest import FIXTURES

SMART = FIXTURES / "smartctl"
DRIVE = {"kind": "drive"}


def _write(path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n")


def _link(link, target) -> None:
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(os.path.relpath(target, link.parent))


def _identify(root, device: str) -> dict:
    return devices_linux.identify(device, None, {}, root)


def test_ceilings_per_encoding():
    assert pcie_ceiling_mbps(8.0, 4) == pytest.approx(3938.5, abs=0.1)    # 128b/130b
    assert pcie_ceiling_mbps(16.0, 4) == pytest.approx(7876.9, abs=0.1)
    assert pcie_ceiling_mbps(5.0, 1) == 500.0                              # 8b/10b
    assert pcie_ceiling_mbps(2.5, 4) == 1000.0
    assert sata_ceiling_mbps(6.0) == 600.0 and sata_ceiling_mbps(1.5) == 150.0
    assert usb_ceiling_mbps(480) == 60.0 and usb_ceiling_mbps(5000) == 500.0
    assert usb_ceiling_mbps(10000) == pytest.approx(1212.1, abs=0.1)       # 128b/132b


def test_nvme_link_from_the_controllers_pci_function(tmp_path):
    root = fake_sysfs(tmp_path)
    link, why = negotiated_link(_identify(root, "/dev/dm-1"), DRIVE, root)
    assert why == "" and link["kind"] == "PCIe" and link["text"] == "PCIe 4.0 x4"
    assert link["ceiling_MBps"] == pytest.approx(7876.9, abs=0.1) and link["duplex"] == "full"
    assert "class/nvme/nvme0/device/current_link_speed" in link["source"]
    pci = root / "devices" / "pci0000:00" / "0000:00:01.0" / "0000:01:00.0"
    _write(pci / "current_link_speed", "8.0 GT/s PCIe")   # trained lower than it could
    _write(pci / "current_link_width", "2")
    link, _ = negotiated_link(_identify(root, "/dev/nvme0n1p1"), DRIVE, root)
    assert link["text"] == "PCIe 3.0 x2" and link["ceiling_MBps"] == pytest.approx(1969.2, abs=0.1)


def test_sata_link_from_the_ports_ata_link(tmp_path):
    root = fake_sysfs(tmp_path)
    drive = _identify(root, "/dev/sda1")
    link, why = negotiated_link(drive, DRIVE, root)
    assert link is None and "did not say" in why          # no ata_link in the tree: no guess
    _write(root / "class" / "ata_link" / "link1" / "sata_spd", "3.0 Gbps")
    link, _ = negotiated_link(drive, DRIVE, root)
    assert (link["kind"], link["ceiling_MBps"], link["text"]) == ("SATA", 300.0, "SATA 3.0 Gb/s")
    assert link["source"].endswith("class/ata_link/link1/sata_spd") and link["duplex"] == "half"
    _write(root / "class" / "ata_link" / "link1" / "sata_spd", "<unknown>")   # link down
    assert negotiated_link(drive, DRIVE, root)[0] is None


@pytest.mark.parametrize("name, gbps, ceiling", [
    ("smartctl-7.0-linux-sata-ssd-samsung860evo-xall-json.json", 6.0, 600.0),
    ("smartctl-7.0-linux-sata-ssd-samsung840-xall-json.json", 6.0, 600.0),
    ("smartctl-6.6-linux-sata-ssd-liteon-a.txt", 6.0, 600.0),
])
def test_sata_link_from_genuine_smartctl_output(tmp_path, name, gbps, ceiling):
    root = fake_sysfs(tmp_path)
    _write(root / "class" / "ata_link" / "link1" / "sata_spd", "1.5 Gbps")  # smartctl wins
    smart = parse_smartctl((SMART / name).read_bytes())
    assert smart["sata_link_gbps"] == gbps
    link, _ = negotiated_link({**_identify(root, "/dev/sda1"), "smart": smart}, DRIVE, root)
    assert link["ceiling_MBps"] == ceiling and link["source"] == "smartctl interface_speed.current"


def test_nvme_smartctl_output_has_no_sata_link():
    smart = parse_smartctl((SMART / "smartctl-7.0-linux-nvme-samsung970evo-mediaerrors-xall-json.json")
                           .read_bytes())
    assert smart["sata_link_gbps"] is None


def _usb_disk(root, speeds: tuple[str, str]) -> None:
    """sdb behind a USB bridge: root hub usb2 -> device 2-1 -> interface 2-1:1.0 -> SCSI."""
    hub = root / "devices" / "pci0000:00" / "0000:00:14.0" / "usb2"
    dev = hub / "2-1"
    for where, speed in ((hub, speeds[0]), (dev, speeds[1])):
        _write(where / "speed", speed)
        _write(where / "idVendor", "1d6b" if where == hub else "152d")
    scsi = dev / "2-1:1.0" / "host3" / "target3:0:0" / "3:0:0:0"
    _write(scsi / "uevent", "DRIVER=sd")
    sdb = scsi / "block" / "sdb"
    _link(sdb / "device", scsi)
    _write(sdb / "size", "1000")
    _link(root / "block" / "sdb", sdb)
    _link(root / "class" / "block" / "sdb", sdb)


def test_usb_link_is_the_slowest_hop_and_a_sata_link_behind_it_can_be_slower(tmp_path):
    root = fake_sysfs(tmp_path)
    _usb_disk(root, ("10000", "5000"))
    drive = _identify(root, "/dev/sdb")
    assert drive["bus"] == "USB"
    link, _ = negotiated_link(drive, DRIVE, root)
    assert (link["kind"], link["ceiling_MBps"], link["text"]) == ("USB", 500.0, "USB 5 Gb/s")
    assert link["source"].endswith("usb2/2-1/speed")
    # the JMicron bridge fixture: SATA behind the bridge negotiated 1.5 Gb/s, tighter than USB
    smart = parse_smartctl((SMART / "smartctl-7.1-linux-usb-jmicron-hdd-hitachi-failing-all-json.json")
                           .read_bytes())
    link, _ = negotiated_link({**drive, "smart": smart}, DRIVE, root)
    assert (link["kind"], link["ceiling_MBps"]) == ("SATA", 150.0)
    assert sorted(x["kind"] for x in link["links"]) == ["SATA", "USB"]


def test_no_ceiling_where_the_link_says_nothing(tmp_path):
    root = fake_sysfs(tmp_path)
    link, why = negotiated_link(_identify(root, "/dev/vda"), {"kind": "virtual"}, root)
    assert link is None and why.startswith("virtual disk")
    qemu_nvme = {**_identify(root, "/dev/nvme0n1"), "model": "QEMU NVMe Ctrl"}
    assert negotiated_link(qemu_nvme, DRIVE, root)[0] is None   # an emulated link limits nothing
    for kind in ("ram", "network", "fuse", "overlay", "loop"):
        link, why = negotiated_link({"disk_name": None}, {"kind": kind}, root)
        assert link is None and f"{kind} medium" in why
    link, why = negotiated_link({"disk_name": None}, None, root)
    assert link is None and "no physical drive" in why
    # md RAID over two disks: their links add up, so one disk's ceiling is not the volume's
    md = root / "devices" / "virtual" / "block" / "md0"
    _link(md / "slaves" / "sda1", root / "class" / "block" / "sda1")
    _link(md / "slaves" / "nvme0n1p1", root / "class" / "block" / "nvme0n1p1")
    _link(root / "class" / "block" / "md0", md)
    raid = {**_identify(root, "/dev/sda1"), "stack": ["md0", "sda1", "sda", "nvme0n1p1", "nvme0n1"]}
    link, why = negotiated_link(raid, DRIVE, root)
    assert link is None and "spans several disks" in why
