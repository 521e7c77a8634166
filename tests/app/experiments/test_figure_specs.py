"""Figure specs of every experiment, from the committed run folder and a vendor spec:
units written properly, read and write always in their two colours, the tail-latency log axis
and exceedance plot, zero-queue panels per block size with a value on every bar, percentiles
that say how many I/Os they rest on, and the slc-cache plan text that matches what runs.
No Qt: the specs are data (the drawing is tested in tests/ui/render/)."""
from __future__ import annotations

import copy

import pytest

from app.experiments.base import prefill_note
from app.experiments.registry import CATALOG
from app.report.outputs import build_figures, findings
from app.results.figure import OTHER, READ, WRITE
from app.specs import catalog as vendor
from app.specs import match as vendor_compare
from app.store.run_folder import load_run

from conftest import FIXTURES, results_of

(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]


@pytest.fixture(scope="module")
def run():
    record = copy.deepcopy(load_run(RUN))
    record["drive"]["model"] = "Samsung SSD 990 PRO 1TB"  # a curated spec: the comparison too
    results = results_of(record, RUN)
    info = results.run.info
    comparison = vendor_compare.compare(results.parts, vendor.spec_for_run(info, []), info)
    figures = build_figures(results, comparison)
    return record, results, {f.id: f for f in figures}


def _parts(fig):
    return fig.panels or (fig,)


def _texts(fig):
    yield fig.title
    for part in _parts(fig):
        for axis in (part.x_axis, part.y_axis, part.y2_axis):
            if axis:
                yield axis.label
                yield from (t for _, t in axis.ticks)
        for s in part.series:
            yield s.name
            yield from (s.point_labels or ())
        yield from (m.text for m in part.markers)
        yield from (h.text for h in part.hlines)


def test_every_experiment_draws_its_figures(run):
    assert set(run[2]) == {
        "zero-queue-latency", "block-size-throughput-random", "block-size-throughput-sequential",
        "block-size-latency", "rw-mix-iops", "rw-mix-latency", "queue-depth-tradeoff",
        "queue-depth-sweep", "tail-latency-percentiles", "tail-latency-exceedance",
        "slc-cache-gb", "slc-cache-time", "vendor-comparison"}


def test_units_are_written_properly(run):
    """MB/s, µs, ms, GB in plain words: no caret powers, no 'x1e+06' anywhere in a figure."""
    units = ("(µs", "(ms", "(IOPS)", "(MB/s", "(%)", "(°C)", "(GB)", "(s)", "(log scale)")
    for fid, fig in run[2].items():
        for text in _texts(fig):
            assert "^" not in text and "e+" not in text, (fid, text)
        for part in _parts(fig):
            for axis in (part.y_axis, part.y2_axis):
                if axis:
                    assert any(u in axis.label for u in units), (fid, axis.label)
            if not part.x_axis.ticks or part.x_axis.log:
                assert any(u in part.x_axis.label for u in units), (fid, part.x_axis.label)


def test_read_and_write_always_have_their_two_colours(run):
    figures = run[2]
    seen = {}
    for fid, fig in figures.items():
        for part in _parts(fig):
            for s in part.series:
                seen[(fid, s.name)] = s.color
                if s.name.startswith("read"):
                    assert s.color == READ, (fid, s.name)
                if s.name.startswith("write") and "(rep 3" not in s.name:
                    assert s.color == WRITE, (fid, s.name)
    # quantities that are not a direction never borrow the two colours
    for key in [k for k in seen if k[0] in ("tail-latency-percentiles", "tail-latency-exceedance",
                                             "block-size-latency")]:
        assert seen[key] in OTHER, key
    # a single-direction figure draws its main metric in that direction's colour
    assert seen[("queue-depth-tradeoff", "IOPS at each queue depth")] == READ
    assert seen[("block-size-throughput-random", "IOPS")] == READ
    assert seen[("slc-cache-gb", "write MB/s (rep 1)")] == WRITE


def test_tail_latency_log_axis_and_exceedance_plot(run):
    record, summary, figures = run
    pct = figures["tail-latency-percentiles"]
    assert pct.y_axis.log and "log scale" in pct.y_axis.label
    assert [t for _, t in pct.x_axis.ticks] == ["p50", "p95", "p99", "p99.9", "p99.99"]
    ex = figures["tail-latency-exceedance"]
    assert ex.x_axis.log and ex.y_axis.log
    assert [t for _, t in ex.y_axis.ticks] == ["50%", "10%", "1%", "0.1%", "0.01%"]
    rows = summary.summary_json()["tail-latency"]["workloads"]
    assert [s.name for s in ex.series] == ["QD8 (RND4K Q8T1 read)", "QD32 (RND4K Q32T1 read)"]
    # p99.99 rests on 3 and 5 I/Os: no point (its x would be its value), the caption says why
    for s, row in zip(ex.series, rows):
        assert s.y == pytest.approx((0.5, 0.05, 0.01, 1e-3))
        assert s.x == tuple(row["read"]["lat_us"][k]["mean"] for k in ("p50", "p95", "p99", "p99.9"))
        assert s.xerr and len(s.xerr) == 4 and s.point_labels is None
    assert ("Left out: p99.99 of QD8 (too few I/Os (3)); p99.99 of QD32 (too few I/Os (5))."
            in ex.caption)
    assert "drawn through the reported percentiles" in ex.caption.lower()
    assert "Total latency" in ex.caption and "n = 2" in ex.caption
    assert "RND4K Q8T1 read 31,005" in ex.caption


def test_zero_queue_one_panel_per_block_size_and_a_value_on_every_bar(run):
    fig = run[2]["zero-queue-latency"]
    assert [p.title for p in fig.panels] == ["4 KiB random", "128 KiB sequential"]
    for panel in fig.panels:
        ticks = [t for _, t in panel.x_axis.ticks]
        # p99.9 always has its slot; this run's ~2,300 I/Os per trial leave 2 beyond it: no bar,
        # and the slot says why with the one mark, per direction (p99.99 has no slot at all)
        beyond = {"4 KiB random": (4, 6), "128 KiB sequential": (2, 2)}[panel.title]
        assert ticks == ["mean", "p95", "p99", f"p99.9\n(read:\ntoo few I/Os ({beyond[0]}),\n"
                                               f"write:\ntoo few I/Os ({beyond[1]}))"]
        assert [(s.name, s.color) for s in panel.series] == [("read", READ), ("write", WRITE)]
        for s in panel.series:
            assert s.kind == "bar" and len(s.point_labels) == len(s.y) == 3
            assert s.point_labels == tuple(f"{v:,.0f}" if v >= 100 else f"{v:.3g}" for v in s.y)
    assert "I/Os per trial" in fig.caption


def test_percentile_findings_say_how_many_ios_they_rest_on(run):
    record, results, _ = run
    tail = findings(results.part("tail-latency"), results)
    assert "(at least 31,005 I/Os per trial)" in tail[0]
    assert any(t.startswith("RND4K Q8T1 read: p99.99 rests on 3 I/Os of 31,005") for t in tail)
    zero = findings(results.part("zero-queue"), results)
    assert any("p99.9 rests on 2 I/Os of 2,344" in t for t in zero)


def test_vendor_figure_states_both_sides(run):
    fig = run[2]["vendor-comparison"]
    labels = [t for s in fig.series for t in s.point_labels]
    # over each bar its percentage and whether it is like for like; both sides in the caption
    assert all(len(t.splitlines()) == 2 and t.splitlines()[0].endswith(" %") for t in labels)
    assert all(t.splitlines()[-1].startswith(("like for like", "best available")) for t in labels)
    assert "against the vendor's " in fig.caption and "Bars: " in fig.caption


def test_slc_cache_plan_text_matches_what_runs():
    slc = CATALOG["slc-cache"]()
    assert not slc.fills_test_file()
    assert prefill_note([slc]) == "slc-cache: no pre-fill, the measured writes create its test file"
    assert CATALOG["zero-queue"]().fills_test_file()
    help_text = {f.name: f.metadata["help"] for f in __import__("dataclasses").fields(slc)}["size"]
    assert "no pre-fill" in help_text
