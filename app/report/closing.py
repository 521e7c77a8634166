"""The report's frame around the experiments (docs/report.md): the Introduction (what was
measured and why), the Limitations (the run's caveats and the method's own limits) and the
Conclusion (the key numbers in a short list)."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from app.experiments.registry import experiment_of, results_for
from app.model.info import Drive
from app.report.document import Block, Bullets, Paragraph, Section
from app.results.findings import Headline
from app.results.run_results import RunResults
from app.text.markup import literal
from app.units import human_bytes

#: Why each experiment of the course is in the report, in one clause.
WHY = {
    "zero-queue": "the drive's own service time with one I/O in flight, the baseline every other "
                  "experiment is read against",
    "block-size": "where small-block IOPS turn into large-block bandwidth, and what limits each: "
                  "a per-command cost or a bandwidth ceiling",
    "rw-mix": "what writes cost against reads (program time, write buffering, garbage "
              "collection) and what mixing the two does",
    "queue-depth": "how much parallelism the drive has: the knee where IOPS stop rising, and "
                   "Little's Law to predict the latency beyond it",
    "tail-latency": "how the slowest I/Os grow from a mid queue depth to the knee",
    "slc-cache": "how much the fast SLC write cache holds and the write speed after it",
}


def drive_words(drive: Drive | None) -> str:
    if drive is None:
        return "an unidentified drive"
    size = drive.capacity_bytes or drive.total_bytes
    what = drive.model or (f"a {drive.bus} disk without a reported model" if drive.bus
                           else "a drive without a reported model")
    return literal(what) + (f" ({size / 1e9:,.0f} GB)" if size else "")


def introduction(results: RunResults, number: int) -> Section:
    info = results.run.info
    engine = literal(info.engine.version or info.engine.name if info.engine else "fio")
    lead = (f"This report profiles {drive_words(info.drive)} with {engine}, through a file "
            f"system, in {len(results.parts)} experiments. They vary one workload property at a "
            "time (queue depth, block size, access pattern, read/write balance, duration) to show "
            "how each sets the drive's latency and throughput; the results are read with "
            "queueing theory (Little's Law, L = λW) and, where a vendor specification is given, "
            "compared with it like for like.")
    items = []
    for part in results.parts:
        cls = results_for(part.id)
        title = part.entry.title or getattr(cls, "title", "") or part.id
        items.append(literal(f"{title}: {WHY.get(part.id) or getattr(cls, 'summary', '') or part.id}."))
    return Section(f"{number}. Introduction", (Paragraph(lead), Bullets(tuple(items))),
                   anchor="introduction")


def method_limits(results: RunResults) -> list[str]:
    """What the method itself cannot see, from this run's parameters."""
    out = []
    info = results.run.info
    fs = literal(info.drive.fstype) if info.drive and info.drive.fstype else "the file system"
    out.append(f"File-level test: the test files live on {fs}, so its allocation and metadata are "
               "part of every number; vendors measure the raw device, usually fresh and inside "
               "its SLC cache.")
    runtimes = [exp.runtime for p in results.parts if (exp := experiment_of(p.entry)) is not None]
    if runtimes and min(runtimes) < 10:
        out.append(f"Trials as short as {min(runtimes):g} s: rare slow I/Os and background work "
                   "(garbage collection) that need minutes to appear are under-sampled, and the "
                   "percentiles rest on fewer I/Os.")
    ns = sorted({r.n for p in results.parts for r in p.workloads   # by design: one long write
                 if p.id not in ("slc-cache", "steady-state", "write-saturation")})
    if ns and ns[0] < 3:
        out.append(f"As few as n = {ns[0]} repetitions per workload: Welch's t-test has little "
                   "power, so a difference called within the noise may still be real.")
    return out


def conclusion(results: RunResults, number: int,
               headline: Callable[..., Headline], extra: Sequence[str] = ()) -> Section:
    items = []
    for part in results.parts:
        h = headline(part, results)
        title = part.entry.title or getattr(results_for(part.id), "title", "") or part.id
        n = "" if h.n is None else f" (n = {h.n})"
        items.append(f"{literal(title)}: {h.what}, {h.value}{n}.")
    blocks: list[Block | Section] = [Paragraph("The key numbers of this run (mean ± sample std over n "
                              "repetitions; each section gives the evidence):"),
                    Bullets(tuple(items))]
    blocks += [Paragraph(x) for x in extra]
    return Section(f"{number}. Conclusion", tuple(blocks), anchor="conclusion")


def capacity_text(drive: Drive | None) -> str | None:
    size = (drive.capacity_bytes or drive.total_bytes) if drive else None
    return f"{size / 1e9:,.0f} GB ({human_bytes(size)})" if size else None
