"""Hostile vendor specs for the export and window tests (not a test module): a copy of a real
run (tests/fixtures/runs) with its drive model and own spec replaced, and a config folder whose
vendor_specs.json is a named pipe or a link to /dev/zero."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from conftest import FIXTURES

(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]
EVIL_SPEC = {"id": "shared-spec", "source_url": "a forum post", "source_kind": "user",
             "model_regex": "^(a+)+$", "seq_read_mbps": 3000, "rand_read_iops": 400000}
EVIL_MODEL = "a" * 34 + "!"


def hostile_run(folder: Path, model: str, spec: dict | None) -> Path:
    shutil.copytree(RUN, folder)
    record = json.loads((folder / "run.json").read_text())
    record["drive"]["model"], record["vendor_spec"] = model, spec
    (folder / "run.json").write_text(json.dumps(record))
    return folder


def hostile_config(config: Path, kind: str) -> Path:
    """``config``/ssd-profiler/vendor_specs.json as a named pipe or a link to /dev/zero."""
    path = config / "ssd-profiler" / "vendor_specs.json"
    path.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    return path
