"""A runs folder a group can write: another member cannot make a run write the user's files.

The attack (reproduced before the fix): in a lab's runs folder (``--out``, mode 2775, umask
002), another member of the group plants ``trials-since-save.jsonl`` and ``commands.log`` in
the user's new run folder as links to a file of the user's; the run appended its records to
that file and then emptied it. Now the run folder is made 0755 (nobody else can put a name in
it), and every file the run writes is created exclusively or appended without following a link
and checked as the user's own (app/store/own_files.py).

The real race runs as root only: it makes a group and two users, a runner and an attacker.
The attacker, a separate process, watches the runs folder and plants both links in every folder
that appears there, and also makes the folders of the next seconds' run names itself, links
inside, ahead of the app; the runner makes a real tiny fio run. The victim's bytes must be
unchanged, and the run's own files regular files of the runner.
"""
from __future__ import annotations

import grp
import hashlib
import json
import os
import pwd
import secrets
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from app.model.trial import TrialResult
from app.store import journal
from app.store.own_files import NotOwnFile
from app.store.run_folder import RunStore

from conftest import REPO, needs_fio

NAMES = (journal.JOURNAL, "commands.log")
VICTIM_TEXT = b"my thesis notes, 27 bytes.\n"

ATTACKER = r"""
import os, sys, time
runs, victim, report, stop = sys.argv[1:5]
tried, landed = set(), []
while not os.path.exists(stop):
    now = datetime.now(UTC)
    for ahead in range(0, 4):  # the folders of the next seconds' runs, made before the app
        name = (now + timedelta(seconds=ahead)).strftime("%Y%m%dT%H%M%SZ") + "_zero-queue"
        try:
            os.mkdir(os.path.join(runs, name))
        except OSError:
            pass
    for name in os.listdir(runs):
        for planted in ("trials-since-save.jsonl", "commands.log"):
            path = os.path.join(runs, name, planted)
            if path in tried:
                continue
            try:
                os.symlink(victim, path)
                landed.append(path)
                tried.add(path)
            except FileExistsError:
                tried.add(path)
            except OSError:
                pass
    time.sleep(0.002)
open(report, "w").write("\n".join(landed))
"""


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_planted_link_is_never_followed(tmp_path):
    """The same user's folder made writable to others (an older version's run folder): a link
    planted under the journal's or commands.log's name is refused, the file it names untouched."""
    victim = tmp_path / "victim.txt"
    victim.write_bytes(VICTIM_TEXT)
    store = RunStore.create(tmp_path / "runs", ["zero-queue"], {})
    for name in NAMES:
        (store.dir / name).unlink(missing_ok=True)
        (store.dir / name).symlink_to(victim)
    record = {"index": 0, "experiment": "zero-queue", "workload": {}, "label": "x",
              "repetition": 1, "warmup": False, "status": "failed", "error": "e"}
    with pytest.raises(NotOwnFile, match="trials-since-save.jsonl is not the run's own file"):
        store.add_trial(TrialResult.from_json(record))
    with pytest.raises(NotOwnFile, match="commands.log is not the run's own file"):
        store.log_command(["fio", "--name=x"])
    with pytest.raises(NotOwnFile):
        journal.clear(store.dir)   # emptied: never through the link
    journal.clear(store.dir, remove=True)   # the link removed, not what it names
    assert victim.read_bytes() == VICTIM_TEXT


def test_a_hard_link_or_a_fifo_under_the_name_is_refused(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_bytes(VICTIM_TEXT)
    store = RunStore.create(tmp_path / "runs", ["zero-queue"], {})
    os.link(victim, store.dir / "commands.log")
    os.mkfifo(store.dir / journal.JOURNAL)
    with pytest.raises(NotOwnFile, match="2 names"):
        store.log_command(["fio"])
    with pytest.raises(NotOwnFile):
        journal.append(store.dir, "{}")
    assert victim.read_bytes() == VICTIM_TEXT


def test_a_run_folder_is_not_writable_by_the_group_whatever_the_umask(tmp_path):
    old = os.umask(0o002)
    try:
        store = RunStore.create(tmp_path / "runs", ["zero-queue"], {})
    finally:
        os.umask(old)
    for folder in (store.dir, store.dir / "raw"):
        assert stat.S_IMODE(folder.stat().st_mode) & 0o022 == 0, oct(folder.stat().st_mode)


@pytest.fixture
def two_users():
    """A group and two members (a runner and an attacker), removed afterwards."""
    if os.geteuid() != 0:
        pytest.skip("the two-user race needs root (it makes a group and two users)")
    if shutil.which("useradd") is None:
        pytest.skip("useradd is not available")
    tag = secrets.token_hex(3)
    group, runner, attacker = f"i40lab{tag}", f"i40run{tag}", f"i40att{tag}"
    subprocess.run(["groupadd", group], check=True)
    try:
        for user in (runner, attacker):
            subprocess.run(["useradd", "-M", "-N", "-g", group, "-s", "/bin/false", user], check=True)
        yield grp.getgrnam(group).gr_gid, pwd.getpwnam(runner), pwd.getpwnam(attacker)
    finally:
        for user in (runner, attacker):
            subprocess.run(["userdel", user], capture_output=True)
        subprocess.run(["groupdel", group], capture_output=True)


def _as(user: pwd.struct_passwd, gid: int) -> dict:
    return {"user": user.pw_uid, "group": gid, "extra_groups": [gid], "umask": 0o002}


@needs_fio
def test_another_member_of_the_group_cannot_make_a_run_write_the_users_file(two_users):
    gid, runner, attacker = two_users
    base = Path(tempfile.mkdtemp(prefix="i40-race-"))
    try:
        race(base, gid, runner, attacker, REPO)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _python_for(user: pwd.struct_passwd, gid: int, env: dict) -> str:
    """An interpreter of this version the runner may execute (the test's own may sit in root's
    home, 0700), with this one's packages on PYTHONPATH; a skip when there is none."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for python in (sys.executable, shutil.which(version, path="/usr/local/bin:/usr/bin")):
        try:
            if python and subprocess.run([python, "-c", "import orjson, PySide6, numpy"], env=env,
                                         capture_output=True, **_as(user, gid)).returncode == 0:
                return python
        except OSError:   # not executable by that user
            continue
    pytest.skip(f"no {version} the second user may run with this test's packages")


def race(base: Path, gid: int, runner, attacker, repo: Path) -> None:
    """The race in ``base`` against the app in ``repo`` (a checkout with its .venv)."""
    os.chmod(base, 0o755)
    runs, home, target = base / "runs", base / "home", base / "target"
    runs.mkdir()
    os.chown(runs, 0, gid)
    os.chmod(runs, 0o2775)   # the lab's folder: the group writes, new folders keep the group
    for folder in (home, target):
        folder.mkdir()
        os.chown(folder, runner.pw_uid, gid)
    victim = home / "thesis-notes.txt"
    victim.write_bytes(VICTIM_TEXT)
    os.chown(victim, runner.pw_uid, gid)
    os.chmod(victim, 0o644)
    before = _digest(victim)
    stop, report = base / "stop", base / "landed.txt"
    report.touch()
    os.chown(report, attacker.pw_uid, gid)
    script = base / "attacker.py"
    script.write_text(ATTACKER)
    os.chmod(script, 0o644)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
           "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_CACHE_HOME": str(home / "cache"), "PYTHONDONTWRITEBYTECODE": "1",
           "QT_QPA_PLATFORM": "offscreen",
           "PYTHONPATH": os.pathsep.join([str(repo), *(p for p in sys.path if "site-packages" in p)])}
    python = _python_for(runner, gid, env)
    planter = subprocess.Popen([python, str(script), str(runs), str(victim), str(report),
                                str(stop)], env=env, **_as(attacker, gid))
    time.sleep(0.5)
    try:
        done = subprocess.run(
            [python, "-m", "ui.main", "run", "zero-queue",
             "--target", str(target), "--out", str(runs), "--set", "runtime=1s",
             "--set", "repetitions=1", "--set", "warmup=false", "--set", "size=16MiB"],
            cwd=repo, env=env, capture_output=True, text=True, timeout=300, **_as(runner, gid))
    finally:
        stop.touch()
        planter.wait(timeout=30)
    assert _digest(victim) == before, "the victim's file was written"
    assert done.returncode == 0, done.stderr
    run_dir = Path(done.stdout.strip().splitlines()[-1])
    assert json.loads((run_dir / "run.json").read_text())["status"] == "done"
    info = os.stat(run_dir)
    assert info.st_uid == runner.pw_uid and stat.S_IMODE(info.st_mode) & 0o022 == 0
    log = os.lstat(run_dir / "commands.log")
    assert stat.S_ISREG(log.st_mode) and log.st_uid == runner.pw_uid
    assert not os.path.lexists(run_dir / journal.JOURNAL)   # removed when the run ended
    landed = [Path(p) for p in report.read_text().split("\n") if p]
    assert all(p.parent != run_dir for p in landed), landed   # planted only in its own folders
    assert all(p.parent.stat().st_uid == attacker.pw_uid for p in landed)
