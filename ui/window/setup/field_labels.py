"""What the parameter form calls each field and each choice: words, not the command line's names.

The names (``bs``, ``rw``, ``queue_depths``) stay what ``--set`` takes and what run.json records;
the form shows "Block size", "Access pattern", "Queue depths", with the unit where a bare number
is typed, and a hint of how sizes and durations are written. A name not listed here (a new
experiment's) is shown as its words capitalised, so a new parameter still needs no UI code.
"""
from __future__ import annotations

LABELS = {
    "runtime": "Runtime per trial", "ramp": "Ramp-up time", "size": "Test file size",
    "repetitions": "Repetitions", "warmup": "Warm-up trial", "randomize": "Shuffle order",
    "direct": "Direct I/O", "interval": "Live sample interval",
    "random_bs": "Random block size", "seq_bs": "Sequential block size",
    "block_sizes": "Block sizes", "patterns": "Access patterns", "direction": "Direction",
    "iodepth": "Queue depth", "mixes": "Read share (%)", "bs": "Block size",
    "pattern": "Access pattern", "queue_depths": "Queue depths", "sweep": "Sweep by",
    "rw": "Access pattern", "profile": "Profile",
    "precision": "Precision (±)", "min_time": "Min time per workload",
    "max_time": "Max time per workload",
}

CHOICES = {
    "randread": "random read", "randwrite": "random write", "read": "sequential read",
    "write": "sequential write", "iodepth": "deeper queue, one job",
    "numjobs": "more jobs, QD1 each",
}
# choices whose words above would be wrong for a field (direction: read/write is the direction)
PLAIN_CHOICE_FIELDS = {"direction", "patterns", "pattern", "profile"}

HINTS = {"duration": "e.g. 30s, 500ms, 2m", "size": "e.g. 4k, 64KiB, 1GiB (k = KiB)",
         "size_list": "comma-separated, e.g. 4k,64k,1MiB", "int_list": "comma-separated, e.g. 1,4,16"}


def field_title(name: str) -> str:
    return LABELS.get(name) or name.replace("_", " ").capitalize()


def choice_text(field: str, value: str) -> str:
    """'random read (randread)': the words, then the value the command line takes."""
    words = None if field in PLAIN_CHOICE_FIELDS else CHOICES.get(value)
    return f"{words} ({value})" if words else value


def help_text(meta: dict) -> str:
    """The grey line under a field: what it is, how to write it, its default."""
    if meta["kind"] == "bool":
        return meta["help"]
    hint = HINTS.get(meta["kind"])
    default = meta["default_text"].replace(",", ", ")   # a long list wraps at its commas
    return meta["help"] + (f"; {hint}" if hint else "") + f" (default {default})"
