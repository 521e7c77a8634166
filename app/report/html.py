"""report.html: the typed report document (app/report/document.py) as one self-contained HTML
file, the file to hand in: every figure is embedded (its SVG as a ``data:`` image when given, else its PNG as a
``data:`` URI), the style sheet is inline, nothing is fetched, so it opens offline and survives
being mailed on its own. The PDF is printed from the same document (ui/render/pdf.py), its
figures named by file (``images="names"``) for the printer to place as vectors.

Text is escaped whole (app/text/markup.py): only the app's ```code``` and ``**bold**`` marks
become tags, and the only ``href`` is a file of the export the app links itself (its
:class:`FileList`), checked by ``export_href``; a ``src`` is a ``data:`` image the app embeds or,
for the printer, a figure's file name. The <title> is plain text.
"""
from __future__ import annotations

import base64
import html
from collections.abc import Callable

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
from app.text import visible
from app.text.markup import export_href, plain_text
from app.text.markup import html_inline as inline

#: Reads an export file by its name (``figures/x.png``); None when it is not there.
Load = Callable[[str], bytes | None]

STYLE = """
body { font-family: sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em;
       line-height: 1.4; color: #111; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 90%; }
th, td { border: 1px solid #999; padding: 2px 6px; vertical-align: top; }
th { background: #eee; }
td.num { text-align: right; white-space: nowrap; }
figure { margin: 1em 0; }
figure img, figure svg { max-width: 100%; height: auto; }
figcaption, .caption { font-size: 90%; }
code { font-size: 90%; }
"""
#: For Qt's rich-text engine (the PDF): no page-wide box, tables the width of the text, cells
#: free to wrap (a "nowrap" number column would crush the label column to one letter).
PRINT_STYLE = """
body { font-family: sans-serif; font-size: 9pt; }
table { border-collapse: collapse; font-size: 7pt; }
th { background: #eee; }
figcaption, .caption { font-size: 8pt; }
code { font-size: 7pt; }
"""


def _link(path: str) -> str:
    """A link to a file of the export, named by its path; anything else is text."""
    href = export_href(path)
    shown = html.escape(visible(path), quote=True)
    return f'<a href="{html.escape(href, quote=True)}">{shown}</a>' if href else shown


def _file_list(block: FileList) -> list[str]:
    return ["<ul>" + "".join(f"<li>{inline(text)}" + " · ".join(_link(f) for f in files) + "</li>"
                             for text, files in block.items) + "</ul>"]


def _table(t: DocTable) -> list[str]:
    head = f"Table {t.number}: {t.caption}" if t.number else t.caption
    out = [f"<p class=\"caption\"><b>{inline(head)}</b></p>"]
    if not t.rows:
        return out + [f"<p>{inline(t.empty)}</p>"] + _notes(t.notes)
    numeric = t.numeric or (False,) * len(t.header)
    out.append('<table border="1" cellspacing="0" cellpadding="2" width="100%">')
    # a <thead>: the PDF repeats it at the top of every page the table continues on
    out.append("<thead><tr>" + "".join(f"<th>{inline(h)}</th>" for h in t.header)
               + "</tr></thead>")
    for row in t.rows:
        out.append("<tr>" + "".join(
            f'<td class="num" align="right">{inline(c)}</td>' if numeric[i] and i else
            f"<td>{inline(c)}</td>" for i, c in enumerate(row)) + "</tr>")
    return out + ["</table>"] + _notes(t.notes)


def _notes(notes: tuple[str, ...]) -> list[str]:
    return ["<ul>" + "".join(f"<li>{inline(n)}</li>" for n in notes) + "</ul>"] if notes else []


def _figure(f: DocFigure, load: Load, images: str, width: int) -> list[str]:
    head = f"Figure {f.number}: {f.title}"
    if f.png is None:
        return [f"<p><i>{inline(head)} was not drawn: {inline(f.missing or '')}.</i></p>"]
    if images == "names":  # the PDF printer places the files itself (ui/render/pdf.py)
        name = (f.svg or f.png) if export_href(f.svg or f.png) else ""
        picture = f'<img src="{html.escape(name, quote=True)}" width="{width}">'
        # plain blocks: Qt's rich text knows no <figure>, and after a list it would indent one
        return [f"<p>{picture}</p>",
                f"<p class=\"caption\"><b>{inline(head)}.</b> {inline(f.caption)}</p>"]
    svg = load(f.svg) if images == "svg" and f.svg else None
    if svg:  # as an image of its own: each SVG keeps its ids (clip paths) to itself
        picture = (f'<img src="data:image/svg+xml;base64,{base64.b64encode(svg).decode("ascii")}" '
                   f'alt="{html.escape(plain_text(head), quote=True)}">')
    else:
        png = load(f.png)
        if png is None:
            return [f"<p><i>{inline(head)}: its file {inline(f.png)} is missing.</i></p>"]
        picture = (f'<img src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}" '
                   f'alt="{html.escape(plain_text(head), quote=True)}" width="{width}">')
    return ["<figure>", picture,
            f"<figcaption><b>{inline(head)}.</b> {inline(f.caption)}</figcaption>", "</figure>"]


def _block(block: Block | Section, load: Load, images: str, width: int) -> list[str]:
    if isinstance(block, Section):
        level = min(block.level, 6)
        anchor = f' id="{html.escape(visible(block.anchor), quote=True)}"' if block.anchor else ""
        out = [f"<h{level}{anchor}>{inline(block.title)}</h{level}>"]
        for b in block.blocks:
            out += _block(b, load, images, width)
        return out
    if isinstance(block, Paragraph):
        return [f"<p>{inline(block.text)}</p>"]
    if isinstance(block, Bullets):
        head = [f"<p><b>{inline(block.label)}</b></p>"] if block.label else []
        return head + _notes(block.items)
    if isinstance(block, FileList):
        return _file_list(block)
    if isinstance(block, DocTable):
        return _table(block)
    return _figure(block, load, images, width)


def document_html(doc: Document, load: Load, images: str = "svg", width: int = 640) -> str:
    """The whole document; ``images`` "svg" embeds each figure's SVG (vector, the HTML file),
    "png" its PNG at ``width`` pixels, "names" only names its SVG file (the PDF's input: the
    printer places the figures as vectors) and uses the print style sheet."""
    lines = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             f"<title>{html.escape(plain_text(doc.title))}</title>",
             f"<style>{STYLE if images == 'svg' else PRINT_STYLE}</style>", "</head>",
             "<body>", f"<h1>{inline(doc.title)}</h1>"]
    for block in (*doc.preamble, *doc.sections):
        lines += _block(block, load, images, width)
    return "\n".join(lines + ["</body>", "</html>"]) + "\n"
