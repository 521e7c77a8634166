"""smartctl parsing on every fixture (text and JSON, CRLF, code pages, locales), the exit-status
bitmask, the reasons given when there is no data, and the pySMART-backed snapshot through the
fake smartctl on PATH (this machine's virtual disk has no SMART)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from app.drive import smart

from conftest import (
    FIXTURES,  # noqa: E402
    REPO,  # noqa: E402
)

SMARTCTL_DIR = FIXTURES / "smartctl"
FAKES = REPO / "tests" / "fakes"

# fixture -> (model, temperature °C, regex showing that temperature in the file as printed)
EXPECTED = {
    "smartctl-6.6-linux-sata-ssd-liteon-a.txt": ("LITEONIT LCT-512L9S-11 2.5 7mm 512GB", None, None),
    "smartctl-6.7-linux-sas-hdd-seagate-all-json.json": ("SEAGATE ST1200MM0088", 31, r'"current": 31'),
    "smartctl-7.0-linux-nvme-samsung970evo-mediaerrors-xall-json.json":
        ("Samsung SSD 970 EVO 500GB", 35, r'"temperature": \{\s+"current": 35'),
    "smartctl-7.0-linux-sata-ssd-samsung840-xall-json.json": ("Samsung SSD 840 Series", 33, r'"current": 33'),
    "smartctl-7.0-linux-sata-ssd-samsung860evo-xall-json.json": ("Samsung SSD 860 EVO 500GB", 36, r'"current": 36'),
    "smartctl-7.1-linux-usb-jmicron-hdd-hitachi-failing-all-json.json":
        ("Hitachi HDS721050DLE630", 25, r'"current": 25'),
    "smartctl-7.2-linux-nvme-samsung970evoplus-a-de_locale.txt":
        ("Samsung SSD 970 EVO Plus 500GB", 41, r"\nTemperature:\s+41 Celsius"),
    "smartctl-7.3-linux-sas-ssd-samsung-x.txt": ("SAMSUNG MZILT7T6HALA/007", 25, r"Current temperature = 25"),
    "smartctl-7.3-windows-nvme-kingston-a2000-a-crlf.txt": ("KINGSTON SA2000M8500G", 38, r"\nTemperature:\s+38 Celsius"),
    "smartctl-7.3-windows-sata-hdd-wd-hc550-a.txt": ("WDC  WUH721816ALE6L4", 26, r"Temperature_Celsius .* 26 \(Min/Max"),
    "smartctl-7.3-windows-sata-ssd-apacer-a-crlf.txt": ("Apacer AS340 240GB", 47, r"Temperature_Celsius .* 47\r?\n"),
    "smartctl-7.4-linux-nvme-wd-black-sn850-a.txt": ("WDS200T1X0E-00AFY0", 42, r"\nTemperature:\s+42 Celsius"),
    "smartctl-7.4-macos-nvme-apple-ssd-a.txt": ("APPLE SSD AP0512Z", 19, r"\nTemperature:\s+19 Celsius"),
    "smartctl-7.5-linux-aarch64-usb-nvme-samsung-t7-a.txt": ("Samsung Portable SSD T7", 29, r"\nTemperature:\s+29 Celsius"),
}


def parse(name: str) -> dict:
    return smart.parse_smartctl((SMARTCTL_DIR / name).read_bytes())


def test_every_fixture_is_covered():
    on_disk = {p.name for p in SMARTCTL_DIR.iterdir() if p.suffix in (".txt", ".json")}
    assert on_disk == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_model_and_temperature_match_the_file(name):
    model, temperature, evidence = EXPECTED[name]
    raw_text = (SMARTCTL_DIR / name).read_bytes().decode("utf-8", errors="replace")
    for word in model.split():
        assert word in raw_text  # the expectation itself is what the file prints
    if evidence:
        assert re.search(evidence, raw_text), evidence
    out = parse(name)
    assert out["model"] == model
    assert out["temperature_c"] == temperature
    assert out["format"] == ("json" if name.endswith(".json") else "text")
    assert set(out) == set(smart.FIELDS)
    json.dumps(out, allow_nan=False)


@pytest.mark.parametrize("name, capacity", [
    ("smartctl-7.2-linux-nvme-samsung970evoplus-a-de_locale.txt", 500_107_862_016),   # 500.107.862.016
    ("smartctl-7.3-windows-nvme-kingston-a2000-a-crlf.txt", 500_107_862_016),         # NBSP, cp1252, CRLF
    ("smartctl-7.4-linux-nvme-wd-black-sn850-a.txt", 2_000_398_934_016),              # 2’000’398’934’016
    ("smartctl-7.3-linux-sas-ssd-samsung-x.txt", 7_681_501_126_656),                  # narrow NBSP
    ("smartctl-7.3-windows-sata-ssd-apacer-a-crlf.txt", 240_057_409_536),
    ("smartctl-6.6-linux-sata-ssd-liteon-a.txt", 512_110_190_592),
    ("smartctl-7.0-linux-nvme-samsung970evo-mediaerrors-xall-json.json", 500_107_862_016),
])
def test_capacity_with_any_thousands_separator(name, capacity):
    assert parse(name)["capacity_bytes"] == capacity


def test_nvme_health_fields_text_and_json():
    de = parse("smartctl-7.2-linux-nvme-samsung970evoplus-a-de_locale.txt")
    assert (de["serial"], de["firmware"], de["protocol"]) == ("S4EVNX0NA32843N", "2B2QEXM7", "NVMe")
    assert (de["warning_temp_c"], de["critical_temp_c"]) == (85, 85)
    assert de["data_units_written"] == 1_954_515 and de["host_writes_bytes"] == 1_954_515 * 512_000
    assert (de["power_on_hours"], de["assessment"], de["percentage_used"]) == (15, "PASS", 0)
    assert (de["warning_temp_time_min"], de["critical_temp_time_min"]) == (0, 0)
    assert de["temperature_sensors_c"] == [41, 41]
    sn850 = parse("smartctl-7.4-linux-nvme-wd-black-sn850-a.txt")
    assert (sn850["warning_temp_c"], sn850["critical_temp_c"], sn850["critical_temp_time_min"]) == (84, 88, 3)
    assert (sn850["power_on_hours"], sn850["data_units_written"]) == (6433, 49_987_853)
    evo = parse("smartctl-7.0-linux-nvme-samsung970evo-mediaerrors-xall-json.json")
    assert (evo["media_errors"], evo["percentage_used"], evo["power_on_hours"]) == (7, 3, 12798)
    assert evo["data_units_written"] == 65_602_088 and evo["warning_temp_time_min"] == 0
    apple = parse("smartctl-7.4-macos-nvme-apple-ssd-a.txt")
    assert apple["warning_temp_c"] is None and apple["warning_temp_time_min"] is None
    assert apple["messages"] and "GetLogPage failed" in apple["messages"][0]


def test_ata_and_scsi_fields():
    evo860 = parse("smartctl-7.0-linux-sata-ssd-samsung860evo-xall-json.json")
    assert evo860["host_writes_bytes"] == 64_777_770_148 * 512
    assert "device statistics" in evo860["host_writes_source"]
    assert (evo860["warning_temp_c"], evo860["percentage_used"], evo860["rotation_rpm"]) == (70, 19, 0)
    liteon = parse("smartctl-6.6-linux-sata-ssd-liteon-a.txt")
    assert liteon["host_writes_bytes"] == 176_271 * 512 and "vendor units" in liteon["host_writes_source"]
    assert (liteon["power_on_hours"], liteon["protocol"]) == (2376, "ATA")
    sas = parse("smartctl-7.3-linux-sas-ssd-samsung-x.txt")
    assert (sas["protocol"], sas["firmware"], sas["serial"]) == ("SCSI", "GXA0", "S5DDNE0R801692")
    assert sas["host_writes_bytes"] == 11_472_811_000_000  # "11472,811" GB (decimal comma)
    seagate = parse("smartctl-6.7-linux-sas-hdd-seagate-all-json.json")
    assert (seagate["critical_temp_c"], seagate["host_writes_bytes"]) == (60, 806_827_000_000)


def test_crlf_and_code_page_parse_like_lf():
    raw = (SMARTCTL_DIR / "smartctl-7.3-windows-nvme-kingston-a2000-a-crlf.txt").read_bytes()
    assert b"\r\n" in raw
    assert smart.parse_smartctl(raw) == smart.parse_smartctl(raw.replace(b"\r\n", b"\n"))
    assert smart.parse_smartctl(raw)["data_units_written"] == 16_184_623


def test_exit_status_bitmask():
    failing = parse("smartctl-7.1-linux-usb-jmicron-hdd-hitachi-failing-all-json.json")
    assert failing["exit_status"] == 216 and failing["assessment"] == "FAIL"
    assert "SMART status: DISK FAILING" in failing["exit_bits"]
    assert not smart.no_data(216) and not smart.no_data(4) and not smart.no_data(0)
    assert smart.no_data(1) and smart.no_data(2) and smart.no_data(None)
    assert smart.exit_bits(3) == ["command line did not parse", "device open failed"]


def test_first_int_locales():
    assert smart.first_int("500.107.862.016 [500 GB]") == 500_107_862_016
    assert smart.first_int("1.954.515 [1,00 TB]") == 1_954_515
    assert smart.first_int("26 (Min/Max 9/28)") == 26
    assert smart.first_int("10311,154") == 10311
    assert smart.first_int(None) is None


# -- running smartctl ---------------------------------------------------------------------------
@pytest.fixture
def fake_path(monkeypatch):
    monkeypatch.setenv("PATH", f"{FAKES}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("FAKE_SMARTCTL_FIXTURE", raising=False)
    monkeypatch.delenv("FAKE_SMARTCTL_JSON", raising=False)
    monkeypatch.setenv("SSD_PROFILER_FIXTURES", str(FIXTURES))
    return monkeypatch


def test_read_smart_reasons(fake_path, tmp_path):
    parsed, why = smart.read_smart("/dev/vda")  # fake without fixture = a virtio disk
    assert parsed is None and "cannot detect the device type" in why
    denied = {"smartctl": {"version": [7, 3], "exit_status": 2, "messages": [
        {"string": "Smartctl open device: /dev/nvme0 failed: Permission denied", "severity": "error"}]}}
    (tmp_path / "denied.json").write_text(json.dumps(denied))
    fake_path.setenv("FAKE_SMARTCTL_FIXTURE", str(tmp_path / "denied.json"))
    parsed, why = smart.read_smart("/dev/nvme0")
    assert parsed is None and why.startswith("not permitted")
    parsed, why = smart.read_smart("/dev/sda", smartctl=str(tmp_path / "no-such-smartctl"))
    assert parsed is None and "install smartmontools" in why


def test_read_smart_timeout(tmp_path):
    slow = tmp_path / "smartctl"
    slow.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(10)\n")
    slow.chmod(0o755)
    parsed, why = smart.read_smart("/dev/sda", smartctl=str(slow), timeout=0.5)
    assert parsed is None and "timed out" in why


def test_read_smart_failing_drive_still_gives_data(fake_path):
    fake_path.setenv("FAKE_SMARTCTL_FIXTURE", "smartctl-7.1-linux-usb-jmicron-hdd-hitachi-failing-all-json.json")
    parsed, why = smart.read_smart("/dev/sdc", ("-j", "-a"))
    assert why == "" and parsed["assessment"] == "FAIL" and parsed["exit_status"] == 216


def test_snapshot_text_fixture_uses_pysmart_and_fills_gaps(fake_path):
    fake_path.setenv("FAKE_SMARTCTL_FIXTURE", "smartctl-7.2-linux-nvme-samsung970evoplus-a-de_locale.txt")
    snap, why = smart.snapshot("/dev/nvme0")
    assert why == "" and "pySMART" in snap["source"] and "smartctl -j -x" in snap["source"]
    assert snap["model"] == "Samsung SSD 970 EVO Plus 500GB" and snap["temperature_c"] == 41
    assert snap["warning_temp_time_min"] == 0  # pySMART misses this one; ours fills it
    assert snap["host_writes_bytes"] == 1_954_515 * 512_000  # exact, not pySMART's "[1,00 TB]"


def test_snapshot_falls_back_when_pysmart_has_nothing(fake_path):
    fake_path.setenv("FAKE_SMARTCTL_FIXTURE", "smartctl-7.0-linux-nvme-samsung970evo-mediaerrors-xall-json.json")
    snap, why = smart.snapshot("/dev/nvme0")
    assert snap["source"] == "smartctl -j -x" and "pySMART" in why
    assert (snap["model"], snap["media_errors"]) == ("Samsung SSD 970 EVO 500GB", 7)
    fake_path.delenv("FAKE_SMARTCTL_FIXTURE")
    snap, why = smart.snapshot("/dev/vda")
    assert snap is None and "cannot detect the device type" in why


def test_pysmart_import_leaves_lang_alone():
    code = ("import os; os.environ['LANG'] = 'de_DE.UTF-8'\n"
            "from app.drive import smart\n"
            "smart.snapshot('/dev/nvme0')\n"
            "import pySMART\n"
            "print(os.environ['LANG'])\n")
    env = {**os.environ, "PATH": f"{FAKES}{os.pathsep}{os.environ['PATH']}", "SSD_PROFILER_FIXTURES": str(FIXTURES),
           "FAKE_SMARTCTL_FIXTURE": "smartctl-7.4-linux-nvme-wd-black-sn850-a.txt"}
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "de_DE.UTF-8"


def test_smartctl_is_found_in_sbin_off_a_users_path(tmp_path, monkeypatch):
    """Debian installs smartctl in /usr/sbin, which a regular user's PATH lacks."""
    from app.drive import smart
    sbin = tmp_path / "sbin"
    sbin.mkdir()
    fake = sbin / "smartctl"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setattr(smart, "SBIN_DIRS", (str(sbin),))
    assert smart.find_smartctl() == str(fake)
    assert smart.find_smartctl(str(tmp_path / "nowhere" / "smartctl")) is None
