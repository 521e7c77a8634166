"""The report as a typed document: sections of paragraphs, lists, numbered tables and numbered
figures (docs/report.md). One builder (app/report/document_build.py) decides what the report
says; the writers only serialize it: Markdown (app/report/markdown.py), one self-contained HTML
file (app/report/html.py), and from that HTML the PDF (ui/render/pdf.py). So report.md,
report.html and report.pdf say the same thing in the same order.

Text is plain with two inline marks both writers understand: ```code``` and ``**bold**``;
nothing else in it is markup, whatever a run folder's strings hold (app/text/markup.py: a
value put into a sentence goes through ``literal``). The report's only links are typed: the
files of its own export (:class:`FileList`, a figure's PNG and SVG), relative to report.md.
Table cells are already formatted strings (app/units.py chose their precision).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Bullets:
    items: tuple[str, ...]
    label: str = ""        # a bold lead-in line ("Findings"), "" for none


@dataclass(frozen=True)
class DocTable:
    """A numbered table: ``Table 2.1: caption``, a header, rows of formatted cells."""

    number: str            # "2.1"
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...] = ()   # right-aligned columns
    notes: tuple[str, ...] = ()
    files: tuple[str, ...] = ()      # the table's CSV and Markdown files in the export
    empty: str = "No finished trials."


@dataclass(frozen=True)
class DocFigure:
    """A numbered figure: its image files in the export, or why it was not drawn."""

    number: str            # "2.1"
    title: str
    caption: str
    png: str | None = None
    svg: str | None = None
    missing: str | None = None   # the reason it was not drawn


@dataclass(frozen=True)
class FileList:
    """A list whose items each link files of the export: ``(text, (file, ...))``, the text
    followed by a link per file, its name as the link's text."""

    items: tuple[tuple[str, tuple[str, ...]], ...]


Block = Paragraph | Bullets | DocTable | DocFigure | FileList


@dataclass(frozen=True)
class Section:
    title: str
    blocks: tuple[Block | Section, ...]
    level: int = 2
    anchor: str = ""


@dataclass(frozen=True)
class Document:
    title: str
    sections: tuple[Section, ...]
    preamble: tuple[Block, ...] = ()

    def figures(self) -> list[DocFigure]:
        """Every figure in reading order (the HTML and PDF embed each)."""
        return [b for b in _walk(self.sections) if isinstance(b, DocFigure)]

    def tables(self) -> list[DocTable]:
        return [b for b in _walk(self.sections) if isinstance(b, DocTable)]


def _walk(blocks: tuple[Block | Section, ...]) -> list[Block]:
    out: list[Block] = []
    for block in blocks:
        out += _walk(block.blocks) if isinstance(block, Section) else [block]
    return out
