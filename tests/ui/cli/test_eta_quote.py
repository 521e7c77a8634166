"""The ETA from the plan, and the one quoting of engine commands (POSIX and PowerShell)."""
from __future__ import annotations

import shlex

from hypothesis import given
from hypothesis import strategies as st

from app.engines.shell_quote import command_line, powershell_quote
from ui.cli.eta import PlanEta


def test_eta_is_the_plan_left_stretched_by_the_overhead_seen():
    eta = PlanEta(planned_s=100.0)          # ten trials of 10 s
    assert eta.seconds_left(0.0) == 100.0
    eta.trial_started(0.0, 10.0)
    assert eta.seconds_left(4.0) == 90.0 + 6.0
    eta.trial_ended(12.0)                    # took 12 s for 10 planned: 20 % overhead
    assert eta.stretch == 1.2
    eta.trial_started(12.0, 10.0)
    assert eta.seconds_left(12.0) == 80.0 * 1.2 + 12.0
    assert eta.seconds_left(100.0) == 80.0 * 1.2  # an overrunning trial adds nothing negative


def test_eta_never_shrinks_below_the_plan():
    eta = PlanEta(20.0)
    eta.trial_started(0.0, 10.0)
    eta.trial_ended(5.0)                     # faster than planned (a cancelled trial)
    assert eta.stretch == 1.0 and eta.seconds_left(5.0) == 10.0


@given(st.lists(st.text(min_size=0, max_size=12), min_size=1, max_size=5))
def test_posix_command_lines_split_back_into_the_same_argv(argv):
    assert shlex.split(command_line(argv, windows=False)) == argv


def test_powershell_quoting():
    assert powershell_quote("--bs=4096") == "--bs=4096"
    assert powershell_quote("C:\\My Data\\it's.dat") == "'C:\\My Data\\it''s.dat'"
    assert powershell_quote("$env:x`y") == "'$env:x`y'"  # single quotes: nothing expands
    assert command_line(["C:\\Program Files\\fio.exe", "--name=a b"], windows=True) == \
        "& 'C:\\Program Files\\fio.exe' '--name=a b'"
    assert command_line(["fio", "--rw=read"], windows=True) == "fio --rw=read"
