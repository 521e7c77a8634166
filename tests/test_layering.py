"""layers enforced, no import cycles, ruff clean, mypy passes, no Qt in
the domain.

The contracts live in pyproject.toml ([tool.importlinter]); this runs them, so a change that
breaks a layer fails the suite, not only a reviewer's eye.
"""
from __future__ import annotations

import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

import app

from conftest import REPO

BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    return str(BIN / name) if (BIN / name).exists() else (shutil.which(name) or name)


def test_import_contracts_hold():
    done = subprocess.run([_tool("lint-imports")], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr


def test_no_import_cycles_among_the_projects_modules():
    graph = grimp.build_graph("app", "jobs", "ui")
    cycles = _cycles({m: graph.find_modules_directly_imported_by(m) for m in graph.modules})
    assert cycles == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_ruff_is_clean():
    done = subprocess.run([_tool("ruff"), "check", "--quiet", "."], cwd=REPO, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr


@pytest.mark.timeout(900)  # a first, uncached run on a busy two-core machine took four minutes
def test_mypy_passes():
    """The types hold ([tool.mypy] in pyproject.toml): mypy's strict flags on app/, jobs/ and ui/,
    the default level on benchmarks/. The cache (.mypy_cache, gitignored) makes a re-run take
    seconds; the first run on a clean clone analyses the PySide6 stubs too, about a minute."""
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-2000:]


def test_app_runner_and_process_load_no_qt():
    modules = [m.name for m in pkgutil.walk_packages(app.__path__, prefix="app.")]
    code = ("import sys\n" + "".join(f"import {m}\n" for m in modules)
            + "import jobs.run.runner, jobs.engine.process, jobs.run.session, ui.cli.run_cmd\n"
            + "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph')]\n"
            + "print(','.join(bad)); sys.exit(1 if bad else 0)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(modules) >= 30 and "app.engines.fio" in modules and "app.paths.owned" in modules


def test_the_window_starts_without_pandas():
    """first paint waits for every import; pandas alone took 0.3 s. It loads when the
    Compare view or a notebook first needs it."""
    code = ("import os, sys\nos.environ.setdefault('QT_QPA_PLATFORM', 'offscreen')\n"
            "import ui.window.main_window\nsys.exit(1 if 'pandas' in sys.modules else 0)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_window_starts_without_the_run_machinery():
    """the worker thread, the run session behind it (runner, monitor) and the DiskSpd
    counters (psutil's process API) load with the first Run, not before the first paint."""
    code = ("import os, sys\nos.environ.setdefault('QT_QPA_PLATFORM', 'offscreen')\n"
            "import ui.window.main_window\n"
            "bad = [m for m in ('jobs.worker', 'jobs.run.session', 'jobs.run.runner', 'jobs.engine.diskspd_live')"
            " if m in sys.modules]\nprint(bad); sys.exit(1 if bad else 0)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            node, children = work[-1]
            child = next((c for c in children if c in graph), None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        out.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = counter[0]
                counter[0] += 1
                stack.append(child)
                on.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on:
                low[node] = min(low[node], index[child])
    return sorted(out)


def test_modules_stay_small_and_folders_name_ideas():
    """docs/architecture.md: at most 6 flat modules directly in app/ and 4 in jobs/ (the rest lives
    in a folder per idea). A module's size is a review habit (split by responsibility, never squeeze
    to fit a number); 400 lines is only the backstop that says a split is overdue."""
    long = {str(p.relative_to(REPO)): n for d in ("app", "jobs", "ui") for p in (REPO / d).rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400}
    assert long == {}, long
    assert len(list((REPO / "app").glob("*.py"))) <= 6
    assert len(list((REPO / "jobs").glob("*.py"))) <= 4
