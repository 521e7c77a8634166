"""What fio's json+ status documents cost the app: the CPU to parse one cumulative
document with its latency bins and split it into an interval with its own p99, and what that is
at a 0.1 s status interval (10 documents a second), as a share of one core.

Two shapes: the genuine 4 KiB randrw QD4 fixture (a few hundred bins per direction) and a
synthetic worst case with every one of fio's 1,856 buckets filled in both directions.
A benchmark that prints figures, not a test. Run: ``.venv/bin/python benchmarks/jsonplus_parse.py``
"""
from __future__ import annotations

import copy
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engines.fio.live import FioLive  # noqa: E402
from app.engines.fio.result import split_documents  # noqa: E402
from app.stats.histogram import PLAT_NR, idx_to_val  # noqa: E402

FIXTURE = (Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "fio-local"
           / "fio-3.33-linux-libaio-randrw70-qd4-jsonplus-status.json")


def stream(docs: list[dict], count: int) -> list[str]:
    """``count`` cumulative documents: each later one has every counter and bin grown."""
    out = []
    for k in range(1, count + 1):
        doc = copy.deepcopy(docs[-1])
        doc["timestamp_ms"] += k * 100
        for job in doc["jobs"]:
            for d in ("read", "write"):
                side = job[d]
                side["runtime"] = k * 100
                for key in ("io_bytes", "total_ios"):
                    side[key] = side[key] * k
                for lat_key in ("lat_ns", "clat_ns"):
                    obj = side.get(lat_key) or {}
                    obj["N"] = obj.get("N", 0) * k
                    obj["bins"] = {v: c * k for v, c in (obj.get("bins") or {}).items()}
        out.append(json.dumps(doc, indent=2) + "\n")
    return out


def full_bins(docs: list[dict]) -> list[dict]:
    doc = copy.deepcopy(docs[-1])
    for job in doc["jobs"]:
        for d in ("read", "write"):
            for lat_key in ("lat_ns", "clat_ns"):
                job[d].setdefault(lat_key, {})["bins"] = {str(idx_to_val(i)): 3 for i in range(PLAT_NR)}
    return [doc]


def per_document_ms(texts: list[str], rounds: int = 5) -> float:
    times = []
    for _ in range(rounds):
        live = FioLive()
        start = time.process_time()
        for text in texts:
            live.feed(text)
        times.append((time.process_time() - start) / len(texts) * 1000)
    return statistics.median(times)


def main() -> None:
    docs = split_documents(FIXTURE.read_text())
    for name, base in (("fixture (4K randrw QD4)", docs), ("all 1,856 buckets filled", full_bins(docs))):
        texts = stream(base, 200)
        bins = sum(len(j[d]["lat_ns"].get("bins") or {}) for j in base[-1]["jobs"] for d in ("read", "write"))
        ms = per_document_ms(texts)
        print(f"{name}: {bins} bins per document, {len(texts[0]) / 1024:.0f} KiB of text; "
              f"median {ms:.2f} ms CPU per document -> {ms * 10 / 10:.1f} % of a core at a 0.1 s "
              f"interval (budget 2 %)")


if __name__ == "__main__":
    main()
