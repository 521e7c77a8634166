"""Statistics and physics applied to measurements: mean ± std, knees and crossovers, latency histograms, how many I/Os a percentile rests on, SNIA steady state, plausibility against the link."""
