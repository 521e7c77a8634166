"""The app's log: one rotating file in the per-user log folder (platformdirs via app.paths.userdirs),
for the terminal and the window alike. The windowed executable has no stderr, so this file is
where a crash leaves its traceback; the user is shown one line and this file's path.

``ssd-profiler.log`` rotates at 1 MB with three old copies, so it never grows without bound.
When the log folder cannot be written (a read-only home), a traceback goes to a new uniquely
named file in the temp folder instead (never a fixed name there: another user could plant it).
"""
from __future__ import annotations

import logging
import tempfile
import traceback
from datetime import UTC, datetime
from io import TextIOWrapper
from logging.handlers import RotatingFileHandler
from pathlib import Path

PROG = "ssd-profiler"
LOG_NAME = f"{PROG}.log"
MAX_BYTES, BACKUPS = 1_000_000, 3
_handler: RotatingFileHandler | None = None


def install(level: int = logging.INFO) -> Path | None:
    """Attach the rotating file to the root logger (once); its path, or None if it cannot be
    opened. Records of ``level`` and above go to the file whatever the terminal shows."""
    global _handler
    if _handler is not None:
        return Path(_handler.baseFilename)
    try:
        from app.paths.userdirs import user_log_dir
        handler = _LazyFile(user_log_dir() / LOG_NAME, maxBytes=MAX_BYTES, backupCount=BACKUPS,
                            encoding="utf-8", errors="backslashreplace", delay=True)
    except Exception:  # noqa: BLE001 - no home: no log file
        return None
    handler.setLevel(level)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    if root.level > level or root.level == logging.NOTSET:
        root.setLevel(level)
    _handler = handler
    return Path(handler.baseFilename)


class _LazyFile(RotatingFileHandler):
    """Opens (and makes its folder) at the first record, so a command that logs nothing, such as
    one refused for bad input, writes nothing at all."""

    def _open(self) -> TextIOWrapper:
        Path(self.baseFilename).parent.mkdir(parents=True, exist_ok=True)
        return super()._open()

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 - logging's name
        """A log folder that cannot be written must not print logging's own traceback."""


def log_path() -> Path | None:
    return Path(_handler.baseFilename) if _handler else None


def record_exception(exc: BaseException, what: str = "unexpected error") -> Path | None:
    """Write ``exc`` with its traceback to the log; the file that holds it, or None."""
    install()
    handler = _handler
    if handler is not None:  # straight to the file: the terminal shows its own one line
        try:
            handler.acquire()
            try:
                if handler.stream is None:
                    handler.stream = handler._open()
            finally:
                handler.release()
            handler.handle(logging.LogRecord(PROG, logging.ERROR, __file__, 0, what, None,
                                             (type(exc), exc, exc.__traceback__)))
            handler.flush()
            return log_path()
        except OSError:
            pass  # the log folder cannot be written: a file in the temp folder below
    text = "".join(traceback.format_exception(exc))
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    try:
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", errors="backslashreplace",
                                         prefix=f"{PROG}-error-{stamp}-", suffix=".log",
                                         delete=False) as handle:
            handle.write(f"{what}\n{text}")
        return Path(handle.name)
    except (OSError, ValueError):
        return None
