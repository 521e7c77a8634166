"""Every experiment end to end through the CLI with the real fio on a temp folder."""
from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from app.engines.fio.result import split_documents
from app.experiments import expand_ids
from app.experiments.plan import experiments_from_settings

from conftest import TINY, run_cli, run_json, tree

pytestmark = pytest.mark.skipif(not shutil.which("fio"), reason="fio is not installed")


def _rows(path: Path) -> list[dict]:
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def test_zero_queue_acceptance_run(tmp_path):
    target, runs = tmp_path / "target", tmp_path / "runs"
    target.mkdir()
    done = run_cli("run", "zero-queue", "--target", str(target), *TINY,
                   "--set", "repetitions=2", "--out", str(runs))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    run_dir = Path(lines[-1])
    assert run_dir.parent == runs
    # the results table: one row per workload, mean ± std with n = 2, then the findings
    assert "zero-queue: mean ± sample std over n repetitions (total latency)" in done.stdout
    assert any(line.split()[:3] == ["RND4K", "Q1T1", "read"] and " ± " in line and line.split()[3] == "2"
               for line in lines), done.stdout
    assert "tail amplification p99.9/p50" in done.stdout   # the report's own finding
    assert "[12/12] zero-queue" in done.stderr and "left" in done.stderr  # progress with an ETA
    record = run_json(run_dir)
    assert record["status"] == "done" and record["engine"]["version"].startswith("fio-")
    measured = [t for t in record["trials"] if not t["warmup"]]
    assert len(measured) == 8 and len(record["trials"]) == 12
    assert all(t["status"] == "done" and t["measurement"]["total"]["iops"] > 0 for t in measured)
    assert {t["label"] for t in measured} == {"RND4K Q1T1 read", "RND4K Q1T1 write",
                                              "SEQ128K Q1T1 read", "SEQ128K Q1T1 write"}
    assert len(_rows(run_dir / "trials.csv")) == 12
    samples = _rows(run_dir / "samples.csv")
    for trial in measured:  # at least one sample per second of runtime
        assert len([s for s in samples if int(s["trial"]) == trial["index"]]) >= 1
    rows = record["summary"]["zero-queue"]["workloads"]
    assert len(rows) == 4 and all(r["n"] == 2 and r["total_iops"]["std"] is not None for r in rows)
    read = next(r for r in rows if r["label"] == "RND4K Q1T1 read")["read"]
    assert read["lat_kind"] == "total" and read["lat_us"]["p99.9"]["mean"] > 0
    raw = sorted(p.name for p in (run_dir / "raw").iterdir())
    assert len(raw) == 24 and split_documents((run_dir / "raw" / raw[0]).read_text())[-1]["jobs"]
    log = (run_dir / "commands.log").read_text()
    assert log.count("--rw=") == 13 and "prepare zero-queue" in log  # 12 trials + the pre-fill
    assert tree(target) == []  # the test file and our data folder are gone


def test_run_all_with_tiny_parameters_completes_every_experiment(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    settings = ["runtime=1s", "size=32MiB", "repetitions=1", "warmup=false",
                "block-size.block_sizes=4k,64k,1m", "queue-depth.queue_depths=1,4,16",
                "slc-cache.runtime=3s", "quick.profile=default"]
    done = run_cli("run", "all", "quick", "--target", str(target),
                   *[arg for setting in settings for arg in ("--set", setting)],
                   "--out", str(tmp_path / "runs"), "--json", timeout=600)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)  # --json: exactly one JSON document on stdout
    assert summary["status"] == "done"
    record = run_json(summary["run_dir"])
    names = expand_ids(["all", "quick"])     # every experiment `run all` has, then quick
    assert [e["id"] for e in record["experiments"]] == names
    assert all(t["status"] == "done" for t in record["trials"])
    by_exp = {e: [t for t in record["trials"] if t["experiment"] == e] for e in names}
    counts = {e: len(ts) for e, ts in by_exp.items()}
    planned = experiments_from_settings(names, dict(s.split("=", 1) for s in settings))
    assert counts == {exp.id: len(exp.workloads()) for exp in planned}   # one trial per workload
    assert {"zero-queue": 4, "block-size": 6, "rw-mix": 4, "queue-depth": 3, "tail-latency": 2,
            "slc-cache": 1, "quick": 8}.items() <= counts.items()
    mixes = [t["measurement"] for t in by_exp["rw-mix"]]
    assert any(m["read"] and m["write"] for m in mixes)  # 70/30 and 50/50 have both directions
    findings = record["summary"]
    assert findings["queue-depth"]["findings"]["knee"]["knee_level"] in (1, 4, 16)
    assert len(findings["queue-depth"]["findings"]["littles_law"]) == 3
    assert set(findings["block-size"]["findings"]["crossover"]) == {"random", "sequential"}
    assert findings["slc-cache"]["findings"]["cache_exhaustion"][0]["total_gb"] > 0
    qd16 = next(t for t in by_exp["queue-depth"] if t["workload"]["iodepth"] == 16)
    assert "--iodepth=16" in qd16["argv"] and "--lat_percentiles=1" in qd16["argv"]
    assert tree(target) == []
