"""Remote targets through fio's own client/server, with a real ``fio --server`` on
loopback: a run end to end, a server killed mid-run, and hostile remote targets refused with one
line and nothing written on either side. Each job through a server costs ~1.3 s (fio's server
idles up to 1 s before it starts one), so the runs are as small as a run can be."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest
import remote_support

from conftest import run_cli, run_json
from safety_support import fingerprint, needs_fio

ONE = ["queue-depth", "--set", "queue_depths=1", "--set", "repetitions=1", "--set", "warmup=false",
       "--set", "runtime=1s", "--set", "size=32MiB"]


server = remote_support.server   # a real fio --server on a free loopback port
folder = remote_support.folder   # a shallow folder under /tmp (each remote job probes its path)


def _shape(value):
    """Keys (recursively) and types, not values: what a reader of run.json relies on."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(value[0])] if value else []
    return "number" if isinstance(value, (int, float)) and not isinstance(value, bool) else type(value).__name__


@needs_fio
def test_a_run_through_a_loopback_server_matches_a_local_run_in_shape(tmp_path, server, folder):
    (folder / "notes.txt").write_text("the user's own file")
    before = fingerprint(folder)
    remote = run_cli("run", *ONE, "--remote", server.address, "--target", str(folder),
                     "--out", str(tmp_path / "remote-runs"), timeout=120)
    assert remote.returncode == 0, remote.stderr
    assert "live charts show total MB/s and total IOPS only" in remote.stderr
    local = run_cli("run", *ONE, "--target", str(tmp_path / "local"), "--out", str(tmp_path / "local-runs"))
    assert local.returncode == 0, local.stderr
    r_dir, l_dir = (Path(p.stdout.strip().splitlines()[-1]) for p in (remote, local))
    r, lo = run_json(r_dir), run_json(l_dir)
    assert r["status"] == lo["status"] == "done"
    (rt,), (lt,) = r["trials"], lo["trials"]
    rm, lm = dict(rt["measurement"]), dict(lt["measurement"])
    assert rm.pop("host") == "127.0.0.1"  # a client result names its server
    assert _shape(rm) == _shape(lm) and rm["read"]["iops"] > 0 and rm["read"]["hist_ns"]
    assert _shape(r["summary"]) == _shape(lo["summary"])
    assert r["target"]["remote"] == {**r["target"]["remote"], "host": "127.0.0.1", "port": server.port,
                                     "fio_version": lo["engine"]["version"]}
    assert "latency (mean)" in r["target"]["remote"]["live"]["not_available"]
    for name in ("trials.csv", "samples.csv"):
        r_rows, l_rows = (list(csv.reader((d / name).read_text().splitlines())) for d in (r_dir, l_dir))
        assert r_rows[0] == l_rows[0] and len(r_rows) > 1
    samples = list(csv.DictReader((r_dir / "samples.csv").read_text().splitlines()))
    assert any(s["read_lat_us"] for s in samples)  # fio's per-interval series replaced the live one
    job_path = next(a for a in rt["argv"] if a.endswith(".fio"))  # right after --client
    job = (r_dir / "raw" / job_path.rsplit("/", 1)[1]).read_text()
    assert "rw=randread" in job and "refill_buffers" in job  # the local options, in the job file
    assert fingerprint(folder) == before and sorted(p.name for p in folder.iterdir()) == ["notes.txt"]


@needs_fio
def test_a_server_killed_mid_run_fails_the_trial_with_the_reason_and_keeps_finished_ones(
        tmp_path, server, folder):
    err, record = remote_support.kill_in_second_trial(server.address, folder, tmp_path / "runs", "32MiB", server.kill)
    assert record["status"] == "failed"
    done, lost = record["trials"]
    assert done["status"] == "done" and done["measurement"]["read"]["iops"] > 0
    assert lost["status"] == "failed" and "connection to the fio server was lost" in lost["error"], lost["error"]
    assert "stopped answering" in record["error"] and "finished trials are kept" in record["error"]
    assert "could not be removed" in err  # said plainly: the test file is left on the remote
    assert err.count("\n") < 40


def _refused(tmp_path, remote: str, target: str, *extra: str):
    runs = tmp_path / "runs"
    done = run_cli("run", *ONE, "--remote", remote, "--target", target, "--out", str(runs), *extra)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert not runs.exists()
    return done.stderr


@pytest.mark.parametrize("target, says", [
    ("/dev/nvme0n1", "device node"), ("//dev/shm/x", "device node"), ("/proc/self/x", "device node"),
    ("/srv/a:b", "':'"), ("/srv/semi;colon", "comment"), ("/srv/${HOME}", "'$'"),
    ("relative/path", "absolute"), ("/srv/../dev/x", "'..'"), ("/srv/new\nline", "control")])
def test_hostile_remote_targets_are_refused_before_the_server_is_asked(tmp_path, target, says):
    # no server at all on this port: a refusal here never needed one
    assert says in _refused(tmp_path, "127.0.0.1:9", target)


@needs_fio
def test_a_missing_remote_folder_is_refused_and_its_parents_are_not_created(tmp_path, server, folder):
    before = fingerprint(folder)
    err = _refused(tmp_path, server.address, str(folder / "nothere" / "deeper"))
    assert f"parent folder {folder / 'nothere'} does not exist" in err and "mkdir -p" in err
    (folder / "a-file").write_bytes(b"x" * 8192)
    assert "is a file or a device" in _refused(tmp_path, server.address, str(folder / "a-file"))
    assert fingerprint(folder) == {**before, "a-file": fingerprint(folder)["a-file"]}


@needs_fio
def test_no_server_and_bad_addresses_are_one_line(tmp_path, folder):
    assert "no fio server answered" in _refused(tmp_path, "127.0.0.1:9", str(folder))
    assert "port" in _refused(tmp_path, "127.0.0.1:99999", str(folder))
    assert "--remove-leftovers" in _refused(tmp_path, "127.0.0.1", str(folder), "--remove-leftovers")
