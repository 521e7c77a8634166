"""fio's text outputs, told apart by content: terse lines (``3;fio-3.33;...``) or normal output
(``name: (groupid=0, jobs=1): err= 0``). ``import`` asks here after JSON, which it prefers: a
file with JSON (``--output-format=normal,json``) has the exact numbers, terse whole KiB and µs,
normal output 3 to 4 significant digits."""
from __future__ import annotations

from typing import Any

from app.engines.fio.normal import looks_like_normal, parse_normal_output
from app.engines.fio.terse import looks_like_terse, parse_terse_output
from app.engines.fio.text_common import FioTextError

__all__ = ["FioTextError", "looks_like_fio_text", "parse_fio_text_output"]


def _lines_ended(text: str) -> str:
    """``text`` with every line ending a newline: an output saved with CR line ends alone (an
    old Mac editor, a tool's ``\\r``) was read as one line, so terse and normal output were
    misread. CRLF stays CRLF's newline; a lone CR becomes one."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def looks_like_fio_text(text: str) -> bool:
    """fio terse or normal output (what :func:`parse_fio_text_output` reads)."""
    text = _lines_ended(text)
    return looks_like_terse(text) or looks_like_normal(text)


def parse_fio_text_output(text: str, source: str | None = None) -> list[dict[str, Any]]:
    """Measurements from terse output when there is a terse line (``--append-terse`` prints both,
    and terse has more digits), else from normal output; FioTextError (one line) otherwise."""
    text = _lines_ended(text)
    if looks_like_terse(text):
        return parse_terse_output(text, source)
    return parse_normal_output(text, source)
