"""``-v`` and ``-q`` on every command: how much log and progress output reaches the terminal.

One scale for all commands, so a script can quiet any of them the same way and a bug report can
ask for ``-vv`` whatever the command was:

- ``-qq``: errors only (and the results on stdout);
- ``-q``: warnings too, but no progress lines and no notes;
- default: progress, notes and warnings;
- ``-v``: also what the run is doing (informational log records, the run's info messages);
- ``-vv``: also debug records and every engine command line as it starts.

The rotating log file keeps its own level whatever the terminal shows: a quiet run still leaves
its details where a bug report can find them.
"""
from __future__ import annotations

import argparse
import logging

LEVELS = (logging.ERROR, logging.WARNING, logging.WARNING, logging.INFO, logging.DEBUG)


def add_arguments(parser: argparse.ArgumentParser, top: bool = False) -> None:
    """-v/--verbose and -q/--quiet. On a subcommand their default is SUPPRESS, so the value
    given before the command (``ssd-profiler -q run ...``) is not reset by the subparser."""
    if top:
        group = parser.add_argument_group("output")
        group.add_argument("-v", "--verbose", action="count", default=0,
                           help="more detail on stderr: -v adds what the run is doing, -vv also "
                                "debug records and every engine command line")
        group.add_argument("-q", "--quiet", action="count", default=0,
                           help="less on stderr: -q leaves out progress and notes, -qq warnings "
                                "too (errors always show; results still go to stdout)")
        return
    parser.add_argument("-v", "--verbose", action="count", default=argparse.SUPPRESS,
                        help="more detail on stderr (-vv: debug and engine commands too)")
    parser.add_argument("-q", "--quiet", action="count", default=argparse.SUPPRESS,
                        help="no progress or notes on stderr (-qq: no warnings either)")


def verbosity(args: argparse.Namespace) -> int:
    """-2 (``-qq``) .. 2 (``-vv``); 0 by default."""
    value = getattr(args, "verbose", 0) - getattr(args, "quiet", 0)
    return max(-2, min(2, value))


def apply(args: argparse.Namespace) -> int:
    """Set the terminal log handlers' level from -v/-q; the verbosity."""
    level = LEVELS[verbosity(args) + 2]
    root = logging.getLogger()
    for handler in root.handlers:
        # the terminal's handler only: the rotating file (a FileHandler) keeps its own level
        if type(handler) is logging.StreamHandler:
            handler.setLevel(level)
    if root.level == logging.NOTSET or root.level > level:
        root.setLevel(level)
    return verbosity(args)


def shows_progress(args: argparse.Namespace) -> bool:
    return verbosity(args) >= 0


def event_levels(args: argparse.Namespace) -> frozenset[str]:
    """Which of a run's LogMessage levels the progress output prints."""
    v = verbosity(args)
    levels = {"error"} | ({"warning"} if v >= -1 else set())
    if v >= 1:
        levels.add("info")
    if v >= 2:
        levels.add("command")
    return frozenset(levels)
