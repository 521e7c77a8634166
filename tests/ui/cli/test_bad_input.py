"""Every bad input on the command line (point 6): exit 2, exactly one line on stderr
that starts with ``ssd-profiler: error:`` and says what to change, no traceback, nothing written
(no run folder, the target folder as it was). The CLI runs as a real process, as users run it.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO, run_cli, tree

LONG = "1" * 5000


def bad_set(*pairs: str) -> list[str]:
    return [arg for pair in pairs for arg in ("--set", pair)]


# (id, experiments and --set arguments, words the one line must contain)
PARAM_CASES = [
    ("qd-zero", ["queue-depth", *bad_set("queue-depth.queue_depths=0")],
     "queue_depths: 0 is below the minimum 1"),
    ("qd-negative", ["queue-depth", *bad_set("queue_depths=-3")], "-3 is below the minimum 1"),
    ("qd-huge", ["queue-depth", *bad_set(f"queue_depths={10**30}")], "above the maximum 1024"),
    ("qd-empty", ["queue-depth", *bad_set("queue_depths=")], "needs at least one value"),
    ("qd-commas", ["queue-depth", *bad_set("queue_depths=,,")], "needs at least one value"),
    ("qd-twice", ["queue-depth", *bad_set("queue_depths=4,4")], "has 4 twice"),
    ("qd-fraction", ["queue-depth", *bad_set("queue_depths=1.5")], "not a whole number"),
    ("mix-101", ["rw-mix", *bad_set("rw-mix.mixes=101")], "mixes: 101 is above the maximum 100"),
    ("mix-negative", ["rw-mix", *bad_set("mixes=-1")], "below the minimum 0"),
    ("bs-1000", ["block-size", *bad_set("block_sizes=4k,1000")], "not a multiple of 512 bytes"),
    ("seq-bs-1000", ["zero-queue", *bad_set("seq_bs=1000")], "seq_bs: 1000B is not a multiple"),
    ("bs-over-size", ["block-size", *bad_set("size=32MiB", "block_sizes=4k,64MiB")],
     "64MiB is larger than the test file (size 32MiB)"),
    ("slc-bs-small", ["slc-cache", *bad_set("bs=2k")], "below the minimum 4KiB"),
    ("size-huge", ["zero-queue", *bad_set("size=99999999999999999999T")], "above the maximum"),
    ("runtime-long", ["zero-queue", *bad_set(f"runtime={LONG}")], "too long"),
    ("runtime-newline", ["zero-queue", *bad_set("runtime=1s\nx")], "not a duration: '1s\\nx'"),
    ("runtime-quotes", ["zero-queue", *bad_set("runtime=\"30s\"")], "not a duration"),
    ("runtime-micro", ["zero-queue", *bad_set("runtime=5µs")], "not a duration"),
    ("runtime-arabic", ["zero-queue", *bad_set("runtime=\u0661\u0662")], "not a duration"),
    ("runtime-nan", ["zero-queue", *bad_set("runtime=nan")], "not a duration"),
    ("name-long", ["zero-queue", *bad_set(f"{'x' * 5000}=1")], "has this parameter"),
    ("name-newline", ["zero-queue", *bad_set("run\ntime=1s")], "has this parameter"),
    ("name-unicode", ["zero-queue", *bad_set("r\u00fcntime=1s")], "has this parameter"),
    ("name-quote", ["zero-queue", *bad_set("run'time\"=1s")], "has this parameter"),
    ("choice-odd", ["queue-depth", *bad_set("sweep=n\u00fcmjobs\t")], "is not one of"),
    ("bool-odd", ["zero-queue", *bad_set("warmup=\u00e4")], "not a yes/no value"),
]


def one_error_line(done: subprocess.CompletedProcess) -> str:
    lines = done.stderr.splitlines()
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert len(lines) == 1, done.stderr[-2000:]
    assert lines[0].startswith("ssd-profiler: error: ") and "Traceback" not in done.stderr
    assert len(lines[0]) < 600
    return lines[0]


@pytest.fixture
def places(tmp_path):
    """A target folder with something in it, a runs folder that does not exist yet, and a home
    of its own (so a default runs folder would be found here, never in the real home)."""
    target = tmp_path / "target"
    target.mkdir()
    (target / "keep.txt").write_text("not the app's")
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
           "XDG_STATE_HOME": str(home / "state")}
    return target, tmp_path / "runs", home, env


@pytest.mark.parametrize("args, words", [c[1:] for c in PARAM_CASES],
                         ids=[c[0] for c in PARAM_CASES])
def test_bad_parameter_is_one_line_exit_2_nothing_written(places, args, words):
    target, runs, home, env = places
    before, home_before = tree(target), tree(home)
    done = run_cli("run", *args, "--target", str(target), "--out", str(runs), env=env)
    assert words in one_error_line(done)
    assert tree(target) == before and not runs.exists() and tree(home) == home_before


@pytest.mark.parametrize("locale", [{"LC_ALL": "C", "PYTHONIOENCODING": "ascii"},
                                    {"LC_ALL": "", "LANG": "C", "PYTHONIOENCODING": "ascii"},
                                    {"LC_ALL": "", "LANG": "C"}])
def test_ascii_locale_prints_escapes_instead_of_failing(places, locale):
    target, runs, _home, env = places
    done = run_cli("run", "zero-queue", "--target", str(target), "--out", str(runs),
                   "--set", "runtime=5\u00b5s\u00b1", env={**env, **locale})
    line = one_error_line(done)
    assert "\\xb5" in line or "\u00b5" in line
    listing = run_cli("experiments", env={**env, **locale})
    assert listing.returncode == 0 and "Traceback" not in listing.stderr, listing.stderr
    assert "mean \\xb1 sample std" in listing.stdout or "mean \u00b1 sample std" in listing.stdout
    fio_json = next(iter(sorted((FIXTURES / "fio").glob("*.json"))), None)
    if fio_json is not None:
        imported = run_cli("import", str(fio_json), env={**env, **locale})
        assert imported.returncode == 0 and "Traceback" not in imported.stderr, imported.stderr
        header = imported.stdout.splitlines()[0]
        assert "LAT MEAN \\xb5s" in header or "LAT MEAN \u00b5s" in header, header


def test_out_is_an_existing_file(places):
    target, _runs, home, env = places
    a_file = home / "runs.txt"
    a_file.write_text("mine")
    for out in (a_file, a_file / "sub" / "runs"):
        done = run_cli("run", "zero-queue", "--target", str(target), "--out", str(out), env=env)
        line = one_error_line(done)
        assert f"{a_file} is a file" in line and "--out DIR" in line
    assert a_file.read_text() == "mine" and tree(target) == ["keep.txt"]


def test_out_path_too_long(places):
    target, _runs, _home, env = places
    done = run_cli("run", "zero-queue", "--target", str(target), "--out", "/tmp/" + "x" * 400,
                   env=env)
    assert "--out DIR" in one_error_line(done) and tree(target) == ["keep.txt"]


@pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="needs Linux sysfs")
def test_out_where_nothing_can_be_created(places):
    """sysfs refuses new folders even to root, whatever its permission bits say."""
    target, _runs, _home, env = places
    done = run_cli("run", "zero-queue", "--target", str(target), "--out", "/sys/ssd-profiler-runs",
                   env=env)
    assert "/sys is not writable" in one_error_line(done) and tree(target) == ["keep.txt"]


def as_unprivileged() -> list[str] | None:
    """How to run the CLI without the right to write a read-only folder: as we are when not
    root; as nobody (setpriv) when root, because permission bits do not stop root."""
    if os.name != "posix":
        return None
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] if setpriv else None


@pytest.fixture
def read_only_home():
    """A world-readable folder (pytest's tmp_path is private to root) with a read-only home and
    a target folder anyone may write; removed afterwards."""
    prefix = as_unprivileged()
    if prefix is None:
        pytest.skip("needs a POSIX system and, as root, setpriv to drop privileges")
    readable = [*prefix, sys.executable, "-c", "import ui.main"]
    if prefix and subprocess.run(readable, cwd=REPO, capture_output=True).returncode != 0:
        pytest.skip(f"nobody cannot read this checkout ({REPO} is under a private folder, e.g. "
                    "mktemp -d): clone it where others may read to run this test")
    base = Path(tempfile.mkdtemp(prefix="ssd-profiler-ro-"))
    try:
        base.chmod(0o755)
        home, target = base / "home", base / "target"
        home.mkdir()
        target.mkdir()
        target.chmod(0o777)
        home.chmod(0o555)
        yield prefix, home, target
    finally:
        home.chmod(0o755)
        shutil.rmtree(base)


def run_as(prefix: list[str], *args: str, env: dict) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    return subprocess.run([*prefix, sys.executable, "-m", "ui.main", *args], cwd=REPO,
                          env={**clean, **env}, capture_output=True, text=True, timeout=120)


def test_read_only_home_and_no_out(read_only_home):
    prefix, home, target = read_only_home
    done = run_as(prefix, "run", "zero-queue", "--target", str(target), env={"HOME": str(home)})
    line = one_error_line(done)
    assert f"default runs folder {home}/" in line and f"{home} is not writable" in line
    assert "--out DIR" in line and "XDG_DATA_HOME" in line
    assert tree(home) == [] and tree(target) == []


def test_out_is_a_read_only_folder(read_only_home):
    prefix, home, target = read_only_home
    done = run_as(prefix, "run", "zero-queue", "--target", str(target), "--out", str(home),
                  env={"HOME": str(home)})
    line = one_error_line(done)
    assert f"{home} is not writable" in line and "--out DIR" in line
    assert tree(home) == [] and tree(target) == []


BOOM = ("import sys, ui.cli.run_cmd, ui.main\n"
        "def boom(argv):\n    raise RuntimeError('boom\\nsecond line')\n"
        "ui.cli.run_cmd.main = boom\nsys.exit(ui.main.main(['experiments']))\n")


def crash(env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BOOM], cwd=REPO, capture_output=True,
                          text=True, timeout=60, env={**os.environ, **env})


def test_internal_error_is_one_line_and_a_log_file(tmp_path):
    done = crash({"XDG_STATE_HOME": str(tmp_path / "state"), "HOME": str(tmp_path)})
    lines = done.stderr.splitlines()
    assert done.returncode == 1 and len(lines) == 1, done.stderr
    prefix = "ssd-profiler: internal error: RuntimeError: boom\\nsecond line; details in "
    assert lines[0].startswith(prefix)
    log = Path(lines[0][len(prefix):])
    assert log.parent == tmp_path / "state" / "ssd-profiler" / "log"
    assert "Traceback" in log.read_text() and "boom" in log.read_text()


def test_internal_error_log_falls_back_to_the_temp_folder(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    (tmp_path / "tmp").mkdir()
    done = crash({"XDG_STATE_HOME": str(blocked), "HOME": str(blocked),
                  "TMPDIR": str(tmp_path / "tmp")})
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1, done.stderr
    logs = list((tmp_path / "tmp").glob("ssd-profiler-error-*.log"))
    assert len(logs) == 1 and str(logs[0]) in done.stderr


def test_the_log_rotates_and_is_written_only_when_there_is_something_to_log(tmp_path):
    """Many crashes append to one ssd-profiler.log that rotates at 1 MB (three old copies)."""
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "HOME": str(tmp_path)}
    code = ("import logging, sys; from ui import log_file; log_file.MAX_BYTES = 2000\n"
            "print(log_file.install()); import os; print(os.path.exists(log_file.log_path()))\n"
            "for i in range(40):\n"
            "    try:\n        raise ValueError('x' * 200)\n"
            "    except ValueError as exc:\n        log_file.record_exception(exc)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                          timeout=60, env={**os.environ, **env})
    path, existed = done.stdout.split()
    assert existed == "False" and done.stderr == ""   # installing writes nothing
    folder = tmp_path / "state" / "ssd-profiler" / "log"
    assert Path(path) == folder / "ssd-profiler.log"
    assert sorted(p.name for p in folder.iterdir()) == [
        "ssd-profiler.log", "ssd-profiler.log.1", "ssd-profiler.log.2", "ssd-profiler.log.3"]
    assert all(p.stat().st_size < 2000 + 1500 for p in folder.iterdir())
