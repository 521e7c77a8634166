"""A run's results, built once from the typed run (see docs/architecture.md): workload summaries, pooled percentiles, and the figure and table specs experiments fill."""
