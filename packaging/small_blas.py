"""numpy's BLAS in the Linux build: packaging/minimal_blas.c instead of OpenBLAS, for the spec.

Why: numpy's Linux wheel bundles OpenBLAS (25 MB, and the 3 MB of libgfortran and libquadmath it
needs), an eighth of the build, for matrix products the app never makes: its numpy is sums,
percentiles and array slicing; pyqtgraph's is the same, plus the pseudo-inverse of a singular
3x3 transform (an SVD). minimal_blas.c gives numpy every symbol it imports from OpenBLAS under
the same names: the products and dot products as textbook loops, the real SVD, and every other
LAPACK routine refusing (numpy.linalg then raises LinAlgError; nothing in the app calls them).

The swap is checked, not assumed: the library is compiled, and every ``scipy_*`` symbol the
collected binaries import from OpenBLAS must be defined by it, else OpenBLAS is kept (a numpy
release that calls more). Without a C compiler, OpenBLAS is kept too. Then lean.prune drops
the libraries only OpenBLAS used.
"""
from __future__ import annotations

import logging
import re
import shutil
import subprocess
from pathlib import Path

log = logging.getLogger("lean")
SOURCE = Path(__file__).with_name("minimal_blas.c")
OPENBLAS = re.compile(r"libscipy_openblas[\w-]*\.so")


def _symbols(binary: str, undefined: bool) -> set[str]:
    flag = "--undefined-only" if undefined else "--defined-only"
    done = subprocess.run(["nm", "-D", flag, binary], capture_output=True, text=True)
    return {line.split()[-1] for line in done.stdout.splitlines() if line.split()}


def build(name: str, needed: set[str], out_dir: Path) -> Path | None:
    """minimal_blas.c compiled as ``name``, or None when it cannot stand in (see the docstring)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    library = out_dir / name
    done = subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-std=c11", f"-Wl,-soname,{name}",
                           "-o", str(library), str(SOURCE), "-lm"], capture_output=True, text=True)
    if done.returncode != 0:
        log.warning("lean: compiling %s failed, OpenBLAS kept: %s", SOURCE.name, done.stderr)
        return None
    missing = needed - _symbols(str(library), undefined=False)
    if missing:
        log.warning("lean: numpy imports %s, which %s lacks: OpenBLAS kept", sorted(missing),
                    SOURCE.name)
        return None
    return library


def needed(binary: str) -> list[str]:
    """The libraries ``binary`` itself links against (its NEEDED entries; PyInstaller's
    get_imports on Linux lists what they need too, through ldd, so numpy's own modules seemed
    to need libgfortran)."""
    done = subprocess.run(["readelf", "-d", binary], capture_output=True, text=True)
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", done.stdout)


def with_small_blas(binaries: list[tuple], workdir: str) -> tuple[list[tuple], dict[str, str]]:
    """(``binaries`` without the libraries only OpenBLAS needed, {OpenBLAS's destination: the
    library to collect in its place}); ``binaries`` and {} where minimal_blas.c cannot stand in.
    The swap itself is left to the caller, after the notices are made from the original files
    (numpy's own notice names OpenBLAS either way)."""
    import lean  # packaging/lean.py, beside this file on the spec's path

    if not all(shutil.which(t) for t in ("cc", "nm", "readelf")):
        log.warning("lean: no C compiler or binutils: OpenBLAS kept")
        return binaries, {}
    found = [e for e in binaries if e[2] != "SYMLINK" and OPENBLAS.fullmatch(Path(e[0]).name)]
    if len(found) != 1:
        return binaries, {}
    (openblas,) = found
    name = Path(openblas[0]).name
    users = [e for e in binaries if e is not openblas and e[2] != "SYMLINK"
             and name in needed(e[1])]
    symbols = {s for e in users for s in _symbols(e[1], undefined=True) if s.startswith("scipy_")}
    library = build(name, symbols, Path(workdir) / "lean-blas")
    if library is None:
        return binaries, {}
    swapped = [(e[0], str(library), e[2]) if e is openblas else e for e in binaries]
    kept = [openblas if e[1] == str(library) else e
            for e in lean.prune(swapped, [openblas], needed)]
    gone = {Path(e[0]).name for e in binaries if e not in kept and e[2] != "SYMLINK"}
    kept = [e for e in kept if e[2] != "SYMLINK"     # and the links to what was dropped
            or not {Path(e[0]).name, Path(e[1]).name} & gone]
    log.info("lean: OpenBLAS (%.1f MB) replaced by %s (%.2f MB) for the %d symbols numpy "
             "imports", Path(openblas[1]).stat().st_size / 1e6, SOURCE.name,
             library.stat().st_size / 1e6, len(symbols))
    return kept, {openblas[0]: str(library)}
