"""Text from files and other machines is shown as text, never as markup.

Why: Qt renders a tooltip as rich text whenever it merely looks like markup
(``Qt.mightBeRichText``), and a QLabel does the same unless told otherwise. A run folder from a
lab partner, a fio job name or a remote machine's smartctl answer is text someone else wrote:
``<img src="/dev/zero">`` in a run.json error made Qt read /dev/zero on hover until memory ran
out. So such text goes through :func:`plain_tip` (escaped, then wrapped as a paragraph) for a
tooltip, :func:`html_text` inside markup the app builds, and :func:`plain_label` for a label.
"""
from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt  # Qt's namespace with QtGui's functions
from PySide6.QtWidgets import QLabel


def plain_tip(text: str | None) -> str:
    """A tooltip that shows ``text`` literally (empty: no tooltip)."""
    if not text:
        return ""
    return GuiQt.convertFromPlainText(str(text), Qt.WhiteSpaceMode.WhiteSpaceNormal)


def html_text(text: object) -> str:
    """``text`` escaped for a piece of markup the app builds (line breaks kept)."""
    return html.escape(str(text)).replace("\n", "<br>")


def plain_label(label: QLabel) -> QLabel:
    """``label`` set to show its text as plain text; returned for chaining."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label
