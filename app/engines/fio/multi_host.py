"""What one ``fio --client`` driving several servers prints, read (verified with fio 3.33
client and two servers on loopback ports).

- One client process runs every host: ``fio --client=A jobA <flags> --client=B jobB <flags>``.
  fio gives a ``--client`` only the job file right after it: with an option in between, the
  second server was sent the *first* host's job file (verified: it ran host 1's file name). A
  flag goes to the ``--client`` it follows; flags before the first ``--client`` stay local (no
  status interval, no debug lines reached a server). The trigger file stops every host.
- The final document's ``client_stats`` has one entry per host and status interval, each with
  the ``hostname`` and ``port`` it was given, interleaved in arrival order. The client's own
  "All clients" entry is made once, from the first entries that arrived (verified: two interim
  entries of one host added up), so it is never used: app/engines/fio/host_sum.py sums.
- Live: each server's steady-state line arrives prefixed with its host name and job PID; two
  servers on one machine share the host name, not the PID. A second's total is the sum of one
  line of each host.
- A server that dies: the client prints ``client: host=H disconnected``, carries on with the
  others, then exits 1. The lost host is the one whose entries stop early; H alone cannot tell
  two servers on one machine apart.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from app.engines.fio.host_sum import combine_hosts
from app.engines.fio.remote_result import (
    RemoteFioLive,
    ServerLost,
    client_entries,
    client_problem,
    series_ending_now,
    server_errors,
)
from app.engines.fio.result import FioParseError, parse_fio_document, split_documents
from app.engines.fio.steady import with_runtime_rates
from app.model.interval import Interval


def entry_address(entry: dict[str, Any]) -> str:
    host, port = str(entry.get("hostname") or ""), entry.get("port")
    host = f"[{host}]" if ":" in host else host
    return f"{host}:{port}" if port else host


def entries_by_host(text: str, addresses: Sequence[str]
                    ) -> tuple[dict[str, Any] | None, dict[str, list[dict[str, Any]]]]:
    """(last document, ``{address: [entry, ...]}``) for the expected ``addresses``, in order."""
    docs = split_documents(text)
    out: dict[str, list[dict[str, Any]]] = {a: [] for a in addresses}
    if not docs:
        return None, out
    for entry in client_entries(docs[-1]):
        address = entry_address(entry)
        if address not in out:  # a name the server resolved differently: match by port alone
            same_port = [a for a in addresses if a.rsplit(":", 1)[-1] == str(entry.get("port"))]
            address = same_port[0] if len(same_port) == 1 else address
        if address in out:
            out[address].append(entry)
    return docs[-1], out


def lost_hosts(by_host: dict[str, list[dict[str, Any]]]) -> list[str]:
    """The hosts whose entries stopped early (all of them when none did)."""
    most = max((len(v) for v in by_host.values()), default=0)
    early = [a for a, v in by_host.items() if len(v) < most]
    return early or list(by_host)


def parse_multi_final(text: str, addresses: Sequence[str], source: str | None = None) -> list[dict[str, Any]]:
    """One measurement for the trial: every host's final entry, combined (host_sum.py). Raises
    ServerLost naming the lost host(s), FioParseError (one line) when a host has no result or its
    job failed."""
    doc, by_host = entries_by_host(text, addresses)
    problem = client_problem(text)
    if problem:
        raise ServerLost(problem, ", ".join(lost_hosts(by_host)))
    missing = [a for a, v in by_host.items() if not v]
    if doc is None or missing:
        raise FioParseError(f"no fio client result from {', '.join(missing or addresses)} (the "
                            f"server ran no job: {server_errors(text) or 'no message'})")
    failed = [a for a, v in by_host.items() if v[-1].get("error")]
    if failed:
        raise FioParseError(f"the fio job on {', '.join(failed)} failed: "
                            f"{server_errors(text) or 'no message'}")
    per_host = [(a, with_runtime_rates(parse_fio_document({**doc, "client_stats": [v[-1]]}, source)[0], v[-1]))
                for a, v in by_host.items()]
    return [combine_hosts(per_host)]


def pooled_steps(by_host: dict[str, list[dict[str, Any]]]) -> list[list[dict[str, Any]]]:
    """Step *i* holds each host's *i*-th cumulative entry (its final one in the last step), so the
    interval series is of all hosts together: summed throughput, latency over every I/O."""
    lists = [v for v in by_host.values() if v]
    if not lists:
        return []
    n = min(len(v) for v in lists)
    return [[v[i] if i < n - 1 else v[-1] for v in lists] for i in range(n)]


class MultiHostLive(RemoteFioLive):
    """Live adapter of one trial on several servers: one interval a second once every host has
    sent its line for it, the hosts' IOPS and B/s summed."""

    def __init__(self, direction: str | None, addresses: Sequence[str],
                 clock: Callable[[], float] = time.time):
        super().__init__(direction, clock)
        self.addresses = list(addresses)
        self._pending: dict[str, tuple[int, int, int]] = {}

    def feed(self, text: str) -> list[Interval]:
        out = []
        for source, ms, iops, bw in self.steady_lines(text):
            self._pending[source] = (ms, iops, bw)  # a host twice before the others: its newest
            if len(self._pending) >= len(self.addresses):
                values = list(self._pending.values())
                self._pending.clear()
                out.append(self.interval(sum(v[0] for v in values) / len(values),
                                         sum(v[1] for v in values), sum(v[2] for v in values)))
        return out

    def final_intervals(self, text: str) -> list[Interval] | None:
        _, by_host = entries_by_host(text, self.addresses)
        return series_ending_now(pooled_steps(by_host), self._clock())
