"""A run's report as a typed :class:`Document` (docs/report.md), in the order a grader reads:

1. a summary table of key results, one row per experiment (the number to look for, ± and n);
2. one section per experiment (app/report/experiment_section.py);
3. the vendor comparison, the caveats of the whole run, the methodology (said once), and an
   index of the raw files.

Everything is read from the typed results (docs/architecture.md, "The one currency"); nothing
time-dependent is written, so exporting the same run twice gives the same report.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from app.experiments.registry import results_for
from app.model.status import RunStatus
from app.report.caveats import SPREAD_REMEDY, THIN_CUE, THIN_REMEDY, run_caveats
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
from app.report.methodology import common_precondition, methodology_section
from app.report.precision import precision_section
from app.results.figure import Figure
from app.results.findings import Headline
from app.results.run_results import ExperimentResults, RunResults
from app.results.table import Table
from app.text.markup import literal
from app.units import mean_pm
from app.vendor.comparison import VendorComparison


def headline(part: ExperimentResults, results: RunResults) -> Headline:
    """The experiment's own key result, else its first workload's IOPS."""
    found = results_for(part.id).headline(part, results) if part.workloads else None
    if found is not None:
        return found
    if not part.workloads:
        return Headline("no finished measured trial", "–", 0)
    row = part.workloads[0]
    return Headline(f"IOPS ({row.label})", mean_pm(row.total_iops.mean, row.total_iops.std), row.n)


def summary_table(results: RunResults, numbers: Mapping[str, int]) -> DocTable:
    rows = []
    for part in results.parts:
        h = headline(part, results)
        title = part.entry.title or getattr(results_for(part.id), "title", "") or part.id
        rows.append((f"{numbers[part.id]}", literal(title), h.what, h.value,
                     "–" if h.n is None else str(h.n)))
    return DocTable("1", "Key results, one row per experiment (mean ± sample std over n "
                    "repetitions; the sections give the evidence)",
                    ("Section", "Experiment", "Key result", "Value", "n"), tuple(rows),
                    (True, False, False, True, True))


def vendor_section(number: int, results: RunResults, comparison: VendorComparison | None,
                   tables: Sequence[Table], table_files: Files, figures: Sequence[Figure],
                   drawn: Files, problems: Mapping[str, str], vendor_hint: str,
                   said: Said) -> Section:
    info = results.run.info
    title = f"{number}. Vendor comparison"
    if not comparison:
        model = literal(info.drive.model if info.drive and info.drive.model else "unknown model")
        return Section(title, (Paragraph(
            f"No vendor spec for {model}: enter one (the drive's 'up to' figures with their "
            "source) in the window (Report > Enter/edit vendor spec...)"
            + (f" or in `{literal(vendor_hint)}`" if vendor_hint else "") + ", then export again."),),
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


def raw_files_section(number: int, doc_tables: Sequence[DocTable],
                      doc_figures: Sequence[DocFigure], folder: str | None) -> Section:
    items = [(f"Table {t.number} ({t.caption}): ", t.files) for t in doc_tables if t.files]
    items += [(f"Figure {f.number}: ", tuple(x for x in (f.png, f.svg) if x))
              for f in doc_figures if f.png]
    where = f" in the run folder `{literal(folder)}`" if folder else " in the run folder"
    items.append((f"Raw measurements{where}: `run.json` (every trial with the engine's numbers), "
                  "`trials.csv`, `samples.csv` (per-interval samples) and `raw/` (the engine's "
                  "own output of each trial).", ()))
    return Section(f"{number}. Raw files", (
        Paragraph("Tables as CSV (for tools) and Markdown, figures as PNG and SVG, in this "
                  "export folder:"), FileList(tuple(items))), anchor="raw-files")


def build_document(results: RunResults, tables: Sequence[Table], table_files: Files,
                   figures: Sequence[Figure], drawn: Files, problems: Mapping[str, str],
                   comparison: VendorComparison | None, vendor_hint: str = "",
                   notes: Iterable[str] = ()) -> Document:
    run, info = results.run, results.run.info
    folder = str(results.folder) if results.folder is not None else info.dir
    preamble: list[Block] = []
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
    numbers = {p.id: k for k, p in enumerate(results.parts, 2)}
    said = Said()
    common = common_precondition(results)
    sections = [Section("1. Summary", (summary_table(results, numbers),), anchor="summary")]
    sections += [experiment_section(p, numbers[p.id], results, tables, table_files, figures,
                                    drawn, problems, said, common) for p in results.parts]
    n = len(results.parts) + 2
    sections.append(vendor_section(n, results, comparison, tables, table_files, figures, drawn,
                                   problems, vendor_hint, said))
    precision = precision_section(results, n + 1)
    if precision is not None:
        sections.append(precision)
        n += 1
    remedies = [r for r, cue in ((THIN_REMEDY, THIN_CUE), (SPREAD_REMEDY, "Run-to-run spread"))
                if any(cue in x for x in said.sentences)]
    caveats = [c for c in run_caveats(results, problems, notes, comparison is not None, remedies)
               if said.first(c)]
    sections.append(Section(f"{n + 1}. Caveats of the whole run", (
        Bullets(tuple(caveats)) if caveats else Paragraph("None found."),), anchor="caveats"))
    sections.append(methodology_section(results, str(n + 2)))
    doc = Document(f"SSD Profiler report: {_drive_name(results)}", tuple(sections),
                   tuple(preamble))
    return Document(doc.title, (*doc.sections, raw_files_section(
        n + 3, doc.tables(), doc.figures(), folder)), doc.preamble)


def _drive_name(results: RunResults) -> str:
    drive = results.run.info.drive
    what = (drive.model if drive else None) or (
        f"{drive.bus} disk" if drive and drive.bus else "unknown drive")
    return literal(f"{what}, {', '.join(p.id for p in results.parts) or 'empty run'}")
