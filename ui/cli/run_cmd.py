"""The headless command line (DESIGN §3.1).

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
from pathlib import Path

from app import __version__
from app.engines import EngineNotFound
from app.experiments import CATALOG, PRESET_TITLES, PRESETS
from app.io_counts import reach_warnings
from app.model.status import RunStatus
from app.params import ParamError, describe
from app.paths import TargetRefused
from app.plan import settings_with_preset
from app.units import human_bytes
from ui.cli import text as cli_text
from ui.cli.progress import progress_for
from ui.cli.remote_args import add_remote_arguments, check_remote_args, per_host_json, remote_spec
from ui.cli.results import print_results
from ui.cli.terminal import terminal_text

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2  # cancelled: 128 + signal (130 for Ctrl+C)


class BadInput(Exception):
    """Exit 2 with a one-line reason."""


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a mistake is one line (what to change, and where the help is) and exit 2,
    not a seven-line usage block above the message."""

    def error(self, message: str):
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def _wait_seconds(text: str) -> float:
    """--wait: a finite number of seconds from 0 to a day (nan waited forever, inf too)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expects a number of seconds, got {text!r}") from None
    if not 0 <= value <= 86400:  # false for nan as well
        raise argparse.ArgumentTypeError(f"expects seconds from 0 to 86400, got {text!r}")
    return value


def _parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="ssd-profiler",
                                description="Profile an SSD with fio or DiskSpd, safely, on a folder.")
    p.add_argument("--version", action="version", version=f"ssd-profiler {__version__}")
    p.add_argument("--self-test", action="store_true",
                   help="open the window offscreen, run one tiny fio trial, export it; exit 0 if all works")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    e = sub.add_parser("experiments", help="the experiment catalog with parameters and defaults")
    e.add_argument("--json", action="store_true")
    d = sub.add_parser("drives", help="volumes: mount point, device, size, free space")
    d.add_argument("--json", action="store_true")
    sub.add_parser("presets", help="the presets the window offers, with the values they set")
    r = sub.add_parser("run", help="run experiments on a target folder")
    r.add_argument("experiments", nargs="+", metavar="EXPERIMENT",
                   help=f"{', '.join(CATALOG)} or all (all but quick and steady-state)")
    r.add_argument("--target", required=True, metavar="DIR", help="folder on the drive to test")
    r.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", dest="settings",
                   help="parameter, e.g. runtime=2s, size=64MiB, queue-depth.queue_depths=1,4,16")
    r.add_argument("--preset", choices=tuple(PRESETS),
                   help="start from a preset of the window (see `presets`); --set overrides it")
    r.add_argument("--dry-run", action="store_true",
                   help="print the plan (trials, time, engine commands, bytes written); write nothing "
                        "(with --remote: the job files it would send; no server is contacted)")
    r.add_argument("--engine", choices=("fio", "diskspd"),
                   help="default: DiskSpd on Windows when installed, fio elsewhere")
    r.add_argument("--out", metavar="RUNS_DIR", help="where run folders go (default: per-user data)")
    r.add_argument("--seed", type=int, help="seed of the randomized trial order")
    r.add_argument("--json", action="store_true",
                   help="print one JSON document (status, run folder, summary) instead of tables")
    r.add_argument("--remove-leftovers", action="store_true",
                   help="delete test files an earlier, crashed run left in the target first "
                        "(after every check, never while another run holds the folder)")
    r.add_argument("--allow-medium", action="append", choices=("ram",), default=[],
                   help="run on a folder in memory (tmpfs, ramfs, zram) on purpose: the numbers "
                        "are then RAM's, not a drive's")
    r.add_argument("--wait", type=_wait_seconds, default=0.0, metavar="SECONDS",
                   help="when another run is using the target folder, wait up to this long")
    add_remote_arguments(r)  # issue 18: --remote HOST[:PORT], a folder on a fio server
    i = sub.add_parser("import", help="normalized measurements from fio JSON and DiskSpd XML/text files")
    i.add_argument("files", nargs="+", metavar="FILE")
    i.add_argument("--json", action="store_true")
    i.add_argument("--save", metavar="RUN_DIR",
                   help="also save them as a run folder (a new folder) that `export` can report on")
    c = sub.add_parser("compare", help="two or more run folders side by side (each against the first)")
    c.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    c.add_argument("--out", metavar="DIR", help="also write comparison.csv and comparison.md here")
    c.add_argument("--json", action="store_true", help="print one JSON document")
    x = sub.add_parser("export", help="tables, figures and report.md for a run folder")
    x.add_argument("run_dir", metavar="RUN_DIR")
    x.add_argument("--out", metavar="DIR", help="where to write (default: RUN_DIR/export)")
    return p


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    parser = _parser()
    args = parser.parse_args(argv)
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


def cmd_experiments(args) -> int:
    catalog = [{"id": cls.id, "title": cls.title, "summary": cls.summary,
                "parameters": describe(cls)} for cls in CATALOG.values()]
    if args.json:
        print(json.dumps(catalog, indent=2))
    else:
        print(cli_text.catalog_text(catalog))
    return EXIT_OK


def cmd_drives(args) -> int:
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


def cmd_dry_run(args) -> int:
    if args.remote is not None:  # issue 18: the plan of a remote run, nothing sent
        from ui.cli.remote_plan import cmd_remote_dry_run
        return cmd_remote_dry_run(args, _run_settings(args))
    from jobs.dry_run import plan_only
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


def _run_settings(args) -> dict[str, str]:
    """--set pairs over the preset's values (app.plan.settings_with_preset)."""
    return settings_with_preset(args.experiments, args.preset, _settings(args.settings))


def cmd_run(args) -> int:
    """Every way out ends like a cancel: SIGINT, SIGTERM and SIGHUP stop the engine, keep the
    finished trials, remove the test file and mark run.json cancelled; exit 128 + the signal."""
    from jobs.session import RunCancelledEarly, prepare_run

    cancel, caught = threading.Event(), []
    previous = _on_signals(lambda signum: _on_stop_signal(cancel, caught, signum))
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
        medium = session.target.medium
        if medium is not None and medium.note:
            _say(f"ssd-profiler: note: the target {medium.note} ({medium.line()})")
        for warning in reach_warnings(session.plan):
            _say(f"ssd-profiler: note: {warning}")
        for path, size in session.removed_leftovers:
            _say(f"ssd-profiler: removed {path} ({human_bytes(size)}) left by an earlier run")
        for path, size in session.runner.owner.leftovers():
            _say(f"ssd-profiler: warning: {path} ({human_bytes(size)}) was left by an earlier "
                 "run; add --remove-leftovers to delete it")
        final = None
        progress = progress_for(sys.stderr)
        try:
            for event in session.runner.events():
                progress.show(event)
                final = event
        finally:
            session.close()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
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


def _on_signals(handler) -> dict:
    """Install ``handler(signum)`` for every stop signal this OS has; the previous handlers."""
    previous = {}
    for signum in STOP_SIGNALS:
        previous[signum] = signal.signal(signum, lambda number, _frame: handler(number))
    return previous


def _on_stop_signal(cancel: threading.Event, caught: list, signum: int) -> None:
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
