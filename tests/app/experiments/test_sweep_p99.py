"""The queue-depth sweep shows two p99s: its table the mean ± std of each repetition's own p99,
its figure the p99 of all I/Os pooled. Table note and caption say which is which, the latency
kind, and the I/Os each rests on (full-lab run: fio json+ histograms, n = 2)."""
from __future__ import annotations

from app.experiments import CATALOG
from app.results.load import load_results

from conftest import FIXTURES


def test_the_table_and_the_figure_name_their_p99_and_its_io_counts():
    results = load_results(FIXTURES / "runs" / "full-lab-20261126" / "run").results
    part = results.part("queue-depth")
    table = next(t for t in CATALOG["queue-depth"].tables(part, results) if t.id == "queue-depth")
    note = next(n for n in table.notes if n.startswith("p99 cells"))
    assert "each trial's own p99 of total latency" in note
    assert "the fewest of the repetitions: QD1 8,488; QD4 22,168; QD16 57,159; QD64 68,450" in note
    assert "draws instead the p99 of all I/Os of the repetitions pooled" in note
    figure = next(f for f in CATALOG["queue-depth"].figures(part, results)
                  if f.id == "queue-depth-sweep")
    assert "p99 and p99.9 (total latency): of all I/Os of the repetitions pooled" in figure.caption
    assert "I/Os pooled: QD1 22,342; QD4 53,203; QD16 117,434; QD64 142,775" in figure.caption
    assert "The table's p99 is instead the mean ± std of each repetition's own p99." in figure.caption


def test_without_histograms_the_table_keeps_its_old_notes():
    """The run folder of an earlier version (no json+ histograms): no pooled p99 is drawn, so
    no note, and its exported tables keep their bytes (tests/ui/test_old_run_folder.py)."""
    (old,) = [p for p in (FIXTURES / "runs").iterdir() if p.name.startswith("2026")]
    results = load_results(old).results
    part = results.part("queue-depth")
    table = next(t for t in CATALOG["queue-depth"].tables(part, results) if t.id == "queue-depth")
    assert not any(n.startswith("p99 cells") for n in table.notes)
