"""The student's case: a vendor 'up to' sequential write with no block size, queue depth or
threads stated (the PM9A1 record of the bundled catalog) is compared with the sequential write
measured at the vendor's usual QD32 × 1 (slc-cache's SEQ1M Q32T1 write of a genuine run of
every experiment), not with zero-queue's QD1 write; the usual 128 KiB block's best match is
named beside it, the conditions are said to be assumed, and the Discussion checks the
sustained write against the vendor's figure."""
from dataclasses import replace

from app.report.interpretation.discussion import discussion
from app.results.load import load_results
from app.specs import catalog as vendor
from app.specs import match as vendor_compare
from app.specs.record import VendorSpec

from conftest import FIXTURES

FULL = FIXTURES / "runs" / "full-lab-20261126" / "run"


COURSE = ("zero-queue", "block-size", "rw-mix", "queue-depth", "tail-latency", "slc-cache")


def test_the_sequential_write_is_compared_at_the_vendors_queue_depth():
    every = load_results(FULL).results
    spec = VendorSpec.from_json(next(r for r in vendor.load_specs()
                                     if r["id"] == "samsung-pm9a1-512gb"))
    # the quick check ran SEQ128K Q32T1: the usual block at the usual depth, like for like
    row = next(r for r in vendor_compare.compare(every.parts, spec, every.run.info).rows
               if r.metric == "seq_write_mbps")
    assert row.like_for_like and row.measured.experiment == "quick"
    # the course's six experiments (the student's run): the QD32 write of slc-cache
    results = replace(every, parts=tuple(p for p in every.parts if p.id in COURSE))
    comparison = vendor_compare.compare(results.parts, spec, results.run.info)
    write = next(r for r in comparison.rows if r.metric == "seq_write_mbps")
    assert write.measured is not None
    assert (write.measured.label, write.measured.experiment) == ("SEQ1M Q32T1 write", "slc-cache")
    assert not write.like_for_like and write.vendor_setup.assumed
    assert write.match.startswith("queue-depth match: SEQ1M Q32T1 write (QD32 × 1, 1MiB blocks) "
                                  "of slc-cache; the spec is at Q32T1, 128KiB blocks (usual "
                                  "practice, assumed)")
    assert "best block-size match beside it: SEQ128K Q1T1 write of zero-queue" in write.match
    check = next(c for c in discussion(results, comparison) if c.startswith("Sustained write"))
    assert "against 5,000 MB/s 'up to'" in check and check.endswith("holds.")
