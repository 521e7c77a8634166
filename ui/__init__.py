"""User interfaces: the command line (ui/cli.py) and the desktop window (PySide6 + pyqtgraph)."""
