"""packaging/icu_data.py: the Linux build's native cut, checked on the real files of this
environment (PySide6's ICU data). The built folder itself is checked by
tests/ui/test_packaging.py (--self-test, a real run)."""
from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from conftest import REPO

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or not shutil.which("cc"),
                                reason="the native cut is made on Linux, with a C compiler")


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "packaging" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _site_file(pattern: str) -> Path:
    import PySide6
    found = list((Path(PySide6.__file__).parent / "Qt" / "lib").glob(pattern))
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
