"""Hostile input for json+ imports and comparison exports: forged json+ histogram bins on ``import`` (the pooled
percentiles are printed as the job's own), and ``compare --out`` on a full disk."""
from __future__ import annotations

import json
import subprocess

import pytest

from conftest import FIXTURES, needs_fio, needs_root, run_cli

JSONPLUS = FIXTURES / "fio-local" / "fio-3.33-linux-libaio-randrw70-qd4-jsonplus-status.json"


def _last_doc() -> dict:
    """The final json+ document of a genuine fio 3.33 output (status documents before it)."""
    text, decoder, docs, i = JSONPLUS.read_text(), json.JSONDecoder(), [], 0
    while (j := text.find("{\n  \"fio version\"", i)) >= 0:
        doc, i = decoder.raw_decode(text, j)
        docs.append(doc)
    return docs[-1]


def _forge(change) -> str:
    doc = _last_doc()
    bins = doc["jobs"][0]["read"]["lat_ns"]["bins"]
    assert bins, "the fixture has read bins"
    change(bins)
    return json.dumps(doc)


def _first(bins):
    return next(iter(bins))


FORGED = {
    # one bin claims 10^40 I/Os: the pooled p50..p99.99 all became that bin's latency, exit 0
    "huge-count": lambda b: b.update({_first(b): 10**40}),
    "float-count": lambda b: b.update({_first(b): 1e300}),
    # a bin far beyond the job's exact maximum latency: pooled p99.9 of 17 s, exit 0
    "beyond-max": lambda b: b.update({str(10**30): 5}),
    # a negative latency is counted in a bucket of its own
    "negative-latency": lambda b: b.update({"-500": 5}),
    # a million forged bins: 200 times the job's I/Os
    "million-bins": lambda b: (b.clear(), b.update({str(i): 1 for i in range(1, 1_000_000)})),
}


@pytest.mark.parametrize("case", sorted(FORGED))
def test_forged_histogram_bins_are_refused_not_pooled(tmp_path, case):
    path = tmp_path / f"{case}.json"
    path.write_text(_forge(FORGED[case]))
    done = run_cli("import", str(path), "--json")
    lines = done.stderr.splitlines()
    assert done.returncode == 2, (done.stdout[:500], done.stderr)
    assert "Traceback" not in done.stderr and json.loads(done.stdout or "[]") == []
    assert len(lines) == 1 and lines[0].startswith(f"ssd-profiler: error: {path}: "), lines
    assert "hist_ns" in lines[0]


def test_the_genuine_jsonplus_document_still_gives_pooled_percentiles(tmp_path):
    path = tmp_path / "genuine.json"
    path.write_text(json.dumps(_last_doc()))
    done = run_cli("import", str(path), "--json")
    assert done.returncode == 0, done.stderr
    (m,) = json.loads(done.stdout)
    assert m["read"]["lat_us"]["pooled"]["ios"] > 0


@needs_fio
@needs_root
def test_compare_out_on_a_full_disk_is_exit_1_with_the_reason(tmp_path):
    target, runs = tmp_path / "target", tmp_path / "runs"
    target.mkdir()
    dirs = []
    for _ in range(2):
        done = run_cli("run", "zero-queue", "--target", str(target), "--set", "runtime=1s",
                       "--set", "size=16MiB", "--set", "repetitions=1", "--set", "warmup=false",
                       "--out", str(runs), "--json")
        assert done.returncode == 0, done.stderr
        dirs.append(json.loads(done.stdout)["run_dir"])
    small = tmp_path / "small"
    small.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(small)], check=True)
    try:
        done = run_cli("compare", *dirs, "--out", str(small / "c"))
        assert "Traceback" not in done.stderr
        assert done.returncode == 1, done.stderr
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and "space" in lines[0].lower(), lines
    finally:
        subprocess.run(["umount", str(small)], check=True)
