"""Several remote hosts at once, and the remote dry run, with two real ``fio --server``
on two loopback ports: the same trial on both in parallel through one fio client, results summed
and kept per host; a host killed mid-run; a dry run that connects to nothing; hostile ``--remote``
values refused with one line. Each job through a server costs ~1.3 s, so the runs are tiny."""
from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest
import remote_support

from app.engines.fio.result import split_documents
from ui.cli.results import print_results

from conftest import run_cli, run_json
from safety_support import fingerprint, needs_fio

ONE = ["queue-depth", "--set", "queue_depths=1", "--set", "repetitions=1", "--set", "warmup=false",
       "--set", "runtime=1s", "--set", "size=16MiB"]

two_servers = remote_support.two_servers   # two real fio servers, two free loopback ports
folder = remote_support.folder             # a shallow folder under /tmp (each job probes its path)


@needs_fio
def test_two_hosts_run_each_trial_together_summed_and_kept_per_host(tmp_path, two_servers, folder):
    (folder / "notes.txt").write_text("the user's own file")
    before = fingerprint(folder)
    a, b = two_servers
    started = time.monotonic()
    done = run_cli("run", *ONE, "--remote", a.address, "--remote", b.address, "--target", str(folder),
                   "--out", str(tmp_path / "runs"), "--json", timeout=120)
    took = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    record = run_json(out["run_dir"])
    (trial,) = record["trials"]
    m = trial["measurement"]
    hosts = {h["address"]: h for h in m["hosts"]}
    assert list(hosts) == [a.address, b.address] and m["host"] is None
    assert m["total"]["iops"] == pytest.approx(sum(h["total"]["iops"] for h in hosts.values()))
    assert m["read"]["MBps"] == pytest.approx(sum(h["read"]["MBps"] for h in hosts.values()))
    means = [h["read"]["lat_us"]["mean"] for h in hosts.values()]
    assert min(means) <= m["read"]["lat_us"]["mean"] <= max(means)  # over all I/Os, not a sum
    assert m["read"]["hist_ns"] and m["read"]["lat_us"]["p99"] > 0   # pooled from both histograms
    assert "sum over hosts" in m["combined"] and "sum over hosts" in record["target"]["remote"]["combined"]
    assert [h["port"] for h in record["target"]["remote"]["hosts"]] == [a.port, b.port]
    # one client invocation, each --client with its own flags and job file, its own test file
    argv = trial["argv"]
    assert sum(x.startswith("--client=") for x in argv) == 2 and argv.count("--debug=steadystate") == 2
    jobs = sorted((Path(out["run_dir"]) / "raw").glob("000_*.fio"))
    files = {line for j in jobs for line in j.read_text().splitlines() if line.startswith("filename=")}
    assert len(jobs) == 2 and len(files) == 2 and all(f.endswith(("-h1.dat", "-h2.dat")) for f in files)
    # ...and each server ran its own: fio names the file each host's job used
    raw = next((Path(out["run_dir"]) / "raw").glob("000_*.out.json")).read_text()
    final = split_documents(raw)[-1]["client_stats"]
    used = {e["port"]: e["job options"]["filename"] for e in final if e.get("port") and "job options" in e}
    assert used[a.port].endswith("-h1.dat") and used[b.port].endswith("-h2.dat"), used
    # per host in --json and in the terminal's tables
    (rows,) = out["hosts"].values()
    assert [r["host"] for r in rows] == [a.address, b.address] and all(r["iops"]["mean"] > 0 for r in rows)
    text = io.StringIO()
    print_results(text, out["run_dir"])
    assert "per host" in text.getvalue() and a.address in text.getvalue() and b.address in text.getvalue()
    assert "per host" in run_cli("export", out["run_dir"], "--out", str(tmp_path / "x")).stdout + \
        (tmp_path / "x" / "report.md").read_text()
    assert "2 hosts run every trial together" in done.stderr
    # nothing left on either "machine": both test files and the data folder removed
    assert fingerprint(folder) == before and sorted(p.name for p in folder.iterdir()) == ["notes.txt"]
    assert took < 40, took


@needs_fio
def test_a_host_killed_mid_run_fails_its_trial_naming_it_and_keeps_finished_ones(tmp_path, two_servers, folder):
    a, b = two_servers
    err, record = remote_support.kill_in_second_trial(f"{a.address},{b.address}", folder, tmp_path / "runs", "16MiB",
                                                      b.kill)
    done, lost = record["trials"]
    assert done["status"] == "done" and len(done["measurement"]["hosts"]) == 2
    assert lost["status"] == "failed" and f"fio server at {b.address} was lost" in lost["error"], lost["error"]
    assert f"the fio server at {b.address} stopped answering" in record["error"]
    assert "Traceback" not in err and err.count("\n") < 40


@needs_fio
def test_a_remote_dry_run_prints_the_plan_and_connects_to_nothing(tmp_path, folder):
    one, two = remote_support.Listener(), remote_support.Listener()
    try:
        before = fingerprint(folder)
        done = run_cli("run", *ONE, "--remote", f"127.0.0.1:{one.port}", "--remote", f"127.0.0.1:{two.port}",
                       "--target", str(folder), "--dry-run", "--out", str(tmp_path / "runs"))
        assert done.returncode == 0, done.stderr
        assert one.connections() == two.connections() == 0
        text = done.stdout
        assert text.count(f"--client=ip:127.0.0.1,{one.port}") >= 2   # prefill and the trial
        assert "rw=randread" in text and "-h2.dat" in text and "Nothing was sent" in text
        planned = json.loads(run_cli("run", *ONE, "--remote", f"127.0.0.1:{one.port}", "--target",
                                     str(folder), "--dry-run", "--json").stdout)
        jobs = planned["remote_jobs"]   # 2 probes (/tmp, the folder), prefill, trial, removal, rmdir+check
        assert (jobs["probes"], jobs["jobs"]) == (2, 7)
        assert planned["estimated_s"] == pytest.approx(1.0 + 7 * jobs["per_job_s"])
        assert planned["connected"] is False and one.connections() == 0
        assert fingerprint(folder) == before and not (tmp_path / "runs").exists()
    finally:
        one.close()
        two.close()


@pytest.mark.parametrize("remote, says", [
    (["lab server"], "no spaces or quotes"), (['"labserver"'], "no spaces or quotes"),
    (["lab\nserver"], "no spaces or quotes"), (["127.0.0.1:8765", "127.0.0.1:8765"], "given twice"),
    (["LabServer:9000,labserver:9000"], "given twice"), (["127.0.0.1:65536"], "1-65535"),
    (["127.0.0.1:0"], "1-65535"), (["a:1,,b:2"], "empty host")])
@pytest.mark.parametrize("dry", [False, True])
def test_hostile_remote_hosts_exit_2_with_one_line(tmp_path, remote, says, dry):
    args = [x for r in remote for x in ("--remote", r)]
    done = run_cli("run", *ONE, *args, "--target", "/tmp/x", "--out", str(tmp_path / "runs"),
                   *(["--dry-run"] if dry else []))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert says in done.stderr and not (tmp_path / "runs").exists()
