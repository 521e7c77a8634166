"""report.md: the typed report document (app/report/document_build.py) written as Markdown.

Numbered tables are pipe tables under a bold "Table N.k: caption" line, numbered figures an
image under "Figure N.k: title" with the caption and links to the PNG and SVG; notes under a
table are a list. Nothing here decides content: the HTML writer says the same.

Every text is written through app/text/markup.py: the app's two marks are Markdown, the rest
is shown as it is (no link, image, tag or heading from a run folder's strings); the only links
are the export's own files.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from app.model.info import RunInfo
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
from app.report.document_build import build_document
from app.report.methodology import environment_table
from app.results.figure import Figure
from app.results.run_results import RunResults
from app.results.table import Table
from app.specs.comparison import VendorComparison
from app.text.markup import export_href, md_inline, md_text

Files = Mapping[str, tuple[str, str]]


def _cell(text: str) -> str:
    return md_inline(text, table=True)


def _link(path: str, text: str | None = None) -> str:
    """A link to a file of the export; a name that is not one is written as text."""
    href = export_href(path)
    shown = md_text(path if text is None else text)
    return f"[{shown}]({href})" if href else shown


def table_lines(t: DocTable) -> list[str]:
    lines = [md_inline(f"**Table {t.number}: {t.caption}**" if t.number else f"**{t.caption}**"),
             ""]
    if not t.rows:
        lines += [md_inline(t.empty), ""]
    else:
        numeric = t.numeric or (False,) * len(t.header)
        lines.append("| " + " | ".join(_cell(h) for h in t.header) + " |")
        lines.append("|" + "|".join("---:" if right and i else ":---"
                                    for i, right in enumerate(numeric)) + "|")
        lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in t.rows]
        lines.append("")
    if t.notes:
        lines += [f"- {md_inline(n)}" for n in t.notes] + [""]
    return lines


def figure_lines(f: DocFigure) -> list[str]:
    head = f"Figure {f.number}: {f.title}"
    png = export_href(f.png) if f.png is not None else None
    if png is None or f.png is None:
        return [f"*{md_inline(head, block=False)} was not drawn: "
                f"{md_inline(f.missing or 'not drawn', block=False)}.*", ""]
    links = _link(f.png, "PNG") + (f" · {_link(f.svg, 'SVG')}" if f.svg else "")
    caption = f"**{head}.** {f.caption + ' ' if f.caption else ''}"
    return [f"![{md_text(head)}]({png})", "", md_inline(caption) + links, ""]


def block_lines(block: Block | Section) -> list[str]:
    if isinstance(block, Section):
        out = [f"{'#' * block.level} {md_inline(block.title, block=False)}", ""]
        for b in block.blocks:
            out += block_lines(b)
        return out
    if isinstance(block, Paragraph):
        return [md_inline(block.text), ""]
    if isinstance(block, Bullets):
        head = [md_inline(f"**{block.label}**"), ""] if block.label else []
        return head + [f"- {md_inline(item)}" for item in block.items] + [""]
    if isinstance(block, FileList):
        return [f"- {md_inline(text)}" + " · ".join(_link(f) for f in files)
                for text, files in block.items] + [""]
    if isinstance(block, DocTable):
        return table_lines(block)
    return figure_lines(block)


def document_markdown(doc: Document) -> str:
    lines = [f"# {md_inline(doc.title, block=False)}", ""]
    for block in (*doc.preamble, *doc.sections):
        lines += block_lines(block)
    return "\n".join(lines).rstrip("\n") + "\n"


def environment(info: RunInfo) -> list[str]:
    """The test-system table as Markdown lines (the Methodology section's first table)."""
    return table_lines(environment_table(info))


def report_markdown(results: RunResults, tables: Sequence[Table], table_files: Files,
                    figures: Sequence[Figure], drawn: Files, problems: Mapping[str, str],
                    comparison: VendorComparison | None, vendor_hint: str = "",
                    notes: Iterable[str] = ()) -> str:
    return document_markdown(build_document(results, tables, table_files, figures, drawn,
                                            problems, comparison, vendor_hint, notes))
