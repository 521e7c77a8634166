"""``run --remote HOST[:PORT]``: the options, and the run options they cannot honour.

Kept apart from run_cmd.py so the remote target's command-line surface is read in one place.
A remote run goes through ``fio --server`` on each HOST; ``--target`` is then a folder *there*
(the same path on every host). Several hosts: ``--remote`` repeated (or one comma list). The
spelling of every value is checked here, before anything else, so a mistake is exit 2 with one
line and no connection is ever made for it.
"""
from __future__ import annotations

import argparse
from typing import Any

from app.paths import TargetRefused
from app.remote.ssh_smart import check_smart_device, ssh_for_hosts
from app.remote.target import RemoteSpec, parse_remotes


def add_remote_arguments(run: argparse.ArgumentParser) -> None:
    run.add_argument("--remote", metavar="HOST[:PORT]", action="append",
                     help="run through a fio server on HOST (port 8765 by default; start it there "
                          "with `fio --server`); --target is then a folder on HOST. Repeat it (or "
                          "give h1:p1,h2:p2) to run the same trials on several hosts at once: "
                          "IOPS and MB/s are summed, latency is over all their I/Os, and each "
                          "host's own results are shown too. See docs/usage.md, Remote profiling: "
                          "whoever reaches that port may write as its user")
    run.add_argument("--ssh", metavar="USER@HOST", action="append", default=[],
                     help="with --remote: read the remote drive's identity and temperature with "
                          "`ssh -o BatchMode=yes USER@HOST smartctl -j -a DEVICE` (one --ssh per "
                          "--remote, in order; the ssh program is $SSD_PROFILER_SSH or ssh). "
                          "Without it they are recorded as not available remotely")
    run.add_argument("--smart-device", metavar="DEVICE",
                     help="with --ssh: the device smartctl reads on every host (default: the "
                          "block device fio reports under the folder, e.g. /dev/nvme0n1)")


def remote_spec(args: argparse.Namespace) -> RemoteSpec | None:
    if getattr(args, "remote", None) is None:
        return None
    return RemoteSpec(tuple(args.remote), tuple(args.ssh), args.smart_device)


def per_host_json(run_dir: str) -> dict[str, Any]:
    """``{"hosts": {experiment: per-host rows}}`` for ``run --json`` of a run on several fio
    servers (app/remote/host_tables.py); {} otherwise, so one-host and local output is unchanged."""
    from app.remote.host_tables import hosts_json
    from app.store.run_folder import open_run
    try:
        rows = hosts_json(open_run(run_dir))
    except (OSError, ValueError):
        return {}
    return {"hosts": rows} if rows else {}


def check_remote_args(args: argparse.Namespace) -> None:
    """Refuse (exit 2, one line) what a remote run cannot do, and any remote value that does not
    parse, before anything else is checked."""
    if getattr(args, "remote", None) is None:
        if getattr(args, "ssh", None) or getattr(args, "smart_device", None):
            raise TargetRefused("--ssh and --smart-device read a remote drive; use them with --remote")
        return
    if args.remove_leftovers:
        raise TargetRefused("--remove-leftovers cannot be used with --remote: a fio server cannot "
                            "list a folder; remove old ssd-profiler-test-*.dat files there yourself")
    if args.engine == "diskspd":
        raise TargetRefused("a remote target runs fio (through fio --server); leave out --engine diskspd")
    hosts = parse_remotes(args.remote)
    ssh_for_hosts(args.ssh, len(hosts))
    if args.smart_device is not None:
        if not args.ssh:
            raise TargetRefused("--smart-device needs --ssh: smartctl is read through ssh")
        check_smart_device(args.smart_device)
