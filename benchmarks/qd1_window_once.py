"""One QD1 run in the open window with its live charts in view (for benchmarks/qd1_threads.py):
``qd1_window_once.py TARGET RUNTIME_S [pin]`` (pin: the engine on a CPU of its own)."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import gui_overhead as gui
from qd1_fidelity import PIN, window_run


def main() -> int:
    app = gui._app()
    window = gui._window(gui._scratch("ssd-bench-qd1-once-"))
    window.show_run_view(window.charts)
    PIN[0] = sys.argv[3:4] == ["pin"]
    target = Path(sys.argv[1])
    target.mkdir(parents=True, exist_ok=True)
    try:
        window_run(app, window, target, float(sys.argv[2]), gui._wait)
    finally:
        window.close()
        for made in gui._MADE:   # its settings and runs: nothing left behind in the temp folder
            shutil.rmtree(made, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
