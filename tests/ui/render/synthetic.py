"""Summaries of a fast NVMe drive, made up but shaped like run.json's, for figures the committed
VM run cannot show (a knee among crowded low queue depths, 4 KiB latencies a tenth of 128 KiB
ones, a tail from 80 µs to 20 ms). Test support, not a test module."""
from __future__ import annotations

from app.experiments.registry import CATALOG
from app.model.experiment_entry import ExperimentEntry
from app.model.run import Run
from app.model.summary import WorkloadSummary
from app.model.workload import Workload
from app.results.run_results import ExperimentResults, RunResults
from app.specs.match import compare


def _stat(mean, std=None, n=3):
    return None if mean is None else {"mean": mean, "std": std, "n": n}


def row(rw: str, bs: int, qd: int, iops: float, lat: dict, jobs: int = 1, rwmixread=None,
        n: int = 3, spread: float = 0.03, kind: str = "total") -> dict:
    w = Workload(rw, bs, qd, jobs, rwmixread)
    side = {"iops": _stat(iops, iops * spread, n), "MBps": _stat(iops * bs / 1e6, None, n),
            "lat_kind": kind,
            "lat_us": {k: _stat(v, v * spread, n) for k, v in lat.items()}}
    writes = "write" in rw and rw not in ("randrw", "rw")
    return {"key": w.key, "label": w.label, "workload": w.to_json(), "n": n,
            "total_iops": _stat(iops, iops * spread, n),
            "total_MBps": _stat(iops * bs / 1e6, None, n),
            "read": None if writes else side, "write": side if writes else None}


def _figures(eid: str, rows: list[dict]) -> list:
    """The experiment's figures of these rows (no trials behind them: no I/O counts)."""
    cls, summaries = CATALOG[eid], tuple(WorkloadSummary.from_json(r) for r in rows)
    part = ExperimentResults(eid, ExperimentEntry.of({"id": eid}), summaries, (), cls.findings(summaries, (), ()))
    return cls.figures(part, RunResults(Run.from_json({"status": "done"}), (part,)))


def queue_depth():
    """The knee at QD32 while QD1..QD16 crowd the lower left corner."""
    points = [(1, 12e3, 80), (2, 23e3, 85), (4, 45e3, 88), (8, 85e3, 94), (16, 150e3, 106),
              (32, 240e3, 133), (64, 300e3, 213), (128, 320e3, 400), (256, 325e3, 787)]
    rows = [row("randread", 4096, q, iops, {"mean": lat, "p99": lat * 2.5}) for q, iops, lat in points]
    return _figures("queue-depth", rows)


def zero_queue():
    rows = [row("randread", 4096, 1, 11e3, {"mean": 85, "p50": 80, "p95": 110, "p99": 160}),
            row("randwrite", 4096, 1, 40e3, {"mean": 22, "p50": 20, "p95": 30, "p99": 48}),
            row("read", 131072, 1, 3e3, {"mean": 320, "p50": 300, "p95": 420, "p99": 700}),
            row("write", 131072, 1, 6e3, {"mean": 160, "p50": 150, "p95": 260, "p99": 900})]
    return _figures("zero-queue", rows)


def tail_latency():
    lat = {"p50": 80, "p95": 140, "p99": 600, "p99.9": 4000, "p99.99": 21000}
    rows = [row("randread", 4096, qd, 1e5, {k: v * f for k, v in lat.items()}, spread=0.2,
                kind="completion") for qd, f in ((8, 1.0), (32, 1.8), (128, 4.0))]
    return _figures("tail-latency", rows)


def vendor():
    spec = {"id": "acme", "vendor": "ACME", "family": "TestDrive", "capacity_gb": 1000,
            "interface": "PCIe 4.0 x4", "seq_read_mbps": 7000, "seq_write_mbps": 6500,
            "rand_read_iops": 1_000_000, "rand_write_iops": 1_000_000,
            "test_conditions": {"rand_bs": "4KiB", "rand_qd": 32, "threads": 16},
            "source_url": "https://example.com", "source_kind": "vendor"}
    summary = {"quick": {"workloads": [
        row("read", 1 << 20, 8, 6500, {"mean": 1200}),
        row("write", 1 << 20, 8, 5800, {"mean": 1300}),
        row("randread", 4096, 32, 950e3, {"mean": 520}, jobs=16),
        row("randwrite", 4096, 1, 60e3, {"mean": 16})]}}
    from app.specs.outputs import vendor_figure
    from app.specs.record import VendorSpec

    from conftest import info_of, parts_of
    return [vendor_figure(compare(parts_of(summary), VendorSpec.from_json(spec), info_of({"drive": {"model": "ACME TestDrive"}})))]


def all_figures():
    return [*queue_depth(), *zero_queue(), *tail_latency(), *vendor()]
