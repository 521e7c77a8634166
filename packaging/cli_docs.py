"""Generates the man page and the bash and zsh completion from the command line's own parser.

Generated at build time, never written by hand, so that they cannot fall behind the commands:
every subcommand, option and help text comes from ui/cli/parser.py. shtab writes the completion
scripts and argparse-manpage the roff (both from the `build` extra); this script adds what a
parser does not know: which arguments are folders or files, the experiment ids, and the man
page's exit status, environment and files sections.

Usage: python packaging/cli_docs.py OUT_DIR
  writes OUT_DIR/ssd-profiler.1, OUT_DIR/bash/ssd-profiler and OUT_DIR/zsh/_ssd-profiler
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import shtab  # noqa: E402
from argparse_manpage.manpage import Manpage  # noqa: E402

from app import __version__  # noqa: E402
from app.experiments import CATALOG  # noqa: E402
from ui.cli.parser import PROG, build_parser  # noqa: E402

#: What each metavar names, for the shells to complete.
COMPLETE = {"DIR": shtab.DIRECTORY, "RUNS_DIR": shtab.DIRECTORY, "RUN_DIR": shtab.DIRECTORY,
            "FILE": shtab.FILE}
EXPERIMENT_WORDS = " ".join([*CATALOG, "all"])

SECTIONS = {
    "exit status": r"""
.TP
.B 0
done
.TP
.B 1
failure: a trial failed, or an unexpected error (one line on stderr and the log file's path)
.TP
.B 2
bad input: one line says what to change; nothing was written. Also: no display to open the window on
.TP
.B 128 + N
cancelled by signal N: 130 for Ctrl+C, 143 for kill, 129 for a closed terminal (the engine is
stopped, finished trials are kept, the test file is removed)""",
    "environment": r"""
.TP
.B SSD_PROFILER_FIO, SSD_PROFILER_DISKSPD
the engine program to run instead of the one found on PATH
.TP
.B SSD_PROFILER_SSH
the ssh program for \-\-ssh (default: ssh)
.TP
.B XDG_DATA_HOME, XDG_STATE_HOME
where runs and the log go, when set to an absolute path
.TP
.B DISPLAY, WAYLAND_DISPLAY, QT_QPA_PLATFORM
the window needs one of the first two; QT_QPA_PLATFORM=offscreen runs it without a display""",
    "files": r"""
.TP
.I ~/.local/share/ssd\-profiler/runs/
run folders (run.json, trials.csv, samples.csv, raw/, commands.log) unless \-\-out says otherwise
.TP
.I ~/.local/state/ssd\-profiler/log/ssd\-profiler.log
the log, rotated at 1 MB; a failure's details are there
.TP
.I DIR/ssd\-profiler\-data/
the only place the app writes in a target folder; its test files are removed at the end""",
    "see also": r"""
.BR fio (1),
.BR smartctl (8).
The README and docs/usage.md describe the experiments, statistics and safety rules in full.""",
}


def annotated_parser() -> argparse.ArgumentParser:
    """The real parser with shtab's completion hints on its positional and path arguments."""
    parser = build_parser()
    parsers = [parser]
    while parsers:
        current = parsers.pop()
        for action in current._actions:
            if isinstance(action, argparse._SubParsersAction):
                parsers.extend(action.choices.values())
            elif action.metavar in COMPLETE:
                action.complete = COMPLETE[action.metavar]
            elif action.metavar == "EXPERIMENT":
                action.complete = shtab.cmd(f"echo {EXPERIMENT_WORDS}")
    return parser


WINDOW = r"""
Run without a command,
.B ssd\-profiler
opens the window. With a command everything stays in the terminal: no command opens the window
(\-\-self\-test opens it offscreen, to check an installation).
.PP"""

EXAMPLES = r"""
.nf
ssd\-profiler experiments
ssd\-profiler run zero\-queue \-\-target ~/ssdtest \-\-set runtime=30s
ssd\-profiler run queue\-depth \-\-target ~/ssdtest \-\-preset quick \-\-dry\-run
ssd\-profiler export RUN_DIR
ssd\-profiler compare RUN_A RUN_B \-\-out DIR
.fi"""


def man_page(parser: argparse.ArgumentParser) -> str:
    """The roff of ssd-profiler(1). The epilog (the window, exit codes, examples) becomes the
    page's own sections instead of argparse-manpage's single COMMENTS block."""
    parser.epilog = None
    page = Manpage(parser, _data={"project_name": PROG, "version": __version__,
                                  "manual_title": "User Commands", "manual_section": 1,
                                  "description": "profile an SSD with fio, on a folder, safely"})
    page.add_section("description", "=", WINDOW.strip())
    for heading, content in {"examples": EXAMPLES, **SECTIONS}.items():
        page.add_section(heading, "=", content.strip())
    return str(page)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-2].strip(), file=sys.stderr)
        return 2
    out = Path(argv[0])
    parser = annotated_parser()
    (out / "bash").mkdir(parents=True, exist_ok=True)
    (out / "zsh").mkdir(parents=True, exist_ok=True)
    (out / f"{PROG}.1").write_text(man_page(parser))
    (out / "bash" / PROG).write_text(shtab.complete(parser, shell="bash"))
    (out / "zsh" / f"_{PROG}").write_text(shtab.complete(parser, shell="zsh"))
    print(f"{out}/{PROG}.1, bash/{PROG}, zsh/_{PROG}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
