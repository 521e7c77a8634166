"""The files one run writes in its target: created by the app, locked, checked, removed only if
still its own.

Why each rule:
- The data folder is opened once (no-follow) and every later name is looked up relative to that
  open folder, so a folder renamed or replaced by a link after the checks cannot redirect a
  create or a delete.
- Test files get an unpredictable name (run id + random token) and are created here with
  O_CREAT|O_EXCL|O_NOFOLLOW before any engine sees them; their (device, inode) is remembered.
  Before each trial and before each delete the name must still be that very file, or the run
  stops and deletes nothing.
- The engine never opens a test file by a path another program could swap: on Linux the app
  keeps the descriptor it created the file with and the engine inherits it, named
  ``/proc/self/fd/N`` (:meth:`OwnedFolder.engine_file`), so its writes, the prepare fill
  included, land in the app's own inode whatever the folder's path leads to by then. macOS's
  ``/dev/fd`` and Windows have no such name that an engine reopens with its own flags (direct
  I/O): there the engine opens the path, checked (:meth:`OwnedFolder.verify`) right before
  every engine start.
- An advisory lock (flock / msvcrt) on a lock file in the data folder is held for the whole run:
  a second run on the same folder is refused (or waits), and leftovers of crashed runs are removed
  only by a run that holds the lock, so never a file a live run is using.
"""
from __future__ import annotations

import logging
import os
import re
import secrets
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path

from app.paths.data_dir import _DIR_FD, _NOFOLLOW, DataDir, FileSwapped, _ident
from app.paths.lock import read_owner, try_lock
from app.paths.target import MEMORY_KINDS, CheckedTarget, TargetRefused, check_target, shown

log = logging.getLogger(__name__)

LOCK_NAME = "ssd-profiler.lock"
TEST_FILE_PREFIX = "ssd-profiler-test-"
TEST_FILE_SUFFIX = ".dat"
#: fio 3.33 stats and opens ``/proc/self/fd/N`` like any file (strace: newfstatat, then
#: openat(O_RDWR|O_CREAT|O_DIRECT) in its job thread): the kernel reopens the inherited inode.
FD_PATHS = sys.platform.startswith("linux") and _DIR_FD and os.path.isdir("/proc/self/fd")


class FolderInUse(TargetRefused):
    """Another run holds the data folder's lock."""


def new_run_id() -> str:
    return secrets.token_hex(4)


def is_test_file_name(name: str) -> bool:
    return name.startswith(TEST_FILE_PREFIX) and name.endswith(TEST_FILE_SUFFIX)


class OwnedFolder(DataDir):
    """``<target>/ssd-profiler-data`` for one run: :meth:`acquire`, create and check test files,
    :meth:`release` (idempotent) removes what is still the app's own and unlocks."""

    def __init__(self, target: CheckedTarget, run_id: str):
        super().__init__(target)
        self.run_id = run_id
        self._lock_fd: int | None = None
        self._files: dict[str, tuple[int, int]] = {}
        self._fds: dict[str, int] = {}       # the descriptors the test files were created with

    # -- lifetime ------------------------------------------------------------------------------
    def acquire(self, wait_s: float = 0.0, cancelled: Callable[[], bool] = lambda: False) -> None:
        """Check the target again right before the first write, open the data folder, lock it.
        Raises TargetRefused, or FolderInUse when another run holds it past ``wait_s``."""
        allowed = ("ram",) if self.target.medium and self.target.medium.kind in MEMORY_KINDS else ()
        again = check_target(self.target.requested or self.target.folder, 0, allowed)
        if again.folder != self.target.folder:
            raise TargetRefused(f"the target changed since it was checked: it now resolves to "
                                f"{shown(again.folder)}; start the run again")
        wait_s = min(wait_s, 86400.0) if wait_s == wait_s else 0.0  # nan/inf never wait forever
        deadline = time.monotonic() + max(wait_s, 1.0)  # rides over a probe of folder_in_use
        for _ in range(5):  # a run that ends may remove the empty data folder under us: retry
            try:
                self._open_data_dir()
                if self._lock(deadline, cancelled):
                    return
            except FileNotFoundError:
                pass
            self._close_dir()
        raise TargetRefused(f"{shown(self.target.data_dir)} keeps changing; another program is using it")

    def release(self) -> list[str]:
        """Remove the test files that are still ours, unlock, remove the empty folders we made.
        Returns one line per file that was kept because it was no longer ours, or that could not
        be removed (and why): every step is tried, whatever failed before it."""
        kept = []
        for name in list(self._files):
            path = self.target.data_dir / name
            try:
                if not self.remove(path):
                    kept.append(f"{shown(path)} was replaced during the run and was left as it is")
            except OSError as exc:
                kept.append(f"the test file {shown(path)} could not be removed ({_why(exc)}); "
                            "delete it by hand")
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()
        if self._lock_fd is not None:
            try:
                if self._identity(LOCK_NAME) == _ident(os.fstat(self._lock_fd)):
                    self._unlink(LOCK_NAME)  # before unlocking: a waiter re-checks the name
            except OSError as exc:
                kept.append(f"the lock file {shown(self.target.data_dir / LOCK_NAME)} could not be "
                            f"removed ({_why(exc)}); it is harmless and may be deleted")
            os.close(self._lock_fd)
            self._lock_fd = None
        self._remove_empty_folders()
        return kept

    # -- test files ----------------------------------------------------------------------------
    def new_test_file(self, tag: str, size_bytes: int) -> Path:
        """Create the test file with an unpredictable name, exclusively, no-follow, at its full
        size (sparse: nothing is written). Full size matters: fio unlinks and re-creates a file
        shorter than ``--size`` before a write job (its layout step), which would make a new
        file where the app checks for its own."""
        safe = re.sub(r"[^a-z0-9-]", "-", tag.lower())[:40]
        name = f"{TEST_FILE_PREFIX}{self.run_id}-{safe}-{secrets.token_hex(8)}{TEST_FILE_SUFFIX}"
        fd = self._open(name, os.O_RDWR | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
        self._files[name] = _ident(os.fstat(fd))
        if FD_PATHS:
            self._fds[name] = fd  # kept: the engine writes through it (engine_file)
        try:
            os.ftruncate(fd, size_bytes)
        finally:
            if not FD_PATHS:
                os.close(fd)  # Windows cannot delete a file the app still holds open
        return self.target.data_dir / name

    def engine_file(self, path: Path) -> tuple[Path, tuple[int, ...]]:
        """How an engine names the test file ``path``, and the descriptors it must inherit
        (``pass_fds``): ``/proc/self/fd/N`` for the app's own descriptor of the file it created,
        where the OS allows it (module docstring); else ``path`` itself and none."""
        fd = self._fds.get(path.name)
        if not FD_PATHS or fd is None or path.parent != self.target.data_dir:
            return path, ()
        return Path(f"/proc/self/fd/{fd}"), (fd,)

    def reopen(self, path: Path, flags: int) -> int:
        """A new descriptor of the test file ``path`` with ``flags`` (O_DIRECT for the probe),
        opened through the app's own descriptor where it can (the same inode, whatever the
        path leads to now), else by name in the held data folder; checked to be that file."""
        engine_path, _ = self.engine_file(path)
        if engine_path != path:
            fd = os.open(engine_path, flags | getattr(os, "O_CLOEXEC", 0))
        else:
            fd = self._open(path.name, flags | _NOFOLLOW, 0o600)
        if _ident(os.fstat(fd)) != self._files.get(path.name):
            os.close(fd)
            raise FileSwapped(f"the test file {shown(path)} was replaced during the run")
        return fd

    def verify(self, path: Path) -> None:
        """Raise FileSwapped unless ``path`` is still the file we created, in our folder."""
        expected = self._files.get(path.name)
        if expected is None or path.parent != self.target.data_dir:
            raise FileSwapped(f"{shown(path)} is not a file this run created")
        self._verify_dir()
        try:
            st = self._lstat(path.name)
        except FileNotFoundError:
            raise FileSwapped(f"the test file {shown(path)} was removed by another program during "
                              "the run; the run was stopped") from None
        if not stat.S_ISREG(st.st_mode) or _ident(st) != expected:
            raise FileSwapped(f"the test file {shown(path)} was replaced by another file or a link "
                              "during the run; the run was stopped and nothing was deleted")

    def remove(self, path: Path) -> bool:
        """Delete a test file only if it is still ours; False (and nothing deleted) otherwise.
        Judged by its name in the held data folder, where the unlink happens too: a folder
        path swapped meanwhile neither saves a planted file nor strands the app's own."""
        try:
            if not _DIR_FD:
                self.verify(path)  # by path: the folder's name must still lead to ours
            elif path.name not in self._files or path.parent != self.target.data_dir:
                raise FileSwapped(f"{shown(path)} is not a file this run created")
            st = self._lstat(path.name)
            if not stat.S_ISREG(st.st_mode) or _ident(st) != self._files[path.name]:
                raise FileSwapped(f"the test file {shown(path)} was replaced by another file or "
                                  "a link during the run; it was left as it is")
        except FileNotFoundError:
            st = None
        except FileSwapped as exc:
            if _DIR_FD or os.path.lexists(path):
                log.warning("%s", exc)
                return False
            st = None
        fd = self._fds.pop(path.name, None)
        if fd is not None:
            os.close(fd)
        if st is not None:  # else already gone: nothing to delete
            self._unlink(path.name)
        self._files.pop(path.name, None)
        return True

    def leftovers(self) -> list[tuple[Path, int]]:
        """Test files of earlier runs (regular files named like ours, not links), with sizes.
        Only meaningful while the lock is held: then no live run is using them."""
        out = []
        for name in sorted(os.listdir(self._dir_fd if _DIR_FD else self.target.data_dir)):
            if is_test_file_name(name) and name not in self._files:
                st = self._lstat(name)
                if stat.S_ISREG(st.st_mode):
                    out.append((self.target.data_dir / name, st.st_size))
        return out

    def remove_leftovers(self) -> list[tuple[Path, int]]:
        removed = []
        for path, size in self.leftovers():
            st = self._lstat(path.name)
            if stat.S_ISREG(st.st_mode):  # never through a link
                self._unlink(path.name)
                removed.append((path, size))
        return removed

    # -- the lock ------------------------------------------------------------------------------
    def _lock(self, deadline: float, cancelled: Callable[[], bool]) -> bool:
        while True:
            fd = self._open(LOCK_NAME, os.O_RDWR | os.O_CREAT | _NOFOLLOW, 0o600)
            if try_lock(fd):
                if self._identity(LOCK_NAME) != _ident(os.fstat(fd)):
                    os.close(fd)  # the holder removed it as we locked: lock the new one
                    return False
                os.ftruncate(fd, 0)
                os.write(fd, f"{self.run_id} pid {os.getpid()}\n".encode())
                self._lock_fd = fd
                return True
            owner = read_owner(fd)
            os.close(fd)
            if time.monotonic() >= deadline or cancelled():
                raise FolderInUse(f"{shown(self.target.data_dir)} is in use by run {owner}; wait for it "
                                  "to end (or ask to wait) or choose another folder")
            time.sleep(0.25)

def _why(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


