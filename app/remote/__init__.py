"""Runs on fio servers over the network: what a remote target is, what its SMART can tell, its plan's extra time, and per-host tables."""
