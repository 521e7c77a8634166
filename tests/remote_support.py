"""A real ``fio --server`` on loopback for the remote-target tests, stopped reliably.

fio's server forks a process per connection and each job runs in a process of its own session
(setsid), so stopping "the server" means every process it started: they are collected with
psutil before the kill. A job process outlives its server otherwise and keeps writing until its
runtime ends.
"""
from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class FioServer:
    proc: subprocess.Popen
    port: int

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def kill(self) -> None:
        """SIGKILL the server and every process it started (connection handlers, job processes)."""
        try:
            family = [psutil.Process(self.proc.pid), *psutil.Process(self.proc.pid).children(recursive=True)]
        except psutil.NoSuchProcess:
            family = []
        family += [p for p in psutil.process_iter(["cmdline"])
                   if f"--server=ip:127.0.0.1,{self.port}" in " ".join(p.info["cmdline"] or [])]
        for p in family:
            try:
                p.kill()
            except psutil.Error:
                pass
        psutil.wait_procs(family, timeout=5)
        self.proc.wait(timeout=5)


def start_fio_server(cwd: Path) -> FioServer:
    port = free_port()
    proc = subprocess.Popen([shutil.which("fio") or "fio", f"--server=ip:127.0.0.1,{port}"], cwd=cwd,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return FioServer(proc, port)
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"fio --server did not listen on 127.0.0.1:{port}")


def shallow_folder() -> Path:
    """A remote target folder right under /tmp: every path component is one ~1.3 s probe
    through the server, so tests keep the path short (pytest's tmp_path is five deep)."""
    return Path(tempfile.mkdtemp(prefix="ssdp-remote-", dir="/tmp"))


# the fixtures of the remote tests (registered by each test module: ``server = remote_support.server``)
@pytest.fixture
def server(tmp_path):
    srv = start_fio_server(tmp_path)
    try:
        yield srv
    finally:
        srv.kill()


@pytest.fixture
def folder():
    path = shallow_folder()
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def two_servers(tmp_path):
    """Two real fio servers on two free loopback ports: two hosts of one remote run."""
    started = []
    try:
        for name in ("a", "b"):
            (tmp_path / name).mkdir()
            started.append(start_fio_server(tmp_path / name))
        yield started
    finally:
        for srv in started:
            srv.kill()


class Listener:
    """A TCP port that counts who connects (and answers nothing): proof that a dry run makes no
    connection at all."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.0)
        self.port = self.sock.getsockname()[1]

    def connections(self) -> int:
        count = 0
        while True:
            try:
                conn, _ = self.sock.accept()
            except (BlockingIOError, OSError):
                return count
            conn.close()
            count += 1

    def close(self) -> None:
        self.sock.close()


def kill_in_second_trial(remote: str, folder: Path, runs: Path, size: str, kill) -> tuple[str, dict]:
    """``ssd-profiler run`` of three 3 s trials through ``remote``; once the first trial is
    saved and the second is under way, ``kill()`` (a server). Returns the CLI's stderr (after
    checking it exited 1) and the run's run.json."""
    import json

    from safety_support import start_cli, wait_for
    args = ["queue-depth", "--set", "queue_depths=1,2,4", "--set", "repetitions=1", "--set",
            "warmup=false", "--set", "runtime=3s", "--set", f"size={size}", "--set", "randomize=false"]
    proc = start_cli("run", *args, "--remote", remote, "--target", str(folder), "--out", str(runs))

    def first_done():
        found = list(runs.glob("*/run.json"))
        return found and len(json.loads(found[0].read_text()).get("trials", [])) >= 1
    assert wait_for(first_done, 60), proc.communicate(timeout=5)
    time.sleep(1.5)  # into the second trial
    kill()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err
    return err, json.loads(next(runs.glob("*/run.json")).read_text())
