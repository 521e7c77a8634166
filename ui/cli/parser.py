"""The command line's grammar: every subcommand and argument, with the help text users read.

Kept apart from the commands so that the build can generate the man page and the bash and zsh
completion from this very parser (packaging/cli_docs.py) without running anything, and so that a
test can check that every subcommand and argument explains itself.
"""
from __future__ import annotations

import argparse
import textwrap
from typing import Any, NoReturn

from app import __version__
from app.experiments import CATALOG, PRESETS
from app.experiments.registry import left_out_of_all
from ui.cli import verbosity
from ui.cli.remote_args import add_remote_arguments

PROG = "ssd-profiler"
EXIT_BAD_INPUT = 2

DESCRIPTION = """\
Profile an SSD with fio (or DiskSpd on Windows) on a test file in a folder you choose: QD1 \
latency baselines, block-size, read/write-mix and queue-depth sweeps, tail latency and the SLC \
cache. Every number is measured by the engine, repeated, and reported as mean ± sample standard \
deviation with n."""

EPILOG = f"""\
Run {PROG} without a command to open the window. With a command everything stays in the \
terminal: no command opens the window (--self-test opens it offscreen, to check an installation). \
`{PROG} COMMAND --help` describes each command.

Exit codes: 0 done; 1 failure (one line, and the log file with the details); 2 bad input (one \
line saying what to change; nothing was written); 128 + the signal when cancelled (130 for \
Ctrl+C).

Examples:
  {PROG} experiments
  {PROG} run zero-queue --target ~/ssdtest --set runtime=30s
  {PROG} run queue-depth --target ~/ssdtest --preset quick --dry-run
  {PROG} export RUN_DIR"""


class ParagraphFormatter(argparse.HelpFormatter):
    """Wraps each paragraph of a description or epilog on its own and keeps indented lines
    (examples) as they are; argparse's default would run all of them into one block."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out = []
        for para in textwrap.dedent(text).split("\n\n"):
            lines = para.splitlines()
            if any(line.startswith(" ") for line in lines[1:]):
                out.append("\n".join(indent + line for line in lines))
            else:
                out.append(textwrap.fill(" ".join(lines), width, initial_indent=indent,
                                         subsequent_indent=indent))
        return "\n\n".join(out)


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a mistake is one line (what to change, and where the help is) and exit 2,
    not a seven-line usage block above the message."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", ParagraphFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
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

def _command(sub: argparse._SubParsersAction[OneLineParser], name: str, summary: str,
             description: str) -> argparse.ArgumentParser:
    """A subcommand with its one-line help (the list) and its description (its own --help)."""
    parser = sub.add_parser(name, help=summary, description=description)
    verbosity.add_arguments(parser)
    return parser


def _json(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--json", action="store_true",
                        help=f"print {what} as one JSON document on stdout instead of text")


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog=PROG, description=DESCRIPTION, epilog=EPILOG)
    p.add_argument("--version", action="version", version=f"{PROG} {__version__}",
                   help="print the version and exit")
    p.add_argument("--self-test", action="store_true",
                   help="open the window offscreen, run one tiny fio trial, export it; exit 0 if all works")
    verbosity.add_arguments(p, top=True)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser,
                           title="commands", help="what to do (none: open the window)")
    _catalog_commands(sub)
    _run_command(sub)
    _result_commands(sub)
    return p


def _catalog_commands(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    e = _command(sub, "experiments", "list the experiments, their parameters and defaults",
                 "The experiment catalog: each experiment's id, what it measures, and every "
                 "parameter with its default and allowed values, as `run --set NAME=VALUE` takes "
                 "them.")
    _json(e, "the catalog")
    d = _command(sub, "drives", "list volumes: drive model, bus, size, free space, temperature",
                 "Every mounted volume: mount point, device, file system, size and free space, "
                 "the drive's model and bus, and where its temperature comes from. Reading SMART "
                 "usually needs root; the kernel's hwmon often gives the temperature without it.")
    _json(d, "the volumes")
    _command(sub, "presets", "list the presets the window offers and what they set",
             "The presets of the window and the parameter values each one sets. Use one with "
             "`run --preset NAME`; --set NAME=VALUE overrides any of its values.")


def _run_command(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    r = _command(sub, "run", "run experiments on a folder of the drive to test",
                 "Run experiments with fio (or DiskSpd) on a test file in the folder --target "
                 "names. Everything is checked before anything is written: a device or system "
                 "tree, a read-only or too full folder, a folder in memory (unless --allow-medium ram) is refused with exit 2 "
                 "and one line. Progress goes to stderr; stdout gets a results table per "
                 "experiment whose last line is the run folder (with --json, one JSON document). "
                 "Ctrl+C or kill stops the engine, keeps the finished trials and removes the test "
                 "file.")
    r.add_argument("experiments", nargs="+", metavar="EXPERIMENT",
                   help=f"{', '.join(CATALOG)}, or all (every one but {left_out_of_all()})")
    r.add_argument("--target", required=True, metavar="DIR",
                   help="folder on the drive to test; the app writes only inside "
                        "DIR/ssd-profiler-data/")
    r.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", dest="settings",
                   help="parameter, e.g. runtime=2s, size=64MiB, queue-depth.queue_depths=1,4,16 "
                        "(see `experiments`); repeat it for several")
    r.add_argument("--precision", metavar="PERCENT",
                   help="measure each workload until its mean IOPS and MB/s are known to ±PERCENT %% "
                        "(95 %% interval; between min_time and max_time per workload; "
                        "same as --set precision=2%%)")
    r.add_argument("--preset", choices=tuple(PRESETS),
                   help="start from a preset of the window (see `presets`); --set overrides it")
    r.add_argument("--dry-run", action="store_true",
                   help="print the plan (trials, time, engine commands, bytes written); write nothing "
                        "(with --remote: the job files it would send; no server is contacted)")
    r.add_argument("--engine", choices=("fio", "diskspd"),
                   help="default: DiskSpd on Windows when installed, fio elsewhere")
    r.add_argument("--out", metavar="RUNS_DIR", help="where run folders go (default: per-user data)")
    r.add_argument("--seed", type=int, help="seed of the randomized trial order (to repeat an order)")
    r.add_argument("--json", action="store_true",
                   help="print one JSON document (status, run folder, summary) instead of tables")
    r.add_argument("--pin-engine", action="store_true",
                   help="Linux: run the engine on the last CPU and the app's own threads on the "
                        "others (off by default: on few cores the engine keeps one core that the "
                        "rest of the machine still shares)")
    r.add_argument("--remove-leftovers", action="store_true",
                   help="delete test files an earlier, crashed run left in the target first "
                        "(after every check, never while another run holds the folder)")
    r.add_argument("--allow-medium", action="append", choices=("ram",), default=[],
                   help="run on a folder in memory (tmpfs, ramfs, zram) on purpose: the numbers "
                        "are then RAM's, not a drive's")
    r.add_argument("--wait", type=_wait_seconds, default=0.0, metavar="SECONDS",
                   help="when another run is using the target folder, wait up to this long")
    _vendor_spec(r, "written into the run folder when the run ends")
    add_remote_arguments(r)  # --remote HOST[:PORT]: a folder on a fio server


def _result_commands(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    i = _command(sub, "import", "read fio JSON and DiskSpd XML/text results",
                 "Read result files fio (--output-format=json or json+) or DiskSpd (-Rxml or text) "
                 "wrote, and print their measurements in the app's units: IOPS, MB/s, latency in "
                 "µs. --save keeps them as a run folder that `export` and `compare` take.")
    i.add_argument("files", nargs="+", metavar="FILE",
                   help="result files to read (regular files up to 64 MiB each)")
    _json(i, "the measurements")
    i.add_argument("--save", metavar="RUN_DIR",
                   help="also save them as a run folder (a new folder) that `export` can report on")
    c = _command(sub, "compare", "compare two or more run folders side by side",
                 "Match the workloads of the runs and give, for IOPS, MB/s, mean and p99 latency, "
                 "each run's mean, the ratio to the first run and whether the difference is "
                 "larger than the runs' own spread (Welch's t-test, 5 %). Conditions that differ "
                 "(engine, drive, file system, parameters, temperature) are listed first.")
    c.add_argument("run_dirs", nargs="+", metavar="RUN_DIR",
                   help="run folders; the first is the one the others are compared with")
    c.add_argument("--out", metavar="DIR",
                   help="also write comparison.csv, comparison.md, report.md and figures/ here")
    _json(c, "the comparison")
    x = _command(sub, "export", "write the report (Markdown, HTML, PDF), tables and figures",
                 "Write a run's report-ready folder: report.md, report.html (one self-contained "
                 "file) and report.pdf, figures (PNG and SVG), tables (CSV and Markdown). No "
                 "display is needed. The export folder is the last line on stdout.")
    x.add_argument("run_dir", metavar="RUN_DIR",
                   help="a run folder (it holds run.json), as `run` printed it")
    x.add_argument("--out", metavar="DIR",
                   help="where to write (default: RUN_DIR/export); an existing folder must be empty "
                        "or an earlier export of the same run")
    _vendor_spec(x, "used for this export instead of the run's own or a matching one")
    x.add_argument("--title", metavar="TEXT", default="",
                   help="the report's title (default: 'SSD performance profiling: <drive>')")
    x.add_argument("--author", metavar="NAME", default="", help="the author line of the report")
    x.add_argument("--course", metavar="TEXT", default="", help="the course line of the report")
    x.add_argument("--date", metavar="TEXT", default="",
                   help="the report's date (default: the day the run started)")
    x.add_argument("--no-interpretation", action="store_true",
                   help="write the data, figures, method and checks without the generated "
                        "interpretation and discussion (the student writes the analysis)")


def _vendor_spec(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--vendor-spec", metavar="MODEL-ID|FILE",
                        help="the drive's vendor 'up to' figures to compare with: an id of the "
                             "built-in list (e.g. samsung-pm9a1-512gb) or of your saved specs, or "
                             f"a JSON file holding one spec record; {what}")
