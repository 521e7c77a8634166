"""Help that helps: every subcommand describes itself, every argument says what it is for, the
top-level help says what no command does, and -v/-q work the same on every command."""
from __future__ import annotations

import argparse
import shutil

import pytest

from ui.cli.parser import build_parser

from conftest import run_cli

COMMANDS = ("experiments", "drives", "presets", "run", "import", "compare", "export")


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_subcommand_and_argument_has_help():
    parser = build_parser()
    subs = _subparsers(parser)
    assert tuple(subs) == COMMANDS
    listed = {a.dest: a.help for a in next(a for a in parser._actions
                                           if isinstance(a, argparse._SubParsersAction))._choices_actions}
    missing = []
    for name, sub in [("", parser), *subs.items()]:
        if name:
            if not listed.get(name) or not (sub.description or "").strip():
                missing.append(f"{name}: no help line or no description")
        for action in sub._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            if not action.help or action.help == argparse.SUPPRESS or len(action.help) < 10:
                missing.append(f"{name or 'ssd-profiler'} {'/'.join(action.option_strings) or action.dest}")
    assert missing == []


def test_top_level_help_says_that_no_command_opens_the_window():
    done = run_cli("--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "without a command to open the window" in text
    assert "no command opens the window" in text
    for name in COMMANDS:
        assert f" {name} " in text


@pytest.mark.parametrize("name", COMMANDS)
def test_each_command_help_describes_it(name):
    done = run_cli(name, "--help")
    assert done.returncode == 0, done.stderr
    description = _subparsers(build_parser())[name].description
    assert " ".join(description.split()[:6]) in " ".join(done.stdout.split())
    assert "-v, --verbose" in done.stdout and "-q, --quiet" in done.stdout


@pytest.mark.parametrize("argv, verbose, quiet", [
    (["experiments"], 0, 0),
    (["-v", "experiments"], 1, 0),
    (["experiments", "-vv"], 2, 0),
    (["-q", "drives", "--json"], 0, 1),
    (["presets", "-qq"], 0, 2),
    (["-q", "export", "RUN", "-v"], 1, 1),
    (["--self-test", "-v"], 1, 0),
])
def test_verbose_and_quiet_before_or_after_the_command(argv, verbose, quiet):
    args = build_parser().parse_args(argv)
    assert (args.verbose, args.quiet) == (verbose, quiet)


@pytest.mark.skipif(not shutil.which("fio"), reason="fio is not installed")
def test_quiet_leaves_results_only_and_very_verbose_shows_engine_commands(tmp_path):
    one = ["run", "queue-depth", "--set", "queue_depths=1", "--set", "runtime=1s",
           "--set", "size=16MiB", "--set", "repetitions=1", "--set", "warmup=false",
           "--target", str(tmp_path), "--out", str(tmp_path / "runs")]
    quiet = run_cli(*one, "-q")
    assert quiet.returncode == 0, quiet.stderr
    assert "[1/1]" not in quiet.stderr and "run folder:" not in quiet.stderr
    assert "note:" not in quiet.stderr
    assert quiet.stdout.strip().splitlines()[-1].startswith(str(tmp_path / "runs"))
    loud = run_cli("-vv", *one)
    assert loud.returncode == 0, loud.stderr
    commands = [line for line in loud.stderr.splitlines() if line.startswith("$ ")]
    assert any("--name=prepare" in c for c in commands) and any("--rw=randread" in c for c in commands)
    assert "[1/1] queue-depth" in loud.stderr and "info: writing the 16 MiB test file" in loud.stderr
