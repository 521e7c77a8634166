"""The engine's private folder of a run killed with ``kill -9`` is removed by the next run, and
a living run's folder never is (jobs/run/workdir.py)."""
from __future__ import annotations

import os
import pwd
import time
from pathlib import Path

from jobs.run.workdir import LOCK, PREFIX, make_workdir, remove_dead_workdirs

from conftest import needs_root, run_cli
from safety_support import ONE_TRIAL, engines_on, needs_fio, start_cli, wait_for


def _age(folder: Path) -> None:
    old = time.time() - 3600
    os.utime(folder, (old, old))


def test_only_folders_whose_run_is_gone_are_removed(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)   # read TMPDIR again
    living, fd = make_workdir()
    unlocked = tmp_path / f"{PREFIX}old"   # an earlier version's: no lock file, left alone
    unlocked.mkdir()
    young, young_fd = make_workdir()
    os.close(young_fd)   # gone, but only seconds old: its run may be about to lock it
    for folder in (living, unlocked):
        _age(folder)
    assert remove_dead_workdirs(tmp_path) == [] and living.is_dir() and (living / LOCK).exists()
    os.close(fd)   # its run ended without removing it: as after kill -9
    assert remove_dead_workdirs(tmp_path) == [living] and not living.exists()
    assert unlocked.is_dir() and young.is_dir()


@needs_fio
def test_the_next_run_removes_the_private_folder_of_a_killed_one(tmp_path):
    target, tmp = tmp_path / "t", tmp_path / "tmp"
    tmp.mkdir()
    proc = start_cli("run", *ONE_TRIAL, "--target", str(target), "--out", str(tmp_path / "runs"),
                     env={"TMPDIR": str(tmp)})
    assert wait_for(lambda: engines_on(target), 60)
    proc.kill()
    proc.wait(timeout=10)
    (left,) = tmp.iterdir()
    assert left.name.startswith(PREFIX)
    _age(left)
    done = run_cli("run", *ONE_TRIAL, "--target", str(target), "--out", str(tmp_path / "runs"),
                   "--remove-leftovers", env={"TMPDIR": str(tmp)}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert list(tmp.iterdir()) == []


@needs_root
def test_another_users_look_alike_folder_is_left_alone(tmp_path):
    """In a shared temp folder a look-alike made by another user, writable, its lock free and a
    link to a victim inside, is not ours to remove: the folder, the link and the victim stay."""
    victim = tmp_path / "thesis.txt"
    victim.write_text("chapter 3")
    theirs = tmp_path / f"{PREFIX}theirs"
    theirs.mkdir()
    (theirs / LOCK).write_text("")
    (theirs / "link").symlink_to(victim)
    nobody = pwd.getpwnam("nobody")
    for path in (theirs, theirs / LOCK):
        os.chown(path, nobody.pw_uid, nobody.pw_gid)
    theirs.chmod(0o777)
    _age(theirs)
    assert remove_dead_workdirs(tmp_path) == []
    assert (theirs / "link").is_symlink() and victim.read_text() == "chapter 3"
