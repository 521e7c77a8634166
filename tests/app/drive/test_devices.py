"""Volume -> physical drive: lsblk JSON and sysfs (fake tree + this real machine), the Windows
PowerShell and macOS diskutil parsers (canned input in the documented shapes, not captured from
real machines: no such fixture exists yet), and the reports the CLI and run.json will use."""
from __future__ import annotations

import json
import os
import plistlib
import sys

import pytest

from app.drive import identity as drives
from app.drive import linux as devices_linux
from app.drive import macos as devices_macos
from app.drive import windows as devices_windows
from tests.fakes import fake_sysfs

from conftest import (
    FIXTURES,  # noqa: E402
    REPO,  # noqa: E402
)

FAKES = REPO / "tests" / "fakes"
LINUX = sys.platform.startswith("linux")

LSBLK = {"blockdevices": [
    {"name": "nvme0n1", "kname": "nvme0n1", "pkname": None, "type": "disk", "size": 2000398934016,
     "rota": False, "tran": "nvme", "model": "WDS200T1X0E-00AFY0", "serial": "215119800624",
     "vendor": None, "log-sec": 512, "phy-sec": 512, "mountpoints": [None], "children": [
         {"name": "nvme0n1p1", "kname": "nvme0n1p1", "pkname": "nvme0n1", "type": "part", "size": 536870912,
          "rota": False, "tran": "nvme", "mountpoints": ["/boot/efi"]},
         {"name": "nvme0n1p2", "kname": "nvme0n1p2", "pkname": "nvme0n1", "type": "part", "size": 1999860000000,
          "rota": False, "tran": "nvme", "mountpoints": [None], "children": [
              {"name": "luks-root", "kname": "dm-0", "pkname": "nvme0n1p2", "type": "crypt",
               "size": 1999800000000, "rota": False, "mountpoints": ["/", "/home"]}]}]},
    {"name": "sda", "kname": "sda", "type": "disk", "size": "500107862016", "rota": "0", "tran": "sata",
     "model": "Samsung SSD 860 EVO 500GB ", "serial": "S3YZNB0KB00864E", "mountpoint": None}]}


# -- Linux: lsblk and sysfs ---------------------------------------------------------------------
def test_parse_lsblk_tree_new_and_old_columns():
    index = devices_linux.parse_lsblk(LSBLK)
    assert index["dm-0"]["disk"] == "nvme0n1" and index["dm-0"]["mountpoints"] == ["/", "/home"]
    assert index["nvme0n1"]["mountpoints"] == [] and index["nvme0n1"]["tran"] == "nvme"
    sda = index["sda"]  # lsblk < 2.37 style: strings for numbers and flags, MOUNTPOINT column
    assert (sda["size_bytes"], sda["rotational"], sda["model"]) == (500107862016, False, "Samsung SSD 860 EVO 500GB")


@pytest.mark.skipif(not LINUX, reason="Linux enumeration")
def test_real_lsblk_lists_the_disk_of_the_root_volume():
    doc, why = devices_linux.run_lsblk()
    assert doc is not None, why
    index = devices_linux.parse_lsblk(doc)
    root = os.stat("/").st_dev
    ident = devices_linux.identify(None, root, index)
    assert ident["disk_name"] in index
    assert index[ident["disk_name"]]["size_bytes"] > 0


def test_identify_nvme_through_luks_and_lvm(tmp_path):
    root = fake_sysfs(tmp_path)
    ident = devices_linux.identify("/dev/dm-1", None, devices_linux.parse_lsblk(LSBLK), root)
    assert (ident["disk_name"], ident["disk"], ident["smart_device"]) == ("nvme0n1", "/dev/nvme0n1", "/dev/nvme0")
    assert ident["bus"] == "NVMe" and ident["encrypted"] is True
    assert ident["stack"] == ["dm-1", "dm-0", "nvme0n1p2", "nvme0n1"]
    assert (ident["model"], ident["firmware"], ident["serial"]) == ("WDS200T1X0E-00AFY0", "614600WD", "215119800624")
    assert ident["link"]["text"] == "PCIe 4.0 x4" and ident["rotational"] is False
    assert ident["capacity_bytes"] == 2000398934016


def test_identify_by_st_dev_and_without_lsblk(tmp_path):
    root = fake_sysfs(tmp_path, multipath=True)
    ident = devices_linux.identify(None, os.makedev(259, 2), None, root)
    assert ident["disk_name"] == "nvme0n1" and ident["smart_device"] == "/dev/nvme0"
    assert ident["model"] == "WDS200T1X0E-00AFY0" and ident["link"]["width"] == 4


def test_identify_sata_virtio_and_non_block(tmp_path):
    root = fake_sysfs(tmp_path)
    sata = devices_linux.identify("/dev/sda1", None, {}, root)
    assert (sata["bus"], sata["model"], sata["firmware"], sata["smart_device"]) == (
        "SATA", "Samsung SSD 860", "2B6Q", "/dev/sda")
    virtio = devices_linux.identify("/dev/vda", None, {}, root)
    assert virtio["bus"] == "virtual" and virtio["rotational"] is None  # rota=1 is a lie there
    assert virtio["serial"] == "overlayblk" and virtio["link"] is None
    overlay = devices_linux.identify("overlay", None, {}, root)
    assert overlay["disk"] is None and "not a block device" in overlay["identity_note"]


def test_pcie_link_below_capability(tmp_path):
    pci = tmp_path / "pci"
    pci.mkdir()
    for name, value in (("current_link_speed", "8.0 GT/s PCIe"), ("current_link_width", "2"),
                        ("max_link_speed", "16.0 GT/s PCIe"), ("max_link_width", "4")):
        (pci / name).write_text(value + "\n")
    link = devices_linux.pcie_link(pci)
    assert link["text"] == "PCIe 3.0 x2 (capable of 4.0 x4)" and link["generation"] == "3.0"
    assert devices_linux.pcie_link(tmp_path / "nothing") is None


@pytest.mark.parametrize("disk, tran, path, driver, model, bus", [
    ("nvme0n1", None, "/devices/pci/nvme/nvme0/nvme0n1", None, None, "NVMe"),
    ("sdb", "usb", "/devices/usb2/2-1/host4/sdb", None, "Portable SSD T7", "USB"),
    ("sdc", None, "/devices/pci0000:00/usb3/3-2/sdc", None, None, "USB"),
    ("vda", None, "/devices/pci0000:00/0000:00:02.0/virtio1/block/vda", "virtio_blk", None, "virtual"),
    ("sda", None, "/devices/pci0000:00/ata1/host0/sda", None, "VBOX HARDDISK", "virtual"),
    ("loop0", None, "/devices/virtual/block/loop0", None, None, "virtual"),
    ("sda", "sata", "/devices/ata1/sda", None, "Samsung SSD 860", "SATA"),
])
def test_classify_bus(disk, tran, path, driver, model, bus):
    assert devices_linux.classify_bus(disk, tran, path, driver, model) == bus


# -- Windows ------------------------------------------------------------------------------------
def test_windows_inventory_numbers_names_and_bare_objects():
    doc = {"PhysicalDisk": [{"DeviceId": "0", "FriendlyName": "KINGSTON SA2000M8500G", "SerialNumber": "0026_B728",
                             "MediaType": 4, "BusType": 17, "Size": 500107862016, "FirmwareVersion": "S5Z42105"},
                            {"DeviceId": "1", "FriendlyName": "WDC WUH721816ALE6L4", "MediaType": "HDD",
                             "BusType": "SATA", "Size": 16000900661248, "SpindleSpeed": 7200}],
           "Disk": [{"Number": 0, "BusType": 17}, {"Number": 1, "BusType": 11}],
           "Partition": [{"DiskNumber": 0, "PartitionNumber": 3, "DriveLetter": "C"},
                         {"DiskNumber": 0, "PartitionNumber": 1, "DriveLetter": "\u0000"},
                         {"DiskNumber": 1, "PartitionNumber": 2, "DriveLetter": 68}],
           "Volume": {"DriveLetter": "C", "FileSystem": "NTFS", "Size": 499000000000, "SizeRemaining": 100}}
    letters = devices_windows.parse_inventory(doc)
    assert set(letters) == {"C", "D"}
    c, d = letters["C"], letters["D"]
    assert (c["bus"], c["rotational"], c["smart_device"], c["fstype"]) == ("NVMe", False, "/dev/pd0", "NTFS")
    assert c["model"] == "KINGSTON SA2000M8500G" and c["firmware"] == "S5Z42105"
    assert (d["bus"], d["rotational"], d["disk"]) == ("SATA", True, "\\\\.\\PhysicalDrive1")
    assert devices_windows.bus_name(15) == "virtual" and devices_windows.bus_name("NVMe") == "NVMe"
    assert devices_windows.parse_inventory({"Partition": None}) == {}


# -- macOS --------------------------------------------------------------------------------------
MAC = {
    "/": {"DeviceIdentifier": "disk3s1s1", "MountPoint": "/", "ParentWholeDisk": "disk3",
          "APFSContainerReference": "disk3", "APFSPhysicalStores": [{"APFSPhysicalStore": "disk0s2"}]},
    "disk3": {"DeviceIdentifier": "disk3", "ParentWholeDisk": "disk3", "VirtualOrPhysical": "Virtual",
              "APFSPhysicalStores": [{"APFSPhysicalStore": "disk0s2"}]},
    "disk0s2": {"DeviceIdentifier": "disk0s2", "ParentWholeDisk": "disk0"},
    "disk0": {"DeviceIdentifier": "disk0", "ParentWholeDisk": "disk0", "MediaName": "APPLE SSD AP0512Z",
              "BusProtocol": "Apple Fabric", "SolidState": True, "Internal": True, "TotalSize": 500277792768,
              "Removable": False, "VirtualOrPhysical": "Unknown"},
    "/dev/disk4s2": {"DeviceIdentifier": "disk4s2", "ParentWholeDisk": "disk4"},
    "disk4": {"DeviceIdentifier": "disk4", "ParentWholeDisk": "disk4", "MediaName": "Samsung Portable SSD T7",
              "BusProtocol": "USB", "SolidState": True, "Internal": False, "TotalSize": 2000398934016},
}


def mac_lookup(ident):
    raw = plistlib.dumps(MAC.get(ident, {}))  # through bytes, as diskutil prints it
    return devices_macos.parse_plist(raw)


def test_macos_apfs_volume_maps_to_physical_disk():
    ident = devices_macos.identify("/", mac_lookup)
    assert (ident["disk"], ident["smart_device"], ident["bus"]) == ("/dev/disk0", "/dev/disk0", "NVMe")
    assert ident["model"] == "APPLE SSD AP0512Z" and ident["rotational"] is False
    assert ident["stack"] == ["disk3s1s1", "disk0s2", "disk0"]


def test_macos_usb_partition_and_unknown():
    usb = devices_macos.identify("/dev/disk4s2", mac_lookup)
    assert (usb["disk"], usb["bus"], usb["capacity_bytes"]) == ("/dev/disk4", "USB", 2000398934016)
    gone = devices_macos.identify("/Volumes/Nope", mac_lookup)
    assert gone["disk"] is None and "no information" in gone["identity_note"]
    assert devices_macos.parse_plist(b"not a plist") == {}


# -- reports ------------------------------------------------------------------------------------
def test_mask_serial():
    assert drives.mask_serial("S4EVNX0NA32843N") == "S4***********3N"
    assert drives.mask_serial("ABC") == "***" and drives.mask_serial(None) is None


@pytest.mark.skipif(not LINUX, reason="Linux enumeration")
def test_list_volumes_real_root_volume():
    volumes = drives.list_volumes()
    root = next(v for v in volumes if v["mountpoint"] == "/")
    assert root["device"].startswith("/dev/") or root["disk"] is None
    assert root["total_bytes"] > 0 and 0 <= root["free_bytes"] <= root["total_bytes"]
    assert root["fstype"] and set(drives.IDENTITY_KEYS) <= set(root)
    assert drives.volume_for(REPO)["mountpoint"] in {v["mountpoint"] for v in volumes}


@pytest.fixture
def fake_smartctl_path(monkeypatch):
    monkeypatch.setenv("PATH", f"{FAKES}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("SSD_PROFILER_FIXTURES", str(FIXTURES))
    monkeypatch.delenv("FAKE_SMARTCTL_FIXTURE", raising=False)
    monkeypatch.delenv("FAKE_SMARTCTL_JSON", raising=False)
    return monkeypatch


@pytest.mark.skipif(not LINUX, reason="Linux enumeration")
def test_drives_report_root_volume_says_why_no_temperature(fake_smartctl_path):
    report = drives.drives_report()
    json.dumps(report, allow_nan=False)
    root = next(v for v in report if v["mountpoint"] == "/")
    assert root["total_bytes"] > 0 and root["free_bytes"] >= 0 and root["fstype"]
    if root["bus"] == "virtual":  # this machine: a virtio disk, no sensor, no SMART
        assert root["temperature_source"] is None
        assert root["temperature_reason"].startswith("temperature unavailable: virtual disk")
    else:
        assert root["temperature_source"] or root["temperature_reason"].startswith("temperature unavailable")


@pytest.mark.skipif(not LINUX, reason="Linux enumeration")
def test_describe_drive_with_fake_nvme_smartctl(fake_smartctl_path):
    fake_smartctl_path.setenv("FAKE_SMARTCTL_FIXTURE", "smartctl-7.4-linux-nvme-wd-black-sn850-a.txt")
    info = drives.describe_drive(REPO)
    json.dumps(info, allow_nan=False)
    if info.get("smart_device") is None:
        pytest.skip("the repository is not on a block device here")
    assert info["smart"]["model"] == "WDS200T1X0E-00AFY0" and info["smart"]["temperature_c"] == 42
    assert info["smart"]["serial"] == "21********24"  # masked unless asked
    assert (info["warning_temp_c"], info["critical_temp_c"]) == (84, 88)
    assert info["temperature_c"] is not None and info["temperature_source"] in ("hwmon", "smartctl")
    shown = drives.describe_drive(REPO, show_serial=True)
    assert shown["smart"]["serial"] == "215119800624"
