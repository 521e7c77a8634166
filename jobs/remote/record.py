"""run.json of a remote run: what the fio servers told, and what they cannot tell.

A fio server reports neither free space nor the file system, and a fio job cannot read the
drive's identity, SMART or temperature: those are recorded as "not available remotely", never
guessed, unless ``--ssh`` read them with smartctl (jobs/remote/ssh_smartctl.py). With several hosts,
``target.remote`` and ``drive`` keep the first host's fields at the top (what a one-host reader
looks at) and every host under ``hosts``; the results are combined as app/engines/fio/host_sum.py
says (``target.remote.combined``).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app import __version__
from app.drive.thermal import TemperatureSource
from app.engines.fio import FioEngine
from app.engines.fio.host_sum import HOW
from app.engines.fio.remote_result import LIVE_SERIES
from app.experiments.base import Experiment
from app.experiments.plan import RunPlan
from app.host import host_info
from app.params import values_json
from app.paths import CheckedTarget, new_run_id
from app.remote.ssh_smart import NOT_REMOTE
from app.remote.target import RemoteAddress
from app.stats.plausibility import at_run_start
from jobs.remote.check import RemoteFacts

UNKNOWN = f"{NOT_REMOTE}: a fio server reports neither"
SEVERAL = (f"{NOT_REMOTE} as one drive: the run has several hosts, each host's drive is in "
           "drive.hosts (its SMART after the run in smart_after_hosts)")


def remote_part(addresses: Sequence[RemoteAddress], facts: Sequence[RemoteFacts],
                live: dict[str, Any]) -> dict[str, Any]:
    """``target.remote``: the first host's fields, then every host under ``hosts``."""
    hosts = [{"host": a.host, "port": a.port, "fio_version": f.fio_version, "hostname": f.hostname,
              "os": f.os, "device": f.device} for a, f in zip(addresses, facts, strict=True)]
    out = {**hosts[0], "free_space": UNKNOWN, "fs_type": UNKNOWN, "live": live, "hosts": hosts}
    if len(hosts) > 1:
        out["combined"] = HOW
    return out


def live_series(hosts: int, temperature: bool) -> dict[str, Any]:
    """LIVE_SERIES, saying what several hosts' live values are and whether ssh gives the
    temperature."""
    out: dict[str, Any] = dict(LIVE_SERIES)
    if temperature:
        out["available"] = [*out["available"], "drive temperature (ssh smartctl, every 5 s)"]
        out["not_available"] = [s for s in out["not_available"] if s != "drive temperature"]
    if hosts > 1:
        out["how"] += (f"; with {hosts} hosts the live values are their sum, one point once every "
                       "host has sent its second")
    return out


def drive_part(drives: list[dict[str, Any]]) -> dict[str, Any]:
    if len(drives) == 1:
        return drives[0]
    return {**{k: None for k in drives[0]}, "remote": ", ".join(d["remote"] for d in drives),
            "reason": SEVERAL, "smart_reason": SEVERAL, "hosts": drives}


def temperature_part(drives: list[dict[str, Any]], source: TemperatureSource | None) -> dict[str, Any]:
    if source is not None:
        return {"source": source.name, "detail": source.detail, "reason": ""}
    if len(drives) > 1:
        read = [d for d in drives if d.get("temperature_c") is not None]
        why = ("not charted with several hosts (one temperature column); each host's temperature "
               "before the run is in drive.hosts" if read else drives[0]["reason"])
        return {"source": None, "detail": None, "reason": why}
    return {"source": None, "detail": None, "reason": drives[0]["reason"] or NOT_REMOTE}


def remote_record(experiments: Sequence[Experiment], plan: RunPlan, checked: CheckedTarget,
                  addresses: Sequence[RemoteAddress], facts: Sequence[RemoteFacts], local: FioEngine,
                  command_line: list[str] | None, drives: list[dict[str, Any]],
                  source: TemperatureSource | None) -> dict[str, Any]:
    where = ", ".join(str(a) for a in addresses)
    return {
        "app_version": __version__,
        "run_id": new_run_id(),
        "command_line": command_line,
        "experiments": [{"id": e.id, "title": e.title, "params": values_json(e),
                         "workload_keys": [w.key for w in e.workloads()]} for e in experiments],
        "seed": plan.seed,
        "target": {"folder": str(checked.folder), "requested": checked.requested,
                   "data_dir": str(checked.data_dir), "fs_type": None, "free_bytes": None,
                   "total_bytes": None, "medium": None,
                   "remote": remote_part(addresses, facts, live_series(len(addresses), source is not None))},
        "drive": drive_part(drives),
        "plausibility": {**at_run_start({}, None), "link": None, "link_reason": NOT_REMOTE},
        "direct_io": {"requested": any(e.direct for e in experiments), "in_effect": None,
                      "how": "not probed: the target is remote"},
        "vendor_spec": None,
        "temperature": temperature_part(drives, source),
        "host": host_info(),
        "engine": {"name": "fio", "version": local.version, "path": local.path, "client_of": where},
        "planned_trials": [t.to_json() for t in plan.trials],
    }
