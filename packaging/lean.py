"""What the one-folder build leaves out, for ssd-profiler.spec (the same rules on all three OS).

The app draws with QtWidgets, QtGui, QtSvg and pyqtgraph (which needs QtOpenGL too); it never
loads a Qt translation, reads JPEG/TIFF/WebP, runs on a framebuffer or VNC, or takes touch input.
PyInstaller's Qt hooks collect every plugin of the types QtGui names and every translation of
the modules used; ``keep`` drops what the app cannot use, and ``prune`` then drops the libraries
that only the dropped plugins needed (libQt6Network for the TUIO touch plugin, cairo/pango for
the GTK3 theme, ...), by their link-time imports, so Windows DLLs and macOS frameworks follow.

One more cut is Linux-only and native, in its own module: ICU's data without what Qt never
reads (packaging/icu_data.py). numpy's OpenBLAS ships as the wheel has it: a stand-in for it
would fail only in the built app, at the first routine a numpy, pandas or pyqtgraph release
calls that the stand-in lacks.

A TOC entry is ``(destination, source, typecode)``; destinations look like
``PySide6/Qt/plugins/imageformats/libqjpeg.so`` (Linux, macOS: ``.dylib``) or
``PySide6/plugins/imageformats/qjpeg.dll`` (Windows).
"""
from __future__ import annotations

import functools
import hashlib
import logging
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path, PurePath

log = logging.getLogger("lean")

# Python modules the app never imports (checked with sys.modules after the window, --self-test,
# run, export, compare, import, drives): their extension modules and libraries (libssl,
# libsqlite3, libreadline) go with them.
EXCLUDES = [
    "tkinter", "unittest", "pydoc_data", "IPython", "matplotlib", "pytest",
    "PySide6.QtNetwork", "PySide6.QtTest", "PySide6.QtDBus", "pyqtgraph.opengl",
    "sqlite3", "ssl", "readline", "asyncio",
    "_hashlib",   # and libcrypto (4.7 MB): hashlib falls back to its built-in sha1/sha256/md5
    "pygments", "markdown_it", "mdurl",                      # rich's syntax and markdown views
    "setuptools", "pkg_resources", "distutils", "_distutils_hack",  # and their run-time hooks
]

# packages collected as .pyc files instead of into the compressed PYZ (see the spec)
PLAIN_PYC = {"pyqtgraph": "pyc", "app": "pyc", "ui": "pyc", "jobs": "pyc"}
# LGPL libraries as their Python source, plain files a user can read and replace (the LGPL asks
# that a user can swap in a modified library); their compiled parts are plain files anyway
REPLACEABLE = {"pySMART": "py", "PySide6": "py", "shiboken6": "py"}

# plugin folder -> the plugins kept (name without "lib" and extension); a folder not listed is kept
# whole, one listed with an empty set is dropped
KEEP_PLUGINS: dict[str, set[str] | None] = {
    "imageformats": {"qsvg", "qico"},   # PNG is built into QtGui; SVG for icons, ICO for Windows
    "platforms": {"qxcb", "qwayland", "qwayland-egl", "qwayland-generic", "qoffscreen", "qminimal",
                  "qwindows", "qcocoa"},
    "platformthemes": {"qxdgdesktopportal"},   # not gtk3: it would mix the system's GTK with
                                               # the build machine's cairo and pango
    "generic": set(),                   # evdev and TUIO touch input (TUIO needs QtNetwork)
    "egldeviceintegrations": set(),     # eglfs, for devices without a window system
    "networkinformation": set(), "tls": set(), "printsupport": set(), "sqldrivers": set(),
}


def _plugin(dest: str) -> tuple[str, str] | None:
    """(folder, name) of a Qt plugin's destination, or None for anything else."""
    parts = PurePath(dest.replace("\\", "/")).parts
    if len(parts) < 3 or parts[0] != "PySide6" or parts[-3] != "plugins":
        return None
    stem = parts[-1].split(".")[0]
    return parts[-2], stem[3:] if stem.startswith("lib") else stem


def keep(entry: tuple) -> bool:
    """False for Qt translations and for the plugins KEEP_PLUGINS leaves out."""
    dest = entry[0].replace("\\", "/")
    if dest.startswith("PySide6/") and dest.endswith(".qm"):
        return False  # the app installs no QTranslator: its text is English only
    plugin = _plugin(dest)
    if plugin is None:
        return True
    folder, name = plugin
    kept = KEEP_PLUGINS.get(folder)
    return kept is None or name in kept


def _name(path: str) -> str:
    return PurePath(path.replace("\\", "/")).name.lower()


def prune(binaries: list[tuple], dropped: Iterable[tuple],
          imports: Callable[[str], Iterable[str]]) -> list[tuple]:
    """``binaries`` without the libraries that only ``dropped`` entries imported.

    ``imports(source)`` gives the file names a binary links against. Only what a dropped binary
    imported is a candidate, so a library loaded at run time (ctypes, dlopen) is never removed."""
    candidates = {_name(n) for entry in dropped for n in _safe(imports, entry[1])}
    kept = list(binaries)
    while True:
        needed = {_name(n) for e in kept if e[2] != "SYMLINK" for n in _safe(imports, e[1])}
        orphans = [e for e in kept if e[2] != "SYMLINK" and _name(e[0]) in candidates - needed]
        if not orphans:
            return kept
        log.info("lean: dropping %s (only dropped plugins used them)",
                 ", ".join(sorted(_name(e[0]) for e in orphans)))
        candidates |= {_name(n) for e in orphans for n in _safe(imports, e[1])}
        kept = [e for e in kept if e not in orphans]


def _safe(imports: Callable[[str], Iterable[str]], source: str) -> list[str]:
    try:
        return list(imports(source))
    except Exception:  # noqa: BLE001 - an unreadable file: assume it needs nothing we drop
        return []


def trim(binaries: list[tuple], datas: list[tuple],
         imports: Callable[[str], Iterable[str]]) -> tuple[list[tuple], list[tuple]]:
    """The Analysis' binaries and datas without what the app does not use, and without what
    pointed to it: symlinks ``(link, target, "SYMLINK")`` to a removed library, and on macOS the
    rest of a removed library's ``.framework`` folder."""
    imports = functools.lru_cache(maxsize=None)(imports)  # ldd or pefile once per file
    dropped = [e for e in binaries if not keep(e)]
    if dropped:
        log.info("lean: dropping %d Qt plugins: %s", len(dropped),
                 ", ".join(sorted(_name(e[0]) for e in dropped)))
    kept = prune([e for e in binaries if keep(e)], dropped, imports)
    removed = [_slash(e[0]) for e in binaries if e[2] != "SYMLINK" and e not in kept]
    names = {_name(d) for d in removed}
    frameworks = tuple(d[:d.index(".framework/") + len(".framework/")] for d in removed
                       if ".framework/" in d)

    def gone(e: tuple) -> bool:
        if frameworks and _slash(e[0]).startswith(frameworks):
            return True
        return e[2] == "SYMLINK" and (_name(e[0]) in names or _name(e[1]) in names)

    return ([e for e in kept if not gone(e)],
            [e for e in datas if keep(e) and not gone(e)])


def _slash(path: str) -> str:
    return path.replace("\\", "/")


def stripped(binaries: list[tuple], workdir: str) -> list[tuple]:
    """``binaries`` with their symbol tables stripped (copies under ``workdir``; Linux and macOS).

    PyInstaller's own ``strip=True`` strips every file, and breaks the libraries a wheel
    vendors (``numpy.libs/libscipy_openblas64_*.so``: "ELF load command address/offset not
    page-aligned", patchelf moved its headers); those, in ``*.libs`` or ``.dylibs`` folders
    and already stripped by the wheel's build, are left as they are."""
    if sys.platform.startswith("win") or not shutil.which("strip"):
        return binaries
    options = ["-S"] if sys.platform == "darwin" else []  # PyInstaller's choice for macOS too
    out = []
    for entry in binaries:
        src = Path(entry[1])
        vendored = any(p.endswith((".libs", ".dylibs")) for p in src.parent.parts)
        if entry[2] == "SYMLINK" or vendored or not src.is_file():
            out.append(entry)
            continue
        stat = src.stat()
        key = hashlib.sha1(f"{src}|{stat.st_size}|{stat.st_mtime_ns}".encode()).hexdigest()[:16]
        copy = Path(workdir) / "lean-stripped" / key / src.name
        if not copy.is_file():
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, copy)
            copy.chmod(0o755)
            done = subprocess.run(["strip", *options, str(copy)], capture_output=True, text=True)
            if done.returncode != 0:  # not a binary strip knows: collect the original
                log.warning("lean: strip %s: %s", src, done.stderr.strip())
                copy.unlink()
                out.append(entry)
                continue
        out.append((entry[0], str(copy), entry[2]))
    return out
