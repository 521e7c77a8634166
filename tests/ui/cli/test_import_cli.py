"""`ssd-profiler import --json` on every fio fixture prints measurements that match the file."""
from __future__ import annotations

import json

import pytest

from conftest import FIXTURES, run_cli

FIO_FILES = sorted(p for p in (FIXTURES / "fio").glob("*") if p.suffix in (".json", ".txt"))


def test_every_fio_fixture_imports():
    assert len(FIO_FILES) == 14
    done = run_cli("import", *map(str, FIO_FILES), "--json")
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert {r["source"] for r in results} == {str(p) for p in FIO_FILES}
    for r in results:
        assert r["engine"] == "fio" and r["job"] is not None
        assert r["status"] in ("ok", "failed")
        if r["status"] == "ok":
            assert r["total"] is not None


def _final_doc(text: str) -> dict:
    decoder, pos, last = json.JSONDecoder(), 0, None
    while (pos := text.find("{", pos)) >= 0:
        try:
            doc, pos = decoder.raw_decode(text, pos)
            last = doc if isinstance(doc, dict) and ("jobs" in doc or "client_stats" in doc) else last
        except json.JSONDecodeError:
            pos += 1
    return last


@pytest.mark.parametrize("path", FIO_FILES, ids=lambda p: p.name)
def test_import_values_match_the_file(path):
    """Each job's IOPS (fio's, as printed: docs/precision.md), MB/s (bw_bytes / 1e6, else bw KiB/s x 1024 / 1e6) and mean latency
    (ns / 1000, or fio 2.x µs) equal the numbers printed in the file."""
    doc = _final_doc(path.read_text())
    jobs = doc["jobs"] if "jobs" in doc else doc["client_stats"]
    done = run_cli("import", str(path), "--json")
    results = json.loads(done.stdout)
    assert len(results) == len(jobs)
    for job, m in zip(jobs, results):
        assert m["job"] == job["jobname"]
        for direction in ("read", "write"):
            side, got = job[direction], m[direction]
            if job.get("error") or not side.get("total_ios", side["io_bytes"]):
                assert got is None
                continue
            assert got["iops"] == pytest.approx(side["iops"])
            expect = side["bw_bytes"] if "bw_bytes" in side else side["bw"] * 1024
            assert got["MBps"] == pytest.approx(expect / 1e6)
            lat = side.get("lat_ns" if got["lat_kind"] == "total" else "clat_ns")
            lat, scale = (lat, 1000) if lat else (side["lat" if got["lat_kind"] == "total" else "clat"], 1)
            assert got["lat_us"]["mean"] == pytest.approx(lat["mean"] / scale)


def test_failed_job_is_reported_as_failed_not_zeros():
    path = FIXTURES / "fio" / "fio-3.33-macos-sync-job-error22-stderr-preamble-json.txt"
    done = run_cli("import", str(path), "--json")
    (m,) = json.loads(done.stdout)
    assert m["status"] == "failed" and "22" in m["error"] and m["read"] is None and m["total"] is None


def test_unreadable_file_gives_exit_2_and_a_reason(tmp_path):
    bogus = tmp_path / "notes.txt"
    bogus.write_text("hello")
    done = run_cli("import", str(bogus), str(tmp_path / "missing.json"))
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 2 and "no fio JSON" in done.stderr


def test_a_json_plus_import_carries_pooled_percentiles_like_a_run(tmp_path):
    """json+ bins give lat_us.pooled (ios, ci95) in --json and in a saved run folder."""
    path = FIXTURES / "fio-local" / "fio-3.33-linux-libaio-randrw70-qd4-jsonplus-status.json"
    done = run_cli("import", str(path), "--json")
    assert done.returncode == 0, done.stderr
    pooled = json.loads(done.stdout)[0]["read"]["lat_us"]["pooled"]
    low, high = pooled["ci95"]["p99"]
    assert pooled["ios"] > 20_000 and low <= pooled["p99"] <= high
    assert "p99.99" in pooled["too_few"]
    done = run_cli("import", str(path), "--save", str(tmp_path / "saved"))
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "saved" / "run.json").read_text())
    (row,) = record["summary"]["imported"]["workloads"]
    assert row["read"]["lat_us"]["pooled"]["ios"] == pooled["ios"]


RAMP_QUEUE = FIXTURES / "fio-local" / "fio-3.33-linux-io_uring-seqwrite-8m-qd256-ramp-bps-throttled-json.json"


def test_counts_that_disagree_keep_fios_numbers_and_the_caveat_reaches_the_table_and_the_export(tmp_path):
    """A queue in flight at the ramp's end (generated on a bps-throttled loop device: 56 issued,
    311 completed): the table shows fio's IOPS and says why its IOPS and MB/s disagree, and the
    export of the saved run states it among the caveats (docs/precision.md)."""
    side = _final_doc(RAMP_QUEUE.read_text())["jobs"][0]["write"]
    (got,) = json.loads(run_cli("import", str(RAMP_QUEUE), "--json").stdout)
    assert got["write"]["iops"] == pytest.approx(side["iops"], rel=1e-3)
    assert got["write"]["issued_completed"] == [side["total_ios"], side["clat_ns"]["N"]]
    done = run_cli("import", str(RAMP_QUEUE), "--save", str(tmp_path / "run"))
    assert done.returncode == 0, done.stderr
    (note,) = [line for line in done.stdout.splitlines() if line.startswith("note: ")]
    assert "56 I/Os issued but 311 completed" in note and "ramp_time" in note
    exported = run_cli("export", str(tmp_path / "run"), "--out", str(tmp_path / "export"))
    assert exported.returncode == 0, exported.stderr
    report = (tmp_path / "export" / "report.md").read_text(encoding="utf-8")
    assert "56 I/Os issued but 311 completed" in report


@pytest.mark.parametrize("path", sorted((FIXTURES / "fio-local").glob("*.json")), ids=lambda p: p.name)
def test_outputs_made_on_this_machine_import_with_fios_iops(path):
    """Including the ramp outputs whose histograms count more I/Os (completed) than fio's iops
    times its runtime (issued): the input check allows the completed count the file states."""
    jobs = _final_doc(path.read_text())["jobs"]
    done = run_cli("import", str(path), "--json")
    assert done.returncode == 0, done.stderr
    for job, got in zip(jobs, json.loads(done.stdout), strict=True):
        for direction in ("read", "write"):
            if got[direction] is not None:
                assert got[direction]["iops"] == pytest.approx(job[direction]["iops"], rel=1e-3)
