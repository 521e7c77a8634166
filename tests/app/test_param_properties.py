"""Property tests of parameter parsing (point 6): for ANY text given as ANY parameter of
ANY experiment, ``app.params.build`` returns an experiment or raises ParamError with a one-line
message; never another exception. The same for the sizes and durations of app/units.py, which
the window's form and the command line both use.
"""
from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.experiments import CATALOG
from app.experiments.plan import experiments_from_settings
from app.params import ParamError, build, coerce, fields_of, format_value
from app.units import UnitError, parse_duration, parse_size

SETTINGS = settings(max_examples=200, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
NAMES = sorted({f.name for cls in CATALOG.values() for f in fields_of(cls)})

# near-valid text reaches the range, multiple-of-512 and cross-field checks, not only the parser
NUMBER = st.from_regex(r"\A[+-]?[0-9\u0660-\u0669]{0,40}(\.[0-9]{0,4})?\Z")
UNIT = st.sampled_from(["", "k", "K", "KiB", "kB", "M", "MiB", "MB", "G", "GiB", "T", "TiB", "b",
                        "B", "ms", "s", "m", "min", "h", "µs", "%", " "])
NEAR = st.builds(lambda n, u, sp: f"{n}{sp}{u}", NUMBER, UNIT, st.sampled_from(["", " ", "\t"]))
WORD = st.sampled_from(["true", "false", "yes", "random", "sequential", "read", "write", "nvme",
                        "iodepth", "numjobs", "randread", "default"])
ITEM = st.one_of(NEAR, WORD, st.text(max_size=12))
LIST = st.lists(ITEM, max_size=6).flatmap(
    lambda items: st.sampled_from([",", ";", ", ", ",,"]).map(lambda sep: sep.join(items)))
ANY_TEXT = st.one_of(st.text(), ITEM, LIST, st.text(alphabet="\x00\n\r\"'\\,;\u2028\ud800",
                                                    max_size=8), st.just("9" * 2000))


def assert_one_line(exc: Exception) -> None:
    text = str(exc)
    assert text and "\n" not in text and "\r" not in text and len(text) < 700, text
    assert text.isprintable(), text


@SETTINGS
@given(eid=st.sampled_from(list(CATALOG)), name=st.one_of(st.sampled_from(NAMES), st.text()),
       value=ANY_TEXT, size=st.one_of(st.none(), NEAR))
def test_any_text_for_any_parameter_builds_or_is_a_one_line_param_error(eid, name, value, size):
    values = {name: value} if size is None or name == "size" else {name: value, "size": size}
    try:
        exp = build(CATALOG[eid], values)
    except ParamError as exc:
        assert_one_line(exc)
        assert exc.name in values or exc.name == eid
        return
    workloads = exp.workloads()  # a built experiment always plans: no later ValueError
    assert workloads and all(w.bs_bytes % 512 == 0 and w.bs_bytes <= exp.size for w in workloads)


SCOPED = st.builds(lambda e, n: f"{e}.{n}", st.sampled_from(list(CATALOG)), st.sampled_from(NAMES))


@SETTINGS
@given(ids=st.lists(st.sampled_from([*CATALOG, "all"]), min_size=1, max_size=3),
       pairs=st.dictionaries(st.one_of(st.sampled_from(NAMES), st.text(max_size=20), SCOPED),
                             ANY_TEXT, max_size=4))
def test_any_settings_give_experiments_or_a_one_line_param_error(ids, pairs):
    try:
        experiments = experiments_from_settings(ids, pairs)
    except ParamError as exc:
        assert_one_line(exc)
        return
    assert experiments and all(e.workloads() for e in experiments)


@SETTINGS
@given(eid=st.sampled_from(list(CATALOG)), data=st.data())
def test_accepted_values_round_trip_through_their_text(eid, data):
    """What the form shows for a value (format_value) reads back as the same value."""
    field = data.draw(st.sampled_from(fields_of(CATALOG[eid])))
    try:
        value = coerce(field, data.draw(ANY_TEXT))
    except ParamError as exc:
        assert_one_line(exc)
        return
    assert coerce(field, format_value(field.metadata["kind"], value)) == value


@SETTINGS
@given(text=st.one_of(NEAR, st.text(), st.just("1" * 100), st.floats(), st.integers()))
def test_sizes_are_whole_bytes_or_a_unit_error(text):
    try:
        value = parse_size(text)
    except UnitError as exc:
        assert_one_line(exc)
        return
    assert isinstance(value, int) and (value >= 0 or isinstance(text, int))


@SETTINGS
@given(text=st.one_of(NEAR, st.text(), st.just("1" * 100), st.floats(), st.integers()))
def test_durations_are_finite_seconds_or_a_unit_error(text):
    try:
        value = parse_duration(text)
    except UnitError as exc:
        assert_one_line(exc)
        return
    assert isinstance(value, float) and math.isfinite(value)
    assert value >= 0 or isinstance(text, (int, float))
