"""Text from a run folder is data wherever the app writes it: the characters that are
instructions to a reader's software, not text, are shown or neutralized here, in one place.

Why: run folders travel (a lab partner's, a forum's), and their strings (a drive model, a
label, an error, a fio job name) reach the terminal, the reports and spreadsheets. Two things
in a string can mislead a reader without being visible:

- control characters (a carriage return that overwrites a line, a newline that starts a fake
  heading) and invisible format characters, above all the bidirectional overrides (U+202E
  turns ``exe.txt`` round, "Trojan Source"): :func:`visible` shows each as its ``\\u202e``
  escape, the same in the terminal and in every report, so a reader sees that it is there;
- a spreadsheet formula: a CSV cell starting with ``=``, ``+``, ``-`` or ``@`` (or a tab or
  carriage return) is evaluated when the file is opened (``=HYPERLINK(...)``, DDE).
  :func:`csv_text` prefixes such a text cell with a single quote, as OWASP's CSV-injection
  guidance says. Numbers the app writes as numbers are not text cells and stay numeric: a
  negative mean (``-1.500``) opens as the number it is, and a formula cannot be spelled with
  digits, a sign and a point alone.

Line breaks inside a value are folded to one space in the reports and CSV text cells (every
value is shown on one line, so data cannot start a line of its own) and kept in the terminal
(an engine's message may span lines).
"""
from __future__ import annotations

import re

#: Control characters (C0 but tab and line breaks, DEL, C1), the format characters that are
#: invisible or reorder text (soft hyphen, Arabic and Syriac marks, zero-width characters,
#: the bidirectional marks, embeddings, overrides and isolates, word joiners, the byte order
#: mark, interlinear annotation, tag characters), the line and paragraph separators, and lone
#: surrogates (an undecodable byte of a folder name). tests/app/test_text_escape.py checks the
#: class against Unicode's categories Cc, Cf, Cs, Zl and Zp.
_HIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891"
    "\u08e2\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f\ud800-\udfff]")
_BREAKS = re.compile(r"\r\n?|\n|\t")
#: What a spreadsheet reads as the start of a formula (with the full-width forms some accept).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def visible(text: object, lines: bool = False) -> str:
    """``text`` with every control, invisible or reordering character shown as its escape
    (``\\u202e``). Line breaks and tabs become one space each, or with ``lines`` stay (a
    CR LF as a line break; a lone carriage return, which overwrites a terminal's line, is
    shown as ``\\u000d``)."""
    text = str(text)
    text = text.replace("\r\n", "\n") if lines else _BREAKS.sub(" ", text)
    return _HIDDEN.sub(_escape, text)


def csv_text(text: str) -> str:
    """A text cell of a CSV file as a spreadsheet should show it: :func:`visible` (one line,
    hidden characters as escapes, as in the reports), and one that would start a formula gets a
    leading single quote (shown by spreadsheets as text, the quote hidden or visible)."""
    text = visible(text)
    return "'" + text if text.startswith(FORMULA_START) else text
