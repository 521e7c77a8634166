"""fio's client needs a job file: the local argv of a trial, rewritten for ``fio --client``.

Why a job file (verified with fio 3.33): job options given on the client's command line
(``--name=... --rw=...``) are parsed as a *local* job and never sent; the client sends only job
files, and passes a fixed set of its own flags (``--output-format``, ``--status-interval``,
``--readonly``, ``--debug``, ...) to the server. So the argv that argv.py builds for a local run is
split here: client flags stay on the command line, every job option becomes a line of the job
file, in the same order with the same values. One builder for both keeps local and remote trials
measuring the same thing.

A value must survive the job-file syntax: a newline would end the line, ``;``/``#`` start a
comment and ``${...}`` is expanded with the server's environment. The remote folder was refused
for those already (app/remote/target.py); :func:`job_text` checks every value again and
raises ValueError, so a value fio would read differently can never be sent.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from app.experiments.plan import Trial

# flags the fio client understands itself (init.c: FIO_CLIENT_FLAG, and --trigger-file, which the
# client watches and turns into a remote stop)
CLIENT_FLAGS = ("--output-format", "--status-interval", "--trigger-file", "--readonly", "--debug",
                "--eta", "--eta-newline", "--eta-interval")
LIVE_DEBUG = "--debug=steadystate"
_UNSAFE = ("\n", "\r", ";", "#", "$", "\x00")


def client_address(host: str, port: int, ipv6: bool = False) -> str:
    """``--client`` value: ``ip:HOST,PORT`` (``ip6:`` for IPv6). The prefix keeps a host from
    being read as fio's ``sock:`` form; fio reads a local *file* of that name as a host list, so
    clients always run in the app's private working folder."""
    return f"{'ip6' if ipv6 else 'ip'}:{host},{port}"


def split_argv(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """(client flags, job options) of a local fio argv (``argv[0]`` is fio itself)."""
    client: list[str] = []
    job: list[str] = []
    for arg in argv[1:]:
        name = arg.split("=", 1)[0]
        (client if name in CLIENT_FLAGS else job).append(arg)
    return client, job


def job_text(job_args: Sequence[str], extra: Sequence[str] = ()) -> str:
    """The job file for ``--name=X --opt=v --flag ...``: ``[X]`` then ``opt=v`` / ``flag`` lines.
    ``extra`` lines (``opt=v``) are appended to the section."""
    lines: list[str] = []
    for arg in job_args:
        if not arg.startswith("--"):
            raise ValueError(f"not a fio option: {arg!r}")
        name, sep, value = arg[2:].partition("=")
        if any(c in arg for c in _UNSAFE) or "]" in name or "[" in name:
            raise ValueError(f"fio option {arg!r} cannot be written into a job file safely")
        if name == "name":
            lines.append(f"[{value}]")
        else:
            lines.append(f"{name}={value}" if sep else name)
    for line in extra:
        if any(c in line for c in _UNSAFE):
            raise ValueError(f"job-file line {line!r} is not safe")
        lines.append(line)
    if not lines or not lines[0].startswith("["):
        raise ValueError("a fio job file must start with --name")
    return "\n".join(lines) + "\n"


def live_options(trial: Trial) -> list[str]:
    """fio's steady-state monitor, switched on only for its per-second log lines: with
    ``--debug=steadystate`` the server sends ``iops: N, bw: B`` once a second, live, through the
    client (the ETA line is never printed when the output is JSON, client.c
    ``client_display_thread_status``). Its window is longer than the trial can run, so the
    criterion is never checked and the job always runs its full runtime."""
    window_s = math.ceil(trial.runtime_s + trial.ramp_s) + 60
    return ["steadystate=iops:0%", f"steadystate_duration={window_s}s"]


def client_argv(fio: str, address: str, client_flags: Sequence[str], job_path: str) -> list[str]:
    return [fio, f"--client={address}", *client_flags, job_path]
