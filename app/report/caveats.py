"""What limits the numbers, said where a grader looks for it (docs/report.md): per experiment
(percentiles resting on too few I/Os, plausibility flags, run-to-run spread) and for the whole
run (the medium under the test folder, e.g. a virtual disk, the window's own caveat; thermal
throttling or why it cannot be ruled out; trials that failed or never ran; figures not drawn).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from app.model.status import RunStatus, TrialStatus
from app.model.summary import Stat
from app.report.outputs import finding
from app.results.plausibility_notes import sentences as plausibility_sentences
from app.results.run_results import ExperimentResults, RunResults
from app.stats import analysis
from app.stats.io_counts import THIN
from app.text.markup import literal

SPREAD_LIMIT = 0.10
THIN_CUE = THIN


def is_io_caveat(sentence: str) -> bool:
    """A sentence of app/stats/io_counts.py ``thin_warnings``: a percentile resting on too few
    I/Os, a caveat rather than a finding."""
    return THIN in sentence


def _spread(stat: Stat | None) -> float | None:
    return analysis.relative_spread(stat.to_json()) if stat is not None else None


def spread_caveat(part: ExperimentResults) -> str | None:
    """Workloads whose repetitions differ by more than SPREAD_LIMIT (sample std / mean)."""
    noisy = []
    for row in part.workloads:
        spreads = [(name, cv) for name, stat in (("IOPS", row.total_iops),
                                                 ("mean latency", row.lat("mean")))
                   if (cv := _spread(stat)) is not None and cv > SPREAD_LIMIT]
        if spreads:
            name, cv = max(spreads, key=lambda p: p[1])
            noisy.append(f"{literal(row.label)} ({name} {cv:.0%}, n = {row.n})")
    if not noisy:
        return None
    return (f"Run-to-run spread (sample std / mean) above {SPREAD_LIMIT:.0%} for {len(noisy)} of "
            f"{len(part.workloads)} workloads: " + "; ".join(noisy) + ".")


#: The remedies, said once in the caveats of the whole run rather than under every experiment.
SPREAD_REMEDY = ("Where an experiment's caveats report a run-to-run spread above "
                 f"{SPREAD_LIMIT:.0%}, longer runtimes or more repetitions narrow it.")
THIN_REMEDY = ("Where a percentile rests on fewer than 10 I/Os beyond it, no value is stated: "
               "tables, findings and figures mark it 'too few I/Os (n)', n the I/Os beyond it "
               "(CSV and JSON keep the value beside a too-few flag), and the caveat under its "
               "experiment says what runtime would state it.")


def experiment_caveats(part: ExperimentResults, results: RunResults,
                       io_caveats: Iterable[str]) -> list[str]:
    """The caveats of one experiment: thin percentiles, plausibility flags, spread."""
    out = list(io_caveats)
    out += plausibility_sentences(part, results.run.info)
    spread = spread_caveat(part)
    if spread:
        out.append(spread)
    if not part.workloads:
        out.append("No finished measured trial, so no table rows, figures or findings.")
    return out


def run_caveats(results: RunResults, problems: Mapping[str, str], notes: Iterable[str] = (),
                has_vendor_spec: bool = True, remedies: Iterable[str] = ()) -> list[str]:
    """The caveats of the whole run, most important first; ``remedies`` last (what narrows the
    per-experiment caveats the document has stated)."""
    run, info = results.run, results.run.info
    drive = info.drive
    out = []
    medium = drive.medium if drive else None
    if medium and medium.note and medium.kind != "drive":
        out.append(f"Medium: the test folder {literal(medium.note)}; these numbers describe that "
                   "storage stack, not one SSD, and are not comparable with a drive's data sheet.")
    if drive is not None and not drive.model:
        out.append("The drive did not report a model, so no vendor specification could be "
                   "matched to it" + (": a comparison, if shown, is against a spec the user chose."
                                      if has_vendor_spec else "."))
    out += _throttle(results)
    out += [f"Trial {t.index} ({t.experiment} {t.label}): {line}." for t in run.trials
            if t.measurement is not None for line in t.measurement.caveats()]
    out += list(notes)  # what the export had to leave out (e.g. a damaged samples.csv)
    for t in run.trials:
        if t.status is not TrialStatus.DONE:
            out.append(f"Trial {t.index} ({literal(t.experiment)} {literal(t.label)}) {t.status}"
                       + (f": {literal(t.error)}" if t.error else "") + "; it is not counted.")
    planned = len(info.planned_trials or ())
    if planned and len(run.trials) + skipped_by_design(results) < planned:
        how = "not ended: going on or interrupted" if run.status == RunStatus.RUNNING else run.status
        out.append(f"Only {len(run.trials)} of {planned} planned trials ran (run {how}); "
                   "the tables show what finished.")
    out += [f"Figure {literal(fid)} was not drawn: {literal(why)}." for fid, why in problems.items()]
    return out + list(remedies)


def _throttle(results: RunResults) -> list[str]:
    """Throttled trials by name; with none flagged, whether throttling could be seen at all."""
    throttled = [t for t in results.run.trials if t.throttled]
    if throttled:
        return [f"Trial {t.index} ({literal(t.experiment)} {literal(t.label)}, repetition "
                f"{t.repetition}) was "
                "thermally throttled; its numbers are low." for t in throttled]
    temperature = results.run.info.temperature
    if temperature is not None and not temperature.source:
        why = literal((temperature.reason or "no sensor").split(";")[0])
        return [f"Thermal throttling: no trial was flagged, but the drive's temperature could not "
                f"be read ({why}), so throttling cannot be ruled out."]
    return []


def skipped_by_design(results: RunResults) -> int:
    """Planned trials a run leaves out on purpose once steady state holds: the steady-state
    experiment's remaining rounds, and the remaining precondition=steady rounds; and the
    repetitions a precision target made unnecessary (reached, or out of reach: a workload that
    is neither runs every planned repetition). Not caveats."""
    planned, ran, skipped = results.run.info.planned_trials or (), results.run.trials, 0
    for part in results.parts:
        if finding(part, "steady") is True:   # the steady-state experiment stopped at its round
            rounds_only = False
        elif part.entry.precondition_result and part.entry.precondition_result.steady_round:
            rounds_only = True                # only its precondition rounds were cut short
        elif (results.run.status == RunStatus.DONE and part.workloads
              and all(w.precision for w in part.workloads)):
            rounds_only = False               # measured to a precision target (docs/precision.md)
        else:
            continue
        mine = [t for t in planned if t.experiment == part.id
                and (t.precondition or not rounds_only)]
        done = [t for t in ran if t.experiment == part.id
                and (t.precondition or not rounds_only)]
        skipped += max(0, len(mine) - len(done))
    return skipped
