"""The Linux one-folder executable builds, serves --version and --self-test offscreen, and ships
the licence texts and notices of exactly what it holds. The folder is built once per module
(``built``) and every test here reads it."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from bundle_contents import bundled_distributions, listed_components
from conftest import REPO
from frozen_support import BUILD_TIMEOUT_S, frozen_folder  # noqa: F401 - the shared build

# the build takes about 2 minutes alone, and more than the suite's 300 s on a machine shared with
# other runs: the module's first test (whose set-up builds) gets longer
pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux build only"),
              pytest.mark.timeout(900)]
ENV = {**os.environ, "PYTHON": sys.executable, "QT_QPA_PLATFORM": "offscreen"}


@pytest.fixture
def built(frozen_folder) -> Path:  # noqa: F811 - the shared build (tests/frozen_support.py)
    return frozen_folder


@pytest.mark.timeout(BUILD_TIMEOUT_S + 300)  # the shared build is its set-up
def test_build_and_smoke_the_executable(built):
    exe = built / "ssd-profiler"
    version = subprocess.run([str(exe), "--version"], env=ENV, capture_output=True, text=True,
                             timeout=60)
    assert version.returncode == 0 and version.stdout.startswith("ssd-profiler "), version.stderr
    selftest = subprocess.run([str(exe), "--self-test"], env=ENV, capture_output=True, text=True,
                              timeout=300)
    assert selftest.returncode == 0, selftest.stdout + selftest.stderr
    assert "self-test: passed" in selftest.stdout
    size = sum(p.stat().st_size for p in built.rglob("*") if p.is_file() and not p.is_symlink())
    #: at most 180 MB (docs/development.md): ICU's data without what Qt never reads
    # (packaging/icu_data.py, Linux; it needs a C compiler at build time, without one the
    # original is kept), numpy's OpenBLAS as its wheel ships it
    limit = 180e6 if sys.platform.startswith("linux") and shutil.which("cc") else 215e6
    assert size < limit, f"the folder holds {size / 1e6:.0f} MB"
    # the frozen terminal: a real tiny run with rich progress and the results table
    if shutil.which("fio"):
        target = Path(tempfile.mkdtemp(prefix="frozen-run-"))
        try:
            done = subprocess.run([str(exe), "run", "zero-queue", "--target", str(target),
                                   "--set", "runtime=1s", "--set", "size=16MiB",
                                   "--set", "repetitions=1", "--set", "warmup=false",
                                   "--out", str(target / "runs")],
                                  env=ENV, capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, done.stderr[-3000:]
            assert "mean ± sample std" in done.stdout and "[4/4]" in done.stderr
        finally:
            shutil.rmtree(target, ignore_errors=True)


@pytest.mark.timeout(BUILD_TIMEOUT_S + 300)
def test_the_notices_name_exactly_the_distributions_the_folder_holds(built):
    """Listed from the folder itself (its files and the compressed archive in the executable,
    each traced through the installed distributions' RECORDs), not from the build's own list."""
    found = bundled_distributions(built)
    components = listed_components(built)
    listed = {name for name, c in components.items() if c["kind"] == "distribution"}
    assert set(found) - {"ssd-profiler"} == listed, (
        f"shipped, not in the notices: {sorted(set(found) - listed - {'ssd-profiler'})}; "
        f"in the notices, not shipped: {sorted(listed - set(found))}")
    notices = (built / "_internal" / "THIRD_PARTY_NOTICES.md").read_text()
    assert (built / "_internal" / "resources" / "THIRD_PARTY_NOTICES.md").read_text() == notices
    for c in components.values():
        if c["kind"] != "app":
            assert f"| {c['name']} | {c['version'] or '-'} |" in notices, c["name"]


@pytest.mark.timeout(BUILD_TIMEOUT_S + 300)
def test_every_component_has_its_licence_text_in_the_folder(built):
    internal = built / "_internal"
    data = (internal / "licenses" / "bundled.json").read_text()
    assert '"unresolved": []' in data, "files whose origin the build could not trace"
    for c in listed_components(built).values():
        assert c["texts"], f"{c['name']}: no licence text"
        for text in c["texts"]:
            assert (internal / text).stat().st_size > 200, text
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in (internal / "licenses/Qt/LGPL-3.0.txt").read_text()
    assert (internal / "LICENSE").read_text() == (REPO / "LICENSE").read_text()


@pytest.mark.timeout(BUILD_TIMEOUT_S + 300)
def test_every_shared_library_in_the_folder_is_accounted_for(built):
    """The libraries PyInstaller copies from the system (libstdc++, libxcb, ...) are named."""
    named = {f for c in listed_components(built).values() for f in c["files"]}
    internal = built / "_internal"
    libraries = [p.relative_to(internal).as_posix() for p in internal.rglob("*.so*")
                 if p.is_file() and not p.is_symlink()]
    assert len(libraries) > 50
    assert [lib for lib in libraries if lib not in named] == []


@pytest.mark.timeout(BUILD_TIMEOUT_S + 300)
def test_the_lgpl_libraries_are_plain_replaceable_files(built):
    from PyInstaller.archive.readers import pkg_archive_contents

    internal = built / "_internal"
    archived = pkg_archive_contents(str(built / "ssd-profiler"))
    assert "rich.console" in archived   # the archive was read
    inside = [m for m in archived if m.split(".")[0] in ("pySMART", "PySide6", "shiboken6")]
    assert inside == []
    assert (internal / "pySMART" / "__init__.py").is_file()
    assert (internal / "pySMART" / "smartctl.py").is_file()
    assert (internal / "PySide6" / "__init__.py").is_file()
    assert (internal / "shiboken6" / "__init__.py").is_file()
    assert list((internal / "PySide6" / "Qt" / "lib").glob("libQt6Core.so*"))
