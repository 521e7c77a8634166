"""Which engine measures: fio or DiskSpd, picked next to Run and looked for in the background.

Why a picker and not only the per-OS default (``default_engine()``: DiskSpd on Windows when it is
installed, fio elsewhere): on Windows both are worth comparing, and a student may have only one
of them. Finding an engine runs it (``fio --version``, ``diskspd -?``), so it happens in a pool
thread; what comes back is a frozen :class:`EngineInfo`, and an answer for an engine that is no
longer chosen is dropped. The window keeps the choice in its settings.

Paths: a path the window was started with (``engine_path``) belongs to the engine chosen at
start; ``paths`` (from settings) may name a path per engine; otherwise each engine looks where
``locate`` looks (its environment variable, PATH, the bundled copy).
"""
from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from app.engines import ENGINES
from jobs.engine.factory import locate_engine
from ui.window.background import Background

LABELS = {"fio": "fio", "diskspd": "DiskSpd"}
ENV_VARS = {"fio": "SSD_PROFILER_FIO", "diskspd": "SSD_PROFILER_DISKSPD"}


@dataclass(frozen=True)
class EngineInfo:
    """What the window needs to know about a found engine (the run locates it again itself)."""

    name: str
    version: str
    path: str


def engine_label(name: str | None) -> str:
    return LABELS.get(name or "", name or "the engine")


def engine_text(engine: EngineInfo) -> str:
    """'fio-3.33 (/usr/bin/fio)', 'DiskSpd 2.2 (C:\\bin\\diskspd.exe)' for the status bar."""
    version = engine.version or ""
    if not version.lower().startswith(engine.name.lower()):
        version = f"{engine_label(engine.name)} {version}".strip()
    return f"{version} ({engine.path})"


def elsewhere_hint(name: str) -> str:
    """What to do when the engine is installed but not on PATH."""
    return (f" If {engine_label(name)} is installed somewhere else, set the environment variable "
            f"{ENV_VARS[name]} to its full path." if name in ENV_VARS else "")


def retry_advice(name: str, platform: str = sys.platform) -> str:
    """What to do after installing it (choosing an engine again looks for it again)."""
    if name == "diskspd" and not platform.startswith("win"):
        return "DiskSpd is a Windows tool: on this OS choose fio in the Engine box next to Run."
    return (f"Then choose {engine_label(name)} again in the Engine box next to Run (it is looked "
            f"for again), or choose the other engine.{elsewhere_hint(name)}")


def find_engine(name: str, override: str | None) -> EngineInfo:
    """Runs in a pool thread; raises EngineNotFound with the install hint."""
    engine = locate_engine(name, override)
    return EngineInfo(engine.name, str(engine.version or ""), str(engine.path))


class EnginePicker(QWidget):
    """A labelled combo box. ``locate()`` looks for the chosen engine and answers with
    ``found(EngineInfo)`` or ``missing(name, message)``; ``looking(name)`` comes first, on every
    choice, so the window can disable Run until the answer is in."""

    looking = Signal(str)
    found = Signal(object)            # EngineInfo
    missing = Signal(str, str)        # engine name, why (with how to install)

    def __init__(self, background: Background, name: str, engine_path: str | None = None,
                 paths: Mapping[str, str] | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.background = background
        self.overrides = {k: v for k, v in (paths or {}).items() if v}
        name = name if name in ENGINES else ENGINES[0]
        if engine_path:
            self.overrides[name] = engine_path
        self.combo = QComboBox()
        for engine in ENGINES:
            self.combo.addItem(engine_label(engine), engine)
        self.combo.setCurrentIndex(ENGINES.index(name))
        self.combo.setToolTip("The tool that does the measuring. fio runs on every OS; DiskSpd is "
                              "Microsoft's tool for Windows. The choice is remembered.")
        self.combo.activated.connect(lambda _i: self.locate())  # every pick, the same one too
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("Engine:"))
        layout.addWidget(self.combo)

    @property
    def name(self) -> str:
        return str(self.combo.currentData())

    def set_name(self, name: str) -> None:
        """Choose ``name`` as the user would: it is looked for (again)."""
        self.combo.setCurrentIndex(ENGINES.index(name))
        self.locate()

    def locate(self) -> None:
        name, override = self.name, self.overrides.get(self.name)
        self.looking.emit(name)
        self.background.submit(lambda: find_engine(name, override),
                               lambda info: self._answer(name, info, None),
                               lambda exc: self._answer(name, None, exc))

    def _answer(self, name: str, info: EngineInfo | None, exc: BaseException | None) -> None:
        if name != self.name:
            return  # the user switched again while this one was being looked for
        if info is not None:
            self.found.emit(info)
        else:
            self.missing.emit(name, str(exc))
