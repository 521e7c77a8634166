"""The window under a dark desktop palette: every label's text, help and errors included, reads
at 4.5:1 on its background (no colour written for a white window), and the live charts take
the palette's background and text."""
import os
import re
from contextlib import contextmanager

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtGui import QColor  # noqa: E402
from PySide6.QtWidgets import QApplication, QLabel  # noqa: E402

from ui.window import theme  # noqa: E402
from ui.window.help_dialog import how_to_html  # noqa: E402

import gui_support  # noqa: E402
import palettes  # noqa: E402
from conftest import ARTIFACTS  # noqa: E402

make_window = gui_support.make_window
COLOUR = re.compile(r"color\s*:\s*(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3})\b")


@contextmanager
def _palette(name: str):
    """The application palette set to a dark one for one test, then given back."""
    saved = QApplication.palette()
    pal = palettes.DARK[name]()
    QApplication.setPalette(pal)
    try:
        yield pal
    finally:
        QApplication.setPalette(saved)


@pytest.fixture(params=["Fusion dark", "Adwaita dark"])
def dark(request, qapp):
    with _palette(request.param) as pal:
        yield pal


@pytest.fixture
def fusion_dark(qapp):
    with _palette("Fusion dark") as pal:
        yield pal


def _label_colours(label: QLabel) -> list[QColor]:
    found = COLOUR.findall(label.text()) + COLOUR.findall(label.styleSheet())
    return [QColor(c) for c in found] + [label.palette().color(label.foregroundRole())]


def _unreadable(window) -> list[str]:
    bad = []
    for label in window.findChildren(QLabel):
        if not label.text().strip() or "&#9632;" in label.text():
            continue
        back = label.palette().color(label.backgroundRole())
        for colour in _label_colours(label):
            ratio = theme.contrast(colour, back)
            if ratio < theme.TEXT_RATIO:
                bad.append(f"{colour.name()} on {back.name()} ({ratio:.2f}:1): {label.text()[:60]!r}")
    return bad


def test_help_error_and_verdict_text_read_on_a_dark_palette(qtbot, make_window, dark, tmp_path):
    window = make_window(size=(1280, 690))
    window.drive_panel.set_target(str(tmp_path / "bench"))
    panel = window.experiment_panel
    panel.set_checked(["rw-mix"])
    panel.select("rw-mix")
    panel.set_values("rw-mix", {"mixes": "101"})        # an error under its field
    qtbot.waitUntil(lambda: "101" in window.run_blocker() or "maximum" in (window.run_blocker() or ""),
                    timeout=15000)
    qtbot.waitUntil(lambda: window.drive_panel.info.summary is not None, timeout=15000)
    qtbot.wait(50)
    notes = panel.forms["rw-mix"]._notes
    assert "maximum 100" in notes["mixes"].text()
    help_notes = [n for name, n in notes.items() if name != "mixes" and n.text()]
    assert help_notes, "no help text under the fields"
    for note in help_notes:   # muted, not a grey written for white
        colour = QColor(COLOUR.findall(note.styleSheet())[0])
        assert theme.contrast(colour, dark.color(theme.Role.Window)) >= theme.TEXT_RATIO
        assert theme.luminance(colour) > 0.2, note.styleSheet()
    assert _unreadable(window) == []
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window_dark_palette.png"))


def test_live_charts_and_help_follow_the_palette(make_window, fusion_dark):
    window = make_window(size=(1280, 690))
    charts = window.charts
    base = fusion_dark.color(theme.Role.Base)
    assert charts.view.backgroundBrush().color() == base
    axis = charts.tp_plot.getAxis("left")
    assert theme.contrast(axis.textPen().color(), base) >= theme.TEXT_RATIO
    for curve in (c for split in charts.curves.values() for c in split.parts):
        assert theme.contrast(curve.opts["pen"].color(), base) >= theme.LINE_RATIO
    assert theme.contrast(charts.empty_note.color, base) >= theme.TEXT_RATIO
    assert theme.TONES["ok"][1] in how_to_html()


def test_a_palette_change_while_open_recolours_charts_and_help(qtbot, make_window, qapp):
    window = make_window(size=(1280, 690))
    charts = window.charts
    note = charts.bar.findChildren(QLabel)[-1]
    saved = QApplication.palette()
    try:
        QApplication.setPalette(palettes.breeze_dark())
        qtbot.wait(20)
        base = palettes.breeze_dark().color(theme.Role.Base)
        assert charts.view.backgroundBrush().color() == base
        assert theme.luminance(QColor(COLOUR.findall(note.styleSheet())[0])) > 0.2
    finally:
        QApplication.setPalette(saved)
