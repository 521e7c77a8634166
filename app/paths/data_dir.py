"""A run's data folder, ``<target>/ssd-profiler-data``, held open while the run lasts.

Why: a path is looked up again at every use, so a target folder renamed, or replaced by a link,
after the checks would redirect a create or a delete. The target folder and the data folder are
opened once without following a link, and every later name (test files, the lock) is looked up
relative to the open data folder; the data folder's own name is checked against the open one
before an engine is started by path (:meth:`DataDir._verify_dir`) and before it is removed.
Where the OS has no ``dir_fd`` (Windows) the same operations go by path.
"""
from __future__ import annotations

import os
import stat

from app.paths.target import DATA_DIR, CheckedTarget, TargetRefused, shown

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIR_FD = {os.open, os.stat, os.unlink, os.mkdir} <= os.supports_dir_fd and os.listdir in os.supports_fd


class FileSwapped(RuntimeError):
    """A file the app created is no longer the file at its name: stop, delete nothing."""


class DataDir:
    """The held folders and the name operations in them; :class:`app.paths.OwnedFolder` adds
    the lock and the test files."""

    def __init__(self, target: CheckedTarget):
        self.target = target
        self.created_folder = False
        self._dir_fd: int | None = None
        self._dir_id: tuple[int, int] | None = None
        self._parent_fd: int | None = None   # the target folder, held while the run lasts

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
                parent = os.open(folder, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC)
                try:
                    _mkdir_quiet(DATA_DIR, parent)
                    self._dir_fd = os.open(DATA_DIR, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC,
                                           dir_fd=parent)
                except BaseException:
                    os.close(parent)
                    raise
                self._parent_fd = parent
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

    def _remove_empty_folders(self) -> None:
        """The data folder, by its name in the held target folder and only while that name is
        still our folder; the target folder when this run made it. Only when empty: never
        remove what we did not write."""
        try:
            if self._parent_fd is not None:
                st = os.stat(DATA_DIR, dir_fd=self._parent_fd, follow_symlinks=False)
                if _ident(st) == self._dir_id:
                    os.rmdir(DATA_DIR, dir_fd=self._parent_fd)
            elif not _DIR_FD and self._dir_id is not None:
                self.target.data_dir.rmdir()
        except OSError:
            pass
        self._close_dir()
        if self.created_folder:
            try:
                self.target.folder.rmdir()
            except OSError:
                pass

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
        """Let go of the data folder and the target folder (a retry of acquire, or the end)."""
        for name in ("_dir_fd", "_parent_fd"):
            fd = getattr(self, name)
            if fd is not None:
                os.close(fd)
                setattr(self, name, None)

    # name operations relative to the open data folder (paths where the OS has no dir_fd)
    def _open(self, name: str, flags: int, mode: int) -> int:
        if _DIR_FD:
            return os.open(name, flags | _CLOEXEC, mode, dir_fd=self._dir_fd)
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
