"""Vendor specs: the curated file, model matching, interface ceilings, measured vs spec."""
from __future__ import annotations

import json

import pytest

from app.model.info import Drive
from app.results.table import to_csv, to_markdown
from app.specs import catalog as vendor
from app.specs import match as vendor_compare
from app.specs import outputs as vendor_outputs
from app.specs.record import VendorSpec

from conftest import info_of, parts_of


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
    assert vendor_compare.drive_link_ceiling(Drive.from_json({"link": link}, "drive")) == (link["text"], pytest.approx(3938.5, abs=0.1))
    assert vendor_compare.drive_link_ceiling(Drive.from_json({"bus": "SATA"}, "drive")) == ("SATA III", 600.0)


def test_compare_states_conditions_ceiling_and_percent():
    spec = VendorSpec.from_json(vendor.match_spec("WD_BLACK SN750 SE 1TB", vendor.load_specs()))
    summary = {"quick": {"workloads": [
        _row("read", 1 << 20, 8, 1, "MBps", 1800.0, 90.0, "SEQ1M Q8T1 read"),
        _row("read", 128 << 10, 32, 1, "MBps", 1800.0, 90.0, "SEQ128K Q32T1 read"),
        _row("randread", 4096, 32, 16, "iops", 262500.0, 5000.0, "RND4K Q32T16 read"),
        _row("randread", 8192, 32, 16, "iops", 999999.0, None, "RND8K (not 4 KiB)")]}}
    cmp = vendor_compare.compare(parts_of(summary), spec, info_of({"drive": {"model": "WD_BLACK SN750 SE 1TB"}}))
    rows = {r.metric: r for r in cmp.rows}
    assert set(rows) == {"seq_read_mbps", "seq_write_mbps", "rand_read_iops", "rand_write_iops"}
    seq = rows["seq_read_mbps"]
    assert seq.pct == pytest.approx(50.0) and seq.pct_std == pytest.approx(2.5)
    # the vendor states no queue depth: compared with the usual QD32 x 1 thread, and said so
    assert "SEQ128K Q32T1 read" in seq.measured_at and "32 outstanding" in seq.measured_at
    assert seq.like_for_like and seq.match == "like for like"
    assert seq.vendor_at == "QD32 × 1 thread (usual practice, assumed)"
    assert "not stated by the source" in seq.spec_conditions and "QD32" in seq.spec_conditions
    assert "PCIe 4.0 x4 ceiling (7,877 MB/s) is not the limit" in seq.explanation
    assert rows["rand_read_iops"].pct == pytest.approx(50.0)  # the 8 KiB row is not used
    assert rows["rand_read_iops"].vendor_at.startswith("4KiB QD32 × 16 threads")
    assert rows["seq_write_mbps"].measured is None
    assert rows["seq_write_mbps"].explanation == "not measured in this run"
    assert cmp.interface == "PCIe 4.0 x4" and cmp.link_known is False


def _spec(**conditions) -> VendorSpec:
    spec = vendor.user_spec("ACME FooDrive 1TB", rand_read_iops=500000, seq_read_mbps=3500)
    spec["test_conditions"] = {"rand_bs": "4KiB", **conditions}
    return VendorSpec.from_json(spec)


def test_a_qd1_result_is_never_set_beside_a_qd32x16_figure_unmarked():
    """the vendor's QD32 x 16 threads against a QD1 measurement says so, in the row,
    the table and the figure, with both sides' conditions."""
    summary = {"zero-queue": {"workloads": [
        _row("randread", 4096, 1, 1, "iops", 12000.0, None, "RND4K Q1T1 read")]},
        "queue-depth": {"workloads": [
            _row("randread", 4096, 16, 1, "iops", 150000.0, None, "RND4K Q16T1 read"),
            _row("randread", 4096, 64, 1, "iops", 300000.0, None, "RND4K Q64T1 read")]}}
    cmp = vendor_compare.compare(parts_of(summary), _spec(rand_qd=32, threads=16))
    row = next(r for r in cmp.rows if r.metric == "rand_read_iops")
    assert not row.like_for_like
    # the nearest outstanding I/O to 32 x 16 = 512 is QD64, not the best of all (it is too)
    assert "RND4K Q64T1 read" in row.measured_at and "QD64 × 1 thread(s)" in row.measured_at
    assert row.match == ("best available: RND4K Q64T1 read (QD64 × 1) of queue-depth; the spec "
                         "is at Q32T16")
    assert row.vendor_at == "4KiB QD32 × 16 threads"
    table = vendor_outputs.vendor_table(cmp)
    md = to_markdown(table)
    assert "best available: RND4K Q64T1 read" in md and "4KiB QD32 × 16 threads" in md
    # compact: one line a metric, the explanations as numbered notes under the table
    assert to_csv(table).splitlines()[0] == ("metric,spec,unit,measured_mean,measured_std,"
                                             "pct_of_spec,like_for_like,conditions,note")
    assert [r[5] for r in table.rows] == ["no", "no"] and table.rows[0][-1] == "[1]"
    assert table.notes[0].startswith("[1] ") and table.notes[1].startswith("[2] 4 KiB random read: ")
    fig = vendor_outputs.vendor_figure(cmp)
    labels = [t for s in fig.series for t in s.point_labels]
    # over each bar two short lines; the workloads and set-ups are in the caption
    assert all(len(t.splitlines()) == 2 for t in labels)
    rand = next(t for t in labels if t.endswith("(Q64T1)"))
    assert rand.splitlines()[-1] == "best available (Q64T1)"
    assert "RND4K Q64T1 read in queue-depth against the vendor's 4KiB Q32T16" in fig.caption
    assert "No like-for-like measurement for 4 KiB random read" in fig.caption


def test_like_for_like_then_the_same_outstanding_io():
    summary = {"quick": {"workloads": [
        _row("randread", 4096, 32, 16, "iops", 400000.0, None, "RND4K Q32T16 read"),
        _row("randread", 4096, 128, 4, "iops", 450000.0, None, "RND4K Q128T4 read")]}}
    row = vendor_compare.compare(parts_of(summary), _spec(rand_qd=32, threads=16)).rows[1]
    assert row.like_for_like and "RND4K Q32T16 read" in row.measured_at
    row = vendor_compare.compare(parts_of(summary), _spec(rand_qd=128, threads=4)).rows[1]
    assert row.like_for_like and "RND4K Q128T4 read" in row.measured_at
    row = vendor_compare.compare(parts_of(summary), _spec(rand_qd=16, rand_threads=32)).rows[1]
    assert not row.like_for_like and row.match.startswith("best available: RND4K Q128T4 read")
    assert "Q128T4" in row.measured_at  # 512 outstanding either way; the best of the two
    fig = vendor_outputs.vendor_figure(vendor_compare.compare(parts_of(summary), _spec(rand_qd=32, threads=16)))
    assert "like for like" in fig.series[0].point_labels[-1].splitlines()[-1]


def test_a_stated_sequential_block_size_must_match():
    summary = {"block-size": {"workloads": [
        _row("read", 1 << 20, 32, 1, "MBps", 3000.0, None, "SEQ1M Q32T1 read"),
        _row("read", 128 << 10, 8, 1, "MBps", 2000.0, None, "SEQ128K Q8T1 read")]}}
    spec = _spec(seq_bs="128KiB", seq_qd=32, threads=1)
    row = vendor_compare.compare(parts_of(summary), spec).rows[0]
    assert "SEQ128K Q8T1 read" in row.measured_at and not row.like_for_like
    # a source without a block size: the vendor's queue depth decides (QD32 × 1 here), never
    # called like for like, with the usual 128 KiB block named beside it
    spec = _spec(seq_bs=None, seq_qd=32, threads=1)
    row = vendor_compare.compare(parts_of(summary), spec).rows[0]
    assert "SEQ1M Q32T1 read" in row.measured_at and not row.like_for_like
    assert row.match.startswith("queue-depth match: SEQ1M Q32T1 read (QD32 × 1, 1MiB blocks)")
    assert "128KiB blocks (usual practice, assumed)" in row.match
    assert "best block-size match beside it: SEQ128K Q8T1 read of block-size, 2,000 MB/s" in row.match
    only_1m = {"block-size": {"workloads": summary["block-size"]["workloads"][:1]}}
    row = vendor_compare.compare(parts_of(only_1m), spec).rows[0]
    assert "SEQ1M Q32T1 read" in row.measured_at and not row.like_for_like
    assert "1MiB blocks" in row.match and "beside it" not in row.match


def test_a_slow_link_explains_a_low_percentage():
    spec = VendorSpec.from_json(vendor.match_spec("Samsung SSD 990 PRO 2TB", vendor.load_specs()))
    summary = {"block-size": {"workloads": [_row("read", 1 << 20, 8, 1, "MBps", 3500.0)]}}
    drive = {"model": "Samsung SSD 990 PRO 2TB", "link": {"speed_gts": 8.0, "width": 4,
                                                          "text": "PCIe 3.0 x4"}}
    row = vendor_compare.compare(parts_of(summary), spec, info_of({"drive": drive})).rows[0]
    assert "exceeds the PCIe 3.0 x4 ceiling (3,938 MB/s)" in row.explanation
    summary["block-size"]["workloads"][0]["read"]["MBps"]["mean"] = 3700.0
    row = vendor_compare.compare(parts_of(summary), spec, info_of({"drive": drive})).rows[0]
    assert "exceeds" in row.explanation


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
    assert vendor.spec_for_run(info_of(record), user_specs=[]) is None
    assert vendor.spec_for_run(info_of(record), user_specs=[spec2]).figures["seq_read_mbps"] == 3100
    assert vendor.spec_for_run(info_of({**record, "vendor_spec": spec}),
                               user_specs=[spec2]).to_json() == spec
    # a user record for a drive the curated list also knows wins over the curated one
    mine = vendor.user_spec("Samsung SSD 990 PRO 2TB", seq_read_mbps=7000)
    assert vendor.spec_for_run(info_of({"drive": {"model": "Samsung SSD 990 PRO 2TB"}}),
                               user_specs=[mine]).source_kind == "user"


def test_default_user_specs_path_is_read(tmp_path):
    spec = vendor.user_spec("ACME BarDrive", seq_read_mbps=500)
    vendor.save_user_spec(spec)  # XDG_CONFIG_HOME points into tmp_path (fixture)
    assert vendor.user_specs_path().is_relative_to(tmp_path)
    assert json.loads(vendor.user_specs_path().read_text())["specs"][0]["id"] == spec["id"]
    assert vendor.spec_for_run(info_of({"drive": {"model": "ACME BarDrive"}})).id == spec["id"]


@pytest.mark.parametrize("damage", [b'{"specs": [{"id": "mine"', b"\xff\xfe not utf-8", b'{"specs": 3}',
                                    b"[1, 2]", b""])
def test_a_damaged_user_specs_file_is_never_overwritten(tmp_path, damage):
    """A specs file the app cannot read holds what the user typed: a save refuses it, byte for
    byte untouched, and matching goes on without it; no .tmp is left anywhere."""
    path = tmp_path / "specs.json"
    path.write_bytes(damage)
    spec = vendor.user_spec("ACME FooDrive 1TB", seq_read_mbps=3000)
    with pytest.raises(vendor.UserSpecsUnreadable, match="left as it is") as caught:
        vendor.save_user_spec(spec, path)
    assert "\n" not in str(caught.value)
    assert path.read_bytes() == damage and sorted(p.name for p in tmp_path.iterdir()) == ["specs.json"]
    assert vendor.load_user_specs(path) == []


def test_each_save_keeps_the_previous_file_as_a_backup(tmp_path):
    path = tmp_path / "specs.json"
    first = vendor.user_spec("ACME One", seq_read_mbps=1000)
    vendor.save_user_spec(first, path)
    assert not (tmp_path / "specs.json.bak").exists()
    vendor.save_user_spec(vendor.user_spec("ACME Two", seq_read_mbps=2000), path)
    backup = json.loads((tmp_path / "specs.json.bak").read_text())
    assert [s["id"] for s in backup["specs"]] == [first["id"]]
    assert len(vendor.read_user_specs(path)) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["specs.json", "specs.json.bak"]
