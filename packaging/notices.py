"""THIRD_PARTY_NOTICES.md and the licence texts of the one-folder build, generated from what the
build collects (ssd-profiler.spec calls :func:`generate` once packaging/lean.py has trimmed it).

Why generated: the hand-written list drifted (it named packages the build leaves out and missed
ones it ships) and named licences without their texts, which BSD, MIT and the LGPL require to
travel with the program. Here every collected file is traced to where it came from:

- a file an installed distribution owns (its RECORD, through importlib.metadata): that
  distribution, its licence expression and the licence files in its metadata; Qt's libraries
  and ICU inside PySide6's wheel are listed apart, as the components they are;
- a file of the Python installation (standard library, lib-dynload, libpython): Python, with the
  installation's LICENSE.txt (on Windows and macOS the DLLs and libraries it ships too);
- the app's own files: SSD Profiler, MIT; a bundled DiskSpd: DiskSpd, MIT, its LICENSE;
- anything else, the shared libraries PyInstaller copies from the system: on Debian and Ubuntu
  the package dpkg names as its owner, with that package's /usr/share/doc/<package>/copyright.

What cannot be traced is listed as such (``unresolved``), never guessed; the spec warns and
tests/ui/test_packaging.py fails on it. Two wheels carry no licence file (PySide6-Essentials,
shiboken6): their LGPL-3.0 and GPL-3.0 texts, and ICU's, are kept in packaging/licenses/.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path, PurePath

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
KEPT_TEXTS = HERE / "licenses"
LICENCE_NAME = re.compile(r"(licen[cs]e|copying|notice|copyright)", re.I)
GNU = ("LGPL-3.0.txt", "GPL-3.0.txt")     # LGPL-3.0 is GPL-3.0 plus permissions: both travel
NO_TEXT_IN_WHEEL = {"pyside6-essentials": GNU, "shiboken6": GNU}


@dataclass
class Component:
    name: str
    version: str
    licence: str
    source: str = ""
    texts: dict[str, Path] = field(default_factory=dict)   # name in licenses/<slug>/ -> file
    files: list[str] = field(default_factory=list)         # destinations in the folder
    kind: str = "distribution"   # or: app, python, part (of a distribution), system

    @property
    def slug(self) -> str:
        """Its folder under licenses/: the name without what the brackets add."""
        return re.sub(r"[^A-Za-z0-9._-]+", "-", self.name.split(" (")[0])


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _abs(path) -> str:
    return str(Path(path).absolute())


def _owners() -> dict[str, metadata.Distribution]:
    """Every file of every installed distribution -> that distribution."""
    owners = {}
    for dist in metadata.distributions():
        for f in dist.files or ():
            owners[_abs(dist.locate_file(f))] = dist
    return owners


def _dist_component(dist: metadata.Distribution) -> Component:
    meta = dist.metadata
    licence = meta.get("License-Expression") or ""
    if not licence and meta.get("License") and len(meta["License"]) < 80 and "\n" not in meta["License"]:
        licence = meta["License"]
    if not licence:
        licence = "; ".join(c.split(" :: ")[-1] for c in meta.get_all("Classifier") or ()
                            if c.startswith("License ::")) or "see the licence texts"
    urls = [u.split(",", 1)[-1].strip() for u in meta.get_all("Project-URL") or ()]
    comp = Component(meta["Name"], dist.version, licence, (urls or [meta.get("Home-page") or ""])[0])
    for f in dist.files or ():
        parts = PurePath(str(f)).parts
        if parts and parts[0].endswith(".dist-info") and LICENCE_NAME.search(f.name):
            inner = parts[2:] if len(parts) > 2 and parts[1] == "licenses" else parts[1:]
            comp.texts["/".join(inner)] = Path(dist.locate_file(f))
    for name in NO_TEXT_IN_WHEEL.get(_norm(meta["Name"]), ()):
        comp.texts.setdefault(name, KEPT_TEXTS / name)
    return comp


def _python() -> Component:
    stdlib = Path(sysconfig.get_path("stdlib"))
    text = next((p for p in (stdlib / "LICENSE.txt", Path(sys.base_prefix) / "LICENSE.txt")
                 if p.is_file()), None)
    return Component("Python", sys.version.split()[0], "PSF-2.0 (and the licences in its text)",
                     "https://www.python.org/downloads/source/",
                     {"LICENSE.txt": text} if text else {}, kind="python")


def _is_python(src: str) -> bool:
    stdlib = _abs(sysconfig.get_path("stdlib"))
    if src.startswith(stdlib):
        return True
    if not sys.platform.startswith("linux"):   # python.org and Windows installers: their own
        return src.startswith(_abs(sys.base_prefix))
    lib = sysconfig.get_config_var("INSTSONAME") or ""
    return bool(lib) and Path(src).name == lib


def _debian_packages(paths: list[str]) -> dict[str, Component]:
    """path -> the Debian package that owns it (dpkg -S), for the system's shared libraries."""
    if not paths or not shutil.which("dpkg"):
        return {}
    asked = {}
    for p in paths:
        for alias in {p, str(Path(p).resolve()), re.sub(r"^/usr/", "/", p),
                      p if p.startswith("/usr/") else "/usr" + p}:
            asked[alias] = p
    done = subprocess.run(["dpkg", "-S", *sorted(asked)], capture_output=True, text=True)
    found: dict[str, Component] = {}
    packages: dict[str, Component] = {}
    for line in done.stdout.splitlines():
        owner, _, path = line.partition(": ")
        if path not in asked or "," in owner or asked[path] in found:
            continue
        package = owner.split(":")[0]
        if package not in packages:
            version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package],
                                     capture_output=True, text=True).stdout.strip()
            copyright_file = Path("/usr/share/doc") / package / "copyright"
            text = copyright_file.read_text(errors="replace") if copyright_file.is_file() else ""
            licences = sorted(set(re.findall(r"^License: *(\S+)", text, re.M)))
            packages[package] = Component(
                f"{package} (Debian)", version, " and ".join(licences) or "see its copyright",
                "the Debian source package (apt-get source)",
                {"copyright": copyright_file} if text else {}, kind="system")
        found[asked[path]] = packages[package]
    return found


def trace(entries: list[tuple], root: Path = ROOT) -> tuple[list[Component], list[tuple]]:
    """The components behind the TOC ``entries`` ``(destination, source, typecode)``, and the
    entries no rule explains."""
    owners = _owners()
    comps: dict[str, Component] = {}
    unknown = []

    def add(key: str, make, dest: str) -> None:
        comps.setdefault(key, make()).files.append(dest)

    app = Component("SSD Profiler", _app_version(root), "MIT", "this program",
                    {"LICENSE": root / "LICENSE"}, kind="app")
    python = _python()
    for dest, src, _kind in entries:
        if not src:
            continue
        src = _abs(src)
        dest = dest.replace("\\", "/")
        dist = owners.get(src)
        if dist is not None and _norm(dist.metadata["Name"]) == "ssd-profiler":
            add("ssd-profiler", lambda: app, dest)   # an editable install of this very tree
        elif dist is not None:
            key = _norm(dist.metadata["Name"])
            if key == "pyside6-essentials" and "/Qt/" in f"/{dest}":
                key = "icu" if re.search(r"(^|/)(lib)?icu", dest) else "qt"
                add(key, lambda k=key, d=dist: _qt_part(k, d), dest)
            else:
                add(key, lambda d=dist: _dist_component(d), dest)
        elif src.startswith(_abs(root / "packaging" / "vendor" / "diskspd")):
            add("diskspd", lambda: Component("DiskSpd", "", "MIT", "https://github.com/microsoft/diskspd",
                                             {"LICENSE": root / "packaging/vendor/diskspd/LICENSE"},
                                             kind="program"), dest)
        elif src.startswith(_abs(root) + "/") or src.startswith(_abs(root) + "\\"):
            add("ssd-profiler", lambda: app, dest)
        elif _is_python(src):
            add("python", lambda: python, dest)
        else:
            unknown.append((dest, src))
    if "icu" in comps:   # its version is in its libraries' names (libicuuc.so.73)
        found = re.search(r"icu\w*?\.(?:so\.)?(\d+)", " ".join(comps["icu"].files))
        comps["icu"].version = found.group(1) if found else ""
    debian = _debian_packages([src for _, src in unknown])
    for dest, src in unknown:
        if src in debian:
            comps.setdefault(debian[src].name, debian[src]).files.append(dest)
    unresolved = [(dest, src) for dest, src in unknown if src not in debian]
    return sorted(comps.values(), key=lambda c: c.name.lower()), unresolved


def _qt_part(key: str, pyside: metadata.Distribution) -> Component:
    if key == "icu":
        return Component("ICU (inside PySide6's Qt)", "", "Unicode-DFS-2016 (ICU licence)",
                         "https://github.com/unicode-org/icu", {"LICENSE": KEPT_TEXTS / "ICU.txt"},
                         kind="part")
    return Component("Qt (inside PySide6-Essentials)", pyside.version, "LGPL-3.0-only",
                     "https://download.qt.io/official_releases/qt/",
                     {name: KEPT_TEXTS / name for name in GNU}, kind="part")


def _app_version(root: Path) -> str:
    text = (root / "app" / "__init__.py").read_text()
    match = re.search(r'__version__ = "([^"]+)"', text)
    return match.group(1) if match else ""


def generate(entries: list[tuple], out: Path, root: Path = ROOT) -> tuple[list[tuple], list[tuple]]:
    """Write ``out``/THIRD_PARTY_NOTICES.md and ``out``/licenses/ for the TOC ``entries``;
    returns the TOC entries of what was written and the unresolved entries."""
    from notices_text import notices_markdown  # beside this file

    comps, unresolved = trace(entries, root)
    if out.exists():
        shutil.rmtree(out)
    (out / "licenses").mkdir(parents=True)
    for comp in comps:
        for name, src in comp.texts.items():
            if src.is_file():
                target = out / "licenses" / comp.slug / name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, target)
    (out / "THIRD_PARTY_NOTICES.md").write_text(notices_markdown(comps, unresolved), encoding="utf-8")
    listing = [{"name": c.name, "version": c.version, "licence": c.licence, "kind": c.kind,
                "texts": [f"licenses/{c.slug}/{n}" for n, p in c.texts.items() if p.is_file()],
                "files": sorted(set(c.files))} for c in comps]
    (out / "licenses" / "bundled.json").write_text(
        json.dumps({"components": listing, "unresolved": [d for d, _ in unresolved]}, indent=1))
    written = [(str(p.relative_to(out)).replace("\\", "/"), str(p), "DATA")
               for p in sorted(out.rglob("*")) if p.is_file()]
    return written, unresolved
