"""Watching the drive during a run: the temperature sampler and the monitor."""
