"""Reference desktop palettes the window must read well under (not a test module).

Light: Qt's Fusion palette and KDE Breeze. Dark: Qt's own Fusion dark palette (what Qt 6.5+
gives Fusion on a desktop that asks for dark, qt_fusionPalette in qplatformtheme.cpp), KDE
Breeze Dark (Plasma 5) and GNOME's Adwaita dark (libadwaita's window and view colours, as
QGnomePlatform hands them to Qt apps). Only the roles the window draws with are set; the rest
follow Qt's own derivation from the window colour.
"""
from __future__ import annotations

from PySide6.QtGui import QColor, QPalette

Role = QPalette.ColorRole


def _palette(window: str, text: str, base: str, alternate: str, button: str,
             highlight: str, highlighted_text: str, link: str) -> QPalette:
    pal = QPalette(QColor(button), QColor(window))   # Qt derives light, mid, dark, shadow
    for role, colour in ((Role.Window, window), (Role.WindowText, text), (Role.Base, base),
                         (Role.AlternateBase, alternate), (Role.Text, text),
                         (Role.Button, button), (Role.ButtonText, text),
                         (Role.ToolTipBase, base), (Role.ToolTipText, text),
                         (Role.Highlight, highlight), (Role.HighlightedText, highlighted_text),
                         (Role.Link, link), (Role.BrightText, "#ff5555")):
        pal.setColor(role, QColor(colour))
    placeholder = QColor(text)
    placeholder.setAlpha(128)
    pal.setColor(Role.PlaceholderText, placeholder)
    disabled = QColor(text)   # disabled text halfway to the window, as the desktops draw it
    disabled = QColor((disabled.red() + QColor(window).red()) // 2,
                      (disabled.green() + QColor(window).green()) // 2,
                      (disabled.blue() + QColor(window).blue()) // 2)
    for role in (Role.WindowText, Role.Text, Role.ButtonText):
        pal.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return pal


def fusion_light() -> QPalette:
    from PySide6.QtWidgets import QStyleFactory
    return QStyleFactory.create("Fusion").standardPalette()


def fusion_dark() -> QPalette:
    window = QColor(50, 50, 50)
    return _palette(window.name(), "#f0f0f0", window.darker(140).name(), window.name(),
                    window.name(), "#308cc6", "#f0f0f0", "#308cc6")


def breeze_light() -> QPalette:
    return _palette("#eff0f1", "#232629", "#ffffff", "#f7f7f7", "#fcfcfc", "#3daee9",
                    "#ffffff", "#2980b9")


def breeze_dark() -> QPalette:
    return _palette("#31363b", "#eff0f1", "#232629", "#31363b", "#31363b", "#3daee9",
                    "#eff0f1", "#1d99f3")


def adwaita_dark() -> QPalette:
    return _palette("#242424", "#ffffff", "#1e1e1e", "#2a2a2a", "#303030", "#3584e4",
                    "#ffffff", "#78aeed")


LIGHT = {"Fusion": fusion_light, "Breeze": breeze_light}
DARK = {"Fusion dark": fusion_dark, "Breeze Dark": breeze_dark, "Adwaita dark": adwaita_dark}
ALL = {**LIGHT, **DARK}
