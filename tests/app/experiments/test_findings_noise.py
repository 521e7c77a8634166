"""A finding states a ratio between two measured means only when Welch's t-test (5 %) separates
them; otherwise it says the difference is within the noise, with n. Checked on the helper and on
the full-lab run's report sentences (its n = 2 repetitions on a VM separate few pairs)."""
from __future__ import annotations

import pytest

from app.experiments import CATALOG
from app.experiments.common import separated, versus
from app.model.summary import Stat
from app.results.load import load_results

from conftest import FIXTURES

FULL_RUN = FIXTURES / "runs" / "full-lab-20261126" / "run"


def test_a_ratio_is_claimed_only_beyond_the_noise():
    apart, close = Stat(96.0, 1.0, 3), Stat(71.7, 1.0, 3)
    assert separated(apart, close) is True
    assert versus(apart, close, "writes take 1.34× the time of reads") == (
        "writes take 1.34× the time of reads")
    noisy_a, noisy_b = Stat(156.0, 6.0, 2), Stat(143.0, 4.0, 2)  # p = 0.14: overlapping spread
    assert separated(noisy_a, noisy_b) is False
    said = versus(noisy_a, noisy_b, "reads take 1.09× the time of writes", "latency")
    assert said == ("the latency difference is within the noise (n = 2; Welch's t-test at 5 % "
                    "does not separate them)")
    assert "n = 2 and 3" in versus(Stat(10.0, 5.0, 2), Stat(11.0, 5.0, 3), "x")


def test_one_repetition_keeps_the_ratio_but_says_it_is_untested():
    said = versus(Stat(96.0, None, 1), Stat(71.7, None, 1), "writes take 1.34× the time of reads")
    assert said.startswith("writes take 1.34×") and "not tested against the noise" in said
    assert separated(Stat(96.0, None, 1), Stat(71.7, None, 1)) is None


@pytest.fixture(scope="module")
def full_lab():
    return load_results(FULL_RUN).results


@pytest.mark.parametrize("eid, noise, gone", [
    ("zero-queue", "SEQ128K Q1T1 at QD1", "reads take 1.09×"),
    ("block-size", "At 4 KiB, sequential access reaches", "1.03× the IOPS"),
    ("rw-mix", "Pure reads reach", "0.567× the IOPS"),
    ("queue-depth", "Going on from the knee to the peak: the IOPS difference", "buys 1.19×"),
    ("tail-latency", "From QD8 to QD32 the median and the p99.9 both change", "grows 1.08×"),
])
def test_the_full_lab_findings_say_within_the_noise(full_lab, eid, noise, gone):
    part = full_lab.part(eid)
    words = CATALOG[eid].sentences(part, full_lab)
    sentence = next(w for w in words if w.startswith(noise) or noise in w)
    assert "within the noise (n = 2" in sentence and gone not in sentence
    # a difference its repetitions do show is still stated as a ratio
    if eid == "zero-queue":
        assert any("writes take 1.34× the time of reads" in w for w in words)
    if eid == "queue-depth":
        assert any("it costs 3.30× the latency" in w for w in words)
