"""What ``fio --client`` prints, read: the final result, the series per interval, the live lines,
the server's banner and what went wrong (every behaviour below verified with fio 3.33
client and server on loopback).

- **Final result.** With ``--status-interval`` the client prints *one* JSON document at the end,
  whose ``client_stats`` holds one cumulative entry per status interval and the final one last
  (a 3 s trial: runtime 893, 1893, 2893, 3001 ms). The last entry of each host is the result; the
  earlier ones give the exact per-interval series (MB/s, IOPS, mean latency and p99 from json+
  bins per direction), which replaces the live series once the trial has ended.
- **Live.** The client never prints its ETA line when the output is JSON, and interim documents
  are held back until the end. What does arrive live is the server's log text: with
  ``--debug=steadystate`` and the steady-state monitor on (jobfile.live_options), one line a
  second ``<host> steadystate PID steadystate_check() thread: 0, groupid: 0, rate_msec: 999,
  iops: 43205, bw: 176969362, ...`` with the group's total IOPS and B/s of that second. So live
  MB/s and IOPS are available; live latency, live p99 and the read/write split of a mixed
  workload are not (they come from the per-interval series when the trial ends).
- **Failures.** A server that dies mid-trial: the client prints ``client: host=H disconnected``
  (or ``timeout on SEND_ETA``), then a document with the interim entries it had, and exits 1. A
  server that is not there: ``fio: connect: Connection refused``. Either is not a result.
"""
from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from app.engines.fio.live import IntervalSplitter
from app.engines.fio.result import ALL_CLIENTS, FioParseError, parse_fio_document, split_documents
from app.engines.fio.steady import with_runtime_rates
from app.model.interval import Interval
from app.units import MB

_STEADY = re.compile(r"steadystate_check\(\) thread: \d+, groupid: \d+, rate_msec: (\d+), "
                     r"iops: (\d+), bw: (\d+)")
_BANNER = re.compile(r"hostname=(?P<hostname>[^,\n]*), be=\d+, (?P<bits>\d+)-bit, os=(?P<os>[^,\n]*), "
                     r"arch=(?P<arch>[^,\n]*), fio=(?P<fio>[^,\n]*),")
_PROBLEMS = ("disconnected", "timeout on", "connect:", "failed to connect", "version mismatch",
             "bad server cmd version")

LIVE_SERIES = {
    "available": ["total MB/s", "total IOPS"],
    "not_available": ["latency (mean)", "latency p99", "read/write split of mixed workloads",
                      "drive temperature"],
    "how": "live: fio's steady-state monitor lines (--debug=steadystate), one a second; after "
           "each trial the live series is replaced by fio's own per-interval results "
           "(client_stats), which carry every series but temperature",
}


def client_entries(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``client_stats`` entries of one document, without fio's "All clients" sum."""
    return [e for e in doc.get("client_stats") or [] if e.get("jobname") != ALL_CLIENTS]


def client_problem(text: str) -> str | None:
    """The client's own lines saying the server was lost or never reached, joined; None if none."""
    lines = [ln.strip() for ln in text.splitlines()
             if not ln.startswith(("<", " ", "{", "}")) and any(p in ln for p in _PROBLEMS)]
    return "; ".join(dict.fromkeys(lines)) or None


class ServerLost(FioParseError):
    """The client lost (or never had) its server: what it printed is in ``problem``."""

    def __init__(self, problem: str, hosts: str | None = None):
        where = f" at {hosts}" if hosts else ""
        super().__init__(f"the connection to the fio server{where} was lost ({problem})")
        self.problem, self.hosts = problem, hosts


def parse_remote_final(text: str, source: str | None = None) -> list[dict[str, Any]]:
    """The result of one remote trial: the last ``client_stats`` entry (one host). Raises
    ServerLost when the client lost its server (its interim entries are no result), FioParseError
    (a one-line reason) when the output holds no entry or the job failed on the server."""
    problem = client_problem(text)
    if problem:
        raise ServerLost(problem)
    docs = split_documents(text)
    entries = client_entries(docs[-1]) if docs else []
    if not entries:
        raise FioParseError("no fio client result found (the server ran no job: "
                            + (server_errors(text) or "no message") + ")")
    if entries[-1].get("error"):
        raise FioParseError(f"the fio job on the server failed: {server_errors(text) or 'no message'}")
    found = parse_fio_document({**docs[-1], "client_stats": [entries[-1]]}, source)
    return [with_runtime_rates(m, entries[-1]) for m in found]   # the same I/Os over the same time


def server_errors(text: str) -> str:
    errors = [ln.split(">", 1)[1].strip() for ln in text.splitlines()
              if ln.startswith("<") and ("fio:" in ln or "Bad option" in ln or "error" in ln)]
    return "; ".join(errors[-3:])


class RemoteFioLive:
    """Live adapter of one remote trial (:class:`app.engines.base.LiveAdapter`).

    ``direction`` is "read" or "write" for a one-direction workload, None for a mixed one, whose
    live total cannot be split without guessing: it gets no live samples."""

    replaces_live_series = True
    feed_every_s: float | None = None   # the client's steady-state lines are the clock

    def __init__(self, direction: str | None, clock: Callable[[], float] = time.time):
        self.direction = direction
        self._clock = clock
        self._buffer = ""

    def feed(self, text: str) -> list[Interval]:
        return [self.interval(ms, iops, bw) for _, ms, iops, bw in self.steady_lines(text)]

    def steady_lines(self, text: str) -> list[tuple[str, int, int, int]]:
        """(source, ms, iops, B/s) of each complete steady-state line; ``source`` is the line's
        ``<server> steadystate PID ... thread: N`` part, which tells servers apart."""
        self._buffer += text
        *lines, self._buffer = self._buffer.split("\n")
        out = []
        for line in lines:
            found = _STEADY.search(line)
            if found is None or self.direction is None:
                continue
            ms, iops, bw = (int(x) for x in found.groups())
            if ms > 0:
                out.append((line[:found.start()] + found.group(0).split(",")[0], ms, iops, bw))
        return out

    def interval(self, ms: float, iops: float, bw: float) -> Interval:
        mbps, rate = bw / MB, float(iops)
        read, write = self.direction == "read", self.direction == "write"
        return Interval(end_epoch_s=None, duration_s=ms / 1000.0,
                        read_MBps=mbps if read else 0.0, read_iops=rate if read else 0.0, read_lat_us=None,
                        write_MBps=mbps if write else 0.0, write_iops=rate if write else 0.0,
                        write_lat_us=None)

    def final_intervals(self, text: str) -> list[Interval] | None:
        """The per-interval series from the interim ``client_stats`` entries, ending now (the
        client has just exited): entry *i* ended (final runtime - runtime_i) before now."""
        docs = split_documents(text)
        entries = client_entries(docs[-1]) if docs else []
        return series_ending_now([[e] for e in entries], self._clock())


def series_ending_now(steps: list[list[dict[str, Any]]], now: float) -> list[Interval] | None:
    """The per-interval series of cumulative ``client_stats`` steps (each a list of entries run
    together: one per host), ending ``now``: step *i* ended (final runtime - runtime_i) before."""
    if len(steps) < 2:
        return None
    last_ms = runtime_ms(steps[-1])
    splitter, out = IntervalSplitter(), []
    for step in steps:
        interval = splitter.update({"jobs": step})
        if interval is not None:
            end = now - max(0.0, last_ms - runtime_ms(step)) / 1000.0
            out.append(replace(interval, end_epoch_s=end))
    return out or None


def runtime_ms(entries: list[dict[str, Any]]) -> float:
    return max(float((e.get(d) or {}).get("runtime") or 0) for e in entries for d in ("read", "write"))


def parse_banner(text: str) -> dict[str, Any] | None:
    """The server's answer to a client (printed with ``--output-format`` including normal):
    ``hostname=vm, be=0, 64-bit, os=Linux, arch=x86-64, fio=fio-3.33, flags=1``."""
    found = _BANNER.search(text)
    return {k: v.strip() for k, v in found.groupdict().items()} if found else None


def probe_answers(text: str) -> list[tuple[int, int]]:
    """(errno, bytes read) of each probe job, in job-file order."""
    docs = split_documents(text)
    entries = client_entries(docs[-1]) if docs else []
    return [(int(e.get("error") or 0), int((e.get("read") or {}).get("io_bytes") or 0)) for e in entries]


def probe_devices(text: str) -> list[str]:
    """Block devices fio saw under the probed paths (``disk_util``, Linux servers only): empty
    when the folder is not on a block device fio can name (tmpfs, NFS, overlay, btrfs...)."""
    docs = split_documents(text)
    names = [d.get("name") for d in (docs[-1].get("disk_util") or []) if d.get("name")] if docs else []
    return list(dict.fromkeys(names))
