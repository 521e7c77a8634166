"""Which drive model a spec record describes, decided in linear time and without regular expressions.

Why no regular expression: spec records travel inside run folders (run.json's ``vendor_spec``)
and in spec files people pass around, and Python's ``re`` backtracks: ``^(a+)+$`` against a
model of 34 "a" and a "!" runs for hours, and even ``PM9A1.*512`` is quadratic in a model that
repeats its prefix. So a record states ``model_match``: a list of patterns, each literal text
in which ``*`` stands for any run of characters, with an optional leading ``^`` (the model starts
there) and trailing ``$`` (it ends there). Pattern and model are compared normalized: case
folded, whitespace, ``_`` and ``-`` removed, so "WD_BLACK SN850X" and "wdblack-sn850x" are one
text. The pieces between the ``*`` are found leftmost, in order, with ``str.find``: the time is
linear in the model's length (each piece is at most :data:`MAX_PATTERN_CHARS`).

Older records carry ``model_regex``. :func:`patterns_from_regex` translates the simple ones (the
form the app itself wrote: escaped text, maybe anchored, and the bundled ones' ``.*``, ``\\s*``
and ``|``) by reading the pattern text, never by running it; anything else is not translated
and the record says so.
"""
from __future__ import annotations

from dataclasses import dataclass

MAX_PATTERN_CHARS = 200       # a model string is at most a few dozen characters
MAX_PATTERNS = 32
MAX_REGEX_CHARS = 1000
_DROPPED = str.maketrans("", "", "_-")
_SEPARATORS = " _-"


def normalize(text: str) -> str:
    """Case folded, without whitespace, ``_`` and ``-`` (linear in ``text``)."""
    return "".join(text.casefold().split()).translate(_DROPPED)


@dataclass(frozen=True)
class ModelPattern:
    """One ``model_match`` pattern: its text as written, and its normalized pieces."""

    text: str
    pieces: tuple[str, ...]
    at_start: bool = False
    at_end: bool = False

    @classmethod
    def parse(cls, text: object) -> ModelPattern | None:
        """The pattern, or None for one that is not text, too long, or matches anything."""
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_PATTERN_CHARS:
            return None
        body = text.strip()
        at_start, at_end = body.startswith("^"), body.endswith("$") and len(body) > 1
        body = body[1 if at_start else 0:len(body) - 1 if at_end else len(body)]
        pieces = tuple(normalize(p) for p in body.split("*"))
        if not any(pieces):
            return None
        # an empty piece between two '*' adds nothing; an empty first or last piece lifts the anchor
        at_start, at_end = at_start and bool(pieces[0]), at_end and bool(pieces[-1])
        return cls(text, tuple(p for p in pieces if p), at_start, at_end)

    def matches(self, normalized_model: str) -> bool:
        """True when the pieces occur in order in ``normalized_model`` (see :func:`normalize`)."""
        model, pieces = normalized_model, list(self.pieces)
        if self.at_start and self.at_end and len(pieces) == 1:
            return model == pieces[0]
        pos = 0
        if self.at_start:
            if not model.startswith(pieces[0]):
                return False
            pos = len(pieces.pop(0))
        last = pieces.pop() if self.at_end else None
        for piece in pieces:
            found = model.find(piece, pos)
            if found < 0:
                return False
            pos = found + len(piece)
        return last is None or (model.endswith(last) and len(model) - len(last) >= pos)


def parse_patterns(values: object) -> tuple[ModelPattern, ...]:
    """The usable patterns of a ``model_match`` list (others are dropped)."""
    if not isinstance(values, list):
        return ()
    found = (ModelPattern.parse(v) for v in values[:MAX_PATTERNS])
    return tuple(p for p in found if p is not None)


def pattern_problems(values: object) -> list[str]:
    """Why a ``model_match`` value cannot be stored (empty list = fine)."""
    if values is None:
        return []
    if not isinstance(values, list) or len(values) > MAX_PATTERNS:
        return [f"model_match must be a list of at most {MAX_PATTERNS} texts"]
    return [f"model_match {str(v)[:40]!r} is not a usable pattern (text of 1 to "
            f"{MAX_PATTERN_CHARS} characters, not only '*')"
            for v in values if ModelPattern.parse(v) is None][:1]


# -- older records: model_regex, read as text ------------------------------------------------
_QUANTIFIERS = "?*+"
_ESCAPED_SEPARATOR = {"s": " ", "b": ""}   # \s: white space (removed anyway); \b: a boundary


def patterns_from_regex(regex: str) -> list[str] | None:
    """``model_match`` texts equivalent (on normalized models) to a simple ``model_regex``, else
    None: alternatives joined by ``|``, each of literal characters (escaped or not), ``.*`` or
    ``.+`` between them, optional separators (``\\s*``, ``[ _]``, ``_?``), ``\\b``, ``^`` and ``$``.
    Groups, classes of other characters, other quantifiers and escapes are not translated: a
    pattern the app did not write is not guessed at. ``\\b`` is dropped (the match is a little
    wider)."""
    if not isinstance(regex, str) or not regex or len(regex) > MAX_REGEX_CHARS:
        return None
    alternatives: list[list[str]] = []
    current: list[str] = []
    i, n = 0, len(regex)
    while i < n:
        c = regex[i]
        quantified = i + 1 < n and regex[i + 1] in _QUANTIFIERS
        if c == "|":
            alternatives.append(current)
            current = []
        elif c == "\\" and i + 1 < n:
            e = regex[i + 1]
            if e.isalnum() and e not in _ESCAPED_SEPARATOR or e in "*^$":
                return None
            i += 1
            quantified = i + 1 < n and regex[i + 1] in _QUANTIFIERS
            if quantified and e != "s":
                return None
            current.append(_ESCAPED_SEPARATOR.get(e, e))
        elif c == "." and quantified and regex[i + 1] in "*+":
            current.append("*")
        elif c == "[":
            close = regex.find("]", i)
            if close < 0 or not regex[i + 1:close] or any(x not in _SEPARATORS
                                                          for x in regex[i + 1:close]):
                return None
            current.append(" ")
            i = close
            quantified = i + 1 < n and regex[i + 1] in _QUANTIFIERS
        elif c in _SEPARATORS:
            current.append(c)
        elif c == "^" and not current or c == "$" and (i + 1 == n or regex[i + 1] == "|"):
            current.append(c)
        elif c in ".^$()[]{}?*+\\|" or quantified:
            return None
        else:
            current.append(c)
        i += 2 if quantified else 1
    alternatives.append(current)
    texts = ["".join(parts) for parts in alternatives]
    return texts if all(ModelPattern.parse(t) is not None for t in texts) else None
