"""The plausibility flags (app/stats/plausibility.py) where a reader meets the numbers: a note under
the experiment's first table, a labelled "link ceiling" line and a caption sentence on its
throughput figures, one finding sentence, and a methodology line in report.md.

One generic step after the experiment modules have built their outputs (called from
app/report/outputs.py and app/report/markdown.py), so no experiment needs to know about it.
Runs without a ``plausibility`` record (made before it existed, or imported) are returned
unchanged. The ceiling line is drawn on an MB/s axis when its highest value reaches
``DRAW_FROM`` of the ceiling (or passes it): a line twenty times above 4 KiB QD1 bars would
squash them to slivers, so there the caption states the ceiling instead.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from app.model.info import Link, RunInfo
from app.paths.direct_io import method_text
from app.results.figure import Figure, HLine
from app.results.run_results import ExperimentResults, RunResults
from app.results.table import Table
from app.stats.plausibility import Flag, check, limits

DRAW_FROM = 0.25
CEILING_COLOR = 3      # reddish purple: apart from black level lines and the read/write colours
CACHE = "a cache or RAM was measured, not the drive"


def _by_experiment(info: RunInfo, parts: Iterable[ExperimentResults]) -> dict[str, list[Flag]]:
    out: dict[str, list[Flag]] = {}
    for flag in check(info, parts):
        out.setdefault(flag.experiment, []).append(flag)
    return out


def _link_words(link: Link | None, ceiling: float | None) -> str:
    return f"{link.text or link.kind}, at most {ceiling:,.0f} MB/s" if link and ceiling else ""


def flag_notes(flags: list[Flag], link: Link | None, ceiling: float | None) -> list[str]:
    """The lines under a table: each workload beyond the link or under the floor, by name."""
    out = []
    fast = [f for f in flags if f.kind == "link"]
    if fast:
        items = "; ".join(f"{_name(f)} {f.value:,.1f} MB/s" for f in fast)
        out.append(f"Faster than the link ({_link_words(link, ceiling)}): {items}: {CACHE}.")
    quick = [f for f in flags if f.kind == "floor"]
    if quick:
        items = "; ".join(f"{_name(f)} {f.what} {f.value:,.2f} µs (floor "
                          f"{f.limit:,.2f} µs)" for f in quick)
        out.append(f"Faster than any drive can answer (the latency floor, plus the transfer time "
                   f"over the link where it is known): {items}: {CACHE}.")
    return out


def flag_tables(tables: list[Table], results: RunResults) -> list[Table]:
    """Tables with the flag notes first under each flagged experiment's first table."""
    info = results.run.info
    found = limits(info)
    if found is None:
        return tables
    flagged = _by_experiment(info, results.parts)
    if not flagged:
        return tables
    out, done = [], set()
    for table in tables:
        flags = flagged.get(table.experiment)
        if flags and table.experiment not in done:
            done.add(table.experiment)
            table = replace(table, notes=(*flag_notes(flags, found[0], found[1]), *table.notes))
        out.append(table)
    return out


def flag_figures(figures: list[Figure], results: RunResults) -> list[Figure]:
    """Figures with the link ceiling drawn on MB/s axes and a caption sentence on each figure
    of an experiment with flags."""
    info = results.run.info
    found = limits(info)
    if found is None:
        return figures
    link, ceiling, _ = found
    flagged = _by_experiment(info, results.parts)
    out = []
    for fig in figures:
        words = []
        if ceiling and link:
            fig, drawn, top = _with_ceiling(fig, link, ceiling)
            if drawn:
                words.append(f"The dash-dot 'link ceiling' line is the most the negotiated link "
                             f"({_link_words(link, ceiling)}) carries; nothing measured through "
                             "it can be higher.")
            elif top is not None:
                words.append(f"The link's ceiling ({_link_words(link, ceiling)}) is far above "
                             "these values and not drawn.")
        flags = flagged.get(fig.experiment) or []
        if flags:
            words.append(f"{_count(flags)} {'is' if len(_names(flags)) == 1 else 'are'} faster "
                         f"than {_what(flags)}: {CACHE} (see the table note).")
        if words:
            fig = replace(fig, caption=" ".join([fig.caption, *words]).strip())
        out.append(fig)
    return out


def _with_ceiling(fig: Figure, link: Link, ceiling: float) -> tuple[Figure, bool, float | None]:
    """(figure, line drawn?, highest value on an MB/s axis or None when it has none)."""
    if fig.panels:
        parts = [_with_ceiling(p, link, ceiling) for p in fig.panels]
        tops = [t for _, _, t in parts if t is not None]
        return (replace(fig, panels=tuple(p for p, _, _ in parts)), any(d for _, d, _ in parts),
                max(tops) if tops else None)
    lines, tops = list(fig.hlines), []
    for side, axis in (("left", fig.y_axis), ("right", fig.y2_axis)):
        if axis is None or "MB/s" not in axis.label:
            continue
        values = [y for s in fig.series if s.axis == side for y in s.y if y is not None]
        if not values:
            continue
        tops.append(max(values))
        if max(values) >= DRAW_FROM * ceiling:
            lines.append(HLine(ceiling, f"link ceiling ({link.text or link.kind}): "
                                        f"{ceiling:,.0f} MB/s", axis=side, color=CEILING_COLOR))
    drawn = len(lines) > len(fig.hlines)
    return (replace(fig, hlines=tuple(lines)) if drawn else fig), drawn, (max(tops) if tops else None)


def _name(flag: Flag) -> str:
    """'SEQ128K Q1T1 read' (labels of one-direction workloads name it), 'RND4K Q8T1 mix70 write'."""
    return flag.label if flag.label.endswith(flag.direction) else f"{flag.label} {flag.direction}"


def _names(flags: list[Flag]) -> list[str]:
    return sorted({f.label for f in flags})


def _count(flags: list[Flag]) -> str:
    names = _names(flags)
    return names[0] if len(names) == 1 else f"{len(names)} workloads"


def _what(flags: list[Flag]) -> str:
    kinds = {f.kind for f in flags}
    return " or ".join(w for k, w in (("link", "the link"), ("floor", "any drive can answer"))
                        if k in kinds)


def sentences(part: ExperimentResults, info: RunInfo) -> list[str]:
    """The finding sentence of one experiment ([] when nothing is flagged)."""
    flags = _by_experiment(info, (part,)).get(part.id) or []
    if not flags:
        return []
    return [f"{_count(flags)} {'is' if len(_names(flags)) == 1 else 'are'} faster than "
            f"{_what(flags)}: {CACHE}; the table note names each value."]


def method_lines(info: RunInfo) -> list[str]:
    """report.md methodology: what each result was checked against, and the I/O mode in effect."""
    out = []
    found = limits(info)
    if found is not None and info.plausibility is not None:
        link, ceiling, floor = found
        if link:
            what = [f"MB/s against the negotiated link's ceiling ({_link_words(link, ceiling)} "
                    f"per direction, read from {link.source})"]
        else:
            why = info.plausibility.link_reason or "the link is not known"
            out.append(f"- No link ceiling: {why}, so MB/s is not checked against one.")
            what = []
        if floor:
            what.append(f"mean and median latency against a floor no drive beats ({floor:g} µs"
                        + (" plus the block's transfer time over the link)" if link else ")"))
        if what:
            out.append(f"- Plausibility: checked each workload's {', and its '.join(what)}; a "
                       "result beyond them is flagged under its table, in its figures and findings.")
    direct = method_text(info.direct_io.to_json() if info.direct_io is not None else None)
    return out + ([f"- {direct}"] if direct else [])
