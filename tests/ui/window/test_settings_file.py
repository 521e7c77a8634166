"""The window's settings are an INI file in the platformdirs config folder on every OS."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings  # noqa: E402

from app import APP_NAME  # noqa: E402
from ui.window import settings as settings_module  # noqa: E402
from ui.window.settings import ORGANIZATION, AppSettings  # noqa: E402


def test_default_settings_are_an_ini_file_in_the_config_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    s = AppSettings()
    s.target = "/mnt/bench"
    s.sync()
    path = tmp_path / "config" / "ssd-profiler" / f"{APP_NAME}.conf"
    assert path.is_file() and "/mnt/bench" in path.read_text()
    assert AppSettings().target == "/mnt/bench"


def test_a_first_launch_adopts_what_the_native_store_held(tmp_path, monkeypatch):
    """On Windows and macOS the native store (registry, plist) is not the INI file; Linux's
    native store is that very file, so the move is simulated with another file name."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    # Qt reads the user's config folder once per process: point its native store here for now
    fmt, scope = QSettings.Format.NativeFormat, QSettings.Scope.UserScope
    before = QSettings(fmt, scope, ORGANIZATION, APP_NAME).fileName()
    QSettings.setPath(fmt, scope, str(tmp_path / "native"))
    try:
        _adopt(tmp_path, monkeypatch)
    finally:
        QSettings.setPath(fmt, scope, os.path.dirname(os.path.dirname(before)))


def _adopt(tmp_path, monkeypatch):
    native = QSettings(QSettings.Format.NativeFormat, QSettings.Scope.UserScope,
                       ORGANIZATION, APP_NAME)
    native.setValue("run/target", '"/old/target"')
    native.sync()
    moved = tmp_path / "elsewhere" / "settings.ini"
    monkeypatch.setattr(settings_module, "default_path", lambda: moved)
    assert AppSettings().target == "/old/target"
    native.setValue("run/target", '"/changed"')
    native.sync()
    assert AppSettings().target == "/old/target"   # adopted once, never overwritten
