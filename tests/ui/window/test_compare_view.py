"""The Compare view with real parts: two tiny real fio runs and an imported DiskSpd
file, listed in the window's Runs tab, selected, compared; the table, the overlaid figures and the
export are checked the way a student would use them, and the export against the CLI's.

One module-scoped set of runs (tail-latency: two workloads, 1 s trials, two repetitions) serves
every test, so the suite pays for the fio runs once.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import QItemSelectionModel  # noqa: E402
from PySide6.QtGui import QColor  # noqa: E402

from app.compare.figures import RUN_COLORS  # noqa: E402
from ui.render.style import PALETTE  # noqa: E402

import gui_support  # noqa: E402
from conftest import FIXTURES, needs_fio, run_cli  # noqa: E402

make_window = gui_support.make_window  # the shared window factory fixture

TINY_RUN = ["--set", "runtime=1s", "--set", "size=16MiB", "--set", "repetitions=2",
            "--set", "warmup=false"]
XML = FIXTURES / "diskspd" / "diskspd-2.0.21a-win-randrw70-30-4k-1thread-latency-iopsstddev.xml"
METRICS = ("iops", "mbps", "lat-mean", "lat-p99")


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict:
    """Two real fio runs (the second with a larger test file) and an imported DiskSpd run, all
    in one runs folder."""
    root = tmp_path_factory.mktemp("compare")
    target, runs_root = root / "target", root / "runs"
    target.mkdir()
    dirs = []
    for extra in ([], ["--set", "tail-latency.size=32MiB"]):
        done = run_cli("run", "tail-latency", "--target", str(target), *TINY_RUN, *extra,
                       "--out", str(runs_root), "--json")
        assert done.returncode == 0, done.stderr
        dirs.append(json.loads(done.stdout)["run_dir"])
    imported = runs_root / "imported-diskspd"
    done = run_cli("import", str(XML), "--save", str(imported))
    assert done.returncode == 0, done.stderr
    return {"root": str(runs_root), "fio": dirs, "imported": str(imported), "tmp": root}


def _browser(make_window, qtbot, runs):
    window = make_window()
    window.show_run_view(window.runs_browser)
    browser = window.runs_browser
    browser.set_runs_root(runs["root"])
    qtbot.waitUntil(lambda: len(browser.listings) == 3, timeout=10000)
    return window, browser


def _select(browser, run_dirs) -> None:
    model, selection = browser.table.model(), browser.table.selectionModel()
    selection.clearSelection()
    for row, listing in enumerate(browser.listings):
        if listing.run_dir in run_dirs:
            selection.select(model.index(row, 0), QItemSelectionModel.SelectionFlag.Select
                             | QItemSelectionModel.SelectionFlag.Rows)


def _compare(qtbot, browser):
    browser.compare_button.click()
    view = browser.compare_view
    qtbot.waitUntil(lambda: view.comparison is not None, timeout=20000)
    return view


def _colours(widget) -> set[str]:
    image = widget.grab().toImage()
    return {QColor(image.pixel(x, y)).name() for x in range(0, image.width(), 2)
            for y in range(0, image.height(), 2)}


@needs_fio
def test_two_real_runs_compared_in_the_window_and_exported(make_window, qtbot, runs):
    window, browser = _browser(make_window, qtbot, runs)
    first, second = runs["fio"]
    _select(browser, [first])
    assert not browser.compare_button.isEnabled()   # one run: nothing to compare
    _select(browser, [first, second])
    assert browser.compare_button.isEnabled()
    assert browser.selected_runs() == [first, second]  # oldest first: the others against it
    view = _compare(qtbot, browser)
    assert not view.isModal() and view.isVisible()
    screen = view.screen().availableGeometry()
    assert view.frameGeometry().width() <= screen.width()

    # conditions first, the table: 2 workloads x 4 metrics, each with its ratio and its call
    assert "tail-latency size differs: 16MiB vs 32MiB" in view.conditions.text()
    table = view.table
    assert table.rowCount() == 2 * 4 and table.isColumnHidden(0)   # two runs: no Run column
    rows = [[table.item(r, c).text() for c in range(table.columnCount())]
            for r in range(table.rowCount())]
    assert [r[1] for r in rows[::4]] == ["tail-latency RND4K Q8T1 read",
                                         "tail-latency RND4K Q32T1 read"]
    for row in rows:
        assert float(row[5]) > 0 and "n 2 vs 2, p = " in row[6]
        assert row[6].startswith(("larger than the spread", "within the spread"))

    # the overlaid figures: one colour per run, the legend naming each run
    ids = view.figure_ids()
    assert ids == [f"compare-tail-latency-{m}" for m in (*METRICS, "live")]
    for index in (0, len(ids) - 1):
        view.figures.selector.setCurrentIndex(index)
        plot = view.current_plot()
        qtbot.waitUntil(lambda p=plot: p.isVisible())
        legend = [label.text for _, label in plot._ssd.legend.items]
        assert legend == list(view.comparison.labels)
        drawn = _colours(plot)
        for i in range(2):
            assert PALETTE[RUN_COLORS[i]].lower() in drawn, (ids[index], i)

    # export: the files of `ssd-profiler compare --out`, drawn off the GUI thread's way
    out = runs["tmp"] / "window-export"
    view.export(str(out))
    qtbot.waitUntil(lambda: view.last_export is not None, timeout=60000)
    assert "Exported 5 figures" in view.status.text() and view.open_button.isVisible()
    pngs = sorted((out / "figures").glob("*.png"))
    assert [p.stem for p in pngs] == sorted(ids)
    for png in pngs:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
        assert png.with_suffix(".svg").stat().st_size > 1000
    report = (out / "report.md").read_text()
    assert "## Comparison of runs" in report and "was not drawn" not in report
    cli_out = runs["tmp"] / "cli-export"
    done = run_cli("compare", first, second, "--out", str(cli_out))
    assert done.returncode == 0, done.stderr
    files = {str(p.relative_to(cli_out)) for p in cli_out.rglob("*")}
    assert files == {str(p.relative_to(out)) for p in out.rglob("*")}
    for name in ("comparison.csv", "comparison.md", "report.md"):
        assert (cli_out / name).read_text() == (out / name).read_text(), name


@needs_fio
def test_a_run_against_imported_diskspd_shows_the_engine(make_window, qtbot, runs, tmp_path):
    window, browser = _browser(make_window, qtbot, runs)
    _select(browser, [runs["fio"][0], runs["imported"]])
    assert browser.selected_runs() == [runs["fio"][0], runs["imported"]]
    view = _compare(qtbot, browser)
    conditions = view.conditions.text()
    assert "engine differs: fio fio-" in conditions and "diskspd" in conditions
    assert "experiments differs: tail-latency vs imported" in conditions
    assert view.table.rowCount() == 0 and view.figure_ids() == []
    assert "No workload was measured in both" in view.status.text()
    view.export(str(tmp_path / "export"))   # still exported: the conditions, said in words
    qtbot.waitUntil(lambda: view.last_export is not None, timeout=20000)
    assert "engine differs" in (tmp_path / "export" / "comparison.md").read_text()
    browser.compare_view.dispose()


def test_compare_needs_two_runs_and_says_why_a_folder_is_refused(make_window, qtbot, tmp_path):
    window = make_window()
    browser = window.runs_browser
    assert not browser.compare_button.isEnabled()
    assert "two or more" in browser.compare_button.toolTip()
    from ui.window.report.compare_view import CompareView
    view = CompareView(window.background, [str(tmp_path), str(tmp_path / "nope")], window)
    qtbot.addWidget(view)
    qtbot.waitUntil(lambda: "Cannot compare" in view.status.text(), timeout=10000)
    assert "run.json" in view.status.text() and "Traceback" not in view.status.text()
    assert not view.export_button.isEnabled()
    assert Path(view.export_path.text()).parent == tmp_path
