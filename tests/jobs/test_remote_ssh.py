"""A remote drive's identity and temperature through ``ssh HOST smartctl``. There is no
sshd here: a fake ``ssh`` (``$SSD_PROFILER_SSH``) records its arguments and prints a genuine
``smartctl -x -j`` output of a Samsung 970 EVO (tests/fixtures/smartctl, see PROVENANCE.md), or
fails the ways ssh fails. Every failure must end as one line, never a traceback, within a bound."""
from __future__ import annotations

import json
import stat
import time
from pathlib import Path

import pytest
import remote_support

from app.remote.ssh_smart import SSH_ENV
from jobs.remote.ssh_smartctl import read_remote_smart

from conftest import run_cli, run_json
from safety_support import needs_fio

FIXTURE = (Path(__file__).parents[1] / "fixtures" / "smartctl"
           / "smartctl-7.0-linux-nvme-samsung970evo-mediaerrors-xall-json.json")
ONE = ["queue-depth", "--set", "queue_depths=1", "--set", "repetitions=1", "--set", "warmup=false",
       "--set", "runtime=1s", "--set", "size=16MiB"]

server = remote_support.server
folder = remote_support.folder


def fake_ssh(tmp_path: Path, body: str) -> Path:
    """An executable ``ssh`` that logs its arguments to ssh.log, then runs ``body`` (sh)."""
    path = tmp_path / "ssh"
    path.write_text(f'#!/bin/sh\necho "$@" >> "{tmp_path}/ssh.log"\n{body}\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def answering_ssh(tmp_path, monkeypatch):
    path = fake_ssh(tmp_path, f'cat "{FIXTURE}"')
    monkeypatch.setenv(SSH_ENV, str(path))
    return path


def test_identity_and_temperature_come_from_smartctl_through_ssh(tmp_path, answering_ssh):
    parsed, reason = read_remote_smart("you@labserver", "/dev/nvme0n1")
    assert reason == "" and parsed["model"] == "Samsung SSD 970 EVO 500GB" and parsed["temperature_c"] == 35
    logged = (tmp_path / "ssh.log").read_text().split()
    assert logged == ["-o", "BatchMode=yes", "-o", "ConnectTimeout=5", "--", "you@labserver",
                      "smartctl", "-j", "-a", "/dev/nvme0n1"]


@pytest.mark.parametrize("body, says", [
    ('echo "ssh: connect to host labserver port 22: Connection refused" >&2; exit 255', "Connection refused"),
    ('echo "sh: 1: smartctl: not found" >&2; exit 127', "smartctl is not installed"),
    # smartctl -j's own shape of this refusal (messages[].string, exit bit 1: device open failed)
    ("echo '{\"smartctl\": {\"messages\": [{\"string\": \"Smartctl open device: /dev/nvme0n1 "
     "failed: Permission denied\", \"severity\": \"error\"}], \"exit_status\": 2}}'; exit 2", "needs root"),
    ("echo '{not json'; exit 0", "not available remotely"),
])
def test_ssh_failures_are_one_line_not_available_remotely(tmp_path, monkeypatch, body, says):
    monkeypatch.setenv(SSH_ENV, str(fake_ssh(tmp_path, body)))
    parsed, reason = read_remote_smart("you@labserver", "/dev/nvme0n1")
    assert parsed is None and says in reason and reason.startswith("not available remotely")
    assert "\n" not in reason


def test_no_ssh_program_and_a_hung_ssh_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setenv(SSH_ENV, str(tmp_path / "no-such-ssh"))
    parsed, reason = read_remote_smart("you@labserver", "/dev/nvme0n1")
    assert parsed is None and "no ssh program" in reason
    # a child that keeps the pipes open: the whole session is killed at the bound
    monkeypatch.setenv(SSH_ENV, str(fake_ssh(tmp_path, "sleep 30 & sleep 30")))
    started = time.monotonic()
    parsed, reason = read_remote_smart("you@labserver", "/dev/nvme0n1", timeout_s=1.0)
    assert parsed is None and "no answer within 1 s" in reason
    assert time.monotonic() - started < 4


@needs_fio
def test_a_remote_run_records_the_drive_read_through_ssh(tmp_path, server, folder, answering_ssh):
    done = run_cli("run", *ONE, "--remote", server.address, "--ssh", "you@labserver",
                   "--smart-device", "/dev/nvme0n1", "--target", str(folder), "--out",
                   str(tmp_path / "runs"), env={SSH_ENV: str(answering_ssh)}, timeout=120)
    assert done.returncode == 0, done.stderr
    record = run_json(done.stdout.strip().splitlines()[-1])
    drive = record["drive"]
    assert (drive["model"], drive["firmware"], drive["temperature_c"]) == ("Samsung SSD 970 EVO 500GB", "2B2QEXE7", 35)
    assert drive["serial"] == "S4***********0H"   # masked, as for a local drive
    assert drive["smart_source"] == "ssh you@labserver smartctl -j -a /dev/nvme0n1"
    assert record["temperature"]["source"] == "ssh smartctl" and record["temperature"]["reason"] == ""
    assert record["smart_after"]["model"] == "Samsung SSD 970 EVO 500GB"
    assert "drive temperature" not in record["target"]["remote"]["live"]["not_available"]
    assert "smartctl -j -A /dev/nvme0n1" in (tmp_path / "ssh.log").read_text()


@needs_fio
def test_a_failing_ssh_is_one_log_line_and_the_run_goes_on(tmp_path, server, folder):
    refused = fake_ssh(tmp_path, 'echo "ssh: connect to host labserver port 22: Connection refused" >&2; exit 255')
    done = run_cli("run", *ONE, "--remote", server.address, "--ssh", "you@labserver", "--smart-device",
                   "/dev/nvme0n1", "--target", str(folder), "--out", str(tmp_path / "runs"), "--json",
                   env={SSH_ENV: str(refused)}, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = [ln for ln in done.stderr.splitlines() if "Connection refused" in ln]
    assert len(lines) == 1 and "not available remotely" in lines[0] and "Traceback" not in done.stderr
    record = run_json(json.loads(done.stdout)["run_dir"])
    assert record["drive"]["model"] is None and "Connection refused" in record["drive"]["reason"]
    assert "Connection refused" in record["temperature"]["reason"]


@pytest.mark.parametrize("args, says", [
    (["--ssh", "-oProxyCommand=touch /tmp/pwned"], "starts with '-'"),
    (["--ssh", "you@lab server"], "not USER@HOST"), (["--ssh", "a@h", "--ssh", "b@h"], "one --ssh per"),
    (["--ssh", "a@h", "--smart-device", "/dev/x;reboot"], "not a device path"),
    (["--smart-device", "/dev/nvme0n1"], "needs --ssh")])
def test_hostile_ssh_values_exit_2_with_one_line(tmp_path, args, says):
    done = run_cli("run", *ONE, "--remote", "127.0.0.1:9", *args, "--target", "/tmp/x",
                   "--out", str(tmp_path / "runs"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and says in done.stderr, done.stderr
    assert not (tmp_path / "runs").exists()
