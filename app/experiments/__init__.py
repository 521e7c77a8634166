"""The experiment catalog: one module per experiment, registered in catalog order.

Each module holds everything about its experiment: parameters and workloads, findings, tables,
figure specs and report sentences (the interface is in base.py). Importing this package imports
every module below, which registers it (registry.py); generic code looks experiments up there.
Adding an experiment = adding its module and its line here (the order of these lines is the
order of the catalog, of `run all` and of the window's list).
"""
from __future__ import annotations

# The order of these imports is the catalog order (each module registers itself on import).
# isort: off
from app.experiments import zero_queue, block_size, rw_mix, queue_depth  # noqa: F401
from app.experiments import tail_latency, slc_cache, quick, steady_state  # noqa: F401
from app.experiments import write_saturation  # noqa: F401
# isort: on
from app.experiments.base import Experiment
from app.experiments.registry import (
    CATALOG,
    IMPORTED,
    PRESET_TITLES,
    PRESETS,
    all_ids,
    expand_ids,
    register,
    results_for,
)

#: What `run all` meant when the package was imported; :func:`all_ids` is the live answer.
ALL = all_ids()

__all__ = ["ALL", "CATALOG", "IMPORTED", "PRESETS", "PRESET_TITLES", "Experiment", "all_ids", "expand_ids",
           "register", "results_for"]
