"""``ssd-profiler --self-test``: prove an installed copy works, end to end, in seconds.

Opens the window offscreen, runs one tiny fio trial in a temporary folder when fio is present,
exports it when the export module is there, and exits 0; any failure exits 1 with the step that
failed. Meant for the frozen executable (CI smoke test) and for students checking an install.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from app.model.status import RunStatus

T = TypeVar("T")


def _step(name: str, func: Callable[[], T]) -> T:
    started = time.monotonic()
    result = func()
    print(f"self-test: {name}: ok ({time.monotonic() - started:.1f} s)", flush=True)
    return result


def _open_window(folder: Path) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from ui.window.main_window import MainWindow
    from ui.window.settings import AppSettings

    app = QApplication.instance() or QApplication(sys.argv[:1])
    # throw-away settings and runs folder: a self-test must not touch the user's own
    # built as the app builds it: the run half (charts, result tabs) after the first paint
    window = MainWindow(settings=AppSettings(folder / "settings.ini"), runs_root=str(folder / "runs"),
                        load_later=True)
    window.show()
    deadline = time.monotonic() + 10.0
    while time.monotonic() < deadline and not (window.isVisible() and window.built):
        app.processEvents()
    app.processEvents()
    if window.grab().isNull():
        raise RuntimeError("the window did not paint")
    if not window.built:
        raise RuntimeError("the window's charts and result tabs were not built")
    window.close()


def _run_trial(folder: Path) -> Path:
    from jobs.events import RunFinished
    from jobs.run.session import prepare_run

    session = prepare_run(["queue-depth"], {"queue_depths": "4", "runtime": "1s", "size": "16MiB",
                                            "repetitions": "1", "warmup": "false"},
                          str(folder / "target"), runs_root=folder / "runs")
    final = list(session.runner.events())[-1]
    if not isinstance(final, RunFinished):
        raise RuntimeError(f"the run ended with {type(final).__name__}, not its result")
    if final.status != RunStatus.DONE:
        raise RuntimeError(f"the fio trial ended {final.status}: {final.error}")
    return Path(final.run_dir)


def _export(run_dir: Path) -> None:
    from ui.cli.export_cmd import export_run_dir

    out = export_run_dir(run_dir, run_dir / "export")
    if not any(out.glob("figures/*.png")):
        raise RuntimeError(f"the export wrote no figure into {out}")


def run_self_test() -> int:
    folder = Path(tempfile.mkdtemp(prefix="ssd-profiler-self-test-"))
    try:
        _step("window opens offscreen", lambda: _open_window(folder))
        if shutil.which(os.environ.get("SSD_PROFILER_FIO") or "fio"):
            run_dir = _step("one fio trial", lambda: _run_trial(folder))
            _step("export", lambda: _export(run_dir))
        else:
            print("self-test: fio is not installed: trial and export skipped", flush=True)
    except Exception as exc:  # the reason is the whole point of a self-test
        traceback.print_exc(file=sys.stderr)
        print(f"self-test: FAILED: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        return 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("self-test: passed", flush=True)
    return 0
