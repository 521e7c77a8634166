"""The one entry point: no arguments opens the window, a subcommand runs the command line.

Two promises of the command line are kept here, for every subcommand at once:
- printing never fails: under an ASCII-only locale (``LC_ALL=C``, ``PYTHONIOENCODING=ascii``)
  'µs', '±', '°C' or a non-ASCII path would raise UnicodeEncodeError in the middle of a run.
  stdout and stderr are switched once, at start, to an error handler that writes such characters
  as ``\\xb5``-style escapes (and undecodable file-name bytes back as they were);
- no Python traceback reaches the terminal: whatever escapes ui/cli/ becomes one line on
  stderr (exit 2 for bad input, 1 otherwise), and the traceback goes to the rotating log in the
  per-user log folder (ui/log_file.py), or to a new file in the temp folder when that cannot be
  written.
"""
from __future__ import annotations

import codecs
import logging
import sys
import threading
from pathlib import Path

PROG = "ssd-profiler"
EXIT_FAILED, EXIT_BAD_INPUT, EXIT_CANCELLED = 1, 2, 130
_ERRORS = "ssd-profiler-replace"


def _replace(exc: UnicodeError) -> tuple[str | bytes, int]:
    """Encode errors: a lone surrogate from an undecodable file name goes out as its original
    byte (what surrogateescape does); any other character as a backslash escape."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    bad = exc.object[exc.start:exc.end]
    if all(0xDC80 <= ord(ch) <= 0xDCFF for ch in bad):
        return bytes(ord(ch) - 0xDC00 for ch in bad), exc.end
    return codecs.backslashreplace_errors(exc)


codecs.register_error(_ERRORS, _replace)


def safe_streams() -> None:
    """stdout and stderr that can print any text in any locale (see the module docstring)."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors=_ERRORS)
            except (ValueError, OSError):  # a closed or detached stream: leave it as it is
                pass


class OneLineFormatter(logging.Formatter):
    """Log records on the terminal without their traceback: that goes to a log file, and the
    line ends with the exception and where the details are."""

    def format(self, record: logging.LogRecord) -> str:
        exc_info, exc_text = record.exc_info, record.exc_text
        record.exc_info, record.exc_text = None, None
        try:
            line = super().format(record)
        finally:
            record.exc_info, record.exc_text = exc_info, exc_text
        exc = exc_info[1] if exc_info else None
        if exc is not None:
            from app.params import one_line
            what = one_line(f"{type(exc).__name__}: {exc}", 200)
            # the same record reaches the rotating log through its own handler
            from ui import log_file
            line += f" ({what}; details in {log_file.log_path() or _write_log(exc)})"
        return line


def _thread_crashed(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is not SystemExit and args.exc_value is not None:
        name = args.thread.name if args.thread else "a background thread"
        _say(f"internal error in {name}: {type(args.exc_value).__name__}; "
             f"details in {_write_log(args.exc_value)}")


def cli_guards() -> None:
    """Logging and thread errors as one line each on the command line (ui/cli/run_cmd.py's own
    basicConfig then finds the handler in place and adds none)."""
    handler = logging.StreamHandler()
    handler.setLevel(logging.WARNING)
    handler.setFormatter(OneLineFormatter("%(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    from ui import log_file
    log_file.install()
    threading.excepthook = _thread_crashed


def main(argv: list[str] | None = None) -> int:
    safe_streams()
    args = sys.argv[1:] if argv is None else argv
    if not args:
        from ui.display import HOW, missing_display
        reason = missing_display()
        if reason:  # Qt would abort (exit 134): one line instead
            _say(f"{reason}: {HOW}")
            return EXIT_BAD_INPUT
        from ui.window.app import run_window  # Qt is imported only when the window is wanted
        return run_window()
    cli_guards()
    try:
        from ui.cli.run_cmd import main as cli_main
        return cli_main(args)
    except KeyboardInterrupt:
        _say("cancelled")
        return EXIT_CANCELLED
    except BrokenPipeError:  # `ssd-profiler experiments | head`: the reader left; not an error
        _silence_stdout()
        return EXIT_FAILED
    except Exception as exc:  # noqa: BLE001 - the last guard: one line, never a traceback
        return report_unexpected(exc)


def report_unexpected(exc: BaseException) -> int:
    """One line on stderr for an exception nothing else handled; the traceback goes to a log."""
    from app.params import one_line
    if _is_bad_input(exc):
        _say(f"error: {one_line(str(exc))}")
        return EXIT_BAD_INPUT
    log = _write_log(exc)
    where = f"; details in {log}" if log else ""
    if isinstance(exc, OSError) and exc.strerror:
        name = f": {exc.filename}" if exc.filename else ""
        _say(f"error: {one_line(exc.strerror + name)}{where}")
        return EXIT_FAILED
    _say(f"internal error: {one_line(f'{type(exc).__name__}: {exc}', 200)}{where}")
    return EXIT_FAILED


def _is_bad_input(exc: BaseException) -> bool:
    """Refusals of what the user gave that ui/cli/ did not catch itself."""
    from app.params import ParamError
    from app.paths import TargetRefused
    from app.units import UnitError
    return isinstance(exc, (ParamError, TargetRefused, UnitError))


def _say(text: str) -> None:
    try:
        print(f"{PROG}: {text}", file=sys.stderr, flush=True)
    except (OSError, ValueError):  # no stderr to print on (closed, or a windowed app)
        pass


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at devnull so the interpreter's final flush is quiet."""
    import os
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _write_log(exc: BaseException) -> Path | None:
    """The traceback in the rotating log (ui/log_file.py); the file that holds it."""
    from ui import log_file
    return log_file.record_exception(exc)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
