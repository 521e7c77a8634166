"""report.md: environment, methodology, per-experiment tables, figures and findings, the vendor
comparison and anomalies, written so a student can hand it in after reading it once.

Nothing time-dependent is written (no export time stamp): exporting the same run twice gives the
same report apart from figures that failed to draw.
"""
from __future__ import annotations

from app.experiments.registry import CATALOG
from app.model.status import RunStatus, TrialStatus
from app.report.outputs import findings
from app.results.figure import LATENCY_KINDS, lat_kind, main_side
from app.results.plausibility import method_lines
from app.results.run_results import ExperimentResults, RunResults
from app.results.table import params_text, to_markdown
from app.stats import analysis
from app.units import human_bytes

SPREAD_LIMIT = 0.10


def _v(value) -> str:
    return "not recorded" if value in (None, "") else str(value)


def environment(record: dict) -> list[str]:
    host, drive = record.get("host") or {}, record.get("drive") or {}
    engine, target = record.get("engine") or {}, record.get("target") or {}
    os_text = " ".join(str(host[k]) for k in ("os", "os_release") if host.get(k)) or None
    cpu = host.get("cpu")
    if cpu and host.get("cpu_cores_logical"):
        cpu += f" ({host.get('cpu_cores_physical')} cores, {host['cpu_cores_logical']} threads)"
    link_info = drive.get("link")
    link_text = link_info.get("text") if isinstance(link_info, dict) else link_info
    link = " / ".join(str(x) for x in (drive.get("bus") or drive.get("interface"), link_text)
                      if x) or None
    size = drive.get("capacity_bytes") or drive.get("total_bytes")
    items = [("Host", host.get("hostname")), ("OS", os_text), ("CPU", cpu),
             ("RAM", human_bytes(host["ram_bytes"]) if host.get("ram_bytes") else None),
             ("Drive model", _models(drive) or ("unknown model" if record.get("drive") else None)),
             ("Firmware", drive.get("firmware")), ("Interface and link", link),
             ("Drive capacity" if drive.get("capacity_bytes") else "Volume size",
              f"{size / 1e9:,.0f} GB ({human_bytes(size)})" if size else None),
             ("Device", drive.get("device")), ("File system", drive.get("fstype")),
             ("Target folder", _folder(target)),
             ("Engine", " ".join(str(x) for x in (engine.get("version") or engine.get("name"),
                                                  engine.get("path")) if x) or None),
             ("SSD Profiler", record.get("app_version"))]
    lines = ["## Environment", "", "| Item | Value |", "|---|---|"]
    lines += [f"| {k} | {_v(v)} |" for k, v in items]
    return lines + [""]


def _folder(target: dict) -> str | None:
    """The target folder; on a remote run, on which fio server(s) (issue 18)."""
    remote = target.get("remote")
    if not remote:
        return target.get("folder")
    hosts = remote.get("hosts") or [remote]
    where = ", ".join(f"{h['host']}:{h['port']}" for h in hosts)
    return f"{target['folder']} on {where} (fio --server)"


def _models(drive: dict) -> str | None:
    """The drive's model; with several remote hosts, each host's (or why it is unknown)."""
    hosts = drive.get("hosts")
    if not hosts:
        return drive.get("model")
    return "; ".join(f"{h.get('model') or 'unknown model'} ({h.get('remote') or 'host'})"
                     for h in hosts)


def _data_pattern(argv: list[str]) -> str:
    parts = []
    if "--refill_buffers" in argv:
        parts.append("incompressible data refilled for every I/O (`--refill_buffers`)")
    if "--randrepeat=0" in argv:
        parts.append("random offsets not repeated between runs (`--randrepeat=0`)")
    if "--norandommap" in argv:
        parts.append("`--norandommap`")
    return ", ".join(parts) or "engine default"


def methodology(record: dict, summary: dict) -> list[str]:
    trials = record.get("trials", [])
    argv = next((t.get("job_argv") or t["argv"] for t in trials if t.get("argv")), [])  # job_argv: remote
    kind = lat_kind(summary)
    lines = ["## Methodology", ""]
    for exp in record.get("experiments", []):
        if exp.get("params"):
            text = params_text(exp, CATALOG.get(exp["id"]))
            lines.append(f"- **{exp.get('title') or exp['id']}** (`{exp['id']}`): `{text}`")
    params = [e.get("params") or {} for e in record.get("experiments", [])]

    def values(key: str, show=lambda v: "on" if v else "off") -> str:
        found = sorted({p[key] for p in params if key in p})
        return ", ".join(show(v) for v in found) or "not recorded"
    shuffled = any(p.get("randomize") for p in params)
    order = (f"randomized within each repetition round, seed {record['seed']}"
             if shuffled and record.get("seed") is not None else
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
        f"- Latency: {LATENCY_KINDS.get(kind, 'kind not recorded')} "
        f"({'submission to completion, fio lat_ns' if kind == 'total' else 'fio clat'}); "
        "percentiles are of the same kind as the mean.",
        "- Units: MB/s = 10⁶ B/s (as vendors quote), GB = 10⁹ B, KiB = 1024 B, µs = microseconds, "
        "ms = milliseconds.",
        "- Test files live in a folder on the drive (file-level test through the file system), "
        "not on the raw device."]
    return lines + method_lines(record) + [""]


def experiment_section(part: ExperimentResults, results: RunResults, tables, table_files, figures,
                       drawn, problems) -> list[str]:
    eid = part.id
    lines = [f"## {part.params.get('title') or eid}", ""]
    mine = [t for t in tables if t.experiment == eid]
    for table in mine:
        lines.append(to_markdown(table, 3).rstrip("\n"))
        csv_path, md_path = table_files[table.id]
        lines += ["", f"Table files: [{csv_path}]({csv_path}) · [{md_path}]({md_path})", ""]
    for fig in (f for f in figures if f.experiment == eid):
        lines += _figure_lines(fig, drawn, problems)
    found = findings(part, results)
    if found:
        lines += ["**Findings**", ""] + [f"- {f}" for f in found] + [""]
    return lines


def _figure_lines(fig, drawn, problems) -> list[str]:
    if fig.id in drawn:
        png, svg = drawn[fig.id]
        out = [f"![{fig.title}]({png})", "", f"*{fig.title}.* [PNG]({png}) · [SVG]({svg})"
               + (f" {fig.caption}" if fig.caption else ""), ""]
    else:
        out = [f"*Figure {fig.id} ({fig.title}) was not drawn: {problems.get(fig.id)}.*", ""]
    return out


def vendor_section(record, comparison, tables, table_files, figures, drawn, problems,
                   vendor_hint: str) -> list[str]:
    lines = ["## Vendor comparison", ""]
    if not comparison:
        model = (record.get("drive") or {}).get("model") or "unknown model"
        return lines + [f"no vendor spec for {model}: enter one (the drive's 'up to' figures with "
                        f"their source) in the window (Report > Enter/edit vendor spec...) or in `{vendor_hint}`, "
                        "then export again.", ""]
    for table in (t for t in tables if t.experiment == "vendor"):
        lines.append(to_markdown(table, 3).rstrip("\n"))
        csv_path, md_path = table_files[table.id]
        lines += ["", f"Table files: [{csv_path}]({csv_path}) · [{md_path}]({md_path})", ""]
    for fig in (f for f in figures if f.experiment == "vendor"):
        lines += _figure_lines(fig, drawn, problems)
    spec = comparison["spec"]
    if spec.get("source_kind") in ("secondary", "review"):
        lines += [f"The spec record comes from a {spec['source_kind']} source; check it against "
                  "the vendor's page before quoting it.", ""]
    return lines


def anomalies(record: dict, summary: dict, problems: dict, notes=()) -> list[str]:
    out = list(notes)  # what the export had to leave out (e.g. a damaged samples.csv)
    for eid, part in summary.items():
        noisy = []
        for row in part.get("workloads", []):
            spreads = [(name, analysis.relative_spread(stat or {})) for name, stat in
                       (("IOPS", row.get("total_iops")),
                        ("mean latency", main_side(row).get("lat_us", {}).get("mean")))]
            spreads = [(name, cv) for name, cv in spreads if cv is not None and cv > SPREAD_LIMIT]
            if spreads:
                name, cv = max(spreads, key=lambda p: p[1])
                noisy.append(f"{row['label']} ({name} {cv:.0%}, n = {row['n']})")
        if noisy:
            out.append(f"{eid}: run-to-run spread (sample std / mean) above {SPREAD_LIMIT:.0%} "
                       f"for {len(noisy)} of {len(part['workloads'])} workloads: "
                       + "; ".join(noisy) + ". Longer runtimes or more repetitions narrow it.")
    trials = record.get("trials", [])
    for t in trials:
        if t.get("throttled"):
            out.append(f"Trial {t['index']} ({t['experiment']} {t['label']}, rep "
                       f"{t['repetition']}) was thermally throttled; its numbers are low.")
        if t.get("status") not in (TrialStatus.DONE, None):
            out.append(f"Trial {t['index']} ({t['experiment']} {t['label']}) {t['status']}"
                       + (f": {t['error']}" if t.get("error") else "") + "; it is not counted.")
    planned = len(record.get("planned_trials") or [])
    if planned and len(trials) + _skipped_by_design(record, summary) < planned:
        out.append(f"Only {len(trials)} of {planned} planned trials ran (run {record.get('status')}); "
                   "the tables show what finished.")
    for exp in record.get("experiments", []):
        if not (summary.get(exp["id"]) or {}).get("workloads"):
            out.append(f"{exp['id']}: no finished measured trial, so no table rows or figures.")
    out += [f"Figure {fid} was not drawn: {why}." for fid, why in problems.items()]
    return ["## Anomalies", ""] + ([f"- {a}" for a in out] or ["None found."]) + [""]


def report_markdown(results: RunResults, tables, table_files, figures, drawn, problems, comparison,
                    vendor_hint: str = "", notes=()) -> str:
    record, summary = dict(results.record), results.summary_json()
    ids = [e["id"] for e in record.get("experiments", [])]
    status = record.get("status")
    lines = [f"# SSD Profiler report: {', '.join(ids) or 'empty run'}", ""]
    if record.get("dir"):
        lines.append(f"Run folder: `{record['dir']}`  ")
    lines.append(f"Status: **{status}**; started {_v(record.get('started_at'))}, ended "
                 f"{_v(record.get('ended_at'))}.")
    if status in (RunStatus.CANCELLED, RunStatus.FAILED, RunStatus.RUNNING):
        lines.append(f"\n**This run is {status}: only finished trials are reported.**")
    if record.get("origin") == "import":
        lines.append("\nMade from imported engine output: host, drive and parameters are those "
                     "the files state.")
    lines.append("")
    lines += environment(record) + methodology(record, summary)
    for part in results.parts:
        lines += experiment_section(part, results, tables, table_files, figures, drawn, problems)
    lines += vendor_section(record, comparison, tables, table_files, figures, drawn, problems,
                            vendor_hint)
    lines += anomalies(record, summary, problems, notes)
    return "\n".join(lines).rstrip("\n") + "\n"


def _skipped_by_design(record: dict, summary: dict) -> int:
    """Planned trials a run leaves out on purpose once steady state holds: the steady-state
    experiment's remaining rounds, and the remaining precondition=steady rounds. Not anomalies."""
    planned, ran, skipped = record.get("planned_trials") or [], record.get("trials", []), 0
    for exp in record.get("experiments", []):
        eid, found = exp["id"], (summary.get(exp["id"]) or {}).get("findings") or {}
        if found.get("steady") is True:   # the steady-state experiment stopped at its round
            rounds_only = False
        elif (exp.get("precondition_result") or {}).get("steady_round"):
            rounds_only = True                # only its precondition rounds were cut short
        else:
            continue
        mine = [t for t in planned if t.get("experiment") == eid
                and (t.get("precondition") or not rounds_only)]
        done = [t for t in ran if t.get("experiment") == eid
                and (t.get("precondition") or not rounds_only)]
        skipped += max(0, len(mine) - len(done))
    return skipped
