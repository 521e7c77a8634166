"""packaging/icu_data.py and packaging/small_blas.py: the Linux build's two native cuts, checked
on the real files of this environment (PySide6's ICU data, numpy with its OpenBLAS swapped).
The built folder itself is checked by tests/ui/test_packaging.py (--self-test, a real run)."""
from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or not shutil.which("cc"),
                                reason="the native cuts are made on Linux, with a C compiler")


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "packaging" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _site_file(pattern: str) -> Path:
    import numpy
    import PySide6
    roots = [Path(PySide6.__file__).parent / "Qt" / "lib", Path(numpy.__file__).parent.parent]
    found = [p for root in roots for p in root.glob(pattern)]
    if not found:
        pytest.skip(f"no {pattern} in this environment's wheels")
    return found[0]


def test_icu_data_keeps_what_qt_reads_and_parses_back():
    icu = _load("icu_data")
    original = _site_file("libicudata.so.*")
    name, offset, size = icu._symbol(original)
    with original.open("rb") as f:
        f.seek(offset)
        data = f.read(size)
    header, items = icu._items(data)
    package, dropped = icu.trimmed(data)
    header2, kept = icu._items(package)
    names = {n.split("/", 1)[1] for n, _ in kept}
    assert header2 == header and dropped == len(items) - len(kept) > 1000
    assert len(package) < len(data) / 3
    # collation, time zone names, converters' aliases, normalization: what Qt calls read
    assert {"coll/root.res", "coll/de.res", "coll/ucadata.icu", "zone/de.res", "zone/ja.res",
            "zoneinfo64.res", "metaZones.res", "supplementalData.res", "likelySubtags.res",
            "root.res", "en.res", "cnvalias.icu", "nfkc.nrm"} <= names
    assert not any(n.startswith(("brkitr/", "curr/", "unit/")) or n.endswith(".cnv")
                   for n in names)
    assert dict(kept)[kept[0][0]] == dict(items)[kept[0][0]]   # items carried byte for byte


PROBE = """
import numpy as np
rng = np.random.default_rng(0)
for dt in (np.float32, np.float64, np.complex64, np.complex128):
    a, b = rng.standard_normal((4, 3)).astype(dt), rng.standard_normal((3, 5)).astype(dt)
    if np.iscomplexobj(a):
        a = a + 1j * rng.standard_normal(a.shape).astype(dt)
    ref = np.einsum("ik,kj->ij", a, b)        # no BLAS in einsum without optimize
    assert np.allclose(a @ b, ref, atol=1e-4) and np.allclose(np.asfortranarray(a) @ b, ref, atol=1e-4)
    assert np.allclose(a @ a.T, np.einsum("ik,jk->ij", a, a), atol=1e-4)
    assert np.allclose(a @ b[:, 0], ref[:, 0], atol=1e-4)
    assert np.allclose(np.vdot(a, a), np.sum(a.conj() * a), atol=1e-3)
singular = np.array([[1.0, 2, 0], [2, 4, 0], [0, 0, 0]])   # pyqtgraph's invertQTransform fallback
p = np.linalg.pinv(singular)
assert np.allclose(singular @ p @ singular, singular) and np.allclose(p @ singular @ p, p)
u, s, vt = np.linalg.svd(rng.standard_normal((2, 5)), full_matrices=False)
assert np.allclose(u.T @ u, np.eye(2)) and np.all(np.diff(s) <= 0)
try:
    np.linalg.solve(np.eye(2), np.ones(2))
except np.linalg.LinAlgError:
    pass
import sys
print(sys.argv[1] + "/numpy.libs/libscipy_openblas" in open("/proc/self/maps").read(), "ok")
"""


def test_numpy_runs_on_the_minimal_blas(tmp_path):
    """numpy copied with OpenBLAS swapped as the build swaps it: products of every type and
    layout, the pseudo-inverse of a singular transform, a refused solve that raises."""
    blas = _load("small_blas")
    openblas = _site_file("numpy.libs/libscipy_openblas*.so")
    site = openblas.parent.parent
    shutil.copytree(site / "numpy", tmp_path / "numpy")
    shutil.copytree(site / "numpy.libs", tmp_path / "numpy.libs")
    users = [p for p in (tmp_path / "numpy").rglob("*.so") if openblas.name in blas.needed(str(p))]
    symbols = {s for p in users for s in blas._symbols(str(p), undefined=True)
               if s.startswith("scipy_")}
    library = blas.build(openblas.name, symbols, tmp_path / "built")
    assert library is not None and library.stat().st_size < 200_000
    shutil.copyfile(library, tmp_path / "numpy.libs" / openblas.name)
    done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path)], cwd=tmp_path, capture_output=True,
                          text=True, env={"PYTHONPATH": str(tmp_path)}, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["True", "ok"]   # the copy's library was loaded
