"""The descriptive blocks of run.json as typed values (app/model/info.py): older folders read,
unknown keys carried, a wrong type named."""
import json
import re

import pytest

from app.model.info import Drive, Link, RunInfo
from app.model.run import Run
from app.store.run_folder import typed_run

RECORD = {"status": "done", "experiments": [], "trials": [], "summary": {},
          "host": {"hostname": "h", "cpu": "X", "ram_bytes": 8, "pid": 3},
          "drive": {"model": "M", "link": {"speed_gts": 8.0, "width": 4, "text": "8 GT/s x4"},
                    "hosts": [{"model": "A", "remote": "a:1", "smart": None}]},
          "target": {"folder": "/t", "remote": {"host": "a", "port": 8765,
                                                "hosts": [{"host": "a", "port": 8765}]}},
          "plausibility": {"link": None, "latency_floor_us": 3.0}, "seed": 7, "writes": {"x": 1}}


def test_blocks_read_typed_and_give_back_the_same_json():
    run = Run.from_json(RECORD)
    info = run.info
    assert info.host and info.host.hostname == "h" and info.host.extra == {"pid": 3}
    assert info.drive and isinstance(info.drive.link, Link) and info.drive.link.width == 4
    assert info.drive.link_text == "8 GT/s x4" and info.drive.hosts[0].model == "A"
    assert info.target and info.target.remote and info.target.remote.every_host[0].port == 8765
    assert info.plausibility and info.plausibility.link is None and info.seed == 7
    assert info.extra == {"writes": {"x": 1}} and info.engine is None and info.direct_io is None
    assert json.dumps(info.to_json()) == json.dumps({k: v for k, v in RECORD.items()
                                                     if k not in Run.KEYS})
    assert run.to_json() == RECORD


def test_older_folders_read_with_missing_blocks_and_text_links():
    assert RunInfo.read({}) == RunInfo()
    drive = Drive.from_json({"link": "PCIe 4.0 x4"}, "drive")
    assert drive is not None and drive.link_text == "PCIe 4.0 x4" and drive.model is None


@pytest.mark.parametrize(("block", "value", "field"), [
    ("drive", {"model": 5}, "drive.model"), ("host", {"ram_bytes": "8 GB"}, "host.ram_bytes"),
    ("host", "vm", "host"), ("target", {"remote": {"hosts": [{"port": True}]}},
                             "target.remote.hosts[0].port"), ("seed", "7", "seed")])
def test_a_wrong_type_is_one_line_naming_the_field(block, value, field):
    with pytest.raises(ValueError, match=re.escape(f"/runs/r/run.json is damaged: ValueError: {field}: ")):
        typed_run({**RECORD, block: value}, "/runs/r")
