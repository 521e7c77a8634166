"""Per-user folders come from platformdirs; an empty or relative XDG variable is ignored, as
the XDG spec says, so runs never land in whatever folder the app was started from."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from app.paths import userdirs
from app.store.run_folder import default_runs_root

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG is Linux's")


@pytest.mark.parametrize("value", ["", "   ", "relative/data", "."])
def test_empty_or_relative_xdg_data_home_falls_back_to_the_default(monkeypatch, tmp_path, value):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", value)
    monkeypatch.chdir(tmp_path)
    assert default_runs_root() == tmp_path / ".local" / "share" / "ssd-profiler" / "runs"
    assert default_runs_root().is_absolute()
    import os
    assert os.environ["XDG_DATA_HOME"] == value  # looked past, not changed


def test_absolute_xdg_folders_are_honoured(monkeypatch, tmp_path):
    for var, kind in (("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"),
                      ("XDG_CACHE_HOME", "cache")):
        monkeypatch.setenv(var, str(tmp_path / kind))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert userdirs.user_data_dir() == tmp_path / "data" / "ssd-profiler"
    assert userdirs.user_config_dir() == tmp_path / "config" / "ssd-profiler"
    assert userdirs.user_cache_dir() == tmp_path / "cache" / "ssd-profiler"
    assert userdirs.user_log_dir() == tmp_path / "state" / "ssd-profiler" / "log"


def test_no_folder_is_created_by_asking(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    userdirs.user_data_dir()
    assert not Path(tmp_path / "data").exists()
