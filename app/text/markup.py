"""The report's inline text and how each writer escapes it (docs/report.md, "Text is data").

A document's text (app/report/document.py) is plain text with two marks the app writes:
```code``` and ``**bold**``. Nothing else in it is markup: a ``[text](url)``, a ``<tag>`` or a
leading ``#`` from a run folder is shown as the characters it is, in report.md, report.html and
report.pdf alike. The only links of a report are the ones the app makes to files of its own
export (:class:`app.report.document.FileList`, the figures), given as typed values and checked
by :func:`export_href`; text never becomes a link.

Where the app puts a value from a run folder into a sentence, :func:`literal` keeps its
backticks, asterisks and backslashes from reading as marks, so a model named ``A*B*`` is shown
so. Every text is also passed through :func:`app.text.visible` (control and bidirectional
characters shown as escapes, line breaks folded to spaces).
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from urllib.parse import quote

from app.text import visible


@dataclass(frozen=True)
class Span:
    text: str
    code: bool = False
    bold: bool = False


def literal(value: object) -> str:
    """A value from a run folder, to be put into a document's text: its characters are shown
    as they are, none read as a mark."""
    return re.sub(r"([\\`*])", r"\\\1", str(value))


def _unescape(text: str) -> str:
    return re.sub(r"\\([\\`*])", r"\1", text)


_TOKEN = re.compile(r"\\[\\`*]|`|\*\*")


def spans(text: str) -> list[Span]:
    """``text`` as runs of plain, code and bold text; a mark without its closing mark is text.
    Linear in the text's length, whatever marks it holds (a hostile string of a million
    backticks costs one pass)."""
    tokens = [(m.start(), m.end(), m.group(0)) for m in _TOKEN.finditer(text)]
    next_tick = [-1] * (len(tokens) + 1)       # the next backtick token after each token
    for k in range(len(tokens) - 1, -1, -1):
        next_tick[k] = k if tokens[k][2] == "`" else next_tick[k + 1]
    kinds: list[str] = []                       # each token's role: code-open/close, bold, text
    k = 0
    while k < len(tokens):
        token = tokens[k][2]
        close = next_tick[k + 1] if token == "`" else -1
        if close >= 0:
            kinds += ["open"] + ["inside"] * (close - k - 1) + ["close"]
            k = close + 1
            continue
        kinds.append("bold" if token == "**" else "text")
        k += 1
    bolds = [k for k, kind in enumerate(kinds) if kind == "bold"]
    pairs = set(bolds[:len(bolds) // 2 * 2])   # an odd last ** has no partner: text
    out: list[Span] = []
    bold, pos, code_from = False, 0, -1
    plain: list[str] = []

    def flush() -> None:
        if plain:
            out.append(Span("".join(plain), bold=bold))
            plain.clear()

    for k, (begin, end, token) in enumerate(tokens):
        kind = kinds[k]
        if kind == "inside":
            continue
        if kind == "close":
            out.append(Span(_unescape(text[code_from:begin]), code=True, bold=bold))
            pos = end
            continue
        plain.append(text[pos:begin])
        pos = end
        if kind == "open":
            flush()
            code_from = end
        elif kind == "bold" and k in pairs:
            flush()
            bold = not bold
        else:
            plain.append(token[1] if token.startswith("\\") else token)
    plain.append(text[pos:])
    flush()
    return [s for s in out if s.text]


def plain_text(text: str) -> str:
    """The text without its marks (the HTML <title>, an image's alt text)."""
    return visible("".join(s.text for s in spans(text)))


# -- HTML -------------------------------------------------------------------------------------

def html_inline(text: str) -> str:
    """HTML of ``text``: every character escaped, code as <code>, bold as <b>."""
    out = []
    for s in spans(text):
        piece = html.escape(visible(s.text), quote=True)
        piece = f"<code>{piece}</code>" if s.code else piece
        out.append(f"<b>{piece}</b>" if s.bold else piece)
    return re.sub("</b><b>", "", "".join(out))


# -- Markdown ---------------------------------------------------------------------------------

#: What CommonMark or GitHub would read as markup in running text: a backslash before
#: punctuation, emphasis marks, a tag or autolink (``<`` before a letter, ``/``, ``!``, ``?``),
#: the end of a link text before its destination or label, an image's ``!``, and the starts
#: of GitHub's bare links (``://``, ``www.``, an e-mail's ``@``). Only these are escaped, so
#: ordinary text ("± <1", "[1.2, 1.8]") is written as before.
_MD_SPECIAL = re.compile(r"\\(?=[!-/:-@\[-`{-~])|\*|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|`"
                         r"|<(?=[A-Za-z/!?])|\](?=[(\[:])|!(?=\[)|:(?=//)|(?<=www)\.|@")
#: A line start that would begin a block: a heading, a quote, a list item (a setext
#: underline needs a line of its own, which data never gets: line breaks are folded).
_MD_BLOCK = re.compile(r"^(\s*)([#>]|[-*+](?=\s|$)|\d{1,9}(?=[.)](?:\s|$)))")


def md_text(text: str, table: bool = False) -> str:
    out = _MD_SPECIAL.sub(lambda m: "\\" + m.group(0), visible(text))
    return out.replace("|", "\\|") if table else out


def md_code(text: str, table: bool = False) -> str:
    """A code span that holds ``text`` whatever backticks it has (CommonMark's fences)."""
    text = visible(text)
    fence = "`" * (max((len(r) for r in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    out = f"{fence}{pad}{text}{pad}{fence}"
    return out.replace("|", "\\|") if table else out


def md_inline(text: str, table: bool = False, block: bool = True) -> str:
    """Markdown of ``text`` for a paragraph or list item (``block``: a block start from data,
    ``# x``, ``- x``, ``1. x``, is escaped), a heading or a table cell (``table``): only the
    app's marks are markup."""
    out, bold = [], False
    for s in spans(text):
        if s.bold != bold:
            out.append("**")
            bold = s.bold
        out.append(md_code(s.text, table) if s.code else md_text(s.text, table))
    out.append("**" if bold else "")
    joined = "".join(out)
    if table:
        return joined
    if not block:   # a heading: a closing run of # would be dropped as its end
        return re.sub(r"(?<!\\)(#+)(\s*)$", lambda m: "\\" + m.group(1) + m.group(2), joined)
    return _MD_BLOCK.sub(lambda m: m.group(1) + _block_escape(m.group(2)), joined, count=1)


def _block_escape(start: str) -> str:
    return start + "\\" if start[0].isdigit() else "\\" + start


def export_href(path: str) -> str | None:
    """A link target for a file of the export (``tables/x.csv``), percent-encoded; None for
    anything else (a scheme, an absolute path, a way out with ``..``)."""
    parts = path.split("/")
    if not path or ":" in path or "\\" in path or path.startswith("/") or ".." in parts \
            or any(not p for p in parts):
        return None
    return quote(path, safe="/+")
