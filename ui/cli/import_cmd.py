"""`ssd-profiler import FILE... [--json] [--save RUN_DIR]`: measurements from engine outputs.

Bounded, because a FILE can be anything: each is read by :mod:`app.store.input_files` (a regular
file of at most 64 MiB, UTF-8 text, never a FIFO or device), parsed as DiskSpd XML/text, fio
JSON, or fio terse or normal text (recognized by content) within a time limit
(``PARSE_SECONDS``, or the environment variable ``SSD_PROFILER_PARSE_SECONDS``; POSIX only),
and each measurement is checked for numbers no drive gives (NaN, infinity, negative counts, an
hour of latency) and for names that are not text. A refused file costs one line,
``ssd-profiler: error: FILE: reason``, and exit 2; the other files are still printed.

``--save RUN_DIR`` writes a run folder that ``export`` can report on. It is checked before any
FILE is read (a new or empty real folder, never a symlink or a file) and written only when every
FILE imported: exit 2 means nothing was written.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from app.model.status import JobStatus
from app.store.input_files import (
    SMALL_TEXT,
    InputRefused,
    check_measurement,
    fio_documents,
    os_reason,
    read_input_text,
)
from ui.cli import views as cli_text
from ui.cli.exits import EXIT_BAD_INPUT, EXIT_OK, one_line, write_or_exit
from ui.cli.terminal import terminal_text

PARSE_SECONDS = 30.0   # per file; a 64 MiB genuine output parses in about 2 s


class ParseTimeout(Exception):
    """The parse of one file ran past its deadline."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise ParseTimeout in this thread after ``seconds`` (POSIX main thread; elsewhere no
    limit): the backstop for parser paths that are slow in the size of a crafted file (e.g.
    a DiskSpd text with a million latency-table headers), so no FILE can hold import for long."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable or seconds <= 0:
        yield
        return

    def on_alarm(*_: object) -> NoReturn:
        raise ParseTimeout

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _parse(text: str, source: str) -> list[dict[str, Any]]:
    from app.engines.diskspd import looks_like_diskspd, parse_diskspd_output
    from app.engines.fio.result import FioParseError, parse_fio_document, parse_fio_text
    from app.engines.fio.text_output import looks_like_fio_text, parse_fio_text_output
    # DiskSpd XML (<Results>) or text ("Total IO"), recognized by content; else fio JSON,
    # else fio's terse or normal text output
    if looks_like_diskspd(text):
        return parse_diskspd_output(text, source=source)
    docs = fio_documents(text)   # linear; the tolerant scan below only for small texts
    if docs:
        return parse_fio_document(docs[-1], source)
    if looks_like_fio_text(text):
        return parse_fio_text_output(text, source)
    if len(text) <= SMALL_TEXT:
        try:
            return parse_fio_text(text, source=source)
        except FioParseError:
            pass
    raise InputRefused("holds no fio JSON result, no fio normal or terse output and no "
                       "DiskSpd result (fio writes them with --output-format=json, normal or terse)")


def import_file(name: str) -> list[dict[str, Any]]:
    """The checked measurements of one file; raises ValueError (one line) or OSError."""
    text = read_input_text(name)
    seconds = float(os.environ.get("SSD_PROFILER_PARSE_SECONDS") or PARSE_SECONDS)
    try:
        with deadline(seconds):
            results = _parse(text, str(name))
    except ParseTimeout:
        raise InputRefused(f"took over {seconds:g} s to parse, far longer than any engine "
                           "output; not a normal fio or DiskSpd result") from None
    except RecursionError:
        raise InputRefused("is nested too deeply to be an engine output") from None
    except MemoryError:
        raise InputRefused("needs more memory to parse than there is") from None
    except (TypeError, AttributeError, KeyError, IndexError, OverflowError) as exc:
        raise InputRefused(f"looks like an engine output but a field holds the wrong kind of "
                           f"value ({type(exc).__name__}: {exc}); the file is damaged") from None
    idle = 0
    for measurement in results:
        check_measurement(measurement)
        if measurement.get("status") != JobStatus.FAILED and not any(
                measurement.get(d) for d in ("read", "write", "mixed")):
            # zeros are not a measurement: "ok" with no numbers would read as a result
            measurement.update(status=JobStatus.FAILED, error="the job did no I/O (nothing was "
                               "read or written), so there is nothing to import")
            idle += 1
    if results and idle == len(results):   # an import that imported nothing is not a success
        who = "its only job did no I/O" if idle == 1 else f"none of its {idle} jobs did any I/O"
        raise InputRefused(f"{who} (nothing was read or written), so there is nothing to import")
    return results


def count_notes(results: list[dict[str, Any]]) -> list[str]:
    """One line per job direction whose issued and completed I/O counts disagree (fio's
    numbers are kept as printed; app/engines/fio/completed.py), for the terminal."""
    from app.model.measurement import Measurement
    return [f"note: {terminal_text(str(m.get('job')))}: {terminal_text(line)}" for m in results
            for line in Measurement.from_json(m).caveats()]


def cmd_import(args: argparse.Namespace) -> int:
    from app.results.imported import run_from_measurements
    from app.results.summarize import with_pooled
    from app.store.new_folder import check_new_run_folder, write_run_folder
    if args.save:
        try:
            check_new_run_folder(args.save)
        except ValueError as exc:
            print(f"ssd-profiler: error: --save {one_line(str(exc))}", file=sys.stderr)
            return EXIT_BAD_INPUT
    results: list[dict[str, Any]] = []
    problems: list[str] = []
    for name in args.files:
        try:
            results += import_file(name)
        except OSError as exc:
            problems.append(f"{name}: {os_reason(exc)}")
        except ValueError as exc:
            problems.append(f"{name}: {exc}")
    if args.json:
        print(json.dumps([with_pooled(m) for m in results], indent=2, allow_nan=False))
    elif results:   # with_pooled: each percentile on too few I/Os flagged, as --json has it
        print(terminal_text(cli_text.measurements_text([with_pooled(m) for m in results])))
        for note in count_notes(results):
            print(note)
    for problem in problems:
        print(f"ssd-profiler: error: {one_line(problem)}", file=sys.stderr)
    if problems:
        return EXIT_BAD_INPUT
    if args.save and results:
        saved, failed = write_or_exit(lambda: write_run_folder(run_from_measurements(results),
                                                               Path(args.save)),
                                      "--save ", f"--save {args.save}")
        if failed is not None:
            return failed
        print(terminal_text(saved))
    return EXIT_OK
