"""Starting and stopping the engine of a trial or of a test file's fill (the runner's part
that touches processes), kept beside jobs/run/runner.py, which decides what runs when, and
jobs/run/trial_steps.py, which runs one trial.

Why the descriptors: on Linux the engine names the test file ``/proc/self/fd/N``, the app's
own descriptor of the file it created, inherited through ``pass_fds`` (app.paths.owned), so no
path another program swaps can redirect its writes; every start, held or not, inherits it.
"""
from __future__ import annotations

import threading
from pathlib import Path

from app.engines.base import Engine, Hold
from app.experiments.plan import Trial
from app.paths import OwnedFolder
from app.store.run_folder import RunStore
from jobs.engine.process import EngineProcess


class _Cancelled(Exception):
    """The user cancelled: the engine was stopped, the trial ends as cancelled."""


class EngineStarts:
    """Mixed into :class:`jobs.run.runner.TrialRunner` (through jobs/run/trial_steps.py): uses
    its ``engine``, ``owner``, ``store``, ``cancel``, ``_workdir``, ``_proc`` and ``on_app_death``."""

    engine: Engine
    owner: OwnedFolder
    store: RunStore
    cancel: threading.Event
    _workdir: Path
    _proc: EngineProcess | None
    on_app_death: int

    def _engine_file(self, test_file: Path) -> tuple[Path, tuple[int, ...]]:
        """The name the engine opens the test file by, and the descriptors it must inherit: the
        app's own descriptor where the engine and the OS allow it (app.paths.OwnedFolder)."""
        if getattr(self.engine, "takes_fd_paths", False) and hasattr(self.owner, "engine_file"):
            return self.owner.engine_file(test_file)
        return test_file, ()

    def _trial_argv(self, trial: Trial, test_file: Path) -> list[str]:
        return self.engine.trial_argv(trial, self._engine_file(test_file)[0],
                                      self._trigger(test_file, trial))

    def _start(self, argv: list[str], trigger: Path, stdout_path: Path | None = None,
               stderr_path: Path | None = None, test_file: Path | None = None,
               pass_fds: tuple[int, ...] = (), held: Hold | None = None) -> EngineProcess:
        """The engine of a trial (or of the test file's fill): started now, or, with ``held``,
        started ahead and held (jobs/run/held_starts.py), then not yet current. It inherits the
        test file's descriptor when its argv names the file by it."""
        trigger.unlink(missing_ok=True)  # in our private folder: a stop left by a past engine
        if test_file is not None:
            pass_fds = (*pass_fds, *self._engine_file(test_file)[1])
        proc = EngineProcess(argv, self.engine.graceful_stop(trigger), cwd=self._workdir,
                             stdout_path=stdout_path, stderr_path=stderr_path,
                             on_app_death=self.on_app_death, pass_fds=pass_fds, held=held)
        if held is None:
            self._proc = proc
        return proc

    def _start_held(self, trial: Trial, test_file: Path, argv: list[str], fds: tuple[int, ...],
                    held: Hold) -> EngineProcess:
        out, err, _ = self.store.raw_paths(trial.name)
        return self._start(argv, self._trigger(test_file, trial), out, err, test_file, fds, held)

    def _check_stop(self, proc: EngineProcess, limit_s: float) -> None:
        if self.cancel.is_set() and not proc.io_done.is_set():  # else its result is whole
            proc.stop("cancel")
            raise _Cancelled
        if proc.elapsed_s() > limit_s:
            how = proc.stop("watchdog")
            raise TimeoutError(f"engine ran past its time limit of {limit_s:.0f} s and was "
                               f"stopped ({how})")

    def _trigger(self, test_file: Path, trial: Trial | None = None) -> Path:
        """The engine's stop file: one per trial, so a stop meant for one never ends another."""
        tag = f"-{trial.index}" if trial is not None else ""
        return self._workdir / f"{test_file.stem}{tag}.stop"

    def _abort(self, reason: str) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.stop(reason)
            self._proc.finish(timeout=2.0)

