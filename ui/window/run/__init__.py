"""The run on screen, live or reopened from its folder (past_runs): the run model every run view
takes, the worker's life cycle, live charts, progress and the log."""
