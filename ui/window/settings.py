"""What the window remembers between launches (QSettings): target, parameters, runs root, engine,
geometry.

Values are stored as JSON text, not as QVariants, because QSettings' INI and registry back ends
turn lists, booleans and numbers into strings differently on each OS; JSON reads back the same
everywhere. Tests pass their own INI file so they never touch the user's settings.

The file is an INI file in the per-user config folder platformdirs names (app.paths.userdirs), on every
OS: QSettings' native store would be the registry on Windows and a plist on macOS, away from the
folder the README points to. On Linux the path is the one QSettings' native store used
(``~/.config/ssd-profiler/SSD Profiler.conf``); elsewhere, a first launch copies what the native
store held, so nobody loses their target and parameters to the move.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

from app import APP_NAME
from app.paths.userdirs import user_config_dir

log = logging.getLogger(__name__)

ORGANIZATION = "ssd-profiler"


def default_path() -> Path:
    """Where the window's settings live unless a test or --self-test names a file."""
    return user_config_dir() / f"{APP_NAME}.conf"


class AppSettings:
    """Typed access to the few keys the window keeps."""

    def __init__(self, path: str | Path | None = None):
        if path is None:
            path = default_path()
            fresh = not path.exists()
            self._qs = QSettings(str(path), QSettings.Format.IniFormat)
            if fresh:
                self._adopt_native()
        else:
            self._qs = QSettings(str(path), QSettings.Format.IniFormat)

    def _adopt_native(self) -> None:
        """Copy the keys an earlier version kept in the OS's native store (registry, plist)."""
        native = QSettings(QSettings.Format.NativeFormat, QSettings.Scope.UserScope,
                           ORGANIZATION, APP_NAME)
        if native.fileName() == self._qs.fileName():
            return
        for key in native.allKeys():
            self._qs.setValue(key, native.value(key))

    # -- generic ------------------------------------------------------------------------------
    def get(self, key: str, default: Any = None) -> Any:
        raw = self._qs.value(key)
        if raw is None:
            return default
        try:
            return json.loads(str(raw))
        except ValueError:
            log.warning("ignoring unreadable setting %s=%r", key, raw)
            return default

    def set(self, key: str, value: Any) -> None:
        self._qs.setValue(key, json.dumps(value))

    def sync(self) -> None:
        self._qs.sync()

    # -- binary Qt state (geometry, splitters) --------------------------------------------------
    def get_bytes(self, key: str) -> QByteArray | None:
        text = self.get(key)
        return QByteArray.fromBase64(text.encode("ascii")) if isinstance(text, str) else None

    def set_bytes(self, key: str, data: QByteArray) -> None:
        self.set(key, bytes(data.toBase64().data()).decode("ascii"))

    # -- the keys -----------------------------------------------------------------------------
    @property
    def target(self) -> str:
        return self.get("run/target", "") or ""

    @target.setter
    def target(self, value: str) -> None:
        self.set("run/target", value)

    @property
    def remote(self) -> str:
        """The fio server of a remote target, HOST[:PORT] ("": this computer;)."""
        value = self.get("run/remote", "")
        return value if isinstance(value, str) else ""

    @remote.setter
    def remote(self, value: str) -> None:
        self.set("run/remote", value)

    @property
    def runs_root(self) -> str | None:
        return self.get("run/runs_root")

    @runs_root.setter
    def runs_root(self, value: str | None) -> None:
        self.set("run/runs_root", value)

    @property
    def experiments(self) -> dict:
        """{"checked": [ids], "current": id, "preset": name, "values": {id: {name: text}}}."""
        value = self.get("run/experiments", {})
        return value if isinstance(value, dict) else {}

    @experiments.setter
    def experiments(self, value: dict) -> None:
        self.set("run/experiments", value)

    @property
    def show_iops(self) -> bool:
        return bool(self.get("charts/show_iops", False))

    @show_iops.setter
    def show_iops(self, value: bool) -> None:
        self.set("charts/show_iops", bool(value))

    @property
    def engine(self) -> str:
        """The engine chosen in the window ("fio" | "diskspd"); "" until one was chosen, so the
        per-OS default (jobs.engine.factory.default_engine) applies on a first launch."""
        value = self.get("run/engine", "")
        return value if isinstance(value, str) else ""

    @engine.setter
    def engine(self, value: str) -> None:
        self.set("run/engine", value)

    @property
    def engine_paths(self) -> dict[str, str]:
        """{engine name: full path} for an engine installed off PATH."""
        value = self.get("run/engine_paths", {})
        return {str(k): str(v) for k, v in value.items() if v} if isinstance(value, dict) else {}

    @engine_paths.setter
    def engine_paths(self, value: dict[str, str]) -> None:
        self.set("run/engine_paths", dict(value))
