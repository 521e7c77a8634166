"""Screenshots of the real window at 1280x720 under a light and a dark desktop palette, to look at
(not a test module: run it under Xvfb, as a regular user, from the repository root):

    xvfb-run -a -s "-screen 0 1280x720x24" python tests/screenshots.py OUT_DIR

A tiny zero-queue run (fio, 1 s trials) gives the live charts and the results table something to
show; then per palette: the charts, the results, the figures, and the experiments page with a
bad value.
The shots are of the X screen (QScreen.grabWindow(0)), what a user would see, not a widget grab.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parent)]

from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

import palettes  # noqa: E402


def wait(ms: int) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def wait_for(condition, timeout_ms: int = 60000) -> None:
    for _ in range(timeout_ms // 100):
        if condition():
            return
        wait(100)
    raise TimeoutError("the window never got there")


def shoot(app: QApplication, out: Path, name: str) -> None:
    wait(400)
    path = out / f"{name}.png"
    app.primaryScreen().grabWindow(0).save(str(path))
    print(path)


def main(out: Path) -> None:
    from ui.window.main_window import MainWindow
    from ui.window.settings import AppSettings

    out.mkdir(parents=True, exist_ok=True)
    app = QApplication(sys.argv[:1])
    app.setStyle("Fusion")
    work = Path(tempfile.mkdtemp(prefix="shots-"))
    for label, make in (("light", palettes.fusion_light), ("dark", palettes.fusion_dark)):
        app.setPalette(make())
        window = MainWindow(settings=AppSettings(work / f"{label}.ini"), runs_root=str(work / "runs"))
        window.confirm_close = lambda: True
        window.move(0, 0)
        window.resize(1280, 720)
        window.show()
        window.drive_panel.set_target(str(work / "target"))
        panel = window.experiment_panel
        panel.set_checked(["zero-queue"])
        panel.select("zero-queue")
        panel.set_values("zero-queue", {"runtime": "1s", "size": "16MiB", "repetitions": "1"})
        wait_for(lambda w=window: w.run_blocker() is None)
        window.start_run()
        wait_for(lambda w=window: w.model.finished, 120000)
        window.show_run_view(window.charts)
        shoot(app, out, f"{label}-charts")
        window.show_run_view(window.results)
        shoot(app, out, f"{label}-results")
        window.show_run_view(window.figures)   # the report's figures: light on purpose
        wait_for(lambda w=window: w.figures.current_plot() is not None)
        shoot(app, out, f"{label}-figures")
        panel.set_values("zero-queue", {"size": "1000"})
        window.show_setup_page("experiments")
        shoot(app, out, f"{label}-experiments")
        window.close()
        wait(200)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "shots"))
