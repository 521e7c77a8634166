"""A shared run folder is untrusted input: run.json and samples.csv of a real run (every
experiment, with fio's latency histograms) mutated at random (hypothesis), then opened by every
reader a shared folder meets: the loader, the export, compare and ``load_runs`` (and the
window's reopen and runs list, which are plain functions). Each reads the folder or refuses it
with one ValueError of one line: no other exception, so no traceback reaches a user; nothing
outside the export folders changes (a sibling folder and the folders above are fingerprinted);
and memory stays bounded (the address space is capped while they read).

The mutations are structural where a parser is picked to be fooled (one field of one record set
to a hostile value: wrong type, huge, negative, a path, control characters, deep nesting; a key
dropped; a list grown) and byte-level for damage (cut, inserted bytes). Fields are drawn by the
shape of their path (``trials[].measurement.read.hist_ns[][]``), not by count, so the few
top-level keys are tried as often as the many histogram pairs.
"""
from __future__ import annotations

import json
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.compare.export import export_comparison
from app.compare.report import build_comparison
from app.report.export import export_run
from app.results.load import load_results
from app.runs import load_runs
from ui.window.run.past_runs import load_past_run, scan_runs

from conftest import FIXTURES
from safety_support import snapshot

RUN = FIXTURES / "runs" / "full-lab-20261126" / "run"
RECORD = json.loads((RUN / "run.json").read_text(encoding="utf-8"))
SAMPLES = (RUN / "samples.csv").read_bytes()
MINE = next(p for p in (FIXTURES / "runs").iterdir() if p.name.startswith("2026"))  # to compare
HEADROOM = 1 << 30   # bytes of address space the readers may add: the run.json is 2 MiB
HUGE = "__huge_number__"   # written as the literal 1e400, which JSON parsers read as inf


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*path, i))


def _shape(path) -> str:
    return ".".join("[]" if isinstance(p, int) else str(p) for p in path)


BY_SHAPE: dict[str, list[tuple]] = {}
for _p in _paths(RECORD):
    if _p:
        BY_SHAPE.setdefault(_shape(_p), []).append(_p)
BY_TOP: dict[str, list[str]] = {}
for _s in sorted(BY_SHAPE):
    BY_TOP.setdefault(_s.split(".")[0], []).append(_s)
# a top-level key first, then a field under it: the summary's thousand shapes (rebuilt from
# the trials anyway) would drown the records every reader reads, which are drawn more often
SHAPES = st.sampled_from(sorted(BY_TOP) + ["trials"] * 6 + ["experiments"] * 3
                         + ["planned_trials"] * 2).flatmap(lambda top: st.sampled_from(BY_TOP[top]))

HOSTILE = st.sampled_from([
    None, True, False, 0, -1, 1.5, -1e308, 1e308, 10**30, -(10**30), HUGE, "", "x", "done",
    "running", "read", "randwrite", "../../victim/chapter3", "/etc/passwd", "\x1b[2J\x1b]0;owned\x07",
    "<img src=\"/dev/zero\">", "a" * 5000, "\udcff", [], {}, [[]], [1, 2], [[1, 2, 3]],
    {"a": 1}, {"id": "../x"}, [0] * 50_000, [[1, 10**12]] * 2_000, [[-5, 1]], [[128, -1]],
])


def _set(record, path, value) -> None:
    node = record
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value


def _drop(record, path) -> None:
    node = record
    for p in path[:-1]:
        node = node[p]
    del node[path[-1]]


def _grow(record, path, times) -> None:
    node = record
    for p in path[:-1]:
        node = node[p]
    if isinstance(node, list):
        node.extend([json.loads(json.dumps(node[path[-1]]))] * times)


SET = st.tuples(st.just("set"), SHAPES, st.integers(0, 10**6), HOSTILE)
EDIT = st.one_of(   # one_of draws its branches alike: a hostile value is most of the edits
    SET, SET, SET,
    st.tuples(st.just("drop"), SHAPES, st.integers(0, 10**6)),
    st.tuples(st.just("grow"), SHAPES, st.integers(0, 10**6),
              st.integers(1, 200)),
    st.tuples(st.just("deep"), SHAPES, st.integers(0, 10**6),
              st.sampled_from([50, 5_000, 100_000])),
)
BYTES = st.one_of(  # byte damage stops every reader at the parser: one example in five
    st.none(), st.none(), st.none(), st.none(),
    st.tuples(st.just("cut"), st.floats(0, 1)),
    st.tuples(st.just("insert"), st.floats(0, 1), st.binary(min_size=1, max_size=20)),
)
SAMPLE_EDIT = st.one_of(
    st.none(), st.none(), st.none(), st.none(),
    st.tuples(st.just("cut"), st.floats(0, 1)),
    st.tuples(st.just("insert"), st.floats(0, 1), st.binary(min_size=1, max_size=20)),
    st.tuples(st.just("cell"), st.integers(0, 400), st.sampled_from(
        ["nan", "inf", "-1e400", "x", "", "1,2,3", '"', "\x00", "9" * 400, "-1", "1e300"])),
    st.tuples(st.just("columns"), st.integers(1, 20_000)),
)


def _run_json(edits, damage) -> bytes:
    record = json.loads(json.dumps(RECORD))
    deep = None
    for kind, shape, pick, *rest in edits:
        paths = BY_SHAPE[shape]
        path = paths[pick % len(paths)]
        try:
            if kind == "set":
                _set(record, path, rest[0])
            elif kind == "drop":
                _drop(record, path)
            elif kind == "grow":
                _grow(record, path, rest[0])
            else:
                deep = (path, rest[0])
                _set(record, path, "__deep__")
        except (KeyError, IndexError, TypeError):
            continue   # an earlier edit removed or replaced the path: nothing to do
    text = json.dumps(record).replace(f'"{HUGE}"', "1e400")
    if deep is not None:
        text = text.replace('"__deep__"', "[" * deep[1] + "]" * deep[1], 1)
    data = text.encode("utf-8", "surrogatepass")
    return _damaged(data, damage)


def _damaged(data: bytes, damage) -> bytes:
    if damage is None:
        return data
    at = int(damage[1] * len(data))
    if damage[0] == "cut":
        return data[:at]
    return data[:at] + damage[2] + data[at:]


def _samples(edit) -> bytes:
    if edit is None or edit[0] in ("cut", "insert"):
        return _damaged(SAMPLES, edit)
    head, _, body = SAMPLES.partition(b"\n")
    if edit[0] == "cell":
        cells = body.split(b",")
        cells[min(edit[1], len(cells) - 1)] = edit[2].encode()
        return head + b"\n" + b",".join(cells)
    return b",".join(b"c%d" % i for i in range(edit[1])) + b"\n" + body


def _read_or_refuse(call) -> None:
    """``call()`` returns, or raises ValueError of one line; anything else fails the test."""
    try:
        call()
    except ValueError as exc:
        assert "\n" not in str(exc) and str(exc).strip(), repr(str(exc))


@contextmanager
def memory_capped():
    """Address space limited to what the process has plus :data:`HEADROOM` while the readers
    run (Linux; elsewhere the limit is not enforced and the block runs without it): a reader
    that would grow without bound raises MemoryError, which fails the test, instead of
    swapping the machine. Restored afterwards."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        with open("/proc/self/statm") as handle:
            size = int(handle.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (size + HEADROOM, hard))
    except (ImportError, OSError, ValueError):
        yield
        return
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.data_too_large])
@given(edits=st.lists(EDIT, min_size=1, max_size=3), damage=BYTES, samples=SAMPLE_EDIT)
def test_a_mutated_run_folder_is_read_or_refused_in_one_line(edits, damage, samples):
    with tempfile.TemporaryDirectory() as tmp:
        area = Path(tmp) / "home" / "runs"
        run = shutil.copytree(RUN, area / "shared-run")
        mine = shutil.copytree(MINE, area / "my-run")
        (area / "victim").mkdir()
        (area / "victim" / "chapter3.md").write_text("my thesis\n")
        (run / "run.json").write_bytes(_run_json(edits, damage))
        (run / "samples.csv").write_bytes(_samples(samples))
        before = snapshot(Path(tmp))
        notes: list[str] = []
        with memory_capped():
            _read_or_refuse(lambda: load_runs([run]))
            _read_or_refuse(lambda: load_past_run(run))
            listed = scan_runs(area)
            _read_or_refuse(lambda: export_run(run, Path(tmp) / "out", None, notes.append))
            _read_or_refuse(lambda: export_comparison(build_comparison([mine, run]),
                                                      Path(tmp) / "compared"))
        assert len(listed) == 2 and all("\n" not in (r.error or "") for r in listed)
        assert all("\n" not in n for n in notes)
        after = {k: v for k, v in snapshot(Path(tmp)).items()
                 if not k.startswith(("out", "compared"))}
        assert after == before


def _edited(tmp: Path, edit, raw=lambda text: text) -> Path:
    run = shutil.copytree(RUN, tmp / "shared-run")
    record = json.loads(json.dumps(RECORD))
    edit(record)
    (run / "run.json").write_text(raw(json.dumps(record)), encoding="utf-8")
    return run


def _first_histogram(record) -> list:
    return next(side["hist_ns"] for t in record["trials"] if t.get("measurement")
                for side in (t["measurement"].get("read"), t["measurement"].get("write"))
                if side and side.get("hist_ns"))


@pytest.mark.parametrize("edit, raw", [
    # each raised its own exception (TypeError, KeyError, OverflowError) out of the loader, the
    # export, load_runs and the window's reopen: "internal error" instead of the file's name
    (lambda r: r["trials"][0].update(index=[1]), None),
    (lambda r: r["experiments"][0].pop("id"), None),
    (lambda r: _first_histogram(r).__setitem__(0, [1, "HUGE"]), lambda t: t.replace('"HUGE"', "1e400")),
    (lambda r: _first_histogram(r).__setitem__(0, [1, 2, 3]), None),
    (lambda r: r["trials"][0].update(experiment=["zero-queue"]), None),
], ids=["trial-index-a-list", "experiment-without-id", "bin-count-1e400", "bin-of-three",
        "trial-experiment-a-list"])
def test_a_record_that_is_not_a_runs_is_refused_by_every_reader_naming_run_json(tmp_path, edit, raw):
    run = _edited(tmp_path, edit, raw or (lambda text: text))
    for read in (lambda: load_results(run), lambda: export_run(run, tmp_path / "out", None),
                 lambda: load_runs([run]), lambda: load_past_run(run)):
        with pytest.raises(ValueError, match="run.json is damaged") as caught:
            read()
        assert "\n" not in str(caught.value)
    assert not (tmp_path / "out").exists()


def test_a_planned_trial_the_window_cannot_show_is_refused_before_the_window_gets_it(tmp_path):
    """The window made its planned trials from run.json on the GUI thread, where a planned
    trial without a label raised KeyError half-way through showing the run; the reopen now
    makes them in the background and refuses the folder in one line."""
    run = _edited(tmp_path, lambda r: r["planned_trials"][0].pop("label"))
    with pytest.raises(ValueError, match="run.json is damaged: KeyError: 'label'"):
        load_past_run(run)
    export_run(run, tmp_path / "out", None)   # the export never reads the plan: it still works
