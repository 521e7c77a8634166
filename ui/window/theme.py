"""The window's colours: the palette's own roles, or one table with a light and a dark column.

Why: colours written for a white window (grey help text, dark green "Ready", a white chart) are
unreadable on a dark desktop theme (grey #555 on Fusion's dark window is 1.65:1; WCAG asks 4.5:1
for text). So nothing in the window names a colour of its own any more: text is the palette's,
a "muted" text is the palette's text blended towards its background just as far as 4.5:1 allows,
and the few colours that carry meaning (ok, error, warning, the chart series) come from
``TONES`` in the column that matches the palette, then are moved towards the palette's text until
they read at 4.5:1 (3:1 for chart lines) on the background they are drawn on, whatever odd
palette a desktop hands over.

The exported figures (PNG/SVG for a report, and their preview in the Figures tab, which is the
same drawing) keep the report's fixed light style: see ui/render/style.py.

A widget whose tone is set with :func:`set_tone` follows a palette change while the app runs;
rich text built with :func:`css` takes the palette of the moment it is built.
"""
from __future__ import annotations

import weakref

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QWidget
from shiboken6 import isValid

TEXT_RATIO = 4.5      # WCAG 2 AA, normal text
LINE_RATIO = 3.0      # WCAG 2 non-text contrast: chart lines, swatches
Role = QPalette.ColorRole

# name -> (light theme, dark theme)
TONES: dict[str, tuple[str, str]] = {
    "ok": ("#17702f", "#7ee08f"),
    "error": ("#b01e1e", "#ff8080"),
    "warning": ("#8a5a00", "#f0b440"),
    "command": ("#1f4e8c", "#8ab4f8"),
    # the live charts' series (lines: 3:1 against the chart); read and write share a chart.
    # Light: the figures' Okabe-Ito blue and vermillion (ui/render/style.py); dark: lighter
    # hues of the same two, the sky blue of the same palette and an orange
    "read": ("#0072b2", "#56b4e9"),
    "write": ("#d55e00", "#f59a3c"),
    "temperature": ("#c82828", "#ff6e6e"),
    # behind a table cell whose difference the runs' spread does not explain (text on top)
    "highlight": ("#fde2cf", "#5c3515"),
}
LINES = frozenset({"read", "write", "temperature"})


def luminance(color: QColor) -> float:
    """WCAG 2 relative luminance of an sRGB colour, 0 (black) .. 1 (white)."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return (0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF())
            + 0.0722 * linear(color.blueF()))


def contrast(a: QColor, b: QColor) -> float:
    """WCAG 2 contrast ratio, 1 .. 21."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def mix(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved a fraction ``t`` of the way to ``b``."""
    return QColor.fromRgbF(a.redF() + (b.redF() - a.redF()) * t,
                           a.greenF() + (b.greenF() - a.greenF()) * t,
                           a.blueF() + (b.blueF() - a.blueF()) * t)


def palette() -> QPalette:
    return QGuiApplication.palette()


def is_dark(pal: QPalette | None = None) -> bool:
    """The palette draws light text on a dark window."""
    pal = pal or palette()
    return luminance(pal.color(Role.Window)) < luminance(pal.color(Role.WindowText))


def _text_of(background: Role) -> Role:
    return Role.Text if background in (Role.Base, Role.AlternateBase) else Role.WindowText


def readable(color: QColor, background: QColor, towards: QColor, ratio: float = TEXT_RATIO) -> QColor:
    """``color``, moved towards ``towards`` (the palette's text) in small steps until it reads
    at ``ratio`` on ``background``; ``towards`` itself if even that does not."""
    for step in range(21):
        candidate = mix(color, towards, step / 20)
        if contrast(candidate, background) >= ratio:
            return candidate
    return QColor(towards)


def tone(name: str, pal: QPalette | None = None, background: Role = Role.Window,
         ratio: float | None = None) -> QColor:
    """The colour called ``name`` for text (or, for a chart series, a line) on ``background``.

    "text" is the palette's own text; "muted" is that text blended towards the background as
    far as 4.5:1 allows (secondary text: help, captions, time stamps); "grid" is a faint line
    (trial boundaries), decoration with no contrast promise. "highlight" is a background.
    ``ratio`` asks a chart series' colour to read as text (a legend), not only as a line."""
    pal = pal or palette()
    back, text = pal.color(background), pal.color(_text_of(background))
    if name == "text":
        return QColor(text)
    if name == "muted":
        for step in range(12, -1, -1):   # the faintest that still reads
            candidate = mix(text, back, step / 20)
            if contrast(candidate, back) >= TEXT_RATIO + 0.3:
                return candidate
        return QColor(text)
    if name == "grid":
        return mix(back, text, 0.35)
    light, dark = TONES[name]
    color = QColor(dark if is_dark(pal) else light)
    if name == "highlight":
        return color
    return readable(color, back, text, ratio or (LINE_RATIO if name in LINES else TEXT_RATIO))


def css(name: str, pal: QPalette | None = None, background: Role = Role.Window) -> str:
    """``tone`` as ``#rrggbb`` for rich text and style sheets."""
    return tone(name, pal, background).name()


def span(name: str, text: str, background: Role = Role.Window) -> str:
    """``text`` (already HTML) in the tone ``name``."""
    return f"<span style='color:{css(name, background=background)}'>{text}</span>"


class _Watcher(QObject):
    """Re-applies the tones of marked widgets when the application's palette changes, and tells
    anything else that draws with the palette (the live charts) through ``changed``."""

    changed = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.widgets: weakref.WeakKeyDictionary[QWidget, tuple[str, str]] = weakref.WeakKeyDictionary()
        # Qt tells every widget, hidden ones too; a filter on the application itself would see
        # every event of every object (a Python call per paint and timer event)
        self._probe = QWidget()
        self._probe.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.ApplicationPaletteChange:
            for widget, (name, extra) in list(self.widgets.items()):
                if isValid(widget):   # its C++ side may be gone before its Python wrapper
                    _apply(widget, name, extra)
            self.changed.emit()
        return False


_watcher: _Watcher | None = None


def watcher() -> _Watcher:
    global _watcher
    if _watcher is None:
        _watcher = _Watcher()
    return _watcher


def _apply(widget: QWidget, name: str, extra: str) -> None:
    widget.setStyleSheet(f"color:{css(name)}" + (f"; {extra}" if extra else ""))


def set_tone(widget: QWidget, name: str, extra: str = "") -> None:
    """Draw ``widget``'s text in the tone ``name`` (plus the style-sheet ``extra``, which must
    name no colour), now and after every palette change. The same tone again does nothing:
    each setStyleSheet re-polishes the widget (a relayout and a repaint), and forms re-check
    their notes whenever the plan is asked for, which a run does every second."""
    if widget.property("tone") == name and watcher().widgets.get(widget) == (name, extra):
        return
    widget.setProperty("tone", name)
    watcher().widgets[widget] = (name, extra)
    _apply(widget, name, extra)
