"""DESIGN §1: the domain and the runner never load Qt."""
from __future__ import annotations

import pkgutil
import subprocess
import sys

import app

from conftest import REPO


def test_app_runner_and_process_load_no_qt():
    modules = [f"app.{m.name}" for m in pkgutil.walk_packages(app.__path__, prefix="")]
    modules = [m.replace("app.app.", "app.") for m in modules]
    code = ("import sys\n" + "".join(f"import {m}\n" for m in modules)
            + "import jobs.runner, jobs.process, jobs.session, ui.cli\n"
            + "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph')]\n"
            + "print(','.join(bad)); sys.exit(1 if bad else 0)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(modules) >= 10
