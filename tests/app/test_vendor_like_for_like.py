"""The vendor comparison takes the run's measurement closest to the spec's conditions from every
experiment, says which and when none is close, warns when the spec's drive is not the measured
one; a spec given on the command line, and one entered for a drive without a model, are found."""
from __future__ import annotations

import json
import shutil

import pytest

from app.specs import catalog as vendor
from app.specs import match as vendor_compare
from app.specs import outputs as vendor_outputs
from app.specs.record import DriveKey, VendorSpec
from ui.cli.vendor_spec_arg import spec_from_argument

from conftest import TINY, info_of, parts_of, run_cli, run_json, tree

PM9A1 = {"id": "student-pm9a1", "vendor": "Samsung", "family": "PM9A1", "model_regex": "PM9A1",
         "capacity_gb": 512, "rand_read_iops": 800000, "rand_write_iops": 800000,
         "test_conditions": {"rand_bs": "4KiB", "rand_qd": 32, "rand_threads": 4},
         "source_url": "course handout", "source_kind": "secondary"}


def _row(rw: str, qd: int, iops: float, label: str, mix: int | None = None) -> dict:
    reads = rw == "randread" or (mix is not None and mix > 0)
    writes = rw == "randwrite" or (mix is not None and mix < 100)
    side = {"iops": {"mean": iops, "std": None, "n": 3}, "lat_kind": "total", "lat_us": {}}
    return {"label": label, "n": 3, "workload": {"rw": rw, "bs_bytes": 4096, "iodepth": qd,
                                                 "numjobs": 1, "rwmixread": mix},
            "read": side if reads else None, "write": side if writes else None,
            "total_iops": {"mean": iops}, "total_MBps": {"mean": None}}


#: the student's run: QD1 random write in zero-queue, a pure-write QD8 point in the rw-mix sweep
STUDENT = {"zero-queue": {"workloads": [_row("randwrite", 1, 13019.0, "RND4K Q1T1 write"),
                                        _row("randread", 1, 11000.0, "RND4K Q1T1 read")]},
           "rw-mix": {"workloads": [_row("randrw", 8, 60000.0, "RND4K Q8T1 mix70", 70),
                                    _row("randrw", 8, 45917.0, "RND4K Q8T1 mix0", 0),
                                    _row("randrw", 8, 52000.0, "RND4K Q8T1 mix100", 100)]}}
VIRTUAL = {"drive": {"model": None, "bus": "virtual", "serial": "ov******lk"},
           "target": {"medium": {"kind": "virtual"}}}


def test_the_student_random_write_uses_the_rw_mix_pure_write_point():
    cmp = vendor_compare.compare(parts_of(STUDENT), VendorSpec.from_json(PM9A1), info_of(VIRTUAL))
    rows = {r.metric: r for r in cmp.rows}
    write = rows["rand_write_iops"]
    assert write.measured.label == "RND4K Q8T1 mix0" and write.measured.experiment == "rw-mix"
    assert write.measured.mean == 45917.0 and write.pct == pytest.approx(5.74, abs=0.01)
    assert write.match == ("best available: RND4K Q8T1 mix0 (QD8 × 1) of rw-mix; the spec is "
                           "at Q32T4") and write.best_available
    # a 70 % read mix is neither a read nor a write; the pure-read 100 % point is a read
    assert rows["rand_read_iops"].measured.label == "RND4K Q8T1 mix100"
    # the spec's drive (PM9A1) is not what was measured (a virtual disk): said everywhere
    assert "PM9A1" in cmp.drive_mismatch and "virtual disk" in cmp.drive_mismatch
    fig = vendor_outputs.vendor_figure(cmp)
    assert fig.caption.startswith(cmp.drive_mismatch) and "not the measured drive" in fig.title
    label = next(t for s in fig.series for t in s.point_labels if "best available" in t)
    assert label.splitlines()[-1] == "best available (Q8T1)"
    assert "RND4K Q8T1 mix0 in rw-mix against the vendor's 4KiB Q32T4" in fig.caption
    assert any(n.startswith("Drive mismatch:") for n in vendor_outputs.vendor_table(cmp).notes)


def test_the_vendor_conditions_win_then_the_deepest_queue_not_above_them():
    parts = {"queue-depth": {"workloads": [_row("randwrite", q, 1000.0 * q, f"Q{q}")
                                           for q in (1, 8, 128, 256)]},
             "quick": {"workloads": [_row("randwrite", 32, 1.0, "Q32 but T1")]}}
    spec = VendorSpec.from_json({**PM9A1, "test_conditions": {"rand_qd": 128, "threads": 1}})
    row = vendor_compare.compare(parts_of(parts), spec).rows[1]
    assert row.like_for_like and row.measured.label == "Q128"
    spec = VendorSpec.from_json({**PM9A1, "test_conditions": {"rand_qd": 64, "threads": 1}})
    row = vendor_compare.compare(parts_of(parts), spec).rows[1]  # not QD128: it flatters
    assert row.measured.label == "Q32 but T1" and row.match.endswith("the spec is at Q64T1")
    spec = VendorSpec.from_json({**PM9A1, "test_conditions": {"rand_qd": 1, "threads": 1}})
    assert vendor_compare.compare(parts_of(parts), spec).rows[1].measured.label == "Q1"


def test_no_mismatch_when_the_drive_is_the_specs():
    info = info_of({"drive": {"model": "SAMSUNG MZVL2512HCJQ-00B00 PM9A1"}})
    cmp = vendor_compare.compare(parts_of(STUDENT), VendorSpec.from_json(PM9A1), info)
    assert cmp.drive_mismatch is None
    other = vendor_compare.drive_mismatch(VendorSpec.from_json(PM9A1),
                                          info_of({"drive": {"model": "WD PC SN740"}}))
    assert "reports the model WD PC SN740" in other


def test_a_spec_entered_for_a_drive_without_model_attaches_to_its_serial_or_volume(tmp_path):
    path = tmp_path / "specs.json"
    drive = DriveKey(None, "ov******lk", "/dev/vda")
    spec = vendor.entered_spec("PM9A1", {"rand_write_iops": 800000}, {"rand_qd": 32}, None,
                               "box label", drive=drive)
    assert spec["attached_to"] == {"serial": "ov******lk", "volume": "/dev/vda"}
    vendor.save_user_spec(spec, path)
    users = vendor.load_user_specs(path)
    found, origin = vendor.spec_for_drive(DriveKey(None, "ov******lk", "/dev/vdb"), None, users)
    assert origin == "user" and found.id == spec["id"]
    assert vendor.spec_for_drive(DriveKey(None, "xx******yy", "/dev/vda"), None, users) == (None, None)
    # a run on that drive freezes it at its start; a drive without serial goes by its volume
    assert vendor.spec_at_run_start({"serial": "ov******lk", "device": "/dev/vda"}, users) == spec
    bare = vendor.entered_spec("PM9A1", {"rand_write_iops": 1}, {}, None, "", drive=DriveKey(
        None, None, "/dev/vda"))
    assert VendorSpec.from_json(bare).attached_to_drive(DriveKey(None, None, "/dev/vda"))
    assert not VendorSpec.from_json(bare).attached_to_drive(DriveKey(None, None, "/dev/vdb"))
    # a model the text finds needs no attachment: the model matches wherever the drive sits
    named = vendor.entered_spec("PM9A1", {"rand_write_iops": 1}, {}, None, "",
                                drive=DriveKey("SAMSUNG PM9A1 512GB", "S4****3N", "/dev/nvme0n1"))
    assert "attached_to" not in named


def test_vendor_spec_argument_is_an_id_or_a_file(tmp_path):
    assert spec_from_argument("samsung-pm9a1-512gb", [])["family"] == "PM9A1"
    one = tmp_path / "one.json"
    one.write_text(json.dumps(PM9A1))
    assert spec_from_argument(str(one), [])["id"] == "student-pm9a1"
    one.write_text(json.dumps({"specs": [PM9A1]}))
    assert spec_from_argument(str(one), [])["id"] == "student-pm9a1"
    for text, says in (("{", "cannot be read as JSON"), ("[1, 2]", "one spec record"),
                       (json.dumps({**PM9A1, "rand_read_iops": -1}), "rand_read_iops")):
        one.write_text(text)
        with pytest.raises(ValueError, match=says):
            spec_from_argument(str(one), [])
    with pytest.raises(ValueError, match="no such file and no spec with this id"):
        spec_from_argument("no-such-drive", [])


@pytest.mark.skipif(not shutil.which("fio"), reason="fio is not installed")
def test_cli_run_and_export_take_a_vendor_spec(tmp_path):
    target, runs = tmp_path / "target", tmp_path / "runs"
    target.mkdir()
    spec = tmp_path / "pm9a1.json"
    spec.write_text(json.dumps(PM9A1))
    bad = run_cli("run", "zero-queue", "--target", str(target), "--out", str(runs),
                  "--vendor-spec", "no-such-drive")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "--vendor-spec no-such-drive" in bad.stderr and not runs.exists()
    done = run_cli("run", "rw-mix", "--target", str(target), *TINY, "--out", str(runs),
                   "--set", "repetitions=1", "--set", "warmup=false", "--set", "mixes=0,100",
                   "--vendor-spec", str(spec))
    assert done.returncode == 0, done.stderr
    run_dir = done.stdout.strip().splitlines()[-1]
    assert run_json(run_dir)["vendor_spec"]["id"] == "student-pm9a1"
    assert "vendor: measured against Samsung PM9A1 512 GB" in done.stdout
    assert "4 KiB random write:" in done.stdout and "of rw-mix; the spec is at Q32T4" in done.stdout
    out = tmp_path / "export"
    exported = run_cli("export", run_dir, "--out", str(out), "--vendor-spec",
                       "samsung-pm9a1-512gb", env={"QT_QPA_PLATFORM": "offscreen"})
    assert exported.returncode == 0, exported.stderr
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "samsung-pm9a1-512gb" in report and "Drive mismatch: The spec is for" in report
    assert (out / "figures" / "vendor-comparison.png").exists() and tree(target) == []
