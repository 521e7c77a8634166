"""samples.csv of a real run folder, mutated at random (hypothesis), through every reader: the
summary, ``load_runs`` (and so ``compare``), the window's reopen and the export. Each either
reads it or refuses it with a one-line ValueError; the export writes nothing outside its
folder, and goes on without the live figures when the file is refused.
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.report.export import export_run
from app.runs import load_runs
from app.store.samples import read_sample_table
from ui.window.run.past_runs import load_past_run

from conftest import FIXTURES
from safety_support import snapshot

(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]
ORIGINAL = (RUN / "samples.csv").read_bytes()

MUTATION = st.one_of(
    st.tuples(st.just("cut"), st.integers(0, len(ORIGINAL))),
    st.tuples(st.just("insert"), st.integers(0, len(ORIGINAL)), st.binary(min_size=1, max_size=40)),
    st.tuples(st.just("replace"), st.integers(0, len(ORIGINAL) - 1), st.binary(min_size=1, max_size=1)),
    st.tuples(st.just("cell"), st.integers(0, 200), st.sampled_from(
        ["nan", "inf", "-1e400", "x", "", "1,2,3,4", '"', "\x00", "9" * 400, "\r"])),
    st.tuples(st.just("header"), st.integers(1, 5000)),
)


def _mutated(kind, *args) -> bytes:
    data = ORIGINAL
    if kind == "cut":
        return data[:args[0]]
    if kind == "insert":
        return data[:args[0]] + args[1] + data[args[0]:]
    if kind == "replace":
        return data[:args[0]] + args[1] + data[args[0] + 1:]
    if kind == "cell":  # the n-th cell of the body replaced
        head, _, body = data.partition(b"\n")
        cells = body.split(b",")
        cells[min(args[0], len(cells) - 1)] = args[1].encode()
        return head + b"\n" + b",".join(cells)
    return b",".join(b"c%d" % i for i in range(args[0])) + b"\n" + data.partition(b"\n")[2]


def _one_line_or_value(call) -> None:
    try:
        call()
    except ValueError as exc:
        assert "\n" not in str(exc), str(exc)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutation=MUTATION)
def test_a_mutated_samples_file_is_read_or_refused_in_one_line(mutation):
    with tempfile.TemporaryDirectory() as tmp:
        area = Path(tmp)
        run = shutil.copytree(RUN, area / "run")
        (run / "samples.csv").write_bytes(_mutated(*mutation))
        before = snapshot(area)
        _one_line_or_value(lambda: read_sample_table(run))
        _one_line_or_value(lambda: load_runs([run]))
        _one_line_or_value(lambda: load_past_run(run))
        notes = []
        export_run(run, area / "out", None, notes.append)
        after = {k: v for k, v in snapshot(area).items() if not k.startswith("out")}
        assert after == before
        assert all("\n" not in n for n in notes)
