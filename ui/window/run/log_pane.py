"""The log of the run: every command exactly as run (shell-quoted, copy-pastable) and what
happened, engine errors in plain words (ui/window/messages.py), colour-coded by level.

Bounded (``MAX_LINES``) so a multi-day run cannot grow the widget without limit; the full command
list is always in the run folder's commands.log.
"""
from __future__ import annotations

import html
import time

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from ui.window import theme
from ui.window.run.run_model import RunModel

MAX_LINES = 20000
_TONES = {"error": "error", "warning": "warning", "command": "command", "info": "text"}


class LogPane(QWidget):
    def __init__(self, model: RunModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setMaximumBlockCount(MAX_LINES)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setPlaceholderText("Nothing yet: commands and messages of the run appear here.")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        about = QLabel("Every command exactly as it was run (\u201c$\u201d lines), and the run's "
                       "messages; the run folder keeps commands.log.")
        about.setWordWrap(True)   # never wider than the column
        layout.addWidget(about)
        layout.addWidget(self.text, 1)
        model.log_line.connect(self.add)

    def add(self, text: str, level: str = "info") -> None:
        stamp = time.strftime("%H:%M:%S")
        prefix = "$ " if level == "command" else ("" if level == "info" else f"{level}: ")
        base = theme.Role.Base   # the text box's background
        self.text.appendHtml(theme.span("muted", stamp, base) + " "
                             + theme.span(_TONES.get(level, "text"), html.escape(prefix + text), base))

    def plain_text(self) -> str:
        return self.text.toPlainText()
