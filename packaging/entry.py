"""PyInstaller entry point: the same `ui.main.main` as the `ssd-profiler` console script."""
import multiprocessing
import sys

from ui.main import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main())
