"""What a run.json may hold before any reader sees it: text of bounded length, numbers a drive
can give. Applied once where run.json is read (app/store/read_run.py), so the report, the
window, compare and the vendor comparison all get the same bounded record.

Why text bounds: run folders travel (a lab partner's, one from a forum), and one field of a
400,000-character drive model made the PDF step take two minutes (its layout is quadratic in a
word's length) without honouring Ctrl+C. Each text is cut to its field's bound and says so,
``… [truncated, N characters]``: :data:`NAME_CHARS` for a name (a model, a serial, a label),
:data:`TEXT_CHARS` for anything else (a title, a note, an error, a path: a path is at most
4,096 bytes). The app itself writes nothing near either (its longest text is a note of about
250 characters).

Why number ranges: a negative IOPS or latency, or 1e308 MB/s, is no drive's result: it was shown
as one, and 1e308 made a figure fail with OverflowError. A trial's measured numbers are checked
against the plausible ranges of imported results (app/store/input_files.py: finite,
non-negative, at most 10^9 IOPS, 10 TB/s, an hour per I/O); one outside refuses the run with one
line naming the field, the way a damaged run.json is refused everywhere else. The histograms
are checked where they are decoded (app/stats/histogram.py).
"""
from __future__ import annotations

from typing import Any

from app.store.input_files import LATENCY_LIMIT_US, number_problem

NAME_CHARS = 300
TEXT_CHARS = 5000
#: Fields whose text is a name: a few hundred characters are plenty.
NAME_KEYS = frozenset((
    "model", "firmware", "serial", "bus", "interface", "hostname", "cpu", "os", "os_release",
    "os_version", "machine", "python", "fstype", "device", "disk_name", "name", "version",
    "label", "experiment", "id", "job", "engine", "engine_version", "rw", "status", "lat_kind",
    "kind", "mode", "started_at", "ended_at", "app_version", "origin", "host", "fio_version"))
#: Numbers of the descriptive blocks that cannot be negative (bytes, counts, a link's MB/s).
NON_NEGATIVE = frozenset(("capacity_bytes", "total_bytes", "free_bytes", "ram_bytes",
                          "cpu_cores_logical", "cpu_cores_physical", "ceiling_MBps",
                          "latency_floor_us", "speed_gts", "width", "port",
                          # an experiment's parameters, shown in the report's Setup lines
                          "runtime", "ramp", "size", "repetitions", "interval"))
_PLAIN = frozenset((int, float, bool, type(None)))   # values with no text below them
BIGGEST = 2.0 ** 64   # beyond any byte count or rate a run records; 1e308 is not a measurement


def truncated(text: str, bound: int) -> str:
    """``text`` cut to ``bound`` characters, saying how long it was; as it is when shorter."""
    if len(text) <= bound:
        return text
    return f"{text[:bound]}… [truncated, {len(text):,} characters]"


def bound_texts(value: Any, key: str = "") -> Any:
    """``value`` (a run.json value under ``key``) with every text cut to its field's bound;
    lists and objects are changed in place, an object's keys cut to :data:`NAME_CHARS`."""
    if isinstance(value, str):
        return truncated(value, NAME_CHARS if key in NAME_KEYS else TEXT_CHARS)
    if isinstance(value, dict):
        if _PLAIN.issuperset(map(type, value.values())) and max(map(len, value), default=0) <= NAME_CHARS:
            return value   # a block of numbers (a trial's latencies): nothing to cut, at C speed
        if any(len(k) > NAME_CHARS for k in value):
            cut = {truncated(k, NAME_CHARS): v for k, v in value.items()}
            value.clear()
            value.update(cut)
        for k, v in value.items():
            if isinstance(v, (str, dict, list)) and k != "hist_ns":
                value[k] = bound_texts(v, k)
    elif isinstance(value, list) and not _PLAIN.issuperset(kinds := set(map(type, value))):
        if kinds == {str} and max(map(len, value)) <= NAME_CHARS:
            return value   # a command line
        for i, v in enumerate(value):
            if isinstance(v, (str, dict, list)):
                value[i] = bound_texts(v, key)
    return value


def number_trouble(record: dict[str, Any]) -> str | None:
    """The first impossible number of a run.json record, as ``where: what``, or None."""
    for i, trial in enumerate(record.get("trials") or ()):
        where = f"trials[{i}]"
        for key in ("runtime_s",):
            problem = number_problem(f"{where}.{key}", key, trial.get(key), False)
            if problem:
                return problem
        for part in ("workload", "measurement"):
            problem = _walk(trial.get(part), f"{where}.{part}", "", False)
            if problem:
                return problem
    for key, value in record.items():
        if key not in ("trials", "planned_trials", "summary"):
            problem = _descriptive(value, key, key)
            if problem:
                return problem
    return None


_NUMBERS = frozenset((int, float))


def _walk(value: Any, where: str, key: str, lat: bool) -> str | None:
    if lat and isinstance(value, dict) and value and _NUMBERS.issuperset(map(type, value.values())) \
            and 0 <= min(value.values()) and max(value.values()) <= LATENCY_LIMIT_US:
        return None   # a trial's latencies, all plausible: checked at C speed
    if isinstance(value, dict):
        for k, v in value.items():
            if k != "hist_ns" and v is not None and not isinstance(v, str):
                problem = _walk(v, f"{where}.{k}", str(k), lat or k == "lat_us")
                if problem:
                    return problem
        return None
    if isinstance(value, list):
        for i, v in enumerate(value):
            problem = _walk(v, f"{where}[{i}]", key, lat)
            if problem:
                return problem
        return None
    return number_problem(where, key, value, lat)


_NO_NUMBER = frozenset((str, bool, type(None)))


def _plain_numbers_pass(values: Any, keys: Any, key: str) -> bool:
    """Whether a block's values (of keys ``keys``, or all under ``key``) hold nothing to check
    or only plausible numbers, seen at C speed: a padded run.json of 25 million short strings
    took the one-by-one walk 75 s per read."""
    kinds = set(map(type, values))
    if kinds <= _NO_NUMBER:
        return True
    if not kinds <= _NUMBERS or not values:
        return False
    signed = key not in NON_NEGATIVE and NON_NEGATIVE.isdisjoint(keys)
    return bool(max(values) <= BIGGEST and min(values) >= (-BIGGEST if signed else 0))


def _descriptive(value: Any, where: str, key: str) -> str | None:
    """A number of the descriptive blocks: finite and not absurd, non-negative where it must."""
    if isinstance(value, (dict, list)) and _plain_numbers_pass(
            list(value.values()) if isinstance(value, dict) else value,
            value if isinstance(value, dict) else (), key):
        return None
    if isinstance(value, dict):
        for k, v in value.items():
            problem = None if type(v) in _NO_NUMBER else _descriptive(v, f"{where}.{k}", str(k))
            if problem:
                return problem
    elif isinstance(value, list):
        for i, v in enumerate(value):
            problem = None if type(v) in _NO_NUMBER else _descriptive(v, f"{where}[{i}]", key)
            if problem:
                return problem
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        if abs(value) > BIGGEST or (key in NON_NEGATIVE and value < 0):
            return f"{where} is {value:g}, not a value a run records"
    return None
