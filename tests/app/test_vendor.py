"""Vendor specs: the curated file, model matching, interface ceilings, measured vs spec."""
from __future__ import annotations

import json

import pytest

from app import vendor, vendor_compare


def _row(rw: str, bs: int, iodepth: int, numjobs: int, field: str, mean: float, std=None,
         label="X", rwmixread=None) -> dict:
    side = {field: {"mean": mean, "std": std, "n": 3}, "lat_kind": "total", "lat_us": {}}
    reads = "read" in rw
    return {"label": label, "n": 3,
            "workload": {"rw": rw, "bs_bytes": bs, "iodepth": iodepth, "numjobs": numjobs,
                         "rwmixread": rwmixread},
            "read": side if reads else None, "write": None if reads else side,
            "total_iops": {"mean": None}, "total_MBps": {"mean": None}}


@pytest.fixture(autouse=True)
def _no_user_specs(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("APPDATA", str(tmp_path / "config"))


def test_curated_records_are_complete_and_cited():
    specs = vendor.load_specs()
    assert len(specs) >= 10
    assert len({s["id"] for s in specs}) == len(specs)
    for spec in specs:
        assert vendor.validate_spec(spec) == [], spec["id"]
        assert spec["source_url"] and spec["source_kind"] in ("vendor", "datasheet", "secondary",
                                                              "review")
        assert spec["interface"]
    by_id = {s["id"]: s for s in specs}
    pm9a1 = by_id["samsung-pm9a1-512gb"]
    assert (pm9a1["seq_read_mbps"], pm9a1["seq_write_mbps"]) == (6900, 5000)
    assert pm9a1["rand_read_iops"] == 800000
    sn750 = by_id["wd-black-sn750-se-1tb"]
    assert (sn750["seq_read_mbps"], sn750["seq_write_mbps"]) == (3600, 2830)
    assert (sn750["rand_read_iops"], sn750["rand_write_iops"]) == (525000, 640000)
    assert by_id["intel-d7-p5600-1.6tb"]["rand_write_iops"] == 130000


@pytest.mark.parametrize("model, expected", [
    ("MZVL2512HCJQ-00BL7", "samsung-pm9a1-512gb"),
    ("SAMSUNG MZVL2512HCJQ-00BL7", "samsung-pm9a1-512gb"),
    ("WD_BLACK SN750 SE 1TB", "wd-black-sn750-se-1tb"),
    ("WDS100T1B0E-00B3V0", "wd-black-sn750-se-1tb"),
    ("INTEL SSDPF2KE016T9", "intel-d7-p5600-1.6tb"),
    ("Samsung SSD 990 PRO 2TB", "samsung-990pro-2tb"),
    ("  Samsung  SSD 990 PRO 1TB ", "samsung-990pro-1tb"),
    ("CT1000MX500SSD1", "crucial-mx500-1tb"),
])
def test_model_strings_match_their_record(model, expected):
    assert vendor.match_spec(model, vendor.load_specs())["id"] == expected


@pytest.mark.parametrize("model", [None, "", "ACME FooDrive 1TB", "Samsung SSD 990 PRO 8TB"])
def test_unknown_models_do_not_match(model):
    assert vendor.match_spec(model, vendor.load_specs()) is None


def test_interface_ceilings():
    assert vendor_compare.interface_ceiling("SATA III")[1] == 600.0
    assert vendor_compare.interface_ceiling("SATA 6Gb/s") == ("SATA III", 600.0)
    assert vendor_compare.interface_ceiling("PCIe 3.0 x4")[1] == pytest.approx(3938.5, abs=0.1)
    assert vendor_compare.interface_ceiling("PCIe 4.0 x4") == ("PCIe 4.0 x4", pytest.approx(7876.9, abs=0.1))
    assert vendor_compare.interface_ceiling("PCIe Gen5 x4")[1] == pytest.approx(15753.8, abs=0.1)
    assert vendor_compare.interface_ceiling("PCIe 4.0 x2")[1] == pytest.approx(3938.5, abs=0.1)
    assert vendor_compare.interface_ceiling(None) is None and vendor_compare.interface_ceiling("USB") is None
    link = {"speed_gts": 8.0, "width": 4, "text": "PCIe 3.0 x4 (capable of PCIe 4.0 x4)"}
    assert vendor_compare.drive_link_ceiling({"link": link}) == (link["text"], pytest.approx(3938.5, abs=0.1))
    assert vendor_compare.drive_link_ceiling({"bus": "SATA"}) == ("SATA III", 600.0)


def test_compare_states_conditions_ceiling_and_percent():
    spec = vendor.match_spec("WD_BLACK SN750 SE 1TB", vendor.load_specs())
    summary = {"quick": {"workloads": [
        _row("read", 1 << 20, 8, 1, "MBps", 1800.0, 90.0, "SEQ1M Q8T1 read"),
        _row("read", 128 << 10, 32, 1, "MBps", 1500.0, None, "SEQ128K Q32T1 read"),
        _row("randread", 4096, 32, 16, "iops", 262500.0, 5000.0, "RND4K Q32T16 read"),
        _row("randread", 8192, 32, 16, "iops", 999999.0, None, "RND8K (not 4 KiB)")]}}
    cmp = vendor_compare.compare(summary, spec, {"drive": {"model": "WD_BLACK SN750 SE 1TB"}})
    rows = {r["metric"]: r for r in cmp["rows"]}
    assert set(rows) == {"seq_read_mbps", "seq_write_mbps", "rand_read_iops", "rand_write_iops"}
    seq = rows["seq_read_mbps"]
    assert seq["pct"] == pytest.approx(50.0) and seq["pct_std"] == pytest.approx(2.5)
    assert "SEQ1M Q8T1 read" in seq["measured_at"] and "8 outstanding" in seq["measured_at"]
    assert "not stated by the source" in seq["spec_conditions"] and "QD32" in seq["spec_conditions"]
    assert "PCIe 4.0 x4 ceiling (7,877 MB/s) is not the limit" in seq["explanation"]
    assert rows["rand_read_iops"]["pct"] == pytest.approx(50.0)  # the 8 KiB row is not used
    assert rows["seq_write_mbps"]["measured"] is None
    assert rows["seq_write_mbps"]["explanation"] == "not measured in this run"
    assert cmp["interface"] == "PCIe 4.0 x4" and cmp["link_known"] is False


def test_a_slow_link_explains_a_low_percentage():
    spec = vendor.match_spec("Samsung SSD 990 PRO 2TB", vendor.load_specs())
    summary = {"block-size": {"workloads": [_row("read", 1 << 20, 8, 1, "MBps", 3500.0)]}}
    drive = {"model": "Samsung SSD 990 PRO 2TB", "link": {"speed_gts": 8.0, "width": 4,
                                                          "text": "PCIe 3.0 x4"}}
    row = vendor_compare.compare(summary, spec, {"drive": drive})["rows"][0]
    assert "exceeds the PCIe 3.0 x4 ceiling (3,938 MB/s)" in row["explanation"]
    summary["block-size"]["workloads"][0]["read"]["MBps"]["mean"] = 3700.0
    row = vendor_compare.compare(summary, spec, {"drive": drive})["rows"][0]
    assert "exceeds" in row["explanation"]


def test_user_spec_is_saved_validated_and_preferred(tmp_path):
    path = tmp_path / "specs.json"
    spec = vendor.user_spec("ACME FooDrive 1TB", seq_read_mbps=3000, rand_read_iops=400000,
                            interface="PCIe 3.0 x4")
    assert vendor.save_user_spec(spec, path) == path
    assert vendor.match_spec("ACME FooDrive 1TB", vendor.load_user_specs(path))["id"] == spec["id"]
    spec2 = {**spec, "seq_read_mbps": 3100}
    vendor.save_user_spec(spec2, path)  # same id: replaced, not added
    assert [s["seq_read_mbps"] for s in vendor.load_user_specs(path)] == [3100]
    with pytest.raises(ValueError, match="seq_write_mbps"):
        vendor.save_user_spec({**spec, "seq_write_mbps": -1}, path)
    with pytest.raises(ValueError, match="source_url"):
        vendor.save_user_spec({**spec, "source_url": ""}, path)
    record = {"drive": {"model": "ACME FooDrive 1TB"}}
    assert vendor.spec_for_run(record, user_specs=[]) is None
    assert vendor.spec_for_run(record, user_specs=[spec2])["seq_read_mbps"] == 3100
    assert vendor.spec_for_run({**record, "vendor_spec": spec}, user_specs=[spec2]) is spec
    # a user record for a drive the curated list also knows wins over the curated one
    mine = vendor.user_spec("Samsung SSD 990 PRO 2TB", seq_read_mbps=7000)
    assert vendor.spec_for_run({"drive": {"model": "Samsung SSD 990 PRO 2TB"}},
                               user_specs=[mine])["source_kind"] == "user"


def test_default_user_specs_path_is_read(tmp_path):
    spec = vendor.user_spec("ACME BarDrive", seq_read_mbps=500)
    vendor.save_user_spec(spec)  # XDG_CONFIG_HOME points into tmp_path (fixture)
    assert vendor.user_specs_path().is_relative_to(tmp_path)
    assert json.loads(vendor.user_specs_path().read_text())["specs"][0]["id"] == spec["id"]
    assert vendor.spec_for_run({"drive": {"model": "ACME BarDrive"}})["id"] == spec["id"]
