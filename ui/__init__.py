"""User interfaces: the command line (ui/cli/) and the desktop window (ui/window/: PySide6 +
pyqtgraph). ui/render/ draws figures for both."""
