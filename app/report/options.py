"""What a user decides about the exported report besides the run: its title, author, course and
date on the title block, and whether the generated interpretation and discussion are written
(docs/report.md, "Two modes"). One frozen value passed from the CLI (``export --author ...``)
and the window's export bar down to the document builder.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReportOptions:
    """The report's title block and mode. Empty texts take their defaults: the title from the
    drive, the date from the run's start (so exporting the same run twice gives the same
    report); no author or course line when none is given."""

    title: str = ""
    author: str = ""
    course: str = ""
    date: str = ""
    #: False: data, figures, method and checks only; the student writes the analysis.
    interpretation: bool = True

    def cleaned(self) -> ReportOptions:
        """Each text on one line and at most 200 characters (a title block, not a document)."""
        def one(text: str) -> str:
            return " ".join(str(text or "").split())[:200]
        return ReportOptions(one(self.title), one(self.author), one(self.course), one(self.date),
                             bool(self.interpretation))
