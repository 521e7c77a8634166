"""What ``ssd-profiler import FILE`` peaks at in memory, against the size of FILE. Prints figures.

Two inputs of ``--mib`` MiB each, made from one genuine fio 3.19 JSON document
(tests/fixtures/fio, eight jobs): the document printed again and again (what a long run with
``--status-interval`` leaves) and one document whose jobs are those eight repeated; and a
genuine fio 3.33 terse line repeated (a terse file of many jobs). Each size is imported in a fresh process; its peak resident memory
(``ru_maxrss`` of the child) less that of importing the single document is what the file cost,
printed with the ratio to the file's size.

Run: ``.venv/bin/python benchmarks/import_memory.py [--mib 8 32]``.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "tests" / "fixtures" / "fio" / "fio-3.19-linux-libaio-nvme-rw-8jobs-no-group_reporting-json.json"

TERSE = REPO / "tests" / "fixtures" / "fio-text" / "fio-3.33-linux-libaio-randread-4k-qd4-terse-v3.txt"


def peak_kib(path: Path) -> int:
    """Peak resident KiB of one ``import PATH --json`` in a fresh process (its own, measured
    by a wrapper so earlier children do not count)."""
    wrapper = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], capture_output=True, "
               "check=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", wrapper, sys.executable, "-m", "ui.main", "import",
                           str(path), "--json"], cwd=REPO, capture_output=True, text=True, check=True)
    return int(done.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, nargs="+", default=[8, 32])
    args = parser.parse_args()
    doc = DOC.read_text()
    with tempfile.TemporaryDirectory() as tmp:
        one = Path(tmp) / "one.json"
        one.write_text(doc)
        base = peak_kib(one)
        print(f"one document ({len(doc) / 1024:.0f} KiB): peak {base / 1024:.0f} MiB")
        for mib in args.mib:
            copies = max(1, mib * 2**20 // len(doc))
            record = json.loads(doc)
            record["jobs"] = record["jobs"] * (copies * len(doc) // len(json.dumps(record)) or 1)
            terse = TERSE.read_text()
            for shape, text in ((f"{copies} status documents", doc * copies),
                                ("terse lines", terse * (mib * 2**20 // len(terse))),
                                (f"one document of {len(record['jobs'])} jobs",
                                 json.dumps(record, indent=2))):
                path = Path(tmp) / "input.json"
                path.write_text(text)
                size, peak = path.stat().st_size, peak_kib(path)
                extra = (peak - base) * 1024
                print(f"{size / 2**20:.1f} MiB, {shape}: peak {peak / 1024:.0f} MiB, "
                      f"{extra / 2**20:.0f} MiB over one document = {extra / size:.1f}x the file")


if __name__ == "__main__":
    main()
