"""The words of the generated THIRD_PARTY_NOTICES.md (packaging/notices.py traces the components).

Apart from the tracing so that what the notices promise (where each text is, how to replace
the LGPL libraries, what is run but not bundled) reads as one document.
"""
from __future__ import annotations

import platform
import sys


def _row(c) -> str:
    names = [n for n, p in c.texts.items() if p.is_file()]
    texts = (f"`licenses/{c.slug}/{names[0]}`" if len(names) == 1 else
             f"`licenses/{c.slug}/` ({len(names)} files)" if names else "")
    return (f"| {c.name} | {c.version or '-'} | {c.licence} | {texts or '**none found**'} | "
            f"{c.source or '-'} |")


def notices_markdown(comps, unresolved) -> str:
    app = next((c for c in comps if c.name == "SSD Profiler"), None)
    version = app.version if app else ""
    others = [c for c in comps if c is not app]
    lines = [
        "# Third-party notices",
        "",
        f"SSD Profiler {version} is free software under the MIT licence (`LICENSE` in this "
        "folder). This folder also holds the software below, each under its own licence; the "
        "full text of each licence is in the `licenses/` folder beside this file, as the table "
        "says. The list was generated when this build was made "
        f"({platform.system()} {platform.machine()}, Python {sys.version.split()[0]}), from the "
        "files the build collected: it names exactly what the folder holds "
        "(`licenses/bundled.json` is the same list for programs).",
        "",
        "| Component | Version | Licence | Licence texts | Source |",
        "|---|---|---|---|---|",
        *(_row(c) for c in others),
        "",
        "## The LGPL libraries can be replaced",
        "",
        "Qt, PySide6 and shiboken6 (LGPL-3.0) and pySMART (LGPL-2.1-or-later) are plain files "
        "in this folder, unmodified, never inside the program's compressed archive: Qt's "
        "libraries and plugins under `PySide6/Qt/` (Windows: `PySide6/`), the PySide6 and "
        "shiboken6 modules under `PySide6/` and `shiboken6/` (Python source and extension "
        "modules), and pySMART's Python source under `pySMART/`. Replace them with compatible "
        "builds of your own (the same Qt and PySide6 minor version) and the program uses "
        "yours. Their source: https://download.qt.io/official_releases/qt/, "
        "https://code.qt.io/cgit/pyside/pyside-setup.git/, https://github.com/truenas/py-SMART.",
        "",
        "Qt's libraries contain third-party code of their own (FreeType, HarfBuzz, libpng, "
        "PCRE2, zlib, double-conversion, md4c and others, under permissive licences); Qt lists "
        "each with its licence in \"Licenses Used in Qt\" of its documentation for the version "
        "above, and in the `LICENSES` folder of each Qt source module. The PySide6 wheel this "
        "build comes from carries none of those texts, so they are not repeated here.",
        "",
        "## Programs it runs (not bundled)",
        "",
        "| Program | Licence | |",
        "|---|---|---|",
        "| fio | GPL-2.0-only | https://github.com/axboe/fio (installed by the user or the OS) |",
        "| smartmontools (smartctl) | GPL-2.0-or-later | https://www.smartmontools.org |",
        "| DiskSpd (Windows) | MIT | https://github.com/microsoft/diskspd; listed above when "
        "this build bundles it (`bin/diskspd.exe`) |",
    ]
    if unresolved:
        lines += ["", "## Files whose origin the build could not trace", "",
                  *(f"- `{dest}` (from `{src}`)" for dest, src in unresolved)]
    return "\n".join(lines) + "\n"
