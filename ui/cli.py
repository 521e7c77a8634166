"""The headless command line (DESIGN §3.1).

Exit codes: 0 done, 1 failure, 2 bad input (nothing written), 130 cancelled by Ctrl+C.
Progress goes to stderr; stdout carries results, and for ``run`` its last line is the run folder.
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
from app.experiments import CATALOG
from app.model.status import RunStatus
from app.params import ParamError, describe
from app.paths import TargetRefused
from app.units import human_bytes
from ui import cli_text

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2  # cancelled: 128 + signal (130 for Ctrl+C)


class BadInput(Exception):
    """Exit 2 with a one-line reason."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ssd-profiler",
                                description="Profile an SSD with fio or DiskSpd, safely, on a folder.")
    p.add_argument("--version", action="version", version=f"ssd-profiler {__version__}")
    p.add_argument("--self-test", action="store_true",
                   help="open the window offscreen, run one tiny fio trial, export it; exit 0 if all works")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    e = sub.add_parser("experiments", help="the experiment catalog with parameters and defaults")
    e.add_argument("--json", action="store_true")
    d = sub.add_parser("drives", help="volumes: mount point, device, size, free space")
    d.add_argument("--json", action="store_true")
    r = sub.add_parser("run", help="run experiments on a target folder")
    r.add_argument("experiments", nargs="+", metavar="EXPERIMENT",
                   help=f"{', '.join(CATALOG)} or all (all but quick)")
    r.add_argument("--target", required=True, metavar="DIR", help="folder on the drive to test")
    r.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", dest="settings",
                   help="parameter, e.g. runtime=2s, size=64MiB, queue-depth.queue_depths=1,4,16")
    r.add_argument("--engine", choices=("fio", "diskspd"),
                   help="default: DiskSpd on Windows when installed, fio elsewhere")
    r.add_argument("--out", metavar="RUNS_DIR", help="where run folders go (default: per-user data)")
    r.add_argument("--seed", type=int, help="seed of the randomized trial order")
    r.add_argument("--json", action="store_true", help="print the run summary as JSON")
    r.add_argument("--remove-leftovers", action="store_true",
                   help="delete test files an earlier, crashed run left in the target first "
                        "(after every check, never while another run holds the folder)")
    r.add_argument("--wait", type=float, default=0.0, metavar="SECONDS",
                   help="when another run is using the target folder, wait up to this long")
    i = sub.add_parser("import", help="normalized measurements from fio JSON and DiskSpd XML/text files")
    i.add_argument("files", nargs="+", metavar="FILE")
    i.add_argument("--json", action="store_true")
    i.add_argument("--save", metavar="RUN_DIR",
                   help="also save them as a run folder (a new folder) that `export` can report on")
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
            from ui.self_test import run_self_test
            return run_self_test()
        if args.command == "experiments":
            return cmd_experiments(args)
        if args.command == "drives":
            return cmd_drives(args)
        if args.command == "run":
            return cmd_run(args)
        if args.command == "import":
            from ui.import_cmd import cmd_import
            return cmd_import(args)
        if args.command == "export":
            from ui.export_cmd import cmd_export
            return cmd_export(args)
        parser.print_help()
        return EXIT_BAD_INPUT
    except (BadInput, ParamError, TargetRefused) as exc:
        print(f"ssd-profiler: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except EngineNotFound as exc:
        print(f"ssd-profiler: error: {exc}", file=sys.stderr)
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


def _settings(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise BadInput(f"--set expects NAME=VALUE, got {pair!r}")
        out[name.strip()] = value.strip()
    return out


def cmd_run(args) -> int:
    """Every way out ends like a cancel: SIGINT, SIGTERM and SIGHUP stop the engine, keep the
    finished trials, remove the test file and mark run.json cancelled; exit 128 + the signal."""
    from jobs.session import RunCancelledEarly, prepare_run

    cancel, caught = threading.Event(), []
    previous = _on_signals(lambda signum: _on_stop_signal(cancel, caught, signum))
    try:
        try:
            session = prepare_run(args.experiments, _settings(args.settings), args.target,
                                  runs_root=Path(args.out) if args.out else None, seed=args.seed,
                                  command_line=["ssd-profiler", "run", *sys.argv[2:]],
                                  engine=args.engine, cancel=cancel,
                                  remove_leftovers=args.remove_leftovers, wait_for_folder_s=args.wait)
        except RunCancelledEarly as exc:
            _say(f"ssd-profiler: {exc}")
            return 128 + (caught[0] if caught else signal.SIGINT)
        for path, size in session.removed_leftovers:
            _say(f"ssd-profiler: removed {path} ({human_bytes(size)}) left by an earlier run")
        for path, size in session.runner.owner.leftovers():
            _say(f"ssd-profiler: warning: {path} ({human_bytes(size)}) was left by an earlier "
                 "run; add --remove-leftovers to delete it")
        final = None
        progress = cli_text.Progress(sys.stderr)
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
                              "summary": final.summary}, allow_nan=False))
        print(final.run_dir)
    except OSError:
        pass  # stdout went with the terminal (SIGHUP): the run folder is complete anyway
    if final.status == RunStatus.CANCELLED:
        return 128 + (caught[0] if caught else signal.SIGINT)
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
