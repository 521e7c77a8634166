"""Shared helpers of the DiskSpd engine tests (test_diskspd_parse/_argv/_run); not a test module."""
from __future__ import annotations

import sys

import pytest

from app.experiments.plan import Trial
from app.model.workload import Workload
from app.units import GiB

from conftest import FIXTURES

DISKSPD_DIR = FIXTURES / "diskspd"
XML_RANDRW = DISKSPD_DIR / "diskspd-2.0.21a-win-randrw70-30-4k-1thread-latency-iopsstddev.xml"
XML_SEQ = DISKSPD_DIR / "diskspd-2.0.21a-win-seqread-64k-4threads-nolatency.xml"

posix_only = pytest.mark.skipif(sys.platform.startswith("win"),
                                reason="the fake diskspd is a Python script run through its #! line")


def make_trial(w: Workload, runtime=30.0, ramp=0.0, size=GiB, direct=True, interval=1.0) -> Trial:
    return Trial(0, "x", w, 1, False, runtime, ramp, size, direct, interval)
