"""The headless command line.

Exit codes: 0 done, 1 failure, 2 bad input (nothing written), 130 cancelled by Ctrl+C.
Progress goes to stderr; stdout carries results: for ``run`` a results table whose last line is
the run folder, or with ``--json`` exactly one JSON document and nothing else.
"""
from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from app.engines import EngineNotFound
from app.experiments import CATALOG, PRESET_TITLES, PRESETS
from app.experiments.base import PRECISION_PARAMS, PRECISIONS
from app.experiments.plan import (
    kept_note,
    kept_own,
    precision_left_alone,
    precision_note,
    settings_with_preset,
)
from app.experiments.registry import expand_ids
from app.model.status import RunStatus
from app.params import ParamError, describe
from app.paths import TargetRefused
from app.specs.catalog import attach_spec_to_run
from app.stats.io_counts import reach_warnings
from app.units import human_bytes, quote_input
from jobs.engine import quiet as engine_priority
from ui.cli import verbosity
from ui.cli import views as cli_text
from ui.cli.parser import build_parser
from ui.cli.progress import progress_for
from ui.cli.remote_args import check_remote_args, per_host_json, remote_spec
from ui.cli.results import print_results
from ui.cli.terminal import terminal_text
from ui.cli.vendor_spec_arg import spec_from_argument

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2  # cancelled: 128 + signal (130 for Ctrl+C)
#: what signal.signal installs and returns: a function, SIG_DFL/SIG_IGN, or None (not set from Python)
SignalHandler = Callable[[int, FrameType | None], Any] | int | None


def vendor_argument(args: argparse.Namespace) -> dict[str, Any] | None:
    """``--vendor-spec`` as a spec record (None when not given); BadInput (exit 2) when it names
    neither a known spec nor a readable spec file: checked before anything is written."""
    value = getattr(args, "vendor_spec", None)
    if not value:
        return None
    try:
        return spec_from_argument(value)
    except ValueError as exc:
        raise BadInput(str(exc)) from None


class BadInput(Exception):
    """Exit 2 with a one-line reason."""


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    parser = build_parser()
    args = parser.parse_args(argv)
    verbosity.apply(args)
    try:
        if args.self_test:
            from ui.cli.self_test import run_self_test
            return run_self_test()
        if args.command == "experiments":
            return cmd_experiments(args)
        if args.command == "drives":
            return cmd_drives(args)
        if args.command == "presets":
            return cmd_presets()
        if args.command == "run":
            check_remote_args(args)
            args.vendor_record = vendor_argument(args)
            return cmd_dry_run(args) if args.dry_run else cmd_run(args)
        if args.command == "import":
            from ui.cli.import_cmd import cmd_import
            return cmd_import(args)
        if args.command == "compare":
            from ui.cli.compare_cmd import cmd_compare
            return cmd_compare(args)
        if args.command == "export":
            from ui.cli.export_cmd import cmd_export
            return cmd_export(args)
        parser.print_help()
        return EXIT_BAD_INPUT
    except (BadInput, ParamError, TargetRefused) as exc:
        print(f"ssd-profiler: error: {terminal_text(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except EngineNotFound as exc:
        print(f"ssd-profiler: error: {terminal_text(exc)}", file=sys.stderr)
        return EXIT_FAILED


def cmd_experiments(args: argparse.Namespace) -> int:
    catalog = [{"id": cls.id, "title": cls.title, "summary": cls.summary, "in_all": cls.in_all,
                "parameters": describe(cls)} for cls in CATALOG.values()]
    if args.json:
        print(json.dumps(catalog, indent=2))
    else:
        print(cli_text.catalog_text(catalog))
    return EXIT_OK


def cmd_drives(args: argparse.Namespace) -> int:
    from app.drive.identity import drives_report
    volumes = drives_report()
    print(json.dumps(volumes, indent=2) if args.json else cli_text.volumes_text(volumes))
    return EXIT_OK


def cmd_presets() -> int:
    for key, values in PRESETS.items():
        shown = ", ".join(f"{k}={v}" for k, v in values.items()) or "each experiment's defaults"
        print(f"{key:<8} {PRESET_TITLES.get(key, key)}: {shown}")
    print("Use one with `run --preset NAME`; --set NAME=VALUE overrides a value.")
    return EXIT_OK


def cmd_dry_run(args: argparse.Namespace) -> int:
    if args.remote is not None:  #: the plan of a remote run, nothing sent
        from ui.cli.remote_plan import cmd_remote_dry_run
        return cmd_remote_dry_run(args, _run_settings(args))
    from jobs.run.dry_run import plan_only
    from ui.cli.results import print_plan
    planned = plan_only(args.experiments, _run_settings(args), args.target,
                        seed=args.seed, engine=args.engine, allow_media=tuple(args.allow_medium))
    if args.json:
        print(json.dumps(planned.to_json(), indent=2, allow_nan=False))
    else:
        print_plan(sys.stdout, planned)
    return EXIT_OK


def _settings(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise BadInput(f"--set expects NAME=VALUE, got {pair!r}")
        out[name.strip()] = value.strip()
    return out


def _run_settings(args: argparse.Namespace) -> dict[str, str]:
    """--set pairs over the preset's values (app.experiments.plan.settings_with_preset); a line
    says which experiments keep their own value of a setting given for all (plan.kept_own)."""
    settings = settings_with_preset(args.experiments, args.preset, _settings(args.settings))
    if getattr(args, "precision", None) is not None:   # '' too: an unset shell variable
        settings["precision"] = _precision(args.precision)
    try:
        ids = expand_ids(args.experiments)
        kept, left = kept_own(ids, settings), precision_left_alone(ids, settings)
    except KeyError:
        kept, left = {}, []  # an unknown experiment: the plan refuses it with its own line
    kept = {e: own for e, names in kept.items()   # said once, by the precision note
            if (own := [n for n in names if e not in left or n not in PRECISION_PARAMS])}
    if kept:
        _say(f"ssd-profiler: note: {kept_note(kept)}")
    if left:
        _say(f"ssd-profiler: note: {precision_note(left)}")
    return settings


def _precision(typed: str) -> str:
    """--precision's value as the setting spells it: '2', '2 %' and '2.0%' mean 2%; 'off' stays.
    Anything else is refused quoting what was typed ('-1%', '2%%', 'nan%'), not what was left
    of it once the '%' was taken off (the plan's message said '-1' for '-1%')."""
    value = typed.strip()
    number = value[:-1].strip() if value.endswith("%") else value
    if number.replace(".", "", 1).isdigit():
        value = f"{float(number):g}%"
    if value not in PRECISIONS:
        raise ParamError("precision", f"{quote_input(typed)} is not one of {', '.join(PRECISIONS)}")
    return value


def cmd_run(args: argparse.Namespace) -> int:
    """Every way out ends like a cancel: SIGINT, SIGTERM and SIGHUP stop the engine, keep the
    finished trials, remove the test file and mark run.json cancelled; exit 128 + the signal."""
    from jobs.events import RunFinished
    from jobs.run.cancel import Cancel
    from jobs.run.session import RunCancelledEarly, prepare_run

    cancel = Cancel()   # a signal wakes the trial loop at once
    caught: list[int] = []
    previous = _on_signals(lambda signum: _on_stop_signal(cancel, caught, signum))
    engine_priority.pin_engines(bool(getattr(args, "pin_engine", False)) and remote_spec(args) is None)
    try:
        try:
            session = prepare_run(args.experiments, _run_settings(args), args.target,
                                  runs_root=Path(args.out) if args.out else None, seed=args.seed,
                                  command_line=["ssd-profiler", "run", *sys.argv[2:]],
                                  engine=args.engine, cancel=cancel,
                                  remove_leftovers=args.remove_leftovers, wait_for_folder_s=args.wait,
                                  allow_media=tuple(args.allow_medium), remote=remote_spec(args))
        except RunCancelledEarly as exc:
            _say(f"ssd-profiler: {exc}")
            return 128 + (caught[0] if caught else signal.SIGINT)
        loud, quiet = verbosity.shows_progress(args), verbosity.verbosity(args) < -1
        medium = session.target.medium
        if loud and medium is not None and medium.note:
            _say(f"ssd-profiler: note: the target {medium.note} ({medium.line()})")
        for warning in reach_warnings(session.plan) if loud else ():
            _say(f"ssd-profiler: note: {warning}")
        for path, size in session.removed_leftovers if loud else ():
            _say(f"ssd-profiler: removed {path} ({human_bytes(size)}) left by an earlier run")
        for path, size in session.runner.owner.leftovers() if not quiet else ():
            _say(f"ssd-profiler: warning: {path} ({human_bytes(size)}) was left by an earlier "
                 "run; add --remove-leftovers to delete it")
        final: RunFinished | None = None
        progress = progress_for(sys.stderr, verbosity.event_levels(args), lines=loud)
        # this thread decides when trials stop: it keeps the app's priority, not a pinned
        # engine's CPU (quiet.py)
        moved = engine_priority.off_engine_cpus()
        try:
            for event in session.runner.events():
                progress.show(event)
                if isinstance(event, RunFinished):  # the runner's last event, however it ends
                    final = event
        finally:
            engine_priority.back_on_all_cpus(moved)
            session.close()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if final is None:
        _say("ssd-profiler: the run ended without its result; see the app's log")
        return EXIT_FAILED
    if args.vendor_record is not None:  # into run.json: its export compares with it anywhere
        try:
            attach_spec_to_run(final.run_dir, args.vendor_record)
        except (OSError, ValueError) as exc:
            _say(f"ssd-profiler: warning: the vendor spec was not written into the run: {exc}")
    try:
        if args.json:
            print(json.dumps({"status": final.status, "run_dir": final.run_dir,
                              "summary": final.summary, **per_host_json(final.run_dir)},
                             allow_nan=False))
        else:
            print_results(sys.stdout, final.run_dir)
            print(final.run_dir)
    except (OSError, ValueError):
        pass  # stdout went with the terminal (SIGHUP): the run folder is complete anyway
    if final.status == RunStatus.CANCELLED:
        return 128 + (caught[0] if caught else signal.SIGINT)
    if final.status == RunStatus.FAILED:
        from ui import log_file
        log = log_file.log_path()
        _say(f"ssd-profiler: the run failed: each trial's error and engine output are in "
             f"{final.run_dir}" + (f"; the app's log is {log}" if log and log.exists() else ""))
    return EXIT_OK if final.status == RunStatus.DONE else EXIT_FAILED


STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK")
                     if hasattr(signal, name))


def _on_signals(handler: Callable[[int], None]) -> dict[int, SignalHandler]:
    """Install ``handler(signum)`` for every stop signal this OS has; the previous handlers."""
    previous: dict[int, SignalHandler] = {}
    for signum in STOP_SIGNALS:
        previous[signum] = signal.signal(signum, lambda number, _frame: handler(number))
    return previous


def _on_stop_signal(cancel: threading.Event, caught: list[int], signum: int) -> None:
    if not cancel.is_set():
        caught.append(signum)
        _say("\nssd-profiler: cancelling: stopping the engine, keeping finished trials...")
    cancel.set()


def _say(line: str) -> None:
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass  # the terminal is gone (SIGHUP)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
