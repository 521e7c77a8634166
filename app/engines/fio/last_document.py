"""The final fio JSON document of a trial's stdout, decoded alone.

Why: with ``--status-interval`` the stdout holds one cumulative document per interval (at 0.1 s
some 30 KB each, the json+ histogram included) and only the last one is the result
(app/engines/fio/result.py). Decoding every one of them to keep the last cost the worker about
15 ms a trial at that interval, beside fio. fio starts each document on a line of its own, so
the last such line is tried first; when what it decodes is not certainly what a scan from the
start would end with (nothing may follow it that could start another document), the caller
falls back to that scan.
"""
from __future__ import annotations

import json
from typing import Any

_DECODER = json.JSONDecoder(strict=False)  # fio copies a newline in a path raw


def last_document(text: str, markers: tuple[str, ...]) -> dict[str, Any] | None:
    """The last document of ``text`` carrying one of ``markers``, or None when unsure."""
    start = text.rfind("\n{") + 1   # 0 when there is none: then the text must start with "{"
    if start == 0 and not text.startswith("{"):
        return None
    try:
        doc, end = _DECODER.raw_decode(text, start)
    except json.JSONDecodeError:
        return None   # cut off (fio killed): the scan finds the document before it
    if not isinstance(doc, dict) or not any(k in doc for k in markers) or "{" in text[end:]:
        return None
    return doc
