"""packaging/lean.py: what the one-folder build leaves out, the same on the three OS."""
from __future__ import annotations

import importlib.util

from conftest import REPO

_spec = importlib.util.spec_from_file_location("lean", REPO / "packaging" / "lean.py")
lean = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lean)


def _bin(dest: str, src: str | None = None) -> tuple:
    return (dest, src or "/src/" + dest.rsplit("/", 1)[-1], "BINARY")


def test_translations_and_unused_plugins_are_left_out_on_every_os():
    out = [("PySide6/Qt/translations/qtbase_de.qm", "x", "DATA"),
           ("PySide6/translations/qtbase_de.qm", "x", "DATA"),
           _bin("PySide6/Qt/plugins/imageformats/libqjpeg.so"),
           _bin("PySide6/plugins/imageformats/qjpeg.dll"),
           _bin("PySide6/Qt/plugins/imageformats/libqtiff.dylib"),
           _bin("PySide6/Qt/plugins/generic/libqtuiotouchplugin.so"),
           _bin("PySide6/Qt/plugins/platforms/libqvnc.so"),
           _bin("PySide6/Qt/plugins/platformthemes/libqgtk3.so")]
    kept = [_bin("PySide6/Qt/plugins/imageformats/libqsvg.so"),
            _bin("PySide6/plugins/imageformats/qsvg.dll"),
            _bin("PySide6/Qt/plugins/platforms/libqxcb.so"),
            _bin("PySide6/Qt/plugins/platforms/libqwayland.so"),
            _bin("PySide6/plugins/platforms/qwindows.dll"),
            _bin("PySide6/Qt/plugins/platforms/libqcocoa.dylib"),
            _bin("PySide6/Qt/plugins/platforms/libqoffscreen.so"),
            _bin("PySide6/Qt/plugins/xcbglintegrations/libqxcb-glx-integration.so"),
            _bin("PySide6/plugins/styles/qmodernwindowsstyle.dll"),
            _bin("PySide6/Qt/plugins/iconengines/libqsvgicon.so"),
            _bin("PySide6/Qt/lib/libQt6Core.so.6"),
            ("resources/icon.png", "x", "DATA")]
    assert [e[0] for e in out if lean.keep(e)] == []
    assert [e[0] for e in kept if not lean.keep(e)] == []


def test_only_the_libraries_no_kept_binary_imports_are_pruned():
    gtk = _bin("PySide6/Qt/plugins/platformthemes/libqgtk3.so", "/src/libqgtk3.so")
    tuio = _bin("PySide6/Qt/plugins/generic/libqtuiotouchplugin.so", "/src/libqtuio.so")
    imports = {"/src/libqgtk3.so": ["libcairo.so.2", "libglib-2.0.so.0"],
               "/src/libqtuio.so": ["libQt6Network.so.6"],
               "/src/libcairo.so.2": ["libpixman-1.so.0"],
               "/src/libQt6Gui.so.6": ["libglib-2.0.so.0"],
               "/src/dlopened.so": []}
    binaries = [gtk, tuio, _bin("PySide6/Qt/lib/libQt6Gui.so.6"), _bin("libcairo.so.2"),
                _bin("libpixman-1.so.0"), _bin("libglib-2.0.so.0"),
                _bin("PySide6/Qt/lib/libQt6Network.so.6"), _bin("dlopened.so"),
                ("libQt6Network.so.6", "PySide6/Qt/lib/libQt6Network.so.6", "SYMLINK"),
                ("libQt6Gui.so.6", "PySide6/Qt/lib/libQt6Gui.so.6", "SYMLINK")]
    kept, datas = lean.trim(binaries, [], lambda src: imports.get(src, []))
    assert sorted(e[0] for e in kept) == ["PySide6/Qt/lib/libQt6Gui.so.6", "dlopened.so",
                                          "libQt6Gui.so.6", "libglib-2.0.so.0"]
    assert datas == []


def test_a_pruned_macos_framework_goes_whole():
    tuio = _bin("PySide6/Qt/plugins/generic/libqtuiotouchplugin.dylib", "/src/tuio")
    net = _bin("PySide6/Qt/lib/QtNetwork.framework/Versions/A/QtNetwork", "/src/QtNetwork")
    binaries = [tuio, net, ("PySide6/Qt/lib/QtNetwork.framework/QtNetwork",
                            "Versions/Current/QtNetwork", "SYMLINK"),
                ("PySide6/Qt/lib/QtNetwork.framework/Versions/Current", "A", "SYMLINK")]
    datas = [("PySide6/Qt/lib/QtNetwork.framework/Resources/Info.plist", "x", "DATA"),
             ("PySide6/Qt/lib/QtCore.framework/Resources/Info.plist", "x", "DATA")]
    imports = {"/src/tuio": ["@rpath/QtNetwork.framework/Versions/A/QtNetwork"]}
    kept, kept_datas = lean.trim(binaries, datas, lambda src: imports.get(src, []))
    assert kept == []
    assert [d[0] for d in kept_datas] == ["PySide6/Qt/lib/QtCore.framework/Resources/Info.plist"]


def test_vendored_wheel_libraries_are_not_stripped(tmp_path):
    """strip breaks numpy.libs' OpenBLAS (patchelf'd): it must be collected as it is."""
    vendored = tmp_path / "numpy.libs" / "libscipy_openblas.so"
    vendored.parent.mkdir()
    vendored.write_bytes(b"\x7fELF")
    entry = ("numpy.libs/libscipy_openblas.so", str(vendored), "BINARY")
    assert lean.stripped([entry], str(tmp_path / "work")) == [entry]
