"""A run's report as a typed :class:`Document` (docs/report.md), shaped as a lab report:

1. a title block (title, author, course, date: app/report/options.py), the Introduction and the
   System set-up (the test system and the method said once);
2. one section per experiment (app/report/experiment_section.py): purpose, method in prose,
   setup, results, findings, the interpretation (app/report/interpretation/), caveats;
3. the vendor comparison, the Discussion (the experiments checked against each other),
   Limitations, the Conclusion (key numbers), and the Appendix (pooled percentiles, I/O
   counts, the raw files). Without interpretation, the interpretation and Discussion are left out.

Everything is read from the typed results (docs/architecture.md, "The one currency"); nothing
time-dependent is written, so exporting the same run twice gives the same report.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from app.experiments.registry import results_for
from app.model.status import RunStatus
from app.report.caveats import SPREAD_REMEDY, THIN_CUE, THIN_REMEDY, run_caveats
from app.report.closing import conclusion, introduction, method_limits
from app.report.document import (
    Block,
    Bullets,
    DocFigure,
    DocTable,
    Document,
    FileList,
    Paragraph,
    Section,
)
from app.report.experiment_section import Files, Said, doc_figure, doc_table, experiment_section
from app.report.interpretation.by_experiment import interpretation
from app.report.interpretation.discussion import discussion
from app.report.interpretation.method import method_text
from app.report.methodology import common_precondition, methodology_section
from app.report.options import ReportOptions
from app.report.precision_section import precision_section
from app.report.shown_path import folder_name, shown_path
from app.results.figure import Figure
from app.results.findings import Headline
from app.results.run_results import ExperimentResults, RunResults
from app.results.table import Table
from app.specs.comparison import VendorComparison
from app.text.markup import literal
from app.units import mean_pm


def headline(part: ExperimentResults, results: RunResults) -> Headline:
    """The experiment's own key result, else its first workload's IOPS."""
    found = results_for(part.id).headline(part, results) if part.workloads else None
    if found is not None:
        return found
    if not part.workloads:
        return Headline("no finished measured trial", "–", 0)
    row = part.workloads[0]
    return Headline(f"IOPS ({row.label})", mean_pm(row.total_iops.mean, row.total_iops.std), row.n)


def vendor_section(number: int, results: RunResults, comparison: VendorComparison | None,
                   tables: Sequence[Table], table_files: Files, figures: Sequence[Figure],
                   drawn: Files, problems: Mapping[str, str], vendor_hint: str,
                   said: Said) -> Section:
    info = results.run.info
    title = f"{number}. Vendor comparison"
    if not comparison:
        model = (info.drive.model if info.drive else None) or "unknown model"
        return Section(title, (Paragraph(
            f"No vendor spec for {model}: enter one (the drive's 'up to' figures with their "
            "source) in the window (Report > Enter/edit vendor spec...)"
            + (f" or in `{vendor_hint}`" if vendor_hint else "") + ", then export again."),),
            anchor="vendor")
    blocks: list[Block | Section] = [
        doc_table(t, f"{number}.{k}", table_files.get(t.id, ()), said)
        for k, t in enumerate((t for t in tables if t.experiment == "vendor"), 1)]
    blocks += [doc_figure(f, f"{number}.{k}", drawn, problems, "")
               for k, f in enumerate((f for f in figures if f.experiment == "vendor"), 1)]
    kind = comparison.spec.source_kind
    if kind in ("secondary", "review"):
        blocks.append(Paragraph(f"The spec record comes from a {kind} source; check it against "
                                "the vendor's page before quoting it."))
    return Section(title, tuple(blocks), anchor="vendor")


def raw_files_section(doc_tables: Sequence[DocTable], doc_figures: Sequence[DocFigure],
                      folder: str | None) -> Section:
    items = [(f"Table {t.number} ({t.caption}): ", t.files) for t in doc_tables if t.files]
    items += [(f"Figure {f.number}: ", tuple(x for x in (f.png, f.svg) if x))
              for f in doc_figures if f.png]
    where = f" in the run folder `{literal(folder)}`" if folder else " in the run folder"
    items.append((f"Raw measurements{where}: `run.json` (every trial with the engine's numbers), "
                  "`trials.csv`, `samples.csv` (per-interval samples) and `raw/` (the engine's "
                  "own output of each trial).", ()))
    return Section("Raw files", (
        Paragraph("Tables as CSV (for tools) and Markdown, figures as PNG and SVG, in this "
                  "export folder:"), FileList(tuple(items))), level=3, anchor="raw-files")


def _preamble(results: RunResults, options: ReportOptions, folder: str | None) -> list[Block]:
    run, info = results.run, results.run.info
    date = options.date or (info.started_at or "")[:10] or "not recorded"
    who = [f"Author: {literal(options.author)}" if options.author else "",
           f"Course: {literal(options.course)}" if options.course else "", f"Date: {literal(date)}"]
    preamble: list[Block] = [Paragraph(" · ".join(w for w in who if w))]
    status = (f"Status: **{literal(run.status)}**; started "
              f"{literal(info.started_at or 'not recorded')}, ended "
              f"{literal(info.ended_at or 'not recorded')}.")
    preamble.append(Paragraph((f"Run folder: `{literal(folder)}`. " if folder else "") + status))
    if run.status == RunStatus.RUNNING:   # a reader cannot tell a run going on from a killed one
        preamble.append(Paragraph("**This run did not record its end: it is still going on, or it "
                                  "was interrupted (killed, a crash, a power cut); only finished "
                                  "trials are reported.**"))
    elif run.status in (RunStatus.CANCELLED, RunStatus.FAILED):
        preamble.append(Paragraph(f"**This run is {run.status}: only finished trials are "
                                  "reported.**"))
    if info.origin == "import":
        preamble.append(Paragraph("Made from imported engine output: host, drive and parameters "
                                  "are those the files state."))
    if not options.interpretation:
        preamble.append(Paragraph("Exported without the generated interpretation and discussion: "
                                  "the data, figures, method and checks only."))
    return preamble


def build_document(results: RunResults, tables: Sequence[Table], table_files: Files,
                   figures: Sequence[Figure], drawn: Files, problems: Mapping[str, str],
                   comparison: VendorComparison | None, vendor_hint: str = "",
                   notes: Iterable[str] = (), options: ReportOptions | None = None) -> Document:
    """Introduction and System set-up first, one section per experiment, the vendor
    comparison, Discussion, Limitations, Conclusion, then the Appendix (docs/report.md)."""
    options = (options or ReportOptions()).cleaned()
    folder = folder_name(results.folder if results.folder is not None else results.run.info.dir)
    numbers = {p.id: k for k, p in enumerate(results.parts, 3)}
    said, appendix = Said(), []  # type: ignore[var-annotated]
    common = common_precondition(results)
    sections = [introduction(results, 1), methodology_section(results, "2")]
    for p in results.parts:
        reading = ([literal(x) for x in interpretation(p.id, results)]  # labels are run data
                   if options.interpretation and p.workloads else None)
        sections.append(experiment_section(p, numbers[p.id], results, tables, table_files, figures,
                                           drawn, problems, said, common, appendix,
                                           method_text(p), reading))
    n = len(results.parts) + 3
    sections.append(vendor_section(n, results, comparison, tables, table_files, figures, drawn,
                                   problems, shown_path(vendor_hint) or "", said))
    precision = precision_section(results, n + 1)
    if precision is not None:
        sections.append(precision)
        n += 1
    if options.interpretation:
        checks = [c for x in discussion(results, comparison) if said.first(c := literal(x))]
        n += 1
        sections.append(Section(f"{n}. Discussion", (
            Paragraph("The experiments checked against each other: each check with its numbers "
                      "and whether it holds."), Bullets(tuple(checks)) if checks else
            Paragraph("No two experiments of this run measured quantities that can be checked "
                      "against each other.")), anchor="discussion"))
    remedies = [r for r, cue in ((THIN_REMEDY, THIN_CUE), (SPREAD_REMEDY, "Run-to-run spread"))
                if any(cue in x for x in said.sentences)]
    caveats = [c for c in run_caveats(results, problems, notes, comparison is not None, remedies)
               if said.first(c)] + method_limits(results)
    sections.append(Section(f"{n + 1}. Limitations", (Bullets(tuple(caveats)),), anchor="caveats"))
    sections.append(conclusion(results, n + 2, headline))
    doc = Document(literal(options.title) if options.title else
                   f"SSD performance profiling: {_drive_name(results)}",
                   tuple(sections), tuple(_preamble(results, options, folder)))
    return Document(doc.title, (*doc.sections, Section(f"{n + 3}. Appendix", (
        Section("Pooled percentiles and I/O counts", tuple(appendix) or (
            Paragraph("None: no experiment of this run pools percentiles."),), level=3),
        raw_files_section([*doc.tables(), *appendix], doc.figures(), folder)),
        anchor="appendix")), doc.preamble)


def _drive_name(results: RunResults) -> str:
    drive = results.run.info.drive
    return literal((drive.model if drive else None) or (
        f"{drive.bus} disk" if drive and drive.bus else "unknown drive"))
