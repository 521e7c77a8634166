"""Vendor specs: the curated database, matching a spec to the measured drive and workloads, and the comparison's table and figure."""
