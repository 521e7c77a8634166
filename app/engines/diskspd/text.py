"""DiskSpd's default text output -> normalized measurements, for ``ssd-profiler import``.

The app itself runs DiskSpd with ``-Rxml`` (its text layout varies between versions; the XML does not); this
parser exists for text files students already have. What it reads (ResultParser.cpp):

- ``Input parameters``: per ``path: '...'`` block the block size (``4096`` or ``4KiB``),
  ``using random I/O`` / ``using [interlocked] sequential I/O``, ``performing read|write test``
  or ``mix test (read/write ratio: 70/30)``, ``number of outstanding I/O operations[ per
  thread]: N`` (-o), ``threads per file: N`` (-t); ``duration: 30s`` for the time span;
- the ``Total IO`` / ``Read IO`` / ``Write IO`` tables: one row per thread (``thread | bytes |
  I/Os | MiB/s | I/O per s | [AvgLat] | [IopsStdDev] | [LatStdDev] | file``), columns found by
  their header names, ``N/A`` = no value, the file column ends with the file size ``(1GiB)``;
- latency percentile tables (``%-ile | Read (ms) | Write (ms) | Total (ms)``) titled by a target
  path, or ``total:`` / ``Total latency distribution:`` for all targets together.

Seconds: "actual test time" is printed rounded (10.00s) while DiskSpd computes its rates with the
exact time; 5083 I/Os / 10.00 s = 508.3 but the file says 508.09. The exact time is recovered
from the ``Total IO`` total row (I/Os / I/O per s), and every rate is bytes or counts over that
time, so IOPS and MiB/s match the file to its printed precision.

Per target: counts are summed over its threads; the mean latency is the section's total row
when there is one target, else the I/O-weighted mean of the thread means; percentiles come from
the target's own table, or from the all-targets table when there is one target only. The text
does not print DiskSpd's version: ``engine_version`` is ``None``. A UTF-8 BOM and expanded tabs
(as in the VirtualClient fixtures) are tolerated.

:func:`parse_diskspd_output` is the entry point for any DiskSpd output (``import``, the engine's
``parse_final``): XML when there is a ``<Results>`` root, else this text parser.
"""
from __future__ import annotations

import re
from typing import Any, NamedTuple

from app.engines.diskspd.xml import (
    DiskSpdParseError,
    direction,
    measurement,
    parse_xml_text,
    weighted_mean,
    workload_fields,
)
from app.units import UnitError, parse_duration, parse_size

#: Row labels of DiskSpd's text percentile table -> keys in ``lat_us``.
TEXT_PERCENTILES = {"min": "min", "50th": "p50", "95th": "p95", "99th": "p99", "3-nines": "p99.9",
                    "4-nines": "p99.99", "max": "max"}
_TOTAL_TITLES = ("total:", "total latency distribution:")
_SECTIONS = ("Total IO", "Read IO", "Write IO")
_SIZE_SUFFIX = re.compile(r"\s+\([^()]*\)\s*$")


def looks_like_text(text: str) -> bool:
    """DiskSpd text output: a ``Total IO`` section header or DiskSpd's ``Command Line:`` line."""
    return bool(re.search(r"^\s*(Total IO\s*$|Command Line:)", text, re.MULTILINE))


def looks_like_diskspd(text: str) -> bool:
    """DiskSpd output: an XML ``<Results>`` root, or the text report (``Total IO``/``Command Line:``)."""
    return "<Results>" in text or looks_like_text(text)


def parse_diskspd_output(text: str, source: str | None = None) -> list[dict[str, Any]]:
    """Measurements from DiskSpd XML (preferred) or text output; one per target. This is what
    ``import`` and the engine's ``parse_final`` call."""
    text = text.lstrip("\ufeff")
    if "<Results" in text:
        return parse_xml_text(text, source)
    if looks_like_text(text):
        return parse_text_output(text, source)
    where = f" in {source}" if source else ""
    raise DiskSpdParseError(f"no DiskSpd result found{where} (neither -Rxml nor text output)")


def parse_text_output(text: str, source: str | None = None) -> list[dict[str, Any]]:
    """One measurement per target of every ``Results for timespan N`` block."""
    text = text.lstrip("\ufeff").replace("\t", "    ")
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("Results for timespan")]
    if not starts:
        starts = [0]  # some copies keep only the tables
    spans_in = _input_spans(lines[:starts[0]])
    out: list[dict[str, Any]] = []
    for n, start in enumerate(starts):
        block = lines[start:starts[n + 1] if n + 1 < len(starts) else len(lines)]
        params = spans_in[n] if n < len(spans_in) else {"targets": {}, "runtime_s": None}
        suffix = f" (timespan {n + 1})" if len(starts) > 1 else ""
        out += _span(block, params, source, suffix)
    if not out:
        where = f" in {source}" if source else ""
        raise DiskSpdParseError(f"no DiskSpd result tables found{where}")
    return out


# -- input parameters ------------------------------------------------------------------------------
def _input_spans(lines: list[str]) -> list[dict[str, Any]]:
    """Per time span: ``runtime_s`` and per path the workload settings DiskSpd echoes."""
    spans: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for raw in lines:
        line = raw.strip()
        if line.startswith("timespan:") or current is None and line.startswith(("duration:", "path:")):
            current = {"targets": {}, "runtime_s": None, "_path": None}
            spans.append(current)
            if line.startswith("timespan:"):
                continue
        if current is None:
            continue
        if line.startswith("duration:"):
            current["runtime_s"] = _duration(line.split(":", 1)[1])
        elif line.startswith("path:"):
            path = line.split(":", 1)[1].strip().strip("'")
            current["_path"] = path
            current["targets"][path] = {"random": None, "write_ratio": None, "bs": None,
                                        "outstanding": None, "threads": None}
        elif current["_path"] is not None:
            _target_line(current["targets"][current["_path"]], line)
    return spans


def _target_line(t: dict[str, Any], line: str) -> None:
    if line.startswith("block size:"):
        t["bs"] = _size(line.split(":", 1)[1])
    elif line.startswith("using random I/O"):
        t["random"] = True
    elif re.match(r"using (interlocked )?sequential I/O", line):
        t["random"] = False
    elif line.startswith("performing read test"):
        t["write_ratio"] = 0
    elif line.startswith("performing write test"):
        t["write_ratio"] = 100
    elif m := re.match(r"performing mix test \(read/write ratio: (\d+)/(\d+)\)", line):
        t["write_ratio"] = int(m.group(2))
    elif m := re.match(r"number of outstanding I/O operations(?: per thread)?:\s*(\d+)", line):
        t["outstanding"] = int(m.group(1))
    elif m := re.match(r"threads per file:\s*(\d+)", line):
        t["threads"] = int(m.group(1))


def _size(text: str) -> int | None:
    try:
        return parse_size(text.strip())
    except UnitError:
        return None


def _duration(text: str) -> float | None:
    try:
        return parse_duration(text.strip())
    except UnitError:
        return None


# -- results ---------------------------------------------------------------------------------------
def _number(cell: str | None) -> float | None:
    if cell is None:
        return None
    cell = cell.strip().replace(",", "")
    try:
        return float(cell)
    except ValueError:
        return None  # "N/A"


class _Section(NamedTuple):
    """One ``Total IO`` / ``Read IO`` / ``Write IO`` table: its thread rows and its total row
    (None when the copy lacks it); a row maps header names (``bytes``, ``I/Os``, ``I/O per s``,
    ``AvgLat``, ``file``) to cell text."""

    rows: list[dict[str, str]]
    total: dict[str, str] | None


_NO_SECTION = _Section([], None)


def _sections(block: list[str]) -> dict[str, _Section]:
    """{"Total IO": section, "Read IO": section, ...} for the tables the block holds."""
    found: dict[str, _Section] = {}
    i = 0
    while i < len(block):
        name = block[i].strip()
        if name in _SECTIONS and i + 1 < len(block) and "|" in block[i + 1]:
            header = [c.strip() for c in block[i + 1].split("|")]
            rows: list[dict[str, str]] = []
            total: dict[str, str] | None = None
            j = i + 2
            while j < len(block) and block[j].strip():
                line = block[j]
                if re.match(r"^\s*\d+\s*\|", line):
                    cells = [c.strip() for c in line.split("|", len(header) - 1)]
                    rows.append(dict(zip(header, cells)))
                elif line.strip().startswith("total:"):
                    cells = [c.strip() for c in line.strip()[len("total:"):].split("|")]
                    total = dict(zip(header[1:], cells))
                j += 1
            found[name] = _Section(rows, total)
            i = j
        else:
            i += 1
    return found


def _latency_tables(block: list[str]) -> dict[str, dict[str, tuple[float | None, float | None]]]:
    """{title: {label: (read_ms, write_ms)}}; title "" for the all-targets table."""
    tables: dict[str, dict[str, tuple[float | None, float | None]]] = {}
    for i, line in enumerate(block):
        if not re.match(r"^\s*%-ile\s*\|", line):
            continue
        title = next((block[k].strip() for k in range(i - 1, -1, -1) if block[k].strip()), "")
        key = "" if title.lower() in _TOTAL_TITLES else title
        rows: dict[str, tuple[float | None, float | None]] = {}
        for row in block[i + 1:]:
            if not row.strip():
                break
            cells = [c.strip() for c in row.split("|")]
            if len(cells) >= 3 and not set(row.strip()) <= {"-"}:
                rows[cells[0]] = (_number(cells[1]), _number(cells[2]))
        tables[key] = rows
    return tables


def _span(block: list[str], params: dict[str, Any], source: str | None,
          suffix: str) -> list[dict[str, Any]]:
    sections = _sections(block)
    if "Total IO" not in sections:
        return []
    seconds = _exact_seconds(block, sections["Total IO"].total)
    tables = _latency_tables(block)
    targets: list[str] = []
    for row in sections["Total IO"].rows:
        path = _SIZE_SUFFIX.sub("", row.get("file", ""))
        if path not in targets:
            targets.append(path)
    single = len(targets) == 1
    out: list[dict[str, Any]] = []
    for path in targets:
        sides: dict[str, dict[str, Any] | None] = {}
        for index, name in enumerate(("Read IO", "Write IO")):
            sec = sections.get(name) or _NO_SECTION
            rows = [r for r in sec.rows if _SIZE_SUFFIX.sub("", r.get("file", "")) == path]
            io_bytes = int(sum(_number(r.get("bytes")) or 0 for r in rows))
            ios = int(sum(_number(r.get("I/Os")) or 0 for r in rows))
            if single and sec.total is not None:
                mean = _number(sec.total.get("AvgLat"))
            else:
                mean = weighted_mean([(_number(r.get("AvgLat")), int(_number(r.get("I/Os")) or 0))
                                      for r in rows])
            table = tables.get(path, tables.get("") if single else None)
            pct = ({key: table[label][index] for label, key in TEXT_PERCENTILES.items() if label in table}
                   if table else None)
            sides[name] = direction(io_bytes, ios, seconds, mean if ios else None, pct)
        t = params["targets"].get(path) or {}
        workload = workload_fields(t.get("random"), t.get("write_ratio"), t.get("bs"),
                                   t.get("outstanding"), t.get("threads"), params.get("runtime_s"))
        out.append(measurement(None, source, path + suffix, workload, sides["Read IO"], sides["Write IO"]))
    return out


def _exact_seconds(block: list[str], total_row: dict[str, str] | None) -> float | None:
    """The test time DiskSpd divided by: Total IO I/Os / I/O per s, else "actual test time"."""
    if total_row:
        ios, iops = _number(total_row.get("I/Os")), _number(total_row.get("I/O per s"))
        if ios and iops:
            return ios / iops
    for line in block:
        if m := re.match(r"^\s*actual test time:\s*([\d.]+)s", line):
            return float(m.group(1))
    return None
