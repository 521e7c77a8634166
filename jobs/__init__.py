"""Execution: process control, the trial runner, samplers and the one Qt pump (jobs/worker.py)."""
