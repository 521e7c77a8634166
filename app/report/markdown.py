"""report.md: environment, methodology, per-experiment tables, figures and findings, the vendor
comparison and anomalies, written so a student can hand it in after reading it once.

Everything is read from the typed results (docs/architecture.md, "The one currency"): the
workload rows of each experiment and the run's descriptive blocks (app/model/info.py). Nothing
time-dependent is written (no export time stamp): exporting the same run twice gives the same
report apart from figures that failed to draw.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.experiments.registry import CATALOG
from app.model.info import Drive, Host, RunInfo, Target
from app.model.status import RunStatus, TrialStatus
from app.model.summary import Stat
from app.report.outputs import finding, findings
from app.report.precision import precision_section
from app.results.figure import LATENCY_KINDS, Figure
from app.results.plausibility import method_lines
from app.results.run_results import ExperimentResults, RunResults
from app.results.table import Table, params_text, to_markdown
from app.stats import analysis
from app.units import human_bytes
from app.vendor.comparison import VendorComparison

SPREAD_LIMIT = 0.10
Files = Mapping[str, tuple[str, str]]


def _v(value: object) -> str:
    return "not recorded" if value in (None, "") else str(value)


def _words(*values: object, sep: str = " ") -> str | None:
    return sep.join(str(x) for x in values if x) or None


def environment(info: RunInfo) -> list[str]:
    host, drive = info.host or Host(), info.drive or Drive()
    engine, target = info.engine, info.target
    cpu = host.cpu
    if cpu and host.cpu_cores_logical:
        cpu += f" ({host.cpu_cores_physical} cores, {host.cpu_cores_logical} threads)"
    size = drive.capacity_bytes or drive.total_bytes
    items = [("Host", host.hostname), ("OS", _words(host.os, host.os_release)), ("CPU", cpu),
             ("RAM", human_bytes(host.ram_bytes) if host.ram_bytes else None),
             ("Drive model", _models(drive) or ("unknown model" if info.drive else None)),
             ("Firmware", drive.firmware),
             ("Interface and link", _words(drive.bus or drive.interface, drive.link_text, sep=" / ")),
             ("Drive capacity" if drive.capacity_bytes else "Volume size",
              f"{size / 1e9:,.0f} GB ({human_bytes(size)})" if size else None),
             ("Device", drive.device), ("File system", drive.fstype),
             ("Target folder", _folder(target) if target else None),
             ("Engine", _words(engine.version or engine.name, engine.path) if engine else None),
             ("SSD Profiler", info.app_version)]
    lines = ["## Environment", "", "| Item | Value |", "|---|---|"]
    lines += [f"| {k} | {_v(v)} |" for k, v in items]
    return lines + [""]


def _folder(target: Target) -> str | None:
    """The target folder; on a remote run, on which fio server(s)."""
    if not target.remote:
        return target.folder
    where = ", ".join(f"{h.host}:{h.port}" for h in target.remote.every_host)
    return f"{target.folder} on {where} (fio --server)"


def _models(drive: Drive) -> str | None:
    """The drive's model; with several remote hosts, each host's (or why it is unknown)."""
    if not drive.hosts:
        return drive.model
    return "; ".join(f"{h.model or 'unknown model'} ({h.remote or 'host'})"
                     for h in drive.hosts)


def _data_pattern(argv: list[str]) -> str:
    parts = []
    if "--refill_buffers" in argv:
        parts.append("incompressible data refilled for every I/O (`--refill_buffers`)")
    if "--randrepeat=0" in argv:
        parts.append("random offsets not repeated between runs (`--randrepeat=0`)")
    if "--norandommap" in argv:
        parts.append("`--norandommap`")
    return ", ".join(parts) or "engine default"


def methodology(results: RunResults) -> list[str]:
    run, info = results.run, results.run.info
    argv: list[str] = next((t.extra.get("job_argv") or t.extra["argv"] for t in run.trials
                 if t.extra.get("argv")), [])  # job_argv: remote
    kind = results.lat_kind
    lines = ["## Methodology", ""]
    for exp in run.experiments:
        if exp.get("params"):
            text = params_text(dict(exp), CATALOG.get(exp["id"]))
            lines.append(f"- **{exp.get('title') or exp['id']}** (`{exp['id']}`): `{text}`")
    params: list[Mapping[str, Any]] = [e.get("params") or {} for e in run.experiments]

    def values(key: str, show: Any = lambda v: "on" if v else "off") -> str:
        found = sorted({p[key] for p in params if key in p})
        return ", ".join(show(v) for v in found) or "not recorded"
    shuffled = any(p.get("randomize") for p in params)
    order = (f"randomized within each repetition round, seed {info.seed}"
             if shuffled and info.seed is not None else
             "plan order (not randomized)" if any(params) else "not recorded")
    lines += [
        f"- Repetitions per workload: {values('repetitions', str)}; "
        "each table cell is mean ± sample standard deviation (n − 1) over the finished "
        "repetitions, with n shown. Error bars in the figures are ± one sample std, drawn in "
        "full: one reaching below zero says the spread is as large as the mean.",
        f"- Warm-up trial per workload: {values('warmup')} (warm-up trials are never counted).",
        f"- Trial order: {order}.",
        f"- Direct I/O (bypassing the page cache): {values('direct')}.",
        f"- Ramp (time excluded before measuring): {values('ramp', lambda r: f'{r:g} s')}.",
        f"- Data pattern: {_data_pattern(argv)}.",
        f"- Latency: {LATENCY_KINDS.get(kind, 'kind not recorded') if kind else 'kind not recorded'} "
        f"({'submission to completion, fio lat_ns' if kind == 'total' else 'fio clat'}); "
        "percentiles are of the same kind as the mean.",
        "- Units: MB/s = 10⁶ B/s (as vendors quote), GB = 10⁹ B, KiB = 1024 B, µs = microseconds, "
        "ms = milliseconds.",
        "- Test files live in a folder on the drive (file-level test through the file system), "
        "not on the raw device."]
    return lines + method_lines(info) + [""]


def experiment_section(part: ExperimentResults, results: RunResults, tables: Sequence[Table],
                       table_files: Files, figures: Sequence[Figure], drawn: Files,
                       problems: Mapping[str, str]) -> list[str]:
    eid = part.id
    lines = [f"## {part.params.get('title') or eid}", ""]
    lines += _tables(eid, tables, table_files)
    for fig in (f for f in figures if f.experiment == eid):
        lines += _figure_lines(fig, drawn, problems)
    found = findings(part, results)
    if found:
        lines += ["**Findings**", ""] + [f"- {f}" for f in found] + [""]
    return lines


def _tables(eid: str, tables: Sequence[Table], table_files: Files) -> list[str]:
    lines = []
    for table in (t for t in tables if t.experiment == eid):
        lines.append(to_markdown(table, 3).rstrip("\n"))
        csv_path, md_path = table_files[table.id]
        lines += ["", f"Table files: [{csv_path}]({csv_path}) · [{md_path}]({md_path})", ""]
    return lines


def _figure_lines(fig: Figure, drawn: Files, problems: Mapping[str, str]) -> list[str]:
    if fig.id in drawn:
        png, svg = drawn[fig.id]
        out = [f"![{fig.title}]({png})", "", f"*{fig.title}.* [PNG]({png}) · [SVG]({svg})"
               + (f" {fig.caption}" if fig.caption else ""), ""]
    else:
        out = [f"*Figure {fig.id} ({fig.title}) was not drawn: {problems.get(fig.id)}.*", ""]
    return out


def vendor_section(info: RunInfo, comparison: VendorComparison | None, tables: Sequence[Table],
                   table_files: Files, figures: Sequence[Figure], drawn: Files,
                   problems: Mapping[str, str], vendor_hint: str) -> list[str]:
    lines = ["## Vendor comparison", ""]
    if not comparison:
        model = (info.drive.model if info.drive else None) or "unknown model"
        return lines + [f"no vendor spec for {model}: enter one (the drive's 'up to' figures with "
                        f"their source) in the window (Report > Enter/edit vendor spec...) or in `{vendor_hint}`, "
                        "then export again.", ""]
    lines += _tables("vendor", tables, table_files)
    for fig in (f for f in figures if f.experiment == "vendor"):
        lines += _figure_lines(fig, drawn, problems)
    kind = comparison.spec.get("source_kind")
    if kind in ("secondary", "review"):
        lines += [f"The spec record comes from a {kind} source; check it against "
                  "the vendor's page before quoting it.", ""]
    return lines


def _spread(stat: Stat | None) -> float | None:
    return analysis.relative_spread(stat.to_json()) if stat is not None else None


def anomalies(results: RunResults, problems: Mapping[str, str], notes: Iterable[str] = ()) -> list[str]:
    out = list(notes)  # what the export had to leave out (e.g. a damaged samples.csv)
    for part in results.parts:
        noisy = []
        for row in part.workloads:
            spreads = [(name, cv) for name, stat in (("IOPS", row.total_iops),
                                                     ("mean latency", row.lat("mean")))
                       if (cv := _spread(stat)) is not None and cv > SPREAD_LIMIT]
            if spreads:
                name, cv = max(spreads, key=lambda p: p[1])
                noisy.append(f"{row.label} ({name} {cv:.0%}, n = {row.n})")
        if noisy:
            out.append(f"{part.id}: run-to-run spread (sample std / mean) above {SPREAD_LIMIT:.0%} "
                       f"for {len(noisy)} of {len(part.workloads)} workloads: "
                       + "; ".join(noisy) + ". Longer runtimes or more repetitions narrow it.")
    run = results.run
    for t in run.trials:
        if t.extra.get("throttled"):
            out.append(f"Trial {t.index} ({t.experiment} {t.label}, rep "
                       f"{t.repetition}) was thermally throttled; its numbers are low.")
        if t.status is not TrialStatus.DONE:
            out.append(f"Trial {t.index} ({t.experiment} {t.label}) {t.status}"
                       + (f": {t.error}" if t.error else "") + "; it is not counted.")
    planned = len(run.info.planned_trials or ())
    if planned and len(run.trials) + _skipped_by_design(results) < planned:
        out.append(f"Only {len(run.trials)} of {planned} planned trials ran (run {run.status}); "
                   "the tables show what finished.")
    for part in results.parts:
        if not part.workloads:
            out.append(f"{part.id}: no finished measured trial, so no table rows or figures.")
    out += [f"Figure {fid} was not drawn: {why}." for fid, why in problems.items()]
    return ["## Anomalies", ""] + ([f"- {a}" for a in out] or ["None found."]) + [""]


def report_markdown(results: RunResults, tables: Sequence[Table], table_files: Files,
                    figures: Sequence[Figure], drawn: Files, problems: Mapping[str, str],
                    comparison: VendorComparison | None, vendor_hint: str = "",
                    notes: Iterable[str] = ()) -> str:
    run, info = results.run, results.run.info
    status = run.status
    folder = str(results.folder) if results.folder is not None else info.extra.get("dir")
    lines = [f"# SSD Profiler report: {', '.join(p.id for p in results.parts) or 'empty run'}", ""]
    if folder:
        lines.append(f"Run folder: `{folder}`  ")
    lines.append(f"Status: **{status}**; started {_v(info.started_at)}, ended "
                 f"{_v(info.ended_at)}.")
    if status in (RunStatus.CANCELLED, RunStatus.FAILED, RunStatus.RUNNING):
        lines.append(f"\n**This run is {status}: only finished trials are reported.**")
    if info.origin == "import":
        lines.append("\nMade from imported engine output: host, drive and parameters are those "
                     "the files state.")
    lines.append("")
    lines += environment(info) + methodology(results)
    for part in results.parts:
        lines += experiment_section(part, results, tables, table_files, figures, drawn, problems)
    lines += vendor_section(info, comparison, tables, table_files, figures, drawn, problems,
                            vendor_hint)
    lines += precision_section(results)  # empty for fixed-time runs
    lines += anomalies(results, problems, notes)
    return "\n".join(lines).rstrip("\n") + "\n"


def _skipped_by_design(results: RunResults) -> int:
    """Planned trials a run leaves out on purpose once steady state holds: the steady-state
    experiment's remaining rounds, and the remaining precondition=steady rounds. Not anomalies."""
    planned, ran, skipped = results.run.info.planned_trials or (), results.run.trials, 0
    for part in results.parts:
        if finding(part, "steady") is True:   # the steady-state experiment stopped at its round
            rounds_only = False
        elif (part.params.get("precondition_result") or {}).get("steady_round"):
            rounds_only = True                # only its precondition rounds were cut short
        else:
            continue
        mine = [t for t in planned if t.get("experiment") == part.id
                and (t.get("precondition") or not rounds_only)]
        done = [t for t in ran if t.experiment == part.id
                and (t.extra.get("precondition") or not rounds_only)]
        skipped += max(0, len(mine) - len(done))
    return skipped
