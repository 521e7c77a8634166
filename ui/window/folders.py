"""Opening a folder in the system's file manager, and saying where it is when that fails.

Why not just ``QDesktopServices.openUrl``: where no file manager is set up (a minimal Linux
desktop, a remote session, WSL) it returns False and nothing happens, so the button seems
broken. Then the path is shown in a small window, in a read-only field to select and copy into
a terminal or another program. Shared by the views and the window (no view imports another).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

Opener = Callable[[QUrl], bool]


class PathDialog(QDialog):
    """Where a folder is, selectable, with a Copy button (non-blocking: ``open()``)."""

    def __init__(self, parent: QWidget | None, path: str | Path, what: str, reason: str):
        super().__init__(parent)
        self.setWindowTitle(what[:1].upper() + what[1:])
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.message = QLabel(f"{reason} The {what} is:")
        self.message.setWordWrap(True)
        self.path_edit = QLineEdit(str(path))
        self.path_edit.setReadOnly(True)
        self.path_edit.selectAll()
        width = self.path_edit.fontMetrics().horizontalAdvance(str(path)) + 40
        self.path_edit.setMinimumWidth(min(max(width, 320), 900))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        copy = QPushButton("Copy path")
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(str(path)))
        buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(self.path_edit)
        layout.addWidget(buttons)


def open_folder(parent: QWidget | None, path: str | Path, what: str = "folder",
                opener: Opener | None = None) -> PathDialog | None:
    """Open ``path`` in the file manager; None when that worked, else the dialog shown instead
    (the path to copy). ``opener`` replaces QDesktopServices.openUrl in tests."""
    opener = opener or QDesktopServices.openUrl
    if not Path(path).is_dir():
        reason = "It does not exist yet."
    elif opener(QUrl.fromLocalFile(str(path))):
        return None
    else:
        reason = "No file manager could be opened on this system."
    dialog = PathDialog(parent, path, what, reason)
    dialog.open()  # window-modal, never blocking
    return dialog
