"""Engine errors in plain words for the log pane and dialogs (display text lives here). No Qt.

fio's stderr is precise but cryptic ("fio: pid=123, err=22/file:filesetup.c:..., error=Invalid
argument"). A student needs to know what happened and what to do; the raw text is kept after it
(and byte for byte in the run folder's raw/), so nothing is hidden.
"""
from __future__ import annotations

import re

from app.units import duration_text as duration_text  # one home: the window imports it from here
from ui.window.run.run_state import RunState

_EXCEPTION_NAME = re.compile(r"^[A-Z][A-Za-z0-9_.]*(Error|Exception|Refused|NotFound): ")

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


def temperature_text(reason: str) -> str:
    """The first, most telling part of why a drive's temperature is unavailable."""
    first = reason.split(";")[0].strip()
    if not first:
        return "temperature unavailable: no sensor reading for this run"
    return first if first.lower().startswith("temperature") else f"temperature unavailable: {first}"


def temperature_line(status: RunState, note: str, finished: bool) -> str:
    """The one line under the live charts when there is no temperature to chart."""
    if status is RunState.IDLE:
        return "Temperature: charted here during a run when the drive reports it."
    if note:
        why = temperature_text(note).removeprefix("temperature unavailable: ")
        return f"Temperature not charted: {why}"
    if finished:
        return "Temperature not charted: the drive gave no reading during this run."
    return "Temperature: waiting for the drive's first reading..."


def plain_refusal(message: str) -> str:
    """Why a run did not start, without a leading exception name ("ValueError: ..."): the name
    is in the log file with its traceback; the window shows the sentence."""
    return _EXCEPTION_NAME.sub("", message.strip(), count=1)
