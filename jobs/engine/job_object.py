"""Windows: engines die with the app, ``kill`` and crashes included (a job object).

Every engine process is put into one job object created with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE.
The app holds the only handle to it; when the app ends in any way, Windows closes the handle and
ends every process in the job, so fio or DiskSpd never go on writing without the app. This is the
Windows counterpart of PR_SET_PDEATHSIG in jobs/engine/process.py. Any failure is logged and the engine
runs as before (the app's own stop still works); never an error for the user.
"""
from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ctypes

log = logging.getLogger(__name__)

_JOB: int | None = None
_KILL_ON_JOB_CLOSE = 0x2000
_EXTENDED_LIMIT_INFORMATION = 9


def adopt(process_handle: int) -> None:
    """Put a just-started process (its Win32 handle, ``Popen._handle``) into the app's job."""
    if not sys.platform.startswith("win"):
        return
    try:
        import ctypes
        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        job = _job(kernel32)
        if not kernel32.AssignProcessToJobObject(job, ctypes.c_void_p(int(process_handle))):
            raise ctypes.WinError(ctypes.get_last_error())
    except Exception as exc:  # noqa: BLE001 - best effort, see the module docstring
        log.warning("the engine could not be tied to the app's lifetime: %s", exc)


def _job(kernel32: ctypes.CDLL) -> int:
    """The app's one job object (its handle), created on first use."""
    global _JOB
    if _JOB is not None:
        return _JOB
    if not sys.platform.startswith("win"):  # ctypes has no WinError there
        raise OSError("job objects exist on Windows only")
    import ctypes
    from ctypes import wintypes as wt

    class BasicLimits(ctypes.Structure):
        _fields_ = [("PerProcessUserTimeLimit", ctypes.c_int64), ("PerJobUserTimeLimit", ctypes.c_int64),
                    ("LimitFlags", wt.DWORD), ("MinimumWorkingSetSize", ctypes.c_size_t),
                    ("MaximumWorkingSetSize", ctypes.c_size_t), ("ActiveProcessLimit", wt.DWORD),
                    ("Affinity", ctypes.c_size_t), ("PriorityClass", wt.DWORD),
                    ("SchedulingClass", wt.DWORD)]

    class IoCounters(ctypes.Structure):
        _fields_ = [(name, ctypes.c_uint64) for name in (
            "ReadOperationCount", "WriteOperationCount", "OtherOperationCount",
            "ReadTransferCount", "WriteTransferCount", "OtherTransferCount")]

    class ExtendedLimits(ctypes.Structure):
        _fields_ = [("BasicLimitInformation", BasicLimits), ("IoInfo", IoCounters),
                    ("ProcessMemoryLimit", ctypes.c_size_t), ("JobMemoryLimit", ctypes.c_size_t),
                    ("PeakProcessMemoryUsed", ctypes.c_size_t), ("PeakJobMemoryUsed", ctypes.c_size_t)]

    kernel32.CreateJobObjectW.restype = wt.HANDLE
    kernel32.CreateJobObjectW.argtypes = (ctypes.c_void_p, wt.LPCWSTR)
    kernel32.SetInformationJobObject.argtypes = (wt.HANDLE, ctypes.c_int, ctypes.c_void_p, wt.DWORD)
    kernel32.AssignProcessToJobObject.argtypes = (wt.HANDLE, wt.HANDLE)
    job: int | None = kernel32.CreateJobObjectW(None, None)  # restype HANDLE: int, or None on failure
    if not job:
        raise ctypes.WinError(ctypes.get_last_error())
    limits = ExtendedLimits()
    limits.BasicLimitInformation.LimitFlags = _KILL_ON_JOB_CLOSE
    if not kernel32.SetInformationJobObject(job, _EXTENDED_LIMIT_INFORMATION,
                                            ctypes.byref(limits), ctypes.sizeof(limits)):
        raise ctypes.WinError(ctypes.get_last_error())
    _JOB = job  # held for the app's lifetime on purpose: closing it ends the engines
    return job
