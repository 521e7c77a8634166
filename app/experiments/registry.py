"""The experiment registry: which experiment an id names, in catalog order
(docs/architecture.md, "How to add an experiment").

Experiment modules register their class with :func:`register` when app/experiments/ is
imported; generic code (planning, summary, tables, figures, report) only ever looks classes up
here, so it never imports an experiment module and no import cycle can form. Results whose id
no module registers (``imported`` from ``ssd-profiler import --save``, or an experiment an older
or newer version knew) still export: :func:`results_for` hands out a fallback that shows the
measurements as they are, without findings.
"""
from __future__ import annotations

from app.experiments.base import Experiment
from app.experiments.fallback import IMPORTED, ImportedResults, UnregisteredResults
from app.model.experiment_entry import ExperimentEntry
from app.params import build_or_none

#: id -> class, in registration order (= catalog order); a live dict shared by every importer.
CATALOG: dict[str, type[Experiment]] = {}

PRESETS: dict[str, dict[str, str]] = {
    "course": {},
    "course-precision": {"precision": "2%"},
    "quick": {"runtime": "5s", "repetitions": "1", "warmup": "false", "size": "256MiB"},
}

#: What the window and `ssd-profiler presets` call each preset.
PRESET_TITLES = {"course": "Course defaults", "course-precision": "Course lab, precision 2 %",
                 "quick": "Quick (5 s trials, 1 repetition)"}

__all__ = ["CATALOG", "IMPORTED", "PRESETS", "PRESET_TITLES", "all_ids", "expand_ids", "experiment_of",
           "register", "left_out_of_all", "results_for", "unregister"]


def register(cls: type[Experiment]) -> type[Experiment]:
    """Add an experiment class to the catalog (a class decorator); ids are unique and may not
    be the fallback id, so a catalog id always means one experiment."""
    if not cls.id or cls.id in (IMPORTED, "all"):
        raise ValueError(f"an experiment needs its own id, not {cls.id!r}")
    if CATALOG.get(cls.id, cls) is not cls:
        raise ValueError(f"experiment id {cls.id!r} is already registered")
    CATALOG[cls.id] = cls
    return cls


def unregister(eid: str) -> None:
    """Remove an experiment from the catalog (for tests that register a toy one)."""
    CATALOG.pop(eid, None)


def results_for(eid: str) -> type[Experiment] | UnregisteredResults:
    """What knows how to summarize, tabulate, draw and describe results of ``eid``: the
    registered class, or a fallback for imported results and unknown ids."""
    cls = CATALOG.get(eid)
    if cls is not None:
        return cls
    return ImportedResults if eid == IMPORTED else UnregisteredResults(eid)


def experiment_of(entry: ExperimentEntry) -> Experiment | None:
    """The experiment as it ran: the registered class of ``entry.id`` built from the parameters
    run.json records for it, coerced and validated like a user's input (app/params.py), so
    report and results code read attributes (``exp.runtime``) instead of keys.

    None when there is no such experiment to read: an id no module registers (``imported``
    results, an experiment of another version) or parameters that do not build (a value out of
    range or of the wrong kind, a parameter this version does not know). A run folder may come
    from someone else, so whatever its parameters hold, this returns None rather than raise;
    callers then say what they say of an unrecorded value. A parameter the run does not record
    (it predates the option) takes its default, which is what runs did before the option.
    """
    cls = CATALOG.get(entry.id)
    built: Experiment | None = None if cls is None else build_or_none(cls, entry.params)
    return built


def all_ids() -> list[str]:
    """What `run all` means, in catalog order: every experiment that says it is in it."""
    return [eid for eid, cls in CATALOG.items() if cls.in_all]


def left_out_of_all() -> str:
    """The experiments `run all` leaves out, in words: 'quick, steady-state and write-saturation'."""
    left = [eid for eid in CATALOG if eid not in all_ids()]
    return ", ".join(left[:-1]) + " and " + left[-1] if len(left) > 1 else "".join(left)


def expand_ids(names: list[str]) -> list[str]:
    """Experiment ids from the command line: ``all`` expands, order kept, duplicates dropped."""
    out: list[str] = []
    for name in names:
        for eid in (all_ids() if name == "all" else [name]):
            if eid not in CATALOG:
                raise KeyError(f"unknown experiment {eid!r}; known: {', '.join(CATALOG)}, all")
            if eid not in out:
                out.append(eid)
    return out
