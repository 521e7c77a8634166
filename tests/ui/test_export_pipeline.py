"""The export's figure pipeline: a renderer may hand back a completion (the PNG still
being encoded on another thread); app.report.export places a figure's files only after completing it,
which it does once the next figure is drawn, and never leaves a completion running when the
export stops. The real renderer's two entry points write the same bytes.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from conftest import REPO  # noqa: E402


@pytest.fixture
def run(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from export_speed import synthetic_run
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    return synthetic_run(tmp_path / "run")


class Deferred:
    """Writes the SVG at once and the PNG only when completed; logs the order of events."""

    def __init__(self, fail: str | None = None, stop: str | None = None):
        self.events, self.fail, self.stop = [], fail, stop

    def __call__(self, fig, png: Path, svg: Path):
        if fig.id == self.stop:
            raise KeyboardInterrupt
        self.events.append(("draw", fig.id))
        svg.write_text(f"<svg>{fig.id}</svg>")

        def complete():
            self.events.append(("complete", fig.id))
            if fig.id == self.fail:
                raise OSError("disk said no")
            png.write_bytes(b"\x89PNG " + fig.id.encode())
        return complete


def test_a_figure_is_completed_after_the_next_is_drawn_and_only_then_placed(run, tmp_path):
    from app.report.export import export_run
    render = Deferred()
    out = export_run(run, tmp_path / "out", render)
    drawn = [fid for kind, fid in render.events if kind == "draw"]
    assert len(drawn) > 3
    assert sorted(e for e in render.events if e[0] == "complete") == sorted(
        ("complete", fid) for fid in drawn)          # each completed exactly once
    for before, after in zip(drawn, drawn[1:]):
        assert render.events.index(("draw", after)) < render.events.index(("complete", before))
    for fid in drawn:
        assert (out / "figures" / f"{fid}.png").read_bytes() == b"\x89PNG " + fid.encode()
    assert not [p for p in out.rglob("*") if "staging" in p.name]


def test_a_failed_completion_costs_that_figure_only(run, tmp_path):
    from app.report.export import export_run
    render = Deferred(fail="rw-mix-iops")
    out = export_run(run, tmp_path / "out", render)
    report = (out / "report.md").read_text()
    assert "Figure rw-mix-iops was not drawn: OSError: disk said no." in report
    assert not (out / "figures" / "rw-mix-iops.png").exists()
    assert (out / "figures" / "rw-mix-latency.png").exists()


def test_an_export_that_stops_completes_the_pending_figure_first(run, tmp_path):
    from app.report.export import export_run
    render = Deferred(stop="rw-mix-iops")
    with pytest.raises(KeyboardInterrupt):
        export_run(run, tmp_path / "out", render)
    assert render.events[-1][0] == "complete"        # the figure before was not left running
    assert not [p for p in (tmp_path / "out").rglob("*") if "staging" in p.name]


def test_start_figure_and_render_figure_write_the_same_files(run, tmp_path):
    from PySide6.QtGui import QImage

    from app.report.outputs import build_figures
    from app.store.run_folder import load_run
    from ui.render.figure_files import ensure_app, render_figure, start_figure

    from conftest import results_of
    ensure_app()
    record = load_run(run)
    fig = build_figures(results_of(record, run), None)[0]
    complete = start_figure(fig, tmp_path / "a.png", tmp_path / "a.svg")
    assert complete() is None
    render_figure(fig, tmp_path / "b.png", tmp_path / "b.svg")
    assert QImage(str(tmp_path / "a.png")).width() == 1800
    for ext in ("png", "svg"):
        assert (tmp_path / f"a.{ext}").read_bytes() == (tmp_path / f"b.{ext}").read_bytes()
