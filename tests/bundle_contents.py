"""What a built one-folder executable holds, read from the folder itself (not a test module).

The notices are generated from the build's own list of collected files (packaging/notices.py);
checking them against that same list would prove nothing. Here the folder is read as a user
receives it: the files under ``_internal`` and the module names of the compressed archive
inside the executable, each traced to the installed distribution whose RECORD names that
path. The build ran in this very environment, so its distributions are the ones installed here.
"""
from __future__ import annotations

import json
import re
from collections import defaultdict
from importlib import metadata
from pathlib import Path, PurePath


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _record_index() -> tuple[dict[str, str], dict[str, str]]:
    """(path inside site-packages -> distribution, file name of a PyInstaller run-time hook or
    bootstrap module -> distribution)."""
    by_path, hooks = {}, {}
    for dist in metadata.distributions():
        name = _norm(dist.metadata["Name"])
        for f in dist.files or ():
            path = PurePath(str(f)).as_posix()
            by_path.setdefault(path, name)
            if name.startswith("pyinstaller") and path.endswith(".py"):
                hooks.setdefault(PurePath(path).stem, name)
    return by_path, hooks


def bundled_distributions(folder: Path) -> dict[str, set[str]]:
    """Normalised distribution name -> what of it the folder holds (paths, module names)."""
    from PyInstaller.archive.readers import pkg_archive_contents

    by_path, hooks = _record_index()
    found: dict[str, set[str]] = defaultdict(set)
    for module in pkg_archive_contents(str(folder / "ssd-profiler")):
        base = module.replace(".", "/")
        owner = by_path.get(base + ".py") or by_path.get(base + "/__init__.py") or hooks.get(module)
        if owner:
            found[owner].add(module)
    internal = folder / "_internal"
    for p in internal.rglob("*"):
        if not p.is_file() or p.is_symlink():
            continue
        rel = p.relative_to(internal).as_posix()
        owner = by_path.get(rel) or (by_path.get(rel[:-1]) if rel.endswith(".pyc") else None)
        if owner:
            found[owner].add(rel)
    return dict(found)


def listed_components(folder: Path) -> dict[str, dict]:
    """The build's notices as data (licenses/bundled.json): name -> component; a distribution's
    name normalised, so it compares with :func:`bundled_distributions`."""
    data = json.loads((folder / "_internal" / "licenses" / "bundled.json").read_text())
    return {(_norm(c["name"]) if c["kind"] == "distribution" else c["name"]): c
            for c in data["components"]}
