"""The desktop files in the source tree (packaging/linux/) and the man page and completion made
from the parser: one application id everywhere, valid, and complete. Fast: nothing is built."""
from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from ui import APP_ID
from ui.cli.parser import build_parser

from conftest import REPO

LINUX = REPO / "packaging" / "linux"
DESKTOP, METAINFO = LINUX / f"{APP_ID}.desktop", LINUX / f"{APP_ID}.metainfo.xml"
SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)


def png_size(path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def test_one_application_id_everywhere():
    entry = dict(line.split("=", 1) for line in DESKTOP.read_text().splitlines() if "=" in line)
    assert entry["Icon"] == APP_ID and entry["Exec"] == "ssd-profiler"
    info = ET.parse(METAINFO).getroot()
    assert info.findtext("id") == APP_ID
    assert info.findtext("launchable") == DESKTOP.name
    assert info.findtext("provides/binary") == "ssd-profiler"
    # the window tells Wayland and X11 the same id (QGuiApplication.setDesktopFileName)
    assert "setDesktopFileName(APP_ID)" in (REPO / "ui" / "window" / "app.py").read_text()


def test_icons_at_every_size_and_as_svg():
    hicolor = LINUX / "icons" / "hicolor"
    for size in SIZES:
        assert png_size(hicolor / f"{size}x{size}" / "apps" / f"{APP_ID}.png") == (size, size)
    svg = ET.parse(hicolor / "scalable" / "apps" / f"{APP_ID}.svg").getroot()
    assert svg.get("viewBox") == "0 0 256 256"
    # the window's own icon is the same drawing (packaging/make_icon.py renders both)
    assert (REPO / "resources" / "icon.png").read_bytes() == \
        (hicolor / "256x256" / "apps" / f"{APP_ID}.png").read_bytes()


def test_metainfo_has_what_software_centres_show():
    info = ET.parse(METAINFO).getroot()
    assert len(info.findall("description/p")) >= 2 and info.find("content_rating").get("type") == "oars-1.1"
    release = info.find("releases/release")
    from app import __version__
    assert release.get("version") == __version__ and release.get("date")
    shots = info.findall("screenshots/screenshot")
    assert len(shots) >= 2 and all(s.findtext("caption").strip() for s in shots)
    for shot in shots:  # each is in the source tree at the size it claims
        image = shot.find("image")
        local = LINUX / "screenshots" / image.text.rsplit("/", 1)[-1]
        assert png_size(local) == (int(image.get("width")), int(image.get("height")))


@pytest.mark.skipif(not shutil.which("desktop-file-validate"), reason="desktop-file-utils missing")
def test_desktop_file_validates():
    done = subprocess.run(["desktop-file-validate", str(DESKTOP)], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout


@pytest.mark.skipif(not shutil.which("appstreamcli"), reason="appstream missing")
def test_metainfo_validates():
    done = subprocess.run(["appstreamcli", "validate", "--no-net", "--pedantic", str(METAINFO)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout
    # the one pedantic note: upper-case letters in the id, which the reverse-DNS convention allows
    notes = [line for line in done.stdout.splitlines() if line[:2] in ("E:", "W:", "I:", "P:")]
    assert [n.split()[2] for n in notes] in ([], ["cid-contains-uppercase-letter"]), done.stdout


def test_man_page_and_completion_come_from_the_parser(tmp_path):
    pytest.importorskip("shtab")
    pytest.importorskip("argparse_manpage")
    done = subprocess.run([sys.executable, str(REPO / "packaging" / "cli_docs.py"), str(tmp_path)],
                          capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    commands = list(next(a for a in build_parser()._actions if hasattr(a, "choices") and
                         isinstance(a.choices, dict)).choices)
    roff = (tmp_path / "ssd-profiler.1").read_text()
    assert roff.startswith(".TH SSD\\-PROFILER") or roff.startswith(".TH SSD-PROFILER")
    for name in commands:
        assert f"ssd-profiler {name}" in roff.replace("\\-", "-"), name
    for section in ("EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"):
        assert f".SH {section}" in roff
    bash = (tmp_path / "bash" / "ssd-profiler").read_text()
    assert f"_shtab_ssd_profiler_subparsers=({' '.join(commands)})" in bash
    assert "zero-queue" in bash and "_shtab_compgen_dirs" in bash  # experiment ids, --target DIR
    assert (tmp_path / "zsh" / "_ssd-profiler").read_text().startswith("#compdef ssd-profiler")
    if shutil.which("man"):
        page = subprocess.run(["man", "--warnings", "-l", str(tmp_path / "ssd-profiler.1")],
                              capture_output=True, text=True, env={"MANWIDTH": "100", "PATH": "/usr/bin:/bin"})
        assert page.returncode == 0 and not page.stderr.strip(), page.stderr
