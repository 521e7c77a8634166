"""What the window remembers between launches (QSettings): target, parameters, runs root, engine,
geometry.

Values are stored as JSON text, not as QVariants, because QSettings' INI and registry back ends
turn lists, booleans and numbers into strings differently on each OS; JSON reads back the same
everywhere. Tests pass their own INI file so they never touch the user's settings.

The file is an INI file in the per-user config folder platformdirs names (app.paths.userdirs), on every
OS: QSettings' native store would be the registry on Windows and a plist on macOS, away from the
folder docs/usage.md points to. On Linux the path is the one QSettings' native store used
(``~/.config/ssd-profiler/SSD Profiler.conf``); elsewhere, a first launch copies what the native
store held, so nobody loses their target and parameters to the move.

The file is checked before Qt opens it, as any input the app did not write
(app/store/config_file.py): QSettings blocks for ever on a named pipe and reads a link to
/dev/zero until memory runs out, so a settings file that is not a regular file of bounded size is
one line in the log, and the window starts with its defaults, keeping this session's settings in
memory only (the file is left as it is).
"""
from __future__ import annotations

import copy
import json
import logging
import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

from app import APP_NAME
from app.paths.userdirs import user_config_dir
from app.store.config_file import config_file_problem
from app.units import MiB
from ui.window.panel_state import PanelState, report_options_from_json, report_options_to_json

log = logging.getLogger(__name__)

ORGANIZATION = "ssd-profiler"
MAX_SETTINGS_BYTES = 64 * MiB   # the window keeps a few KiB; the input files' cap
EXCERPT_CHARS = 120             # of an unreadable value, in the log


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """A bounded, one-line view of a value for the log: a 20 MB setting must not become a 20 MB
    log line."""
    text = str(value)
    shown = repr(text[:limit])
    return shown if len(text) <= limit else f"{shown}... ({len(text):,} characters)"


class _SessionStore:
    """The few QSettings calls AppSettings makes, kept in memory: the settings of a session
    whose file cannot be used."""

    def __init__(self, name: str):
        self._values: dict[str, Any] = {}
        self._name = name

    def value(self, key: str) -> Any:
        return self._values.get(key)

    def setValue(self, key: str, value: Any) -> None:  # noqa: N802 (QSettings' name)
        self._values[key] = value

    def allKeys(self) -> list[str]:  # noqa: N802
        return list(self._values)

    def fileName(self) -> str:  # noqa: N802
        return self._name

    def sync(self) -> None:
        pass


def default_path() -> Path:
    """Where the window's settings live unless a test or --self-test names a file."""
    return user_config_dir() / f"{APP_NAME}.conf"


class Remembered:
    """One key the window keeps, as a typed attribute of AppSettings: read, it is the stored
    value when that has the right type, else ``default`` (a missing or hand-edited setting);
    assigned, it is stored. ``clean`` turns a stored JSON value of type ``kind`` into what the
    window uses (a typed value), ``dump`` such a value back into JSON."""

    def __init__(self, key: str, kind: type, default: Any, clean: Any = None, dump: Any = None):
        self.key, self.kind, self.default, self.clean, self.dump = key, kind, default, clean, dump

    def __get__(self, settings: AppSettings | None, owner: type | None = None) -> Any:
        if settings is None:
            return self
        value = settings.get(self.key)
        if not isinstance(value, self.kind):   # a copy: callers may change it
            value = copy.copy(self.default)
        return self.clean(value) if self.clean and value is not None else value

    def __set__(self, settings: AppSettings, value: Any) -> None:
        settings.set(self.key, self.dump(value) if self.dump else value)


class AppSettings:
    """Typed access to the few keys the window keeps."""

    def __init__(self, path: str | Path | None = None):
        adopt = path is None and not os.path.lexists(default_path())
        path = Path(default_path() if path is None else path)
        why = config_file_problem(path, MAX_SETTINGS_BYTES)
        self._qs: QSettings | _SessionStore
        if why:
            log.warning("settings file %s %s: not read; this session's settings are not kept",
                        excerpt(str(path), 300), why)
            self._qs = _SessionStore(str(path))
            return
        self._qs = QSettings(str(path), QSettings.Format.IniFormat)
        if adopt:
            self._adopt_native()

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
        except (ValueError, RecursionError):
            log.warning("ignoring unreadable setting %s=%s", key, excerpt(raw))
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

    # -- the keys: each a Remembered (below) ----------------------------------------------------
    target = Remembered("run/target", str, "")
    #: The fio server of a remote target, HOST[:PORT] ("": this computer).
    remote = Remembered("run/remote", str, "")
    runs_root = Remembered("run/runs_root", str, None)
    #: The experiment panel (ui/window/panel_state.py), stored as {"checked": [ids], "current": id,
    #: "preset": name, "values": {id: {name: text}}, "shared": {name: text}, "overrides": {id: [name]}}.
    experiments = Remembered("run/experiments", dict, {}, clean=PanelState.from_json,
                             dump=PanelState.to_json)
    show_iops = Remembered("charts/show_iops", bool, False)
    #: Opt-in: the engine on a CPU of its own, the app's threads on the others (jobs/engine/quiet.py).
    pin_engine = Remembered("run/pin_engine", bool, False)
    #: The engine chosen in the window ("fio" | "diskspd"); "" until one was chosen, so the
    #: per-OS default (jobs.engine.factory.default_engine) applies on a first launch.
    engine = Remembered("run/engine", str, "")
    #: The export bar's report details, stored as {"title", "author", "course": text,
    #: "interpretation": bool}.
    report = Remembered("report/details", dict, {}, clean=report_options_from_json,
                        dump=report_options_to_json)
    #: {engine name: full path} for an engine installed off PATH.
    engine_paths = Remembered("run/engine_paths", dict, {},
                              clean=lambda v: {str(k): p for k, p in v.items() if p and isinstance(p, str)})
