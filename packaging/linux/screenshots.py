"""Takes the AppStream screenshots (packaging/linux/screenshots/*.png) at 1280x720, the smallest
screen the window is laid out for, so software centres show what a laptop user will see.

Run by hand after the window changes, under a real X server so fonts and styles are the desktop's:
    xvfb-run -a -s '-screen 0 1280x720x24' .venv/bin/python packaging/linux/screenshots.py
target.png: the window with a folder chosen (drive, medium, free space); after a short real
queue-depth sweep with fio, results.png (trials, mean ± std per workload, findings) and
figures.png (the sweep's first figure). The run and its settings go to a temporary folder.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from PySide6.QtGui import QGuiApplication  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from ui import APP_ID  # noqa: E402
from ui.window.main_window import MainWindow  # noqa: E402
from ui.window.settings import AppSettings  # noqa: E402

OUT = ROOT / "packaging" / "linux" / "screenshots"
SIZE = (1280, 720)
SWEEP = {"queue_depths": "1,4,16,64", "runtime": "2s", "size": "64MiB", "repetitions": "2",
         "warmup": "false"}


def wait(app: QApplication, done, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise SystemExit("timed out waiting for the window")
        app.processEvents()
        time.sleep(0.02)


def settle(app: QApplication, seconds: float = 0.5) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.02)


def shoot(window: MainWindow, name: str) -> Path:
    path = OUT / name
    if not window.grab().save(str(path)):
        raise SystemExit(f"could not write {path}")
    print(path.relative_to(ROOT))
    return path


def main() -> int:
    QGuiApplication.setDesktopFileName(APP_ID)
    app = QApplication(sys.argv[:1])
    work = Path(tempfile.mkdtemp(prefix="ssd-profiler-screens-"))
    target = Path(tempfile.gettempdir()) / "ssdtest"  # a short path reads better in the picture
    try:
        target.mkdir()
    except FileExistsError:  # someone's own folder: never touch it
        target = Path(tempfile.mkdtemp(prefix="ssdtest-"))
    try:
        window = MainWindow(settings=AppSettings(work / "settings.ini"), runs_root=str(work / "runs"))
        window.confirm_close = lambda: True
        window.show()
        window.resize(*SIZE)
        settle(app)
        OUT.mkdir(parents=True, exist_ok=True)
        window.drive_panel.set_target(str(target))
        window.experiment_panel.set_checked(["queue-depth"])
        window.experiment_panel.set_values("queue-depth", SWEEP)
        wait(app, lambda: window.run_blocker() is None, 20)
        window.show_setup_page("target")
        settle(app, 1.5)  # the drive's identity and temperature arrive in the background
        shoot(window, "target.png")
        window.run_action.trigger()
        wait(app, lambda: window.model.finished and not window.control.running, 300)
        window.show_run_view(window.results)
        settle(app, 1.0)
        shoot(window, "results.png")
        window.show_run_view(window.figures)
        wait(app, lambda: window.figures.selector.count() > 0, 60)  # drawn in the background
        window.figures.selector.setCurrentIndex(0)
        settle(app, 1.0)
        shoot(window, "figures.png")
        window.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(target, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
