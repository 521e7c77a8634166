"""The files one run writes in its target: created by the app, locked, checked, removed only if
still its own (DESIGN §5, issue 11).

Why each rule:
- The data folder is opened once (no-follow) and every later name is looked up relative to that
  open folder, so a folder renamed or replaced by a link after the checks cannot redirect a
  create or a delete.
- Test files get an unpredictable name (run id + random token) and are created here with
  O_CREAT|O_EXCL|O_NOFOLLOW before any engine sees them; their (device, inode) is remembered.
  Before each trial and before each delete the name must still be that very file, or the run
  stops and deletes nothing.
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
from pathlib import Path

from app.paths.target import DATA_DIR, MEMORY_KINDS, CheckedTarget, TargetRefused, check_target, shown

log = logging.getLogger(__name__)

LOCK_NAME = "ssd-profiler.lock"
TEST_FILE_PREFIX = "ssd-profiler-test-"
TEST_FILE_SUFFIX = ".dat"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_DIR_FD = {os.open, os.stat, os.unlink, os.mkdir} <= os.supports_dir_fd and os.listdir in os.supports_fd


class FolderInUse(TargetRefused):
    """Another run holds the data folder's lock."""


class FileSwapped(RuntimeError):
    """A file the app created is no longer the file at its name: stop, delete nothing."""


def new_run_id() -> str:
    return secrets.token_hex(4)


def is_test_file_name(name: str) -> bool:
    return name.startswith(TEST_FILE_PREFIX) and name.endswith(TEST_FILE_SUFFIX)


class OwnedFolder:
    """``<target>/ssd-profiler-data`` for one run: :meth:`acquire`, create and check test files,
    :meth:`release` (idempotent) removes what is still the app's own and unlocks."""

    def __init__(self, target: CheckedTarget, run_id: str):
        self.target, self.run_id = target, run_id
        self.created_folder = False
        self._dir_fd: int | None = None
        self._dir_id: tuple[int, int] | None = None
        self._lock_fd: int | None = None
        self._files: dict[str, tuple[int, int]] = {}

    # -- lifetime ------------------------------------------------------------------------------
    def acquire(self, wait_s: float = 0.0, cancelled=lambda: False) -> None:
        """Check the target again right before the first write, open the data folder, lock it.
        Raises TargetRefused, or FolderInUse when another run holds it past ``wait_s``."""
        allowed = ("ram",) if self.target.medium and self.target.medium.kind in MEMORY_KINDS else ()
        again = check_target(self.target.requested or self.target.folder, 0, allowed)
        if again.folder != self.target.folder:
            raise TargetRefused(f"the target changed since it was checked: it now resolves to "
                                f"{shown(again.folder)}; start the run again")
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
        Returns one line per file that was kept because it was no longer ours."""
        kept = []
        for name in list(self._files):
            if not self.remove(self.target.data_dir / name):
                kept.append(f"{shown(self.target.data_dir / name)} was replaced during the run and was "
                            "left as it is")
        if self._lock_fd is not None:
            try:
                if self._identity(LOCK_NAME) == _ident(os.fstat(self._lock_fd)):
                    self._unlink(LOCK_NAME)  # before unlocking: a waiter re-checks the name
            except OSError:
                pass
            os.close(self._lock_fd)
            self._lock_fd = None
        self._close_dir()
        for folder in [self.target.data_dir] + ([self.target.folder] if self.created_folder else []):
            try:
                folder.rmdir()  # only when empty: never remove what we did not write
            except OSError:
                pass
        return kept

    # -- test files ----------------------------------------------------------------------------
    def new_test_file(self, tag: str, size_bytes: int) -> Path:
        """Create the test file with an unpredictable name, exclusively, no-follow, at its full
        size (sparse: nothing is written). Full size matters: fio unlinks and re-creates a file
        shorter than ``--size`` before a write job (its layout step), which would make a new
        file where the app checks for its own."""
        safe = re.sub(r"[^a-z0-9-]", "-", tag.lower())[:40]
        name = f"{TEST_FILE_PREFIX}{self.run_id}-{safe}-{secrets.token_hex(8)}{TEST_FILE_SUFFIX}"
        fd = self._open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
        try:
            self._files[name] = _ident(os.fstat(fd))
            os.ftruncate(fd, size_bytes)
        finally:
            os.close(fd)
        return self.target.data_dir / name

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
        """Delete a test file only if it is still ours; False (and nothing deleted) otherwise."""
        try:
            self.verify(path)
        except FileSwapped as exc:
            if os.path.lexists(path):
                log.warning("%s", exc)
                return False
            self._files.pop(path.name, None)  # already gone: nothing to delete
            return True
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

    # -- the folder and its lock ---------------------------------------------------------------
    def _open_data_dir(self) -> None:
        folder = self.target.folder
        try:
            os.mkdir(folder, 0o755)
            self.created_folder = True
        except FileExistsError:
            pass
        data = self.target.data_dir
        try:
            if _DIR_FD:
                parent = os.open(folder, os.O_RDONLY | _DIRECTORY | _NOFOLLOW)
                try:
                    _mkdir_quiet(DATA_DIR, parent)
                    self._dir_fd = os.open(DATA_DIR, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=parent)
                finally:
                    os.close(parent)
                st = os.fstat(self._dir_fd)
            else:
                _mkdir_quiet(str(data), None)
                st = os.stat(data, follow_symlinks=False)
        except OSError as exc:
            if isinstance(exc, FileNotFoundError):
                raise
            raise TargetRefused(f"{shown(data)} cannot be opened as a plain folder ({exc.strerror}); "
                                "it may be a link: choose another target") from None
        if not stat.S_ISDIR(st.st_mode):
            raise TargetRefused(f"{shown(data)} is not a plain folder; choose another target")
        if hasattr(os, "geteuid") and (st.st_uid != os.geteuid() or st.st_mode & 0o022):
            raise TargetRefused(f"{shown(data)} belongs to another user or others may write it; "
                                "remove it or choose another target")
        self._dir_id = _ident(st)

    def _lock(self, deadline: float, cancelled) -> bool:
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

    def _verify_dir(self) -> None:
        """The data folder's name (as the engine will open it) must lead to our open folder."""
        try:
            st = os.stat(self.target.data_dir)
            link = os.path.islink(self.target.data_dir)
        except OSError:
            st, link = None, False
        if st is None or link or _ident(st) != self._dir_id:
            raise FileSwapped(f"{shown(self.target.data_dir)} was moved or replaced during the run; the "
                              "run was stopped and nothing was deleted")

    def _close_dir(self) -> None:
        if self._dir_fd is not None:
            os.close(self._dir_fd)
            self._dir_fd = None

    # name operations relative to the open data folder (paths where the OS has no dir_fd)
    def _open(self, name: str, flags: int, mode: int) -> int:
        if _DIR_FD:
            return os.open(name, flags | getattr(os, "O_CLOEXEC", 0), mode, dir_fd=self._dir_fd)
        return os.open(self.target.data_dir / name, flags | getattr(os, "O_BINARY", 0), mode)

    def _lstat(self, name: str) -> os.stat_result:
        if _DIR_FD:
            return os.stat(name, dir_fd=self._dir_fd, follow_symlinks=False)
        return os.stat(self.target.data_dir / name, follow_symlinks=False)

    def _identity(self, name: str) -> tuple[int, int] | None:
        try:
            return _ident(self._lstat(name))
        except OSError:
            return None

    def _unlink(self, name: str) -> None:
        if _DIR_FD:
            os.unlink(name, dir_fd=self._dir_fd)
        else:
            os.unlink(self.target.data_dir / name)


def _ident(st: os.stat_result) -> tuple[int, int]:
    return st.st_dev, st.st_ino


def _mkdir_quiet(name: str, dir_fd: int | None) -> None:
    try:
        os.mkdir(name, 0o700, dir_fd=dir_fd) if dir_fd is not None else os.mkdir(name, 0o700)
    except FileExistsError:
        pass


def try_lock(fd: int) -> bool:
    try:
        if sys.platform.startswith("win"):
            import msvcrt
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def read_owner(fd: int) -> str:
    """Who holds the lock, as written into the lock file (lseek + read: Windows has no pread)."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 200).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text or "another run"
