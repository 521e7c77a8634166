"""What an engine's child process does between fork and exec on Linux and other POSIX systems
(``preexec_fn``): die with the app, and run at the app's own priority, not at the lowered one
of the thread that started it (jobs/engine/quiet.py).
"""
from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable

from jobs.engine import quiet

_PR_SET_PDEATHSIG = 1

#: The signal an engine gets when the app dies: SIGKILL unless the engine asks otherwise.
KILL_ON_APP_DEATH = int(getattr(signal, "SIGKILL", signal.SIGTERM))


def _die_with_parent_hook(sig: int) -> Callable[[], None] | None:
    """A preexec function for Linux: the engine is sent ``sig`` when the app's thread that
    started it dies, ``kill -9`` included; it also puts the child back at the app's own nice.
    None elsewhere.

    SIGKILL for a local engine: a SIGTERM that reached fio while it was starting a job could be
    lost in its own start-up and leave it sleeping forever as an orphan (seen 1 run in 4 in a
    precondition round); nothing of a dead app's run is worth a graceful end. A fio *client*
    gets SIGTERM instead: on it, it tells its server to stop the remote job."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return quiet.reset_in_child
    parent = os.getpid()

    def hook() -> None:
        quiet.reset_in_child()
        prctl(_PR_SET_PDEATHSIG, sig)
        if os.getppid() != parent:  # the app died before the call above: do not run at all
            os._exit(1)
    return hook


_PREEXEC = {sig: _die_with_parent_hook(sig) for sig in (KILL_ON_APP_DEATH, int(signal.SIGTERM))}


def preexec_for(on_app_death: int) -> Callable[[], None] | None:
    """The pre-exec hook for an engine that gets ``on_app_death`` when the app dies."""
    return _PREEXEC.get(on_app_death) or _die_with_parent_hook(on_app_death)
