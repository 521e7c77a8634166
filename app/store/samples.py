"""samples.csv read once, one way: the window's charts, the results' findings and the notebook
tables all take it from :func:`read_sample_table`.

The file is read like any file a user may hand over (a regular file, size-capped, never a FIFO or
a device that would hang or grow without end), then parsed by numpy's C reader: a long run at
0.1 s leaves 10^5..10^6 rows, which the csv module turns into dicts in seconds. A run cut short
mid-line (a crash) is read row by row instead, keeping the rows that parse.
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
    values = _fast(body, len(names))
    if values is None:
        values = _forgiving(body, names, path)
    for key in ("trial", "t_s"):
        if not np.isfinite(values[:, names.index(key)]).all():
            raise ValueError(f"{path} is damaged: a row without a finite {key}")
    return SampleTable(names, values)


def _fast(body: str, width: int) -> np.ndarray | None:
    filled = body.replace(",,", ",nan,").replace(",,", ",nan,").replace(",\n", ",nan\n")
    if filled.endswith(","):
        filled += "nan"
    try:
        values = np.loadtxt(io.StringIO(filled), delimiter=",", ndmin=2)
    except ValueError:
        return None
    return values if values.shape[1] == width else None


def _forgiving(body: str, names: tuple[str, ...], path: Path) -> np.ndarray:
    """Row by row: only the last row may be cut short (the app was killed while writing it);
    a bad row before it is damage, refused with its line number."""
    rows = []
    try:
        lines = list(csv.reader(io.StringIO(body)))
    except csv.Error as exc:
        raise ValueError(f"{path} is damaged ({exc})") from None
    for number, row in enumerate(lines, start=2):
        try:
            if len(row) != len(names):
                raise ValueError(f"{len(row)} cells, not {len(names)}")
            rows.append([float(v) if v else np.nan for v in row])
        except ValueError as exc:
            if number - 1 == len(lines):
                break
            raise ValueError(f"{path} is damaged (line {number}: {exc})") from None
    return np.array(rows, dtype=float).reshape(-1, len(names))
