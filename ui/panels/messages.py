"""Engine errors in plain words for the log pane and dialogs (display text lives here). No Qt.

fio's stderr is precise but cryptic ("fio: pid=123, err=22/file:filesetup.c:..., error=Invalid
argument"). A student needs to know what happened and what to do; the raw text is kept after it
(and byte for byte in the run folder's raw/), so nothing is hidden.
"""
from __future__ import annotations

_EXPLANATIONS = (
    ("No space left on device", "the drive ran out of free space; free some space or choose a "
                                "smaller test file size"),
    ("Read-only file system", "the target's file system is read-only; choose a writable folder"),
    ("Permission denied", "fio may not write in the target folder (permission denied); choose a "
                          "folder you own"),
    ("Invalid argument", "the file system refused the request, usually direct I/O (O_DIRECT): "
                         "tmpfs and some network or FUSE file systems do not support it; choose "
                         "a folder on the SSD itself, or set direct to false"),
    ("not loadable", "this fio build lacks the asynchronous I/O engine it needs (libaio); "
                     "install the distribution's fio package"),
    ("time limit", "fio did not finish in time and was stopped"),
    ("No such file or directory", "a file or folder fio needs is missing (was the target "
                                  "removed or unmounted?)"),
)


def plain_error(error: str | None, stderr_tail: str = "") -> str:
    """One or two sentences a student can act on, followed by what fio said."""
    error = (error or "").strip()
    if error == "cancelled by user":
        return "cancelled: fio was stopped and the trial is not counted"
    both = f"{error}\n{stderr_tail}"
    explanation = next((text for key, text in _EXPLANATIONS if key.lower() in both.lower()), None)
    said = next((line.strip() for line in stderr_tail.splitlines() if line.strip()), "")
    parts = [explanation or f"fio reported an error: {error or 'no message'}"]
    if said and said not in parts[0]:
        parts.append(f"fio said: {said}")
    elif explanation and error:
        parts.append(f"details: {error}")
    return "; ".join(parts)


def duration_text(seconds: float | None) -> str:
    """'0:42', '12:05', '3:04:10' for progress and ETA."""
    if seconds is None:
        return "-"
    s = max(0, int(round(seconds)))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
