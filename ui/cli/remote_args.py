"""``run --remote HOST[:PORT]`` (issue 18): the option, and the run options it cannot honour.

Kept apart from run_cmd.py so the remote target's command-line surface is read in one place.
A remote run goes through ``fio --server`` on HOST; ``--target`` is then a folder *there*.
"""
from __future__ import annotations

import argparse

from app.paths import TargetRefused


def add_remote_arguments(run: argparse.ArgumentParser) -> None:
    run.add_argument("--remote", metavar="HOST[:PORT]",
                     help="run through a fio server on HOST (port 8765 by default; start it there "
                          "with `fio --server`); --target is then a folder on HOST. See README, "
                          "Remote profiling: whoever reaches that port may write as its user")


def check_remote_args(args) -> None:
    """Refuse (exit 2, one line) what a remote run cannot do, before anything else is checked."""
    if getattr(args, "remote", None) is None:
        return
    if args.remove_leftovers:
        raise TargetRefused("--remove-leftovers cannot be used with --remote: a fio server cannot "
                            "list a folder; remove old ssd-profiler-test-*.dat files there yourself")
    if args.dry_run:
        raise TargetRefused("--dry-run cannot be used with --remote yet; run without --remote to "
                            "see the plan (the trials are the same)")
    if args.engine == "diskspd":
        raise TargetRefused("a remote target runs fio (through fio --server); leave out --engine diskspd")
