"""samples.csv read once, one way: the window's charts, the results' findings and the notebook
tables all take it from :func:`read_sample_table`.

The file is read like any file a user may hand over (a regular file, size-capped, never a FIFO or
a device that would hang or grow without end), then parsed by numpy's C reader: a long run at
0.1 s leaves 10^5..10^6 rows, which the csv module turns into dicts in seconds. A run cut short
mid-line (a crash) is read row by row instead, keeping the rows that parse.

A damaged cell (not a number, infinite, a negative rate or latency) is a gap, and a damaged row
(the wrong number of cells, no finite trial or time) is left out: the table says how many and
where the first was (:attr:`SampleTable.damaged`), and every reader shows the rest. The window
refused a whole run for one such cell while export went on without it.
"""
from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from app.model.interval import SAMPLE_COLUMNS, Sample
from app.store.samples_file import read_samples_text


@dataclass(frozen=True)
class SampleTable:
    """samples.csv as column names and a float array (NaN for empty cells), row per sample."""

    names: tuple[str, ...]
    values: np.ndarray
    damaged: str | None = None   # one line: how many cells or rows were damaged, and the first

    def __len__(self) -> int:
        return len(self.values)

    def column(self, name: str) -> np.ndarray:
        if name not in self.names:
            return np.full(len(self.values), np.nan)
        return self.values[:, self.names.index(name)]

    def samples(self, trials: set[int] | None = None) -> list[Sample]:
        """The rows as typed samples, only those of ``trials`` when given."""
        if not len(self.values):
            return []
        trial = self.column("trial").astype(int)
        keep = np.ones(len(trial), bool) if trials is None else np.isin(trial, list(trials))
        cols = [self.column(n)[keep] for n in SAMPLE_COLUMNS]
        return [Sample(**_sample_fields(row)) for row in zip(*cols)]


def _sample_fields(row: tuple[float, ...]) -> dict[str, Any]:
    """A row of the table as Sample's keyword arguments: ``trial`` an int, NaN (empty) None."""
    return {n: (int(v) if n == "trial" else (None if v != v else float(v)))
            for n, v in zip(SAMPLE_COLUMNS, row)}


EMPTY = SampleTable(SAMPLE_COLUMNS, np.empty((0, len(SAMPLE_COLUMNS))))


def read_sample_table(run_dir: str | os.PathLike[str]) -> SampleTable:
    """samples.csv of a run folder (an empty table when there is none); ValueError, one line
    naming the file, when it is not the app's regular file (app/store/samples_file.py opens it
    without following a link or waiting on a FIFO, and caps it) or not the app's columns."""
    path = Path(run_dir) / "samples.csv"
    try:
        opened = read_samples_text(run_dir)
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path} is damaged: not UTF-8 text ({exc.reason})") from None
    if opened is None:
        return EMPTY
    names_list, body = opened
    names = tuple(names_list)
    if not names:
        return EMPTY
    if "\x00" in body:
        raise ValueError(f"{path} is damaged: binary data, not the app's samples")
    body = body.replace("\r\n", "\n")
    if "trial" not in names or "t_s" not in names:
        raise ValueError(f"{path} is damaged: not the app's samples (columns {','.join(names)[:80]!r})")
    if not body.strip():
        return SampleTable(names, np.empty((0, len(names))))
    damage = _Damage(path)
    values = _fast(body, len(names))
    if values is None:
        values = _forgiving(body, names, damage)
    values = _plausible(values, names, damage)
    return SampleTable(names, values, damage.text())


class _Damage:
    """Damaged cells and rows of one samples.csv: how many, and the first one."""

    def __init__(self, path: Path) -> None:
        self.path, self.cells, self.rows, self.first = path, 0, 0, ""

    def add(self, where: str, cells: int = 0, rows: int = 0) -> None:
        self.cells, self.rows = self.cells + cells, self.rows + rows
        self.first = self.first or where

    def text(self) -> str | None:
        if not self.cells and not self.rows:
            return None
        what = " and ".join(f"{n:,} {word}{'s' * (n != 1)}" for n, word in
                            ((self.cells, "cell"), (self.rows, "row")) if n)
        return (f"{self.path} is damaged in {what} (the first {self.first[:120]}): "
                "shown as gaps, the rest as written")


#: Columns that cannot be negative (rates, latencies); temperature can.
NON_NEGATIVE = tuple(n for n in SAMPLE_COLUMNS if n.endswith(("_MBps", "_iops", "_us")))


def _plausible(values: np.ndarray, names: tuple[str, ...], damage: _Damage) -> np.ndarray:
    """Infinite or negative measurements made gaps; rows without a finite trial or time left out."""
    for j, name in enumerate(names):
        column = values[:, j]
        bad = np.isinf(column) | ((column < 0) if name in NON_NEGATIVE else False)
        if bad.any():
            damage.add(f"at line {int(np.flatnonzero(bad)[0]) + 2}, column {name}", cells=int(bad.sum()))
            column[bad] = np.nan
    keys = [names.index(k) for k in ("trial", "t_s")]
    whole = np.isfinite(values[:, keys]).all(axis=1)
    if not whole.all():
        damage.add(f"at line {int(np.flatnonzero(~whole)[0]) + 2}, without a trial or time",
                   rows=int((~whole).sum()))
        values = values[whole]
    return values


def _fast(body: str, width: int) -> np.ndarray | None:
    filled = body.replace(",,", ",nan,").replace(",,", ",nan,").replace(",\n", ",nan\n")
    if filled.endswith(","):
        filled += "nan"
    try:
        values = np.loadtxt(io.StringIO(filled), delimiter=",", ndmin=2)
    except ValueError:
        return None
    return values if values.shape[1] == width else None


def _forgiving(body: str, names: tuple[str, ...], damage: _Damage) -> np.ndarray:
    """Row by row: the last row may be cut short (the app was killed while writing it) and is
    left out; a row of the wrong length before it is left out as damaged, a cell that is not a
    number made a gap."""
    rows = []
    try:
        lines = list(csv.reader(io.StringIO(body)))
    except csv.Error as exc:
        raise ValueError(f"{damage.path} is damaged ({exc})") from None
    for number, row in enumerate(lines, start=2):
        if len(row) != len(names):
            if number - 1 != len(lines):
                damage.add(f"at line {number}: {len(row)} cells, not {len(names)}", rows=1)
            continue
        cells = [_number(v) for v in row]
        if None in cells:
            if number - 1 == len(lines):
                break
            bad = [i for i, v in enumerate(cells) if v is None]
            damage.add(f"at line {number}, column {names[bad[0]]}: {row[bad[0]][:20]!r}",
                       cells=len(bad))
        rows.append([np.nan if v is None else v for v in cells])
    return np.array(rows, dtype=float).reshape(-1, len(names))


def _number(text: str) -> float | None:
    """A cell's number (NaN for an empty cell), None when it is not one."""
    if not text:
        return np.nan
    try:
        return float(text)
    except ValueError:
        return None
