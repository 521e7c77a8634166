"""A run folder's results: the typed run from the store, the samples its findings read, built
once (app/results/build.py). What export, the Figures tab and compare open a folder with.
"""
from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.model.interval import Sample
from app.model.run import Run
from app.results.build import build_results, series_trials
from app.results.run_results import RunResults
from app.store.run_folder import open_run
from app.store.samples import read_sample_table

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Loaded:
    """The results, and a note when samples.csv could not be used (a damaged file costs the
    live-sample figures and findings, never the whole run)."""

    results: RunResults
    samples_note: str | None = None


def load_results(run_dir: str | os.PathLike[str], warn: Callable[[str], None] | None = None,
                 strict: bool = False) -> Loaded:
    """The results of a run folder; ValueError (one line) when it is not a readable run, and
    with ``strict`` (compare, ``load_runs``: they show the samples too) when its samples.csv
    is not readable either; else the export goes on without them and ``warn`` says so."""
    run = open_run(run_dir)
    if strict:
        read_sample_table(run_dir)
    return with_samples(run, Path(run_dir), warn)


def with_samples(run: Run, folder: Path | None, warn: Callable[[str], None] | None = None) -> Loaded:
    """The results of ``run``, with the samples its findings read from ``folder``'s samples.csv."""
    with damage_named(folder):
        wanted, note = series_trials(run), None
    samples: list[Sample] = []
    if wanted and folder is not None:
        try:
            table = read_sample_table(folder)
            samples, note = table.samples(wanted), table.damaged   # gaps, said in the report
            if note:
                (warn or log.warning)(note)
        except ValueError as exc:
            note = f"{exc}: exported without the live-sample figures and findings"
            (warn or log.warning)(note)
    with damage_named(folder):
        return Loaded(build_results(run, samples, folder), note)


#: What a run.json that parsed but is not a run's raises while its results are built (a field
#: of the wrong type or missing, a number too large for a float, a damaged histogram).
DAMAGE = (KeyError, TypeError, AttributeError, IndexError, ValueError, ArithmeticError)


@contextmanager
def damage_named(folder: Path | None) -> Iterator[None]:
    """A damaged run.json refused in one line naming it. Why needed after the typed run was
    checked (app/store/run_folder.py): the histograms are decoded and the records read field by
    field only while the results are built."""
    try:
        yield
    except DAMAGE as exc:
        log.debug("reading the run in %s failed", folder, exc_info=True)
        where = (folder or Path(".")) / "run.json"
        raise ValueError(f"{where} is damaged: {type(exc).__name__}: {exc}".splitlines()[0]) from None


def stored_summary(run: Run, folder: Path) -> dict[str, dict[str, Any]]:
    """run.json's ``summary`` of a run as its folder holds it (written when the run ends)."""
    return with_samples(run, folder).results.summary_json()
