"""ICU's data library without the parts Qt never reads, for ssd-profiler.spec (Linux).

Why: PySide6's Qt links ICU, whose data library (``libicudata.so.NN``) is 32 MB, the largest file
of the build. Qt calls ICU for four things only (its imports, ``nm -D libQt6Core.so.6``): text
codecs by name (``ucnv_*``), collation (``ucol_*``: QCollator, the file dialog's sorting), time
zone display names (``ucal_*``) and case mapping (``u_strTo*``, whose tables are
compiled into libicuuc). Locale names, numbers and dates come from Qt's own CLDR tables, line
breaking from Qt's own Unicode tables. So every locale's collation and time zone names stay
(no locale loses what Qt shows of it: sorting and zone names in German, Swedish, Turkish and
Japanese were compared before and after), and what goes is what no Qt call reads: the
code-page tables (Qt 6 decodes UTF-8 on Unix; the app names no codec), break iterators and
their dictionaries, currency, language, region and unit names, number spell-out rules,
transliterators, the Unicode character names, and the main tree's locale bundles (number, date
and calendar formats) of every locale but root and English, through which ICU falls back.

The data is ICU's common-data package (a table of contents and the items, the format icupkg
reads and writes); the new library exports the same symbol (``icudtNN_dat``) under the same
soname, built with the C compiler. Without one, the original is kept.
"""
from __future__ import annotations

import logging
import re
import shutil
import struct
import subprocess
from pathlib import Path

log = logging.getLogger("lean")

# item paths (inside the package, after "icudtNNl/") that no Qt call reads: the folders and
# tables named in the docstring, and the main tree's locale bundles (number, date and calendar
# formats, which Qt takes from its own tables) but for root and English, the fallbacks ICU
# resolves every locale through; supplemental data (likely subtags, week data) stays
DROPPED = re.compile(r"^(brkitr|curr|lang|rbnf|region|translit|unit)/|\.cnv$|^unames\.icu$"
                     r"|^(?!root|en|pool|res_index)[a-z]{2,3}(_[A-Za-z0-9]+)*\.res$")
ALIGN = 16   # each item starts on a 16-byte boundary, as ICU's own packager places them


def _items(data: bytes) -> tuple[bytes, list[tuple[str, bytes]]]:
    """(the header, [(name, bytes)]) of an ICU common-data package (little-endian)."""
    header_size, magic1, magic2 = struct.unpack_from("<HBB", data, 0)
    if (magic1, magic2) != (0xDA, 0x27) or data[12:16] != b"CmnD":
        raise ValueError("not an ICU common-data package")
    (count,) = struct.unpack_from("<I", data, header_size)
    entries = [struct.unpack_from("<II", data, header_size + 4 + 8 * i) for i in range(count)]
    items = []
    for i, (name_at, data_at) in enumerate(entries):
        end = entries[i + 1][1] if i + 1 < count else len(data) - header_size
        name = data[header_size + name_at:data.index(b"\0", header_size + name_at)].decode()
        items.append((name, data[header_size + data_at:header_size + end]))
    return data[:header_size], items


def _package(header: bytes, items: list[tuple[str, bytes]]) -> bytes:
    """A package of ``items`` (kept in their sorted order: ICU finds them by binary search)."""
    names = b"".join(name.encode() + b"\0" for name, _ in items)
    toc = 4 + 8 * len(items)
    at = toc + len(names)
    at += -at % ALIGN
    offsets, body = [], bytearray()
    for _, blob in items:
        offsets.append(at + len(body))
        body += blob
        body += b"\0" * (-len(body) % ALIGN)
    name_offsets, pos = [], toc
    for name, _ in items:
        name_offsets.append(pos)
        pos += len(name.encode()) + 1
    table = struct.pack("<I", len(items)) + b"".join(
        struct.pack("<II", n, o) for n, o in zip(name_offsets, offsets))
    head = table + names
    return header + head + b"\0" * (at - len(head)) + bytes(body)


def trimmed(data: bytes) -> tuple[bytes, int]:
    """The package without the DROPPED items; and how many were dropped."""
    header, items = _items(data)
    kept = [(n, b) for n, b in items if not DROPPED.search(n.split("/", 1)[1])]
    return _package(header, kept), len(items) - len(kept)


def _symbol(library: Path) -> tuple[str, int, int] | None:
    """(name, file offset, size) of the ``icudtNN_dat`` symbol, read with nm and readelf."""
    nm = subprocess.run(["nm", "-D", "-S", str(library)], capture_output=True, text=True)
    found = re.search(r"^([0-9a-f]+) ([0-9a-f]+) R (icudt\d+_dat)$", nm.stdout, re.M)
    if not found:
        return None
    address, size, name = int(found.group(1), 16), int(found.group(2), 16), found.group(3)
    headers = subprocess.run(["readelf", "-lW", str(library)], capture_output=True, text=True)
    for line in headers.stdout.splitlines():   # the LOAD segment holding it maps file to address
        parts = line.split()
        if parts[:1] == ["LOAD"]:
            offset, vaddr, filesz = int(parts[1], 16), int(parts[2], 16), int(parts[4], 16)
            if vaddr <= address < vaddr + filesz:
                return name, address - vaddr + offset, size
    return None


def build_library(original: Path, out_dir: Path) -> Path | None:
    """A copy of ICU's data library holding the trimmed package, or None (tools missing, or
    not the layout expected: the original is then kept)."""
    if not all(shutil.which(t) for t in ("cc", "nm", "readelf")):
        log.warning("lean: no C compiler or binutils: ICU's data kept whole")
        return None
    symbol = _symbol(original)
    if symbol is None:
        log.warning("lean: %s: no icudtNN_dat symbol found: kept whole", original.name)
        return None
    name, offset, size = symbol
    with original.open("rb") as f:
        f.seek(offset)
        package, dropped = trimmed(f.read(size))
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "icudata.dat").write_bytes(package)
    (out_dir / "icudata.S").write_text(
        f'.section .rodata\n.globl {name}\n.type {name}, @object\n.balign {ALIGN}\n{name}:\n'
        f'.incbin "icudata.dat"\n.size {name}, . - {name}\n.section .note.GNU-stack,"",@progbits\n')
    library = out_dir / original.name
    done = subprocess.run(["cc", "-shared", "-nostdlib", f"-Wl,-soname,{original.name}", "-o",
                           str(library), "icudata.S"], cwd=out_dir, capture_output=True, text=True)
    if done.returncode != 0:
        log.warning("lean: building %s failed: %s", original.name, done.stderr.strip())
        return None
    log.info("lean: %s: %d items Qt never reads dropped, %.1f -> %.1f MB", original.name, dropped,
             original.stat().st_size / 1e6, library.stat().st_size / 1e6)
    return library


def with_trimmed_icu(binaries: list[tuple], workdir: str) -> list[tuple]:
    """``binaries`` with ICU's data library swapped for the trimmed copy (where one is built)."""
    out = []
    for entry in binaries:
        name = Path(entry[0]).name
        if entry[2] != "SYMLINK" and re.fullmatch(r"libicudata\.so\.\d+", name):
            library = build_library(Path(entry[1]), Path(workdir) / "lean-icu")
            if library is not None:
                entry = (entry[0], str(library), entry[2])
        out.append(entry)
    return out
