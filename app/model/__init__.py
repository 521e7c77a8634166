"""The typed model: the values that flow from plan to figure, as frozen dataclasses.

- workload.py: :class:`Workload` (what a trial asks of the drive; ``outstanding`` and ``key``);
- percentiles.py: the one percentile list;
- interval.py: :class:`Interval` (an engine's live interval) and :class:`Sample` (a samples.csv
  row), which share :class:`Rates`;
- measurement.py: :class:`Measurement` per job, :class:`DirectionResult` per direction, with the
  latency's :class:`LatencyKind` (completion or total);
- trial.py: :class:`TrialResult`, a trial once ended; status.py: run and trial statuses;
- summary.py: :class:`Stat` (mean ± sample std, n) and :class:`WorkloadSummary`;
- run.py: :class:`Run`.

Each type converts to and from the run-folder JSON next to its definition (``from_json`` /
``to_json``), which stays the contract between versions: unknown keys are carried, not dropped.
"""
