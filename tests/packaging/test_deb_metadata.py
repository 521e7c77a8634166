"""lintian on the package's own parts: control, copyright, changelog, man page, menu entry,
metainfo, icons, completion, permissions and md5sums.

The .deb is built around a stand-in for the one-folder build, so lintian takes seconds instead of
minutes: what it says about the real folder's third-party binaries is explained, tag by tag, in
packaging/linux/ssd-profiler.lintian-overrides, and those overrides go unused here. Anything
else lintian finds, at any level, fails."""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from conftest import REPO

pytestmark = pytest.mark.skipif(not (shutil.which("lintian") and shutil.which("dpkg-deb")),
                                reason="lintian or dpkg-deb missing: `bash setup.sh test` installs lintian")


def test_lintian_finds_nothing_but_the_explained_bundle_tags(tmp_path):
    pytest.importorskip("shtab")
    folder = tmp_path / "ssd-profiler"
    (folder / "_internal").mkdir(parents=True)
    shutil.copy("/bin/true", folder / "ssd-profiler")  # an ELF program, as the real one is
    (folder / "_internal" / "THIRD_PARTY_NOTICES.md").write_text("notices\n")
    done = subprocess.run([sys.executable, str(REPO / "packaging" / "build_deb.py"), "--dist", str(folder),
                           "--out", str(tmp_path), "--work", str(tmp_path / "work"),
                           "--compression", "gzip"], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    deb = done.stdout.strip().splitlines()[-1]
    contents = subprocess.run(["dpkg-deb", "-c", deb], capture_output=True, text=True).stdout
    for path in ("./usr/bin/ssd-profiler -> /opt/ssd-profiler/ssd-profiler",
                 "./usr/share/bash-completion/completions/ssd-profiler",
                 "./usr/share/zsh/vendor-completions/_ssd-profiler",
                 "./usr/share/man/man1/ssd-profiler.1.gz",
                 "./usr/share/metainfo/", "./usr/share/applications/",
                 "./usr/share/icons/hicolor/scalable/apps/", "./usr/share/doc/ssd-profiler/copyright",
                 "./usr/share/lintian/overrides/ssd-profiler"):
        assert path in contents, path
    lint = subprocess.run(["lintian", "--pedantic", "--display-info", "--display-experimental", deb],
                          capture_output=True, text=True, timeout=300)
    tags = [line for line in lint.stdout.splitlines()
            if line[:2] in ("E:", "W:", "I:", "P:", "X:") and " unused-override " not in line]
    assert tags == [], lint.stdout
