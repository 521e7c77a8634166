"""The window's opt-in to run the engine on a CPU of its own (jobs/engine/quiet.py): a checkable
Run menu action, remembered, handed to the run as it starts; off by default."""
from __future__ import annotations

import os
import sys

import pytest

from jobs.engine import quiet
from ui.window.main_window import MainWindow
from ui.window.settings import AppSettings

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux")
                                or len(os.sched_getaffinity(0)) < 2, reason="Linux, two CPUs")


def test_pinning_is_off_by_default_remembered_and_handed_to_the_run(qtbot, tmp_path):
    settings = AppSettings(tmp_path / "settings.ini")
    window = MainWindow(settings=settings, runs_root=str(tmp_path / "runs"))
    qtbot.addWidget(window)
    action = window.menus.pin_engine
    assert action.isCheckable() and not action.isChecked() and settings.pin_engine is False
    action.setChecked(True)
    assert settings.pin_engine is True
    cpus = os.sched_getaffinity(0)
    window.ensure_built()
    try:
        # a run that is refused at once (no experiment): the pinning was set as it started
        window.control.start([], {}, str(tmp_path / "target"), str(tmp_path / "runs"),
                             pin_engine=settings.pin_engine)
        assert quiet.host_fields()["engine_cpu"] == max(cpus)
        qtbot.waitUntil(lambda: not window.control.running, timeout=20000)
        window.control.start([], {}, str(tmp_path / "target"), str(tmp_path / "runs"))
        assert "engine_cpu" not in quiet.host_fields()
        qtbot.waitUntil(lambda: not window.control.running, timeout=20000)
    finally:
        quiet.pin_engines(False)
    assert os.sched_getaffinity(0) == cpus   # the GUI thread is back on every CPU after the run
