"""A preset applied in the window: exactly the values `ssd-profiler presets` lists, and a line
saying what changed.

A preset that lists values sets those and nothing else ("Course lab, precision 2 %" sets the
precision and leaves a size or runtime the user chose alone); one that lists none ("each
experiment's defaults") puts every value back to its default. Shared settings go above the list
(shared_settings.py), any other value into every form that has it.
"""
from __future__ import annotations

from app.experiments.base import Experiment
from app.params import ParamError, coerce, fields_of
from ui.window.setup.param_form import ParamForm
from ui.window.setup.shared_settings import SHARED, SharedSettings

_BASE = {f.name: f for f in fields_of(Experiment)}
_WORDS = {"runtime": "runtime", "precision": "precision", "size": "size",
          "repetitions": "repetitions", "warmup": "warm-up"}


def apply_preset(title: str, values: dict[str, str], shared: SharedSettings,
                 forms: dict[str, ParamForm]) -> str:
    """Set ``values`` (none: every default) and return the line that says what changed."""
    before = shared.texts()
    overrides = sum(len(f.overridden) for f in forms.values())
    if not values:
        shared.set_texts({})
        for form in forms.values():
            form.set_texts({})
            form.set_overridden(())
        changed = [f"{_WORDS[n]} {_word(t)}" for n, t in shared.texts().items() if not _same(n, t, before[n])]
        what = ", ".join(changed) or "nothing above the list"
        return (f"\u201c{title}\u201d: every value back to each experiment's default ({what} changed"
                + (f"; {overrides} value(s) changed in forms reset" if overrides else "") + ").")
    shared.set_texts({**before, **{k: v for k, v in values.items() if k in SHARED}})
    for form in forms.values():
        own = {k: v for k, v in values.items() if k not in SHARED and k in form.fields}
        if own:
            form.set_texts({**form.texts(), **own})
    listed = ", ".join(f"{_WORDS.get(k, k)} {_word(v)}" for k, v in values.items())
    kept = [n for n in SHARED if n not in values]
    return (f"\u201c{title}\u201d set {listed}; {', '.join(_WORDS[n] for n in kept)} unchanged"
            + (" (values changed in a form stay)." if overrides else "."))


def _same(name: str, a: str, b: str) -> bool:
    try:
        return bool(coerce(_BASE[name], a) == coerce(_BASE[name], b))
    except ParamError:
        return a == b


def _word(text: str) -> str:
    """A yes/no value as a student reads it (warm-up off, not warm-up false)."""
    return {"true": "on", "false": "off"}.get(text.lower(), text)
