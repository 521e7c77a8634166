"""Text from files and other machines reaches the terminal as text, never as commands to it.

Why: a run folder or an engine output from someone else can hold terminal escape sequences (a
drive model in a shared run.json, a fio job name in an imported file): printed raw, they clear
the screen, retitle the window, plant a hyperlink or hide what follows. So every string the
command line prints from data goes through :func:`terminal_text` (escape sequences removed;
other control characters and the invisible and bidirectional ones, such as U+202E which turns
text round, shown as their ``\\u202e`` escape, as in the reports: app/text; line breaks and
tabs kept), and rich output goes through
:class:`SafeConsole`, which does the same to every string it renders and never reads rich
markup (``[link=...]``) in one. The app's own colours and the live progress bar are rich
renderables, not strings, and are drawn as before.
"""
from __future__ import annotations

import re
from typing import Any

from rich.console import Console
from rich.text import Text

from app.text import visible

#: CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), DCS/SOS/PM/APC strings (ESC P/X/^/_ ...
#: ST), other two-byte escapes, and their one-byte C1 forms (CSI 0x9b, OSC 0x9d, ...). A string
#: cut short (a name truncated for a column) ends at the line's end, never swallowing the rest.
_SEQUENCE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]?|\x9b[0-?]*[ -/]*[@-~]?"
                       r"|(?:\x1b[\]PX^_]|[\x9d\x90\x98\x9e\x9f])[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?"
                       r"|\x1b[^\[\]PX^_]?")


def terminal_text(text: object) -> str:
    """``text`` without escape sequences, other control, invisible and bidirectional characters
    shown as escapes (``\\n`` and ``\\t`` kept)."""
    return visible(_SEQUENCE.sub("", str(text)), lines=True)


class SafeConsole(Console):
    """A rich Console whose strings are data: cleaned, and never parsed as markup."""

    def render_str(self, text: str, **kwargs: Any) -> Text:
        kwargs["markup"] = False
        return super().render_str(terminal_text(text), **kwargs)
