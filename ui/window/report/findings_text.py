"""Numbers and findings as text for the results table (display formatting in one place). No Qt.

The analysis functions return plain dicts (app/stats/analysis.py); this turns each experiment's findings
into a few sentences a student can paste into a report, always with the unit.
"""
from __future__ import annotations

from app.model.summary import Stat


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
