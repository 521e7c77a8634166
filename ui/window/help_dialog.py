"""Help inside the app: "How to profile a drive" and "About" (versions of everything that
measures or draws), both opened without blocking the window.

Why in the app and not a web page: students run this on lab machines and laptops, often
offline; the steps are short and name the controls exactly as the window labels them.
"""
from __future__ import annotations

import html
import platform
import sys
from collections.abc import Callable

from PySide6 import __version__ as PYSIDE_VERSION
from PySide6.QtCore import Qt, qVersion
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from app import APP_NAME, __version__
from app.engines import ENGINES
from ui.window import theme
from ui.window.widgets import em

#: Every control the steps name is in <i>...</i>, with the text the window shows (a menu item as
#: "Menu &rarr; Item"); tests/ui/window/test_help_names.py checks each exists with that text.
HOW_TO = """
<h2>How to profile a drive</h2>
<ol>
<li><b>Pick a folder on the SSD.</b> In <i>1. Target</i> (on a wide screen the box
<i>1. Drive and target folder</i>), click a volume or <i>Choose folder...</i>. The panel shows
the drive behind it (model, link, health, temperature) and says READY when the folder can be
used; otherwise it says what to change. The app writes only its own test files, inside
<code>ssd-profiler-data</code> in that folder, and removes them afterwards.</li>
<li><b>Pick experiments.</b> In <i>2. Experiments</i> (on a wide screen
<i>2. Experiments and parameters</i>), set the values every experiment shares once, in
<i>Every ticked experiment:</i> above the list (runtime or precision, file size, repetitions,
warm-up), then tick the experiments to run (for example
<i>Queue-depth sweep [queue-depth]</i>); select one to edit its own parameters. A shared value
changed in one experiment's form is marked there, with <i>Reset</i> to follow the shared one
again; the SLC-cache and write-saturation tests keep their own duration and volume and say why.
A <i>Preset:</i> sets exactly the values it lists and says what it changed; the plan under the
form says how many trials and roughly how long.</li>
<li><b>Run</b> (Ctrl+R). A value that cannot be used is marked in red beside its field, and
Run says why it is disabled.</li>
<li><b>Read the live charts.</b> Throughput (MB/s, or IOPS) and mean latency per interval,
read in blue, write in orange, each trial starting at a grey line labelled with its workload
(<code>RND4K Q32T1 read #2</code>: random 4 KiB, queue depth 32, one thread, repetition 2). A
warm-up trial is run but not counted. Clicking a finished experiment shows it for a while;
<i>Back to live</i> returns at once, and the chart returns by itself when the running
experiment ends. Esc cancels: the engine stops within seconds and the finished trials are
kept.</li>
<li><b>Read the results.</b> <i>Results</i> lists every trial and then the mean &plusmn;
sample standard deviation (n) per workload; <i>Findings</i> gives the knee, crossover, cache
exhaustion and tail spread. <i>Figures</i> shows the report's figures; <i>Runs</i> lists
earlier runs, those made from a terminal too.</li>
<li><b>Export</b> (Ctrl+E): the report as <code>report.md</code>, <code>report.html</code> (one
file, figures inside) and <code>report.pdf</code>, with figures (PNG and SVG) and tables (CSV and
Markdown), go into a folder named after the run in your Documents (shown in full under the
charts, with <i>Open folder</i>), or one you choose with <i>Export to...</i>.
<i>Vendor spec...</i> (or <i>Report &rarr; Enter/edit vendor spec...</i>) adds the vendor's
figures, with their test conditions, for a fair comparison.</li>
</ol>
<p>Results vary between runs: repeat (3 repetitions is the default), keep the machine idle,
and compare like with like (the same queue depth and block size as the vendor's figure).</p>
<p>Every command the app ran is in the <i>Log</i> tab and in the run folder's
<code>commands.log</code>; <i>Help &rarr; Open the log folder</i> holds the app's own log.
The same runs work from a terminal: <code>ssd-profiler run queue-depth --target FOLDER</code>.</p>
"""


def how_to_html() -> str:
    """The steps, "Ready" in the colour the panel shows it in under the current palette."""
    return HOW_TO.replace("READY", theme.span("ok", "&#10004; Ready", theme.Role.Base))


class BrowserDialog(QDialog):
    """A dialog around one text browser; ``refresh`` gives it new text (the About box's)."""

    def __init__(self, parent: QWidget | None):
        super().__init__(parent)
        self.browser = QTextBrowser()
        self.refresh: Callable[[dict[str, str]], None] = lambda _engines: None


def _browser_dialog(parent: QWidget | None, title: str, text: str, lines: int) -> BrowserDialog:
    dialog = BrowserDialog(parent)
    dialog.setWindowTitle(title)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.browser.setOpenExternalLinks(True)
    dialog.browser.setHtml(text)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(dialog.browser)
    layout.addWidget(buttons)
    unit = em(dialog)
    screen = (parent.screen() if parent is not None else dialog.screen()).availableGeometry()
    dialog.resize(min(48 * unit, screen.width() - 40), min(lines * unit, screen.height() - 80))
    return dialog


def how_to_dialog(parent: QWidget | None) -> QDialog:
    """The steps, non-modal: it can stay open beside the window."""
    dialog = _browser_dialog(parent, f"How to profile a drive - {APP_NAME}", how_to_html(), 40)
    dialog.setModal(False)
    dialog.show()
    return dialog


def versions(engines: dict[str, str]) -> list[tuple[str, str]]:
    """(what, version) for the About box; ``engines`` maps engine name to what was found."""
    import pyqtgraph

    rows = [(APP_NAME, __version__)]
    rows += [(name, engines.get(name, "looking...")) for name in ENGINES]
    rows += [("Qt", qVersion()), ("PySide6", PYSIDE_VERSION), ("pyqtgraph", pyqtgraph.__version__),
             ("Python", sys.version.split()[0]), ("OS", platform.platform(terse=True))]
    return rows


def about_html(engines: dict[str, str], log_folder: str) -> str:
    rows = "".join(f"<tr><td><b>{html.escape(k)}</b>&nbsp;&nbsp;</td><td>{html.escape(v)}</td></tr>"
                   for k, v in versions(engines))
    return (f"<h2>{APP_NAME} {__version__}</h2><p>Profiles an SSD with fio or DiskSpd: latency "
            f"baselines, sweeps, tail latency and the SLC cache, with report-ready export.</p>"
            f"<table>{rows}</table><p>Log folder: <code>{html.escape(log_folder)}</code></p>"
            f"<h3>Licences</h3><p>SSD Profiler is free software under the MIT licence.</p>"
            f"<pre>{html.escape(notices_text())}</pre>")


def notices_text() -> str:
    """THIRD_PARTY_NOTICES.md as shipped (package data, and beside the executable)."""
    from importlib import resources
    try:
        return resources.files("resources").joinpath("THIRD_PARTY_NOTICES.md").read_text(encoding="utf-8")
    except (OSError, FileNotFoundError):
        return "THIRD_PARTY_NOTICES.md is missing from this installation."


def about_dialog(parent: QWidget | None, engines: dict[str, str], log_folder: str) -> BrowserDialog:
    """The About box; ``refresh(engines)`` updates it when an engine lookup answers."""
    dialog = _browser_dialog(parent, f"About {APP_NAME}", about_html(engines, log_folder), 26)
    dialog.refresh = lambda found: dialog.browser.setHtml(about_html(found, log_folder))
    dialog.open()
    return dialog
