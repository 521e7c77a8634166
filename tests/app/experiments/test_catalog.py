"""The experiment catalog, declarative parameters and the planner."""
from __future__ import annotations

import json

import pytest

from app.experiments import CATALOG, all_ids, expand_ids
from app.experiments.plan import experiments_from_settings, plan_run
from app.params import ParamError, build, describe
from app.units import GiB, KiB, MiB, UnitError, parse_duration, parse_size

from conftest import run_cli


def test_units_parse_what_users_type():
    assert parse_size("4k") == parse_size("4KiB") == 4 * KiB
    assert parse_size("256MiB") == 256 * MiB and parse_size("1GiB") == GiB
    assert parse_size("1MB") == 1_000_000  # an explicit B after an SI prefix is decimal
    assert parse_duration("30") == parse_duration("30s") == 30.0
    assert parse_duration("2m") == 120.0 and parse_duration("500ms") == 0.5
    with pytest.raises(UnitError):
        parse_size("lots")


def test_all_is_every_experiment_that_says_it_is_in_it_in_catalog_order():
    every = all_ids()
    assert expand_ids(["all"]) == every == [eid for eid, cls in CATALOG.items() if cls.in_all]
    left_out = [eid for eid in CATALOG if eid not in every]
    assert expand_ids(["all", *left_out]) == [*every, *left_out]
    assert expand_ids([*left_out, "all"]) == [*left_out, *every]
    for eid in ("quick", "steady-state", "write-saturation"):   # each says so itself
        assert not CATALOG[eid].in_all


def test_the_course_experiments_plan_their_defaults():
    zq = build(CATALOG["zero-queue"])
    assert [w.label for w in zq.workloads()] == ["RND4K Q1T1 read", "RND4K Q1T1 write",
                                                 "SEQ128K Q1T1 read", "SEQ128K Q1T1 write"]
    qd = build(CATALOG["queue-depth"], {"sweep": "numjobs", "queue_depths": "1,4"})
    assert [(w.iodepth, w.numjobs) for w in qd.workloads()] == [(1, 1), (1, 4)]
    bs = build(CATALOG["block-size"])
    assert len(bs.workloads()) == 18 and bs.iodepth == 8
    quick = build(CATALOG["quick"])
    assert "RND4K Q32T16 read" in [w.label for w in quick.workloads()]


def test_experiments_json_lists_parameters_and_defaults():
    done = run_cli("experiments", "--json")
    assert done.returncode == 0, done.stderr
    catalog = json.loads(done.stdout)
    assert [e["id"] for e in catalog] == list(CATALOG)
    for exp in catalog:
        names = {p["name"] for p in exp["parameters"]}
        rounds = {"round", "max_rounds"} if exp["id"] == "steady-state" else {
            "runtime", "repetitions", "warmup", "randomize"}  # steady-state: rounds in order
        assert {"ramp", "size", "direct", "interval", *rounds} <= names
        assert all("default" in p and p["help"] for p in exp["parameters"])
    qd = next(e for e in catalog if e["id"] == "queue-depth")
    depths = next(p for p in qd["parameters"] if p["name"] == "queue_depths")
    assert depths["default"] == [1, 2, 4, 8, 16, 32, 64, 128, 256]


@pytest.mark.parametrize("settings, name", [
    ({"runtime": "soon"}, "runtime"), ({"size": "1MiB"}, "size"), ({"repetitions": "0"}, "repetitions"),
    ({"block_sizes": "4k,4k"}, "block_sizes"), ({"patterns": "diagonal"}, "patterns"),
    ({"warmup": "maybe"}, "warmup"), ({"colour": "red"}, "colour"),
])
def test_bad_parameters_name_the_field(settings, name):
    with pytest.raises(ParamError) as info:
        experiments_from_settings(["block-size"], settings)
    assert info.value.name == name


def test_plan_has_warmups_first_blocked_rounds_and_a_reproducible_seed():
    exps = experiments_from_settings(["zero-queue"], {"repetitions": "3"})
    plan = plan_run(exps, seed=42)
    trials = plan.trials
    assert len(trials) == 4 + 12 and plan.seed == 42
    assert all(t.warmup for t in trials[:4]) and not any(t.warmup for t in trials[4:])
    for rep in (1, 2, 3):  # each round holds every workload once
        assert len({t.workload for t in trials if t.repetition == rep and not t.warmup}) == 4
    assert [t.workload for t in plan_run(exps, seed=42).trials] == [t.workload for t in trials]
    assert [t.index for t in trials] == list(range(16))
    ordered = plan_run(experiments_from_settings(["zero-queue"], {"randomize": "false"}), 1)
    assert [t.workload.label for t in ordered.trials[4:8]] == [w.label for w in exps[0].workloads()]


def test_scoped_settings_apply_to_one_experiment_only():
    qd, tail = experiments_from_settings(["queue-depth", "tail-latency"],
                                         {"queue-depth.queue_depths": "1,2", "runtime": "2s"})
    assert qd.queue_depths == (1, 2) and tail.queue_depths == (8, 32)
    assert qd.runtime == tail.runtime == 2.0
    with pytest.raises(ParamError):
        experiments_from_settings(["zero-queue"], {"queue_depths": "1"})


@pytest.mark.parametrize("eid", list(CATALOG))
def test_describe_round_trips_defaults(eid):
    cls = CATALOG[eid]
    for p in describe(cls):
        assert build(cls, {p["name"]: p["default_text"]}) == build(cls)


def test_each_parameter_declares_its_words_where_it_is_declared():
    """Labels and choice words come from the declarations (what the form and the CLI show)."""
    labels = {(cls.id, p["name"]): p["label"] for cls in CATALOG.values() for p in describe(cls)}
    assert labels["queue-depth", "bs"] == "Block size" and labels["zero-queue", "size"] == "Test file size"
    assert labels["slc-cache", "runtime"] == labels["zero-queue", "runtime"] == "Runtime per trial"
    assert labels["rw-mix", "mixes"] == "Read share (%)" and labels["quick", "profile"] == "Profile"
    rw = next(p for p in describe(CATALOG["tail-latency"]) if p["name"] == "rw")
    assert rw["choice_words"]["randread"] == "random read" and rw["label"] == "Access pattern"


@pytest.mark.parametrize("eid", list(CATALOG))
def test_every_experiment_describes_itself_for_the_catalog(eid):
    """What the window's list, `experiments` and the README's table show of each experiment."""
    cls = CATALOG[eid]
    assert cls.id == eid and cls.title and cls.summary
    assert isinstance(cls.in_all, bool) and build(cls).workloads()


def test_a_setting_for_all_leaves_the_slc_tests_duration_and_volume_alone():
    from app.experiments.plan import experiments_from_settings, kept_note, kept_own
    settings = {"runtime": "2s", "size": "256MiB", "repetitions": "3"}
    zq, slc = experiments_from_settings(["zero-queue", "slc-cache"], settings)
    assert (zq.runtime, zq.repetitions) == (2.0, 3)
    assert (slc.runtime, slc.size, slc.repetitions) == (120.0, 8 * 2**30, 1)
    kept = kept_own(["zero-queue", "slc-cache"], settings)
    assert kept == {"slc-cache": ["runtime", "size", "repetitions"]}
    assert "slc-cache keeps its own runtime, size and repetitions" in kept_note(kept)
    (named,) = experiments_from_settings(["zero-queue", "slc-cache"],
                                         {"slc-cache.runtime": "30s"})[1:]
    assert named.runtime == 30.0                        # named with its id: it applies
    (alone,) = experiments_from_settings(["slc-cache"], {"runtime": "30s"})
    assert alone.runtime == 30.0                        # only the SLC test has it: meant for it


def test_run_dry_run_says_which_experiment_keeps_its_own(tmp_path):
    from conftest import run_cli
    done = run_cli("run", "zero-queue", "slc-cache", "--target", str(tmp_path / "t"), "--dry-run",
                   "--set", "runtime=2s")
    assert done.returncode == 0, done.stderr
    assert "note: slc-cache keeps its own runtime (its result rests on it; set " \
           "slc-cache.runtime=... to change it)" in done.stderr, done.stderr
    assert not (tmp_path / "t").exists()
