"""Report-ready export of a real run made with the real fio in a temp folder.

One module-scoped run (zero-queue, queue-depth and block-size with 3 levels, 1 s trials, 2
repetitions, and a 3 s SLC-cache write) is exported with the real pyqtgraph renderer offscreen;
the tests then check files, sizes, links, determinism and the vendor text.
"""
from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from argparse import Namespace
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from app.engines.fio.result import parse_fio_text  # noqa: E402
from app.report.export import export_run  # noqa: E402
from app.report.outputs import build_figures  # noqa: E402
from app.results.imported import run_from_measurements  # noqa: E402
from app.store.new_folder import write_run_folder  # noqa: E402
from app.store.run_folder import load_run  # noqa: E402

from conftest import REPO, results_of, run_cli  # noqa: E402

pytestmark = pytest.mark.skipif(not shutil.which("fio"), reason="fio is not installed")

FIGURES = {"zero-queue-latency", "queue-depth-tradeoff", "queue-depth-sweep",
           "block-size-throughput-random", "block-size-throughput-sequential",
           "block-size-latency", "slc-cache-gb", "slc-cache-time"}
TABLES = {"zero-queue", "zero-queue-pooled", "zero-queue-io-counts", "queue-depth", "queue-depth-littles-law",
          "block-size", "slc-cache", "slc-cache-exhaustion"}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("export-run")
    target = base / "target"
    target.mkdir()
    done = run_cli("run", "zero-queue", "queue-depth", "block-size", "slc-cache",
                   "--target", str(target), "--set", "runtime=1s", "--set", "size=32MiB",
                   "--set", "repetitions=2", "--set", "warmup=false",
                   "--set", "queue-depth.queue_depths=1,8,32",
                   "--set", "block-size.block_sizes=4k,64k,1m", "--set", "slc-cache.runtime=3s",
                   "--out", str(base / "runs"), timeout=300)
    assert done.returncode == 0, done.stderr
    return Path(done.stdout.strip().splitlines()[-1])


@pytest.fixture(autouse=True)
def _isolated_user_specs(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


@pytest.fixture(scope="module")
def render():
    from ui.render.figure_files import ensure_app, render_figure
    ensure_app()
    return render_figure


@pytest.fixture(scope="module")
def exported(run_dir, render, tmp_path_factory) -> tuple[Path, Path]:
    """The same run exported twice, into two folders."""
    out = tmp_path_factory.mktemp("exports")
    return (export_run(run_dir, out / "a", render), export_run(run_dir, out / "b", render))


def _copy_run(run_dir: Path, dest: Path, change) -> Path:
    shutil.copytree(run_dir, dest)
    record = json.loads((dest / "run.json").read_text())
    change(record)
    (dest / "run.json").write_text(json.dumps(record))
    return dest


def _links(report: str) -> set[str]:
    return set(re.findall(r"\]\(((?:figures|tables)/[^)]+)\)", report))


def test_every_figure_has_a_wide_png_and_an_svg(exported):
    from PySide6.QtGui import QImage
    from PySide6.QtSvg import QSvgRenderer
    out = exported[0]
    pngs = {p.stem for p in (out / "figures").glob("*.png")}
    assert pngs == FIGURES
    for stem in pngs:
        image = QImage(str(out / "figures" / f"{stem}.png"))
        assert image.width() >= 1600 and image.height() >= 900, stem
        svg = out / "figures" / f"{stem}.svg"
        root = ET.parse(svg).getroot()
        assert root.tag.endswith("svg") and len(list(root.iter())) > 20, stem
        drawn = QSvgRenderer(str(svg))
        assert drawn.isValid() and drawn.viewBox().width() == image.width(), stem


def test_tables_are_csv_and_markdown_with_parameters(exported):
    tables = exported[0] / "tables"
    assert {p.stem for p in tables.glob("*.csv")} == TABLES == {p.stem for p in tables.glob("*.md")}
    csv_text = (tables / "queue-depth.csv").read_text()
    header = csv_text.splitlines()[0].split(",")
    assert header[:5] == ["rw", "bs_bytes", "iodepth", "numjobs", "rwmixread"]
    assert "iops_mean" in header and "iops_std" in header and header[-1] == "n"
    assert [line.split(",")[2] for line in csv_text.splitlines()[1:]] == ["1", "8", "32"]
    assert "\r" not in csv_text
    md = (tables / "zero-queue.md").read_text()
    assert " ± " in md and "(µs, total)" in md and "p99.9 lat." in md
    assert "`rw=randread bs_bytes=4096 iodepth=1 numjobs=1`" in md  # exact workload under it
    assert "runtime=1s" in md and "--direct=1" in md
    law = (tables / "queue-depth-littles-law.csv").read_text().splitlines()
    assert law[0] == "outstanding,iops,lat_mean_us,L,ratio" and len(law) == 4


def test_exporting_twice_gives_byte_identical_tables_and_report(exported):
    a, b = exported
    for path in sorted((a / "tables").iterdir()):
        assert path.read_bytes() == (b / "tables" / path.name).read_bytes(), path.name
    assert (a / "report.md").read_bytes() == (b / "report.md").read_bytes()


def test_report_links_every_figure_and_table_and_covers_the_sections(exported):
    out = exported[0]
    report = (out / "report.md").read_text()
    links = _links(report)
    files = {str(p.relative_to(out)) for p in out.rglob("*")
             if p.is_file() and p.name != ".ssd-profiler-export.json"}
    assert links == files - {"report.md", "report.html", "report.pdf"}
    headings = re.findall(r"^## \d+\. (.+)$", report, flags=re.M)
    assert headings == ["Introduction", "System set-up", "Zero-queue latency baselines (QD1)",
                        "Queue-depth sweep", "Block-size sweep",
                        "Sustained sequential write (SLC cache)", "Vendor comparison",
                        "Discussion", "Limitations", "Conclusion", "Appendix"]
    assert "Test system" in report
    assert "fio-3." in report and "seed" in report and "Direct I/O" in report
    assert re.search(r"(Knee at QD\d+|No knee within the sweep)", report)  # a short sweep may not flatten
    assert "the knee is the smallest queue depth from which every" in report
    assert "Little's Law" in report and "crossover" in report.lower()
    assert "tail amplification p99.9/p50" in report and "repetitions" in report  # tail spread, cache finding
    assert "No vendor spec for unknown model: enter one" in report  # the VM disk has no model


def test_vendor_match_gets_the_comparison(run_dir, render, tmp_path):
    def pm9a1(record):
        record["drive"] = {**(record.get("drive") or {}), "model": "SAMSUNG MZVL2512HCJQ-00BL7"}
    out = export_run(_copy_run(run_dir, tmp_path / "run", pm9a1), None, render)
    assert out == tmp_path / "run" / "export"
    report = (out / "report.md").read_text()
    section = re.split(r"\n## \d+\. Vendor comparison\n", report)[1].split("\n## ")[0]
    assert "| Sequential read | 6,900 | MB/s |" in section and "% of spec" in section
    assert "PCIe 4.0 x4" in section and "usual vendor practice" in section
    assert "| Like for like |" in section and "| Conditions (vendor; measured) | Note |" in section
    assert "\n- [1] Sequential read: " in section   # the explanations, numbered under the table
    assert "No vendor spec" not in report
    assert (out / "figures" / "vendor-comparison.png").exists()
    assert (out / "tables" / "vendor-comparison.csv").read_text().startswith("metric,spec,unit,")


def test_unmatched_model_asks_for_a_spec(run_dir, tmp_path):
    def acme(record):
        record["drive"] = {"model": "ACME FooDrive 1TB"}
    out = export_run(_copy_run(run_dir, tmp_path / "run", acme), tmp_path / "out", None)
    report = (out / "report.md").read_text()
    assert "No vendor spec for ACME FooDrive 1TB: enter one" in report
    assert not (out / "tables" / "vendor-comparison.csv").exists()


def test_cancelled_run_with_throttled_and_failed_trials_exports_what_finished(run_dir, tmp_path):
    def cancel(record):
        record["status"] = "cancelled"
        record["trials"] = [t for t in record["trials"] if t["experiment"] != "slc-cache"]
        record["trials"][0]["throttled"] = True
        record["trials"][1] = {**record["trials"][1], "status": "failed", "measurement": None,
                               "error": "fio exited with 1"}
    out = export_run(_copy_run(run_dir, tmp_path / "run", cancel), tmp_path / "out", None)
    report = (out / "report.md").read_text()
    assert "This run is cancelled: only finished trials are reported." in report
    assert "thermally throttled" in report and "fio exited with 1" in report
    assert re.search(r"Only \d+ of \d+ planned trials ran", report)
    slc = report.split(". Sustained sequential write (SLC cache)\n")[1].split("\n## ")[0]
    assert "No finished measured trial, so no table rows, figures or findings." in slc
    assert "No finished trials." in (out / "tables" / "slc-cache.md").read_text()


def test_imported_measurements_export(run_dir, render, tmp_path):
    raw = sorted((run_dir / "raw").glob("*.out.json"))[:3]
    measurements = [m for path in raw for m in parse_fio_text(path.read_text(), str(path))]
    folder = write_run_folder(run_from_measurements(measurements), tmp_path / "imported")
    assert load_run(folder)["experiments"][0]["id"] == "imported"
    out = export_run(folder, None, render)
    report = (out / "report.md").read_text()
    assert "## 3. Imported measurements" in report and "3 imported job entries" in report
    rows = (out / "tables" / "imported.csv").read_text().splitlines()
    assert len(rows) == 4 and rows[0].startswith("job,source,rw,bs_bytes,iodepth,numjobs,")


def test_figure_specs_carry_units_and_markers(run_dir):
    record = load_run(run_dir)
    figures = {f.id: f for f in build_figures(results_of(record, run_dir))}
    bs = figures["block-size-throughput-random"]
    assert bs.log2_x and bs.x_axis.label == "Block size (KiB, log2 scale)"
    assert [t for t, _ in bs.x_axis.ticks] == [4.0, 64.0, 1024.0]
    assert bs.y2_axis.label.startswith("Bandwidth (MB/s")
    assert {s.axis for s in bs.series} == {"left", "right"}
    trade = figures["queue-depth-tradeoff"]
    assert trade.series[0].point_labels == ("QD1", "QD8", "QD32")
    assert any("knee" in m.text for m in trade.markers)
    assert "total latency" in trade.x_axis.label
    zq = figures["zero-queue-latency"]  # one panel per block size, read beside write
    assert [p.title for p in zq.panels] == ["4 KiB random", "128 KiB sequential"]
    for panel in zq.panels:
        assert [s.name for s in panel.series] == ["read", "write"]
        assert [t for _, t in panel.x_axis.ticks][:4] == ["mean", "p95", "p99", "p99.9"] or \
            panel.x_axis.ticks[3][1].startswith("p99.9\n(")  # an empty slot says why
        # mean and p95 at least: a slow (loaded) machine can leave p99 and beyond too few I/Os
        assert all(s.err and len(s.err) == len(s.y) == len(s.point_labels) >= 2
                   for s in panel.series), [(s.name, s.y, s.err) for s in panel.series]
    assert figures["slc-cache-gb"].x_axis.label == "Data written (GB)"
    assert figures["slc-cache-gb"].y_axis.label == "Write bandwidth (MB/s per interval)"


def test_export_command_prints_the_folder_and_exits_cleanly(run_dir, tmp_path):
    """As a separate process: no display, many figures, a clean exit (no crash at shutdown)."""
    code = ("import sys; from argparse import Namespace; from ui.cli.export_cmd import cmd_export; "
            f"sys.exit(cmd_export(Namespace(run_dir={str(run_dir)!r}, out={str(tmp_path / 'x')!r})))")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY",
                                                            "QT_QPA_PLATFORM")}
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == str(tmp_path / "x")
    assert len(list((tmp_path / "x" / "figures").glob("*.png"))) == len(FIGURES)


def test_export_refuses_a_folder_that_is_not_a_run(tmp_path, capsys):
    from ui.cli.export_cmd import cmd_export
    assert cmd_export(Namespace(run_dir=str(tmp_path), out=None)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a run folder" in err[0]
    assert not (tmp_path / "export").exists()


def test_figure_widget_for_the_results_view(run_dir, qtbot):
    import pyqtgraph as pg

    from ui.render.draw import figure_widget
    record = load_run(run_dir)
    figures = build_figures(results_of(record, run_dir))
    widget = figure_widget(copy.deepcopy(figures[0]))
    qtbot.addWidget(widget)
    assert isinstance(widget, pg.PlotWidget)
    assert widget.getPlotItem().getAxis("left").labelText.startswith("Latency")
