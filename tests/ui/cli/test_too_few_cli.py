"""The CLI's tables follow the one rule for percentiles on too few I/Os (app/model/percentiles.py):
the results table after a run (here the fixture run folder, real fio, 1 s trials: its QD1 sweep
repetition of 180 I/Os leaves 1 I/O beyond its p99) and ``import`` of a genuine fio output whose
job moved 732 I/Os (7 beyond its p99) show 'too few I/Os (n)'; ``import --json`` keeps the
value beside a ``too_few`` flag."""
from __future__ import annotations

import io
import json

from conftest import FIXTURES, run_cli

(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]
SHORT = FIXTURES / "fio" / "fio-2.18-linux-libaio-randread-qd1-json.json"


def test_the_results_table_marks_a_p99_on_too_few_ios():
    from ui.cli.results import print_results
    out = io.StringIO()
    print_results(out, str(RUN))
    text = out.getvalue()
    qd1 = next(line for line in text.splitlines()
               if "RND4K Q1T1 read" in line and "2,140" in line)   # the queue-depth sweep's row
    assert "too few I/Os (1)" in qd1 and "8,437" not in qd1
    assert "p99 needs about 1,000 I/Os per trial: a runtime of about 5.6 s at this IOPS (180)" in text


def test_import_marks_a_job_p99_on_too_few_ios_and_json_keeps_it_beside_its_flag():
    done = run_cli("import", str(SHORT))
    assert done.returncode == 0, done.stderr
    assert "too few I/Os (7)" in done.stdout
    done = run_cli("import", str(SHORT), "--json")
    assert done.returncode == 0, done.stderr
    (job,) = json.loads(done.stdout)
    assert job["read"]["too_few"] == {"p99": 7, "p99.9": 0, "p99.99": 0}
    assert job["read"]["lat_us"]["p99"] is not None           # fio's value, beside its flag
