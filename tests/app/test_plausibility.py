"""Results against physics (app/stats/plausibility.py, app/results/plausibility_notes.py): at, just below
and beyond each link's ceiling, the latency floor, and a real run folder whose recorded link
is slower than its results, flagged in table notes, figures and report.md."""
from __future__ import annotations

import json
import shutil

import pytest

from app.model.summary import WorkloadSummary
from app.report.outputs import build_figures, build_tables, findings
from app.results.plausibility_notes import flag_figures, flag_tables, method_lines
from app.stats.plausibility import LATENCY_FLOOR_US, check, row_flags
from app.store.run_folder import load_run

from conftest import FIXTURES, results_of, run_cli

OLD = FIXTURES / "runs"
(RUN,) = [p for p in OLD.iterdir() if p.is_dir() and p.name.startswith("2026")]
SATA = {"kind": "SATA", "gbps": 6.0, "ceiling_MBps": 600.0, "source": "smartctl interface_speed.current",
        "text": "SATA 6.0 Gb/s", "duplex": "half"}
CACHE = "a cache or RAM was measured, not the drive"


def _stat(value):
    return {"mean": value, "std": 0.0, "n": 3}


def _row(direction="read", mbps=100.0, lat=100.0, p50=None, bs=4096, label="W"):
    side = {"MBps": _stat(mbps), "iops": _stat(mbps * 1e6 / bs),
            "lat_us": {"mean": _stat(lat), "p50": _stat(p50 if p50 is not None else lat)}}
    return _ws({"label": label, "workload": {"bs_bytes": bs}, "n": 3, "total_MBps": _stat(mbps),
                direction: side, "write" if direction == "read" else "read": None})


def _ws(row):
    return WorkloadSummary.from_json({"key": row["label"], "n": 3, **row})


# ceilings of a SATA 6 Gb/s, PCIe 3.0 x4, USB 5 Gb/s and USB 2.0 link
@pytest.mark.parametrize("ceiling", [600.0, 3938.5, 500.0, 60.0])
@pytest.mark.parametrize("direction", ["read", "write"])
def test_at_and_just_below_the_ceiling_pass_beyond_it_is_flagged(ceiling, direction):
    for mbps in (ceiling * 0.999, ceiling):
        assert row_flags("x", _row(direction, mbps, lat=500.0, bs=1 << 20), ceiling, None) == []
    (flag,) = row_flags("x", _row(direction, ceiling * 1.001, lat=500.0, bs=1 << 20), ceiling, None)
    assert (flag.kind, flag.direction, flag.what, flag.limit) == ("link", direction, "MB/s", ceiling)
    assert row_flags("x", _row(direction, 50_000.0), None, None) == []   # no link known: no check


def test_the_latency_floor_adds_the_transfer_time_over_the_link():
    floor = LATENCY_FLOOR_US
    assert row_flags("x", _row(lat=floor), None, floor) == []             # at the floor: plausible
    (flag,) = row_flags("x", _row(lat=floor * 0.99), None, floor)
    assert (flag.kind, flag.what) == ("floor", "mean latency")
    # 128 KiB over a 600 MB/s link take 218.5 µs: 200 µs is faster than the link can carry them
    limit = floor + 131072 / 600.0
    (flag,) = row_flags("x", _row(mbps=500.0, lat=200.0, bs=131072), 600.0, floor)
    assert flag.limit == pytest.approx(limit) and flag.kind == "floor"
    assert row_flags("x", _row(mbps=500.0, lat=limit + 0.1, bs=131072), 600.0, floor) == []
    # most I/Os answered from a cache: the mean is plausible, the median is not
    (flag,) = row_flags("x", _row(lat=40.0, p50=1.2), None, floor)
    assert flag.what == "median latency" and flag.value == pytest.approx(1.2)


def test_a_half_duplex_link_is_shared_by_reads_and_writes():
    row = _ws({"label": "mix", "workload": {"bs_bytes": 4096}, "total_MBps": _stat(700.0),
               "read": {"MBps": _stat(350.0)}, "write": {"MBps": _stat(350.0)}})
    (flag,) = row_flags("x", row, 600.0, None, half_duplex=True)
    assert (flag.direction, flag.value) == ("total", 700.0)
    assert row_flags("x", row, 600.0, None, half_duplex=False) == []      # PCIe: both at once


def test_runs_without_a_record_are_left_as_they_were():
    record = json.loads((RUN / "run.json").read_text())
    results = results_of(record, RUN)
    assert check(results.run.info, results.parts) == [] and method_lines(results.run.info) == []
    tables = build_tables(results)
    assert flag_tables(tables, results) == tables
    figures = build_figures(results)
    assert flag_figures(figures, results) == figures


def _faked(tmp_path, link=SATA, floor=LATENCY_FLOOR_US):
    """The landed run folder, with a link slower than its results recorded at its start."""
    run_dir = shutil.copytree(RUN, tmp_path / RUN.name)
    record = json.loads((run_dir / "run.json").read_text())
    record["plausibility"] = {"link": link, "link_reason": "", "latency_floor_us": floor}
    for trial in record["trials"]:
        m = trial["measurement"]
        if trial["experiment"] == "zero-queue" and trial["label"] == "RND4K Q1T1 read":
            m["read"]["lat_us"]["mean"] = 1.5                            # a page-cache answer
        if trial["experiment"] == "zero-queue" and trial["label"] == "SEQ128K Q1T1 read":
            m["read"]["MBps"] = m["total"]["MBps"] = 4012.0              # a RAM-speed read
    (run_dir / "run.json").write_text(json.dumps(record, indent=2))
    record = load_run(run_dir)
    results = results_of(record, run_dir)
    return run_dir, record, results.summary_json(), results


def test_a_run_faster_than_its_link_is_flagged_in_tables_figures_and_report(tmp_path):
    run_dir, record, summary, results = _faked(tmp_path)
    flags = check(results.run.info, results.parts)
    assert {f.kind for f in flags} == {"link", "floor"}
    assert any(f.label == "SEQ128K Q1T1 read" and f.kind == "link" for f in flags)
    assert any(f.experiment == "slc-cache" and f.kind == "link" for f in flags)  # 2,726 MB/s
    assert not any(f.experiment == "block-size" for f in flags)               # 423 MB/s at most
    tables = {t.id: t for t in build_tables(results)}
    note = tables["zero-queue"].notes[0]
    assert note.startswith("Faster than the link (SATA 6.0 Gb/s, at most 600 MB/s): ")
    assert "SEQ128K Q1T1 read 4,012.0 MB/s" in note and note.endswith(CACHE + ".")
    assert any("RND4K Q1T1 read mean latency 1.50 µs" in n for n in tables["zero-queue"].notes)
    assert not any("Faster" in n for n in tables["zero-queue-io-counts"].notes)   # first table only
    figures = {f.id: f for f in build_figures(results)}
    lines = [h for f in figures.values() for h in f.hlines if h.text.startswith("link ceiling")]
    assert lines and all(h.y == 600.0 for h in lines)
    bs = next(f for f in figures.values() if f.experiment == "block-size" and f.y2_axis)
    assert any(h.axis == "right" and h.y == 600.0 for h in bs.hlines)   # the MB/s axis
    assert "dash-dot 'link ceiling' line" in bs.caption and "faster than" not in bs.caption
    slc = [f for f in figures.values() if f.experiment == "slc-cache" and "MB/s" in f.y_axis.label]
    assert slc and all(f"faster than the link: {CACHE}" in f.caption for f in slc)
    assert all(any(h.text.startswith("link ceiling") for h in f.hlines) for f in slc)
    zq_fig = next(f for f in figures.values() if f.experiment == "zero-queue")
    assert "faster than the link or any drive can answer" in zq_fig.caption
    assert any("faster than the link" in s for s in findings(results.part("zero-queue"), results))

    done = run_cli("export", str(run_dir), "--out", str(tmp_path / "export"))
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "export" / "report.md").read_text()
    assert f"faster than the link: {CACHE}" in report
    assert "Faster than the link (SATA 6.0 Gb/s, at most 600 MB/s)" in report
    assert "dash-dot 'link ceiling' line" in report and "- Plausibility: checked" in report
    assert "Faster than the link" in (tmp_path / "export" / "tables" / "zero-queue.md").read_text()
    assert (tmp_path / "export" / "figures" / f"{bs.id}.png").stat().st_size > 0


def test_a_fast_link_draws_no_line_far_above_the_values(tmp_path):
    link = {**SATA, "kind": "PCIe", "text": "PCIe 5.0 x16", "ceiling_MBps": 63015.4, "duplex": "full"}
    _, record, summary, results = _faked(tmp_path, link=link, floor=None)
    assert check(results.run.info, results.parts) == []
    for fig in build_figures(results):
        assert not any(h.text.startswith("link ceiling") for h in fig.hlines)
        if fig.experiment == "block-size" and fig.y2_axis:
            assert "is far above these values and not drawn" in fig.caption
    assert all(not n.startswith("Faster") for t in build_tables(results) for n in t.notes)
