"""Numbers and findings as the results views show them (display formatting in one place). No Qt.

The findings' words are the experiment modules' own (app/report/outputs.py ``findings``, the
report's sentences); here they are only laid out: one paragraph each, so that a finding wrapped
over several lines in a narrow pane still reads as one.
"""
from __future__ import annotations

from collections.abc import Iterable

from app.model.summary import Stat

#: The space under each finding's paragraph, in px: enough to see where one ends.
FINDING_GAP_PX = 6


def number(value: float | None) -> str:
    """Three significant figures or more, thousands separated: 5,696 / 174.5 / 2.31."""
    if value is None:
        return "-"
    a = abs(value)
    if a >= 100:
        return f"{value:,.0f}"
    if a >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def stat_text(stat: Stat | None, with_n: bool = True) -> str:
    """'5,696 ± 411 (n=2)'; a single value shows no ±; a percentile resting on too few I/Os
    shows its mark, 'too few I/Os (4)', never a value (app/model/percentiles.py)."""
    if stat is not None and stat.too_few is not None:
        return stat.mark() or "-"
    if stat is None or stat.mean is None:
        return "-"
    text = number(stat.mean)
    if stat.std is not None:
        text += f" ± {number(stat.std)}"
    if with_n:
        text += f" (n={stat.n})"
    return text


def findings_html(paragraphs: Iterable[str]) -> str:
    """Findings (each already HTML, its text escaped) as rich text, one paragraph each with
    :data:`FINDING_GAP_PX` under it: joined by line breaks, a long finding wrapped over four
    lines ran into the next."""
    return "".join(f'<p style="margin-top:0; margin-bottom:{FINDING_GAP_PX}px">{p}</p>'
                   for p in paragraphs)
