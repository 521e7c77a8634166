"""Drive monitoring end to end: `drives --json` here, and a run that records temperature and SMART."""
from __future__ import annotations

import csv
import json
import os
import shutil
from pathlib import Path

import pytest

from conftest import FAKES, run_cli, run_json


def test_drives_json_lists_the_root_volume_and_why_there_is_no_temperature():
    done = run_cli("drives", "--json")
    assert done.returncode == 0, done.stderr
    volumes = json.loads(done.stdout)
    root = next(v for v in volumes if v["mountpoint"] == "/")
    assert root["device"] and root["fstype"] and root["total_bytes"] > 0 and root["free_bytes"] > 0
    if root["temperature_source"] is None:
        assert root["temperature_reason"].startswith("temperature unavailable: ")


@pytest.mark.skipif(not shutil.which("fio"), reason="fio is not installed")
def test_run_records_temperature_each_second_and_smart_before_and_after(tmp_path):
    bin_dir = tmp_path / "bin"  # only the fake smartctl goes first on PATH, not the fake fio
    bin_dir.mkdir()
    (bin_dir / "smartctl").symlink_to(FAKES / "smartctl")
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "FAKE_SMARTCTL_FIXTURE": "smartctl-7.4-linux-nvme-wd-black-sn850-a.txt",
           "FAKE_SMARTCTL_JSON": "smartctl-7.0-linux-nvme-samsung970evo-mediaerrors-xall-json.json"}
    target = tmp_path / "target"
    target.mkdir()
    done = run_cli("run", "zero-queue", "--target", str(target), "--set", "runtime=3s",
                   "--set", "size=32MiB", "--set", "repetitions=1", "--set", "warmup=false",
                   "--set", "zero-queue.seq_bs=64k", "--out", str(tmp_path / "runs"), env=env)
    assert done.returncode == 0, done.stderr
    run_dir = Path(done.stdout.strip().splitlines()[-1])
    record = run_json(run_dir)
    assert record["temperature"]["source"] == "smartctl"
    with open(run_dir / "samples.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for trial in record["trials"]:  # 3 s of runtime -> at least 3 temperature readings
        temps = [r["temperature_c"] for r in rows if int(r["trial"]) == trial["index"]]
        assert len([t for t in temps if t]) >= 3
        assert {float(t) for t in temps if t} == {35.0}  # the fixture's "temperature": 35
        assert trial["throttled"] is False
    assert record["drive"]["smart"]["model"] == "Samsung SSD 970 EVO 500GB"
    assert record["smart_after"]["temperature_c"] == 35
    assert record["writes"]["engine_written_bytes"] > 32 << 20
    assert record["writes"]["host_writes_delta_bytes"] == 0  # a fixture does not change
    assert record["throttle"]["warning_time_rising"] is False
