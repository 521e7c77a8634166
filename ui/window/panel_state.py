"""What the window remembers of its experiment panel and its report details, as typed values.

The settings file is text the user (or a damaged disk) may have edited, so it is read here once,
each part of the wrong type dropped and its default applied, as for a file that does not parse:
a hand-edited '"checked": "zero-queue"', a value of 5 or null once left the window unable to
build its forms. What leaves this module is a frozen value; JSON stays in the settings file
(ui/window/settings.py).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:   # the report's machinery loads after the first paint (ui/window/app.py)
    from app.report.options import ReportOptions


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _texts(value: object) -> dict[str, str]:
    """{name: text} of a mapping's text values (others dropped)."""
    return ({str(k): v for k, v in value.items() if isinstance(v, str)}
            if isinstance(value, Mapping) else {})


def _names(value: object) -> tuple[str, ...]:
    return tuple(x for x in value if isinstance(x, str)) if isinstance(value, list) else ()


@dataclass(frozen=True)
class PanelState:
    """The experiment panel between launches: which experiments are ticked, the one in view,
    the preset, each form's changed texts, the settings set once for all experiments and the
    fields a form overrides them in."""

    checked: tuple[str, ...] = ()
    current: str | None = None
    preset: str | None = None
    values: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    shared: Mapping[str, str] = field(default_factory=dict)
    #: None: saved before there were shared settings (the panel then reads its old per-form values).
    overrides: Mapping[str, tuple[str, ...]] | None = None

    @classmethod
    def from_json(cls, state: Mapping[str, Any]) -> PanelState:
        values, overrides = state.get("values"), state.get("overrides")
        return cls(
            _names(state.get("checked")), _text(state.get("current")), _text(state.get("preset")),
            {str(eid): _texts(fields) for eid, fields in
             (values.items() if isinstance(values, Mapping) else ()) if isinstance(fields, Mapping)},
            _texts(state.get("shared")),
            {str(eid): _names(names) for eid, names in overrides.items() if isinstance(names, list)}
            if isinstance(overrides, Mapping) else None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"checked": list(self.checked), "preset": self.preset,
                               "current": self.current, "shared": dict(self.shared),
                               "values": {eid: dict(v) for eid, v in self.values.items()}}
        if self.overrides is not None:
            out["overrides"] = {eid: list(v) for eid, v in self.overrides.items()}
        return out


def report_options_from_json(state: Mapping[str, Any]) -> ReportOptions:
    """The export bar's remembered title, author, course and mode; a value of the wrong type is
    left at its default."""
    from app.report.options import ReportOptions
    default = ReportOptions()
    interpretation = state.get("interpretation")
    return ReportOptions(_text(state.get("title")) or "", _text(state.get("author")) or "",
                         _text(state.get("course")) or "", "",
                         interpretation if isinstance(interpretation, bool)
                         else default.interpretation).cleaned()


def report_options_to_json(options: ReportOptions) -> dict[str, Any]:
    return {"title": options.title, "author": options.author, "course": options.course,
            "interpretation": options.interpretation}
