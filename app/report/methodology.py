"""The report's Methodology section, said once for the whole run (docs/report.md): the test
system, how every number was made (repetitions, order, direct I/O, latency kind, units, the
engine's command line) and the preconditioning most experiments share. What differs per
experiment is said in that experiment's Setup (app/report/experiment_section.py).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from app.experiments.registry import experiment_of
from app.model.info import Drive, Host, RunInfo, Target
from app.report.document import Bullets, DocTable, Paragraph, Section
from app.report.interpretation.method import SHUFFLE_WHY
from app.report.precondition_note import precondition_sentence
from app.report.shown_path import shown_path
from app.results.figure import LATENCY_KINDS
from app.results.plausibility_notes import method_lines
from app.results.run_results import RunResults
from app.text.markup import literal
from app.units import human_bytes


def _v(value: object) -> str:
    return "not recorded" if value in (None, "") else str(value)


def _words(*values: object, sep: str = " ") -> str | None:
    return sep.join(str(x) for x in values if x) or None


def environment_table(info: RunInfo, number: str = "") -> DocTable:
    """Host, OS, drive, link, file system, target folder and engine."""
    host, drive = info.host or Host(), info.drive or Drive()
    engine, target = info.engine, info.target
    cpu = host.cpu
    if cpu and host.cpu_cores_logical:
        cpu += f" ({host.cpu_cores_physical} cores, {host.cpu_cores_logical} threads)"
    size = drive.capacity_bytes or drive.total_bytes
    items = [("Host", host.hostname), ("OS and kernel", _words(host.os, host.os_release)),
             ("CPU", cpu),
             ("RAM", human_bytes(host.ram_bytes) if host.ram_bytes else None),
             ("Drive model", _models(drive) or ("unknown model" if info.drive else None)),
             ("Firmware", drive.firmware),
             ("Interface and link", _words(drive.bus or drive.interface, drive.link_text, sep=" / ")),
             ("Drive capacity" if drive.capacity_bytes else "Volume size",
              f"{size / 1e9:,.0f} GB ({human_bytes(size)})" if size else None),
             ("Device", drive.device), ("File system", drive.fstype),
             ("Target folder", _folder(target) if target else None),
             ("Engine", (engine.version or engine.name) if engine else None),
             ("SSD Profiler", info.app_version)]
    return DocTable(number, "Test system", ("Item", "Value"),
                    tuple((k, literal(_v(v))) for k, v in items), (False, False))


def _folder(target: Target) -> str | None:
    """The target folder; on a remote run, on which fio server(s)."""
    if not target.remote:
        return shown_path(target.folder)
    where = ", ".join(f"{h.host}:{h.port}" for h in target.remote.every_host)
    return f"{target.folder} on {where} (fio --server)"


def _models(drive: Drive) -> str | None:
    """The drive's model; with several remote hosts, each host's (or why it is unknown)."""
    if not drive.hosts:
        return drive.model
    return "; ".join(f"{h.model or 'unknown model'} ({h.remote or 'host'})"
                     for h in drive.hosts)


def _data_pattern(argv: Sequence[str]) -> str:
    parts = []
    if "--refill_buffers" in argv:
        parts.append("incompressible data refilled for every I/O (`--refill_buffers`)")
    if "--randrepeat=0" in argv:
        parts.append("random offsets not repeated between runs (`--randrepeat=0`)")
    if "--norandommap" in argv:
        parts.append("`--norandommap`")
    return ", ".join(parts) or "engine default"


def common_precondition(results: RunResults) -> str:
    """The preconditioning sentence most experiments share ('' when none has one): said once in
    the methodology; an experiment with another says its own in its Setup."""
    said = Counter(s for p in results.parts if (s := precondition_sentence(p.entry)))
    return said.most_common(1)[0][0] if said else ""


def engine_line(results: RunResults) -> str | None:
    """The engine's options as the first trial ran them (workload, path, runtime and size left
    out: they differ per experiment and are in each Setup)."""
    argv = next((t.job_argv or t.argv for t in results.run.trials if t.argv), None)
    if argv is None:
        return None
    skip = ("--name=", "--filename=", "--trigger-file=", "--rw=", "--bs=", "--iodepth=",
            "--numjobs=", "--rwmixread=", "--runtime=", "--size=")
    opts = " ".join(str(a) for a in argv[1:] if not str(a).startswith(skip))
    engine = results.run.info.engine
    name = (engine.version or engine.name) if engine else None
    return (f"Engine options ({literal(name or 'engine')}, as the first trial ran them; the "
            "workload, runtime and size of each experiment are in its Setup): "
            f"`{literal(opts)}`.")


def shared_cpu_line(info: RunInfo) -> str | None:
    """That the app shared the CPU with its run, and how much (run.json's host block)."""
    host = info.host
    if host is None or host.app_cpu_s is None or not host.app_trials_s or (info.target and info.target.remote):
        return None
    quiet = ", its threads below the engine's scheduling priority" if host.app_below_engine else ""
    return (f"The app ran beside the engine on the same {host.cpu_cores_logical or 'unknown number of'} "
            f"logical cores{quiet}: it used {host.app_cpu_s:.2f} s of CPU during the trials' "
            f"{host.app_trials_s:,.0f} s ({100 * host.app_cpu_s / host.app_trials_s:.2f} % of one core).")


def methodology_section(results: RunResults, number: str) -> Section:
    run, info = results.run, results.run.info
    argv = next((t.job_argv or t.argv for t in run.trials if t.argv), ())  # job_argv: remote
    kind = results.lat_kind
    readable = [exp for e in run.experiments if (exp := experiment_of(e)) is not None]
    shuffled = any(exp.randomize for exp in readable)
    order = (f"randomized within each repetition round, seed {info.seed}"
             if shuffled and info.seed is not None else
             "plan order (not randomized)" if readable else "not recorded")
    lines = [
        "Each table cell and summary value is the mean ± sample standard deviation (n − 1) over "
        "the finished measured repetitions, with n stated; each experiment's Setup says how "
        "many it ran. Error bars in the figures are ± one sample std, drawn in full: one "
        "reaching below zero says the spread is as large as the mean. Means carry 3 "
        "significant digits and the ± the same decimal place; I/O counts are whole numbers.",
        "Warm-up trials, failed and cancelled trials are never counted.",
        f"Trial order: {order}.",
        f"Data pattern: {_data_pattern(argv)}.",
        f"Latency: {LATENCY_KINDS.get(kind, 'kind not recorded') if kind else 'kind not recorded'} "
        f"({'submission to completion, fio lat_ns' if kind == 'total' else 'fio clat'}); "
        "percentiles are of the same kind as the mean.",
        "Units: MB/s = 10⁶ B/s (as vendors quote; fio's own bw is KiB/s), GB = 10⁹ B, "
        "KiB = 1024 B, µs = microseconds, ms = milliseconds.",
        "Test files live in a folder on the drive (file-level test through the file system), "
        "not on the raw device: a student's drive holds the operating system and its data, and "
        "writing to the raw device would destroy them; the file system's share of each number "
        "is the price (Limitations).", SHUFFLE_WHY]
    common = common_precondition(results)
    if common:
        lines.append(f"{common} This holds for every experiment whose Setup does not say "
                     "otherwise.")
    engine = engine_line(results)
    if engine:
        lines.append(engine)
    if shared := shared_cpu_line(info):
        lines.append(shared)
    lines += [line.removeprefix("- ") for line in method_lines(info)]
    return Section(f"{number}. System set-up", (
        Paragraph("The test system, and how every number in this report was measured; what "
                  "differs per experiment is in its Method and Setup."),
        environment_table(info, f"{number}.1"), Bullets(tuple(lines))), anchor="methodology")
