"""What machine a run was made on: OS, CPU, RAM (for run.json and the report)."""
from __future__ import annotations

import os
import platform
import socket
from typing import Any

import psutil


def cpu_model() -> str:
    """The CPU's marketing name where the OS tells it, else the architecture."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.lower().startswith(("model name", "hardware")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def host_info() -> dict[str, Any]:
    return {
        "hostname": socket.gethostname(),
        "os": platform.system(),
        "os_release": platform.release(),
        "os_version": platform.version(),
        "machine": platform.machine(),
        "cpu": cpu_model(),
        "cpu_cores_logical": psutil.cpu_count(logical=True),
        "cpu_cores_physical": psutil.cpu_count(logical=False),
        "ram_bytes": psutil.virtual_memory().total,
        "python": platform.python_version(),
        "pid": os.getpid(),
    }
