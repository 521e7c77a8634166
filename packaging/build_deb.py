"""Builds dist/ssd-profiler_<version>_<arch>.deb from the one-folder build, with dpkg-deb alone.

The folder PyInstaller made (and the suite tests) goes unchanged to /opt/ssd-profiler; the rest
is what makes it a desktop citizen: /usr/bin/ssd-profiler, the menu entry, AppStream metainfo,
the hicolor icons, bash and zsh completion and the man page (generated from the parser by
packaging/cli_docs.py), and /usr/share/doc. No maintainer scripts: dpkg's triggers of
desktop-file-utils, hicolor-icon-theme and man-db refresh their caches.

Depends is computed like dpkg-shlibdeps would, without its debian/ tree: every library an ELF
file of the folder needs that the folder does not bundle, mapped to the package that ships it
here (or by Debian's naming rule when it is not installed), and libc6 at least at the newest
GLIBC_ symbol version any file asks for. The bundled fontconfig and xkbcommon read their
configuration and data from the system, hence fontconfig-config and xkb-data.

Usage: python packaging/build_deb.py [--dist dist/ssd-profiler] [--out dist] [--compression gzip]
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import re
import shutil
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from app import __version__  # noqa: E402
from ui import APP_ID  # noqa: E402

PACKAGE = "ssd-profiler"
LINUX = ROOT / "packaging" / "linux"
MAINTAINER = "SSD Profiler maintainers <maintainers@users.noreply.a-seed-fdb7f617.example>"
RECOMMENDS = "fio, smartmontools"
DATA_DEPENDS = ("fontconfig-config", "xkb-data")
GLIBC_SONAMES = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1",
                 "libutil.so.1", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"}


def run(*argv: str) -> str:
    return subprocess.run(argv, check=True, capture_output=True, text=True).stdout


def elf_files(folder: Path) -> list[Path]:
    out = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as f:
                if f.read(4) == b"\x7fELF":
                    out.append(path)
    return out


def needed_and_glibc(elves: list[Path]) -> tuple[set[str], tuple[int, ...]]:
    """The sonames the files need, and the newest GLIBC_x.y version they refer to."""
    needed, newest = set(), (2, 2, 5)
    for path in elves:
        dump = run("objdump", "-p", str(path))
        needed.update(re.findall(r"^\s+NEEDED\s+(\S+)", dump, re.M))
        for version in re.findall(r"\bGLIBC_(\d+(?:\.\d+)+)\b", dump):
            newest = max(newest, tuple(int(x) for x in version.split(".")))
    return needed, newest


def package_of(soname: str, cache: str) -> str:
    """The package that ships ``soname`` here; else Debian's name for it (policy 8.1:
    libfoo.so.1 in libfoo1, libfoo2.so.0 in libfoo2-0)."""
    match = re.search(rf"^\s+{re.escape(soname)} \([^)]*x86-64[^)]*\) => (\S+)$", cache, re.M) \
        or re.search(rf"^\s+{re.escape(soname)} \([^)]*\) => (\S+)$", cache, re.M)
    if match:
        path = Path(match.group(1))
        for candidate in (path, path.resolve(), Path("/usr") / path.relative_to("/")):
            found = subprocess.run(["dpkg-query", "-S", str(candidate)], capture_output=True, text=True)
            if found.returncode == 0:
                return found.stdout.split(":", 1)[0].strip()
    name, _, number = soname.partition(".so.")
    name = name.lower()
    return f"{name}-{number}" if name[-1].isdigit() else f"{name}{number}"


def depends(folder: Path) -> str:
    elves = elf_files(folder)
    bundled = {p.name for p in folder.rglob("*")}
    needed, glibc = needed_and_glibc(elves)
    cache = run("ldconfig", "-p")
    packages = {package_of(s, cache) for s in needed - bundled - GLIBC_SONAMES}
    packages.discard("libc6")
    glibc_text = ".".join(map(str, glibc))
    return ", ".join([f"libc6 (>= {glibc_text})", *sorted(packages | set(DATA_DEPENDS))])


def metainfo() -> ET.Element:
    return ET.parse(LINUX / f"{APP_ID}.metainfo.xml").getroot()


def homepage() -> str:
    return metainfo().findtext('url[@type="homepage"]')


def control(folder: Path, installed_kib: int) -> str:
    info = metainfo()
    summary = info.findtext("summary")
    paragraphs = [" ".join(p.text.split()) for p in info.find("description").iter("p")]
    body = "\n .\n".join(textwrap.fill(p, 79, initial_indent=" ", subsequent_indent=" ")
                         for p in [paragraphs[0], paragraphs[-1]])
    return (f"Package: {PACKAGE}\nVersion: {__version__}\nArchitecture: {run('dpkg', '--print-architecture').strip()}\n"
            f"Maintainer: {MAINTAINER}\nInstalled-Size: {installed_kib}\n"
            f"Depends: {depends(folder)}\nRecommends: {RECOMMENDS}\nSection: utils\nPriority: optional\n"
            f"Homepage: {homepage()}\n"
            f"Description: {summary[0].lower() + summary[1:]}\n{body}\n")


def changelog() -> str:
    """A Debian changelog from the metainfo's newest release (the one record of releases)."""
    release = metainfo().find("releases/release")
    when = datetime.fromisoformat(release.get("date")).replace(hour=12, tzinfo=UTC)
    text = " ".join("".join(release.find("description").itertext()).split())
    lines = textwrap.fill(text, 76, initial_indent="  * ", subsequent_indent="    ")
    return (f"{PACKAGE} ({release.get('version')}) unstable; urgency=medium\n\n{lines}\n\n"
            f" -- {MAINTAINER}  {format_datetime(when)}\n")


def copyright_file() -> str:
    licence = (ROOT / "LICENSE").read_text().strip()
    body = "\n".join(" " + (line if line.strip() else ".") for line in licence.splitlines())
    return ("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
            f"Upstream-Name: {PACKAGE}\nSource: {homepage()}\n\n"
            "Files: *\nCopyright: the SSD Profiler developers\nLicense: MIT\n\n"
            "Files: opt/ssd-profiler/_internal/*\nCopyright: their authors\n"
            "License: various\n The components bundled with the program (Python, Qt and PySide6, "
            "pyqtgraph, numpy,\n pandas and the libraries they use) are each under their own "
            "licence, listed\n in /opt/ssd-profiler/_internal/THIRD_PARTY_NOTICES.md.\n\n"
            f"License: MIT\n{body}\n")


def gz(data: bytes, dest: Path) -> None:
    """gzip -9n: no name and no time stamp inside, so a rebuild is byte for byte the same."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    with open(dest, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as f:
        f.write(data)


def put(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)


def stage(folder: Path, root: Path, docs: Path) -> None:
    shutil.copytree(folder, root / "opt" / PACKAGE, symlinks=True)
    (root / "usr" / "bin").mkdir(parents=True)
    # absolute: /usr and /opt are different top-level folders (Debian policy 10.5)
    (root / "usr" / "bin" / PACKAGE).symlink_to(f"/opt/{PACKAGE}/{PACKAGE}")
    share = root / "usr" / "share"
    put(LINUX / f"{APP_ID}.desktop", share / "applications" / f"{APP_ID}.desktop")
    put(LINUX / f"{APP_ID}.metainfo.xml", share / "metainfo" / f"{APP_ID}.metainfo.xml")
    shutil.copytree(LINUX / "icons" / "hicolor", share / "icons" / "hicolor")
    put(docs / "bash" / PACKAGE, share / "bash-completion" / "completions" / PACKAGE)
    put(docs / "zsh" / f"_{PACKAGE}", share / "zsh" / "vendor-completions" / f"_{PACKAGE}")
    gz((docs / f"{PACKAGE}.1").read_bytes(), share / "man" / "man1" / f"{PACKAGE}.1.gz")
    doc = share / "doc" / PACKAGE
    doc.mkdir(parents=True)
    (doc / "copyright").write_text(copyright_file())
    gz(changelog().encode(), doc / "changelog.gz")
    put(LINUX / f"{PACKAGE}.lintian-overrides", share / "lintian" / "overrides" / PACKAGE)


def normalize_modes(root: Path) -> None:
    """0755 folders and programs, 0644 everything else (shared libraries need no x bit)."""
    for path in root.rglob("*"):
        if path.is_symlink():
            continue
        if path.is_dir():
            path.chmod(0o755)
            continue
        with path.open("rb") as f:
            head = f.read(20)
        program = head[:4] == b"\x7fELF" and head[16] == 2  # ET_EXEC (ET_DYN: a library or PIE)
        program = program or head[:2] == b"#!" or path.name == PACKAGE and path.parent.name == PACKAGE
        path.chmod(0o755 if program else 0o644)


def md5sums(root: Path) -> str:
    lines = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink() and "DEBIAN" not in path.relative_to(root).parts:
            lines.append(f"{hashlib.md5(path.read_bytes()).hexdigest()}  {path.relative_to(root)}")
    return "\n".join(lines) + "\n"


def build(folder: Path, out: Path, work: Path, compression: str = "xz") -> Path:
    if not (folder / PACKAGE).is_file():
        raise SystemExit(f"{folder} holds no {PACKAGE} program: run packaging/build.sh first")
    shutil.rmtree(work, ignore_errors=True)
    docs, root = work / "cli-docs", work / "root"
    subprocess.run([sys.executable, str(ROOT / "packaging" / "cli_docs.py"), str(docs)], check=True,
                   stdout=subprocess.DEVNULL)
    stage(folder, root, docs)
    normalize_modes(root)
    installed = sum(p.lstat().st_size for p in root.rglob("*")) // 1024 + 1
    (root / "DEBIAN").mkdir(mode=0o755)
    (root / "DEBIAN" / "control").write_text(control(folder, installed))
    (root / "DEBIAN" / "md5sums").write_text(md5sums(root))
    arch = run("dpkg", "--print-architecture").strip()
    deb = out / f"{PACKAGE}_{__version__}_{arch}.deb"
    out.mkdir(parents=True, exist_ok=True)
    level = ["-z1"] if compression == "gzip" else []  # gzip: for speed, not size
    subprocess.run(["dpkg-deb", "--root-owner-group", f"-Z{compression}", *level, "--build", str(root), str(deb)],
                   check=True, stdout=subprocess.DEVNULL)
    return deb


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist" / PACKAGE,
                        help="the one-folder build (default: dist/ssd-profiler)")
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="where the .deb goes")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "deb", help="staging folder")
    parser.add_argument("--compression", choices=("xz", "gzip"), default="xz",
                        help="xz (default): the smallest; gzip -1: several times faster to build, "
                             "a larger file (the test suite's choice). lintian reads both")
    args = parser.parse_args()
    deb = build(args.dist.resolve(), args.out.resolve(), args.work.resolve(), args.compression)
    print(deb)
    return 0


if __name__ == "__main__":
    sys.exit(main())
