"""Exporting a run: the export folder, its tables and figures, and report.md."""
