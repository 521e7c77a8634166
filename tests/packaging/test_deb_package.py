"""The .deb, as a user gets it: built from the suite's one-folder build, installed with apt-get on
this machine, run by an ordinary user, its menu entry, metainfo, icons, completion and man page in
place and valid, then purged without a trace. Needs root (CI runs as root on Debian 12)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ui import APP_ID

from conftest import REPO
from frozen_support import BUILD_TIMEOUT_S, frozen_folder  # noqa: F401 - the shared build (a fixture)

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Debian package: Linux only"),
    pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                       reason="installs a package with apt-get: needs root (CI runs as root)"),
    pytest.mark.skipif(not (shutil.which("dpkg-deb") and shutil.which("apt-get")),
                       reason="dpkg-deb and apt-get are missing: not a Debian/Ubuntu system"),
]
USER = "ssd-profiler-test"  # an ordinary user: the installed program must not need root
SHARE = Path("/usr/share")
ICON_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
VALIDATORS = ("desktop-file-validate", "appstreamcli")


def sh(*argv: str, timeout: float = 300, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive", **kwargs.pop("env", {})}
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env, **kwargs)


def as_user(*argv: str, timeout: float = 300, offscreen: bool = True) -> subprocess.CompletedProcess:
    """``argv`` as USER with a clean login-like environment: no root HOME, no display."""
    env = ["HOME=/home/" + USER, "USER=" + USER, "PATH=/usr/local/bin:/usr/bin:/bin",
           "LANG=C.UTF-8", *(["QT_QPA_PLATFORM=offscreen"] if offscreen else [])]
    return sh("runuser", "-u", USER, "--", "env", "-i", *env, *argv, timeout=timeout)


def build_deb(folder: Path, out: Path, compression: str = "gzip") -> Path:
    done = sh(sys.executable, str(REPO / "packaging" / "build_deb.py"), "--dist", str(folder),
              "--out", str(out), "--work", str(out / "work"), "--compression", compression, cwd=REPO)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return Path(done.stdout.strip().splitlines()[-1])


def installed() -> bool:
    done = sh("dpkg-query", "-W", "-f=${Status}", "ssd-profiler")
    return done.returncode == 0 and "ok installed" in done.stdout


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def check_desktop_files() -> None:
    desktop = SHARE / "applications" / f"{APP_ID}.desktop"
    metainfo = SHARE / "metainfo" / f"{APP_ID}.metainfo.xml"
    done = sh("desktop-file-validate", str(desktop))
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr
    assert f"Icon={APP_ID}\n" in desktop.read_text() and "Exec=ssd-profiler\n" in desktop.read_text()
    done = sh("appstreamcli", "validate", "--no-net", str(metainfo))
    assert done.returncode == 0, done.stdout + done.stderr
    for size in ICON_SIZES:
        assert png_size(SHARE / f"icons/hicolor/{size}x{size}/apps/{APP_ID}.png") == (size, size)
    assert "<svg" in (SHARE / f"icons/hicolor/scalable/apps/{APP_ID}.svg").read_text()


def check_completion_and_man() -> None:
    bash = SHARE / "bash-completion" / "completions" / "ssd-profiler"
    script = (f'source {bash}; COMP_WORDS=(ssd-profiler run quick --pres); COMP_CWORD=3; '
              'COMP_LINE="ssd-profiler run quick --pres"; COMP_POINT=${#COMP_LINE}; '
              '_shtab_ssd_profiler; echo "${COMPREPLY[*]}"')
    done = sh("bash", "-c", script)
    assert done.stdout.split() == ["--preset"], done.stdout + done.stderr
    zsh = SHARE / "zsh" / "vendor-completions" / "_ssd-profiler"
    assert zsh.read_text().startswith("#compdef ssd-profiler")
    if shutil.which("zsh"):
        assert sh("zsh", "-n", str(zsh)).returncode == 0
    if man_pages_excluded():
        return  # a slimmed image (path-exclude=/usr/share/man/*): dpkg drops every man page
    assert (SHARE / "man" / "man1" / "ssd-profiler.1.gz").is_file()
    if not shutil.which("man"):
        return
    page = sh("man", "--warnings", "ssd-profiler", env={"MANWIDTH": "100"})
    assert page.returncode == 0 and not page.stderr.strip(), page.stderr
    words = " ".join(page.stdout.split())
    for text in ("COMMAND 'ssd-profiler run'", "EXIT STATUS", "--target DIR", "no command opens"):
        assert text in words, text


def man_pages_excluded() -> bool:
    conf = Path("/etc/dpkg/dpkg.cfg.d")
    return conf.is_dir() and any("path-exclude=/usr/share/man" in p.read_text(errors="replace")
                                 for p in conf.iterdir() if p.is_file())


@pytest.mark.skipif(not all(shutil.which(t) for t in VALIDATORS),
                    reason="desktop-file-validate or appstreamcli missing: `bash setup.sh test` "
                           "installs desktop-file-utils and appstream")
@pytest.mark.timeout(BUILD_TIMEOUT_S + 600)  # the shared build (set-up), then 10 min at most
def test_deb_installs_runs_as_a_user_and_purges_cleanly(frozen_folder, tmp_path):  # noqa: F811
    if installed():
        pytest.skip("ssd-profiler is already installed here; `apt-get remove --purge ssd-profiler` "
                    "first (this test installs and purges its own build)")
    started = time.monotonic()
    deb = build_deb(frozen_folder, tmp_path)
    built = time.monotonic()
    fields = sh("dpkg-deb", "-f", str(deb), "Depends", "Recommends").stdout
    assert "Recommends: fio, smartmontools" in fields and "libc6 (>= 2." in fields, fields
    if sh("id", "-u", USER).returncode != 0:
        assert sh("useradd", "--create-home", "--shell", "/bin/bash", USER).returncode == 0
    try:
        done = sh("apt-get", "install", "-y", str(deb), timeout=600)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        assert Path("/usr/bin/ssd-profiler").resolve() == Path("/opt/ssd-profiler/ssd-profiler")
        version = as_user("ssd-profiler", "--version", timeout=60)
        assert version.returncode == 0 and version.stdout.startswith("ssd-profiler "), version.stderr
        window = as_user("ssd-profiler", offscreen=False, timeout=60)  # no display here
        assert window.returncode == 2 and len(window.stderr.splitlines()) == 1, window.stderr
        assert "no display to open the window on" in window.stderr
        selftest = as_user("ssd-profiler", "--self-test")
        assert selftest.returncode == 0 and "self-test: passed" in selftest.stdout, \
            selftest.stdout + selftest.stderr[-3000:]
        check_desktop_files()
        check_completion_and_man()
    finally:
        purge = sh("apt-get", "remove", "--purge", "-y", "ssd-profiler", timeout=300)
    assert purge.returncode == 0, purge.stdout[-2000:] + purge.stderr[-2000:]
    assert not installed()
    assert not Path("/opt/ssd-profiler").exists() and not Path("/usr/bin/ssd-profiler").exists()
    assert not (SHARE / "applications" / f"{APP_ID}.desktop").exists()
    print(f"deb: {deb.stat().st_size / 1e6:.0f} MB built in {built - started:.0f} s; "
          f"installed, run and purged in {time.monotonic() - built:.0f} s")
