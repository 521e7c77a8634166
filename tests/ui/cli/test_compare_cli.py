"""`ssd-profiler compare` end to end: two real fio runs, and a run against imported DiskSpd
output, whose different engine is listed rather than hidden."""
from __future__ import annotations

import json

from conftest import FIXTURES, needs_fio, run_cli

# one workload, two repetitions: the smallest run that still has a spread to compare against
TINY_RUN = ["--set", "runtime=1s", "--set", "size=16MiB", "--set", "repetitions=2",
            "--set", "warmup=false", "--set", "queue_depths=8"]


@needs_fio
def test_two_real_runs_compared_as_json_and_exported(tmp_path):
    target, runs = tmp_path / "target", tmp_path / "runs"
    target.mkdir()
    dirs = []
    for extra in ([], ["--set", "tail-latency.size=32MiB"]):
        done = run_cli("run", "tail-latency", "--target", str(target), *TINY_RUN, *extra,
                       "--out", str(runs), "--json")
        assert done.returncode == 0, done.stderr
        dirs.append(json.loads(done.stdout)["run_dir"])
    done = run_cli("compare", *dirs, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["mismatches"] == ["tail-latency size differs: 16MiB vs 32MiB"]
    rows = result["rows"]
    assert len(rows) == 4  # 1 workload x IOPS, MB/s, mean and p99 latency
    for row in rows:
        assert row["n_base"] == row["n"] == 2 and row["ratio"] > 0
        assert row["call"] in ("larger than the spread", "within the spread")
    out = tmp_path / "comparison"
    done = run_cli("compare", *dirs, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "tail-latency RND4K Q8T1 read" in done.stdout and done.stdout.strip().endswith(str(out))
    md = (out / "comparison.md").read_text()
    assert "tail-latency size differs" in md and "Welch's t-test" in md
    assert (out / "comparison.csv").read_text().count("\n") == 5
    pngs = sorted((out / "figures").glob("*.png"))  # the overlaid figures, as the window's export
    assert [p.stem for p in pngs] == [f"compare-tail-latency-{m}" for m in
                                      ("iops", "lat-mean", "lat-p99", "live", "mbps")]
    assert all(p.stat().st_size > 10_000 and p.with_suffix(".svg").is_file() for p in pngs)
    report = (out / "report.md").read_text()
    assert "## Comparison of runs" in report and "(figures/compare-tail-latency-live.png)" in report
    again = run_cli("compare", dirs[1], dirs[0], "--out", str(out))  # other runs: refused
    assert again.returncode == 2 and "not an export of this run" not in again.stdout


@needs_fio
def test_a_run_against_imported_diskspd_lists_the_engine(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    done = run_cli("run", "tail-latency", "--target", str(target), *TINY_RUN,
                   "--out", str(tmp_path / "runs"), "--json")
    assert done.returncode == 0, done.stderr
    mine = json.loads(done.stdout)["run_dir"]
    xml = FIXTURES / "diskspd" / "diskspd-2.0.21a-win-randrw70-30-4k-1thread-latency-iopsstddev.xml"
    saved = tmp_path / "imported"
    assert run_cli("import", str(xml), "--save", str(saved)).returncode == 0
    done = run_cli("compare", mine, str(saved), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    notes = result["mismatches"]
    assert any(n.startswith("engine differs: fio fio-") and "diskspd" in n for n in notes)
    assert "experiments differs: tail-latency vs imported" in notes
    assert result["rows"] == []   # nothing matched: said, not made up


def test_compare_needs_two_readable_runs(tmp_path):
    done = run_cli("compare", str(tmp_path))
    assert done.returncode == 2 and "at least two" in done.stderr
    done = run_cli("compare", str(tmp_path), str(tmp_path / "nope"))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
