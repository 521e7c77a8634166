"""SSD Profiler's measurement domain: pure Python, never imports Qt."""

__version__ = "0.1.0"
APP_NAME = "SSD Profiler"
