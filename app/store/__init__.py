"""The run folder on disk: the one place that reads and writes run.json, trials.csv and samples.csv, and reads files a user names."""
