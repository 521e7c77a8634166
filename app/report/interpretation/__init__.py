"""The report's generated interpretation (docs/report.md, "Interpretation"): per experiment the
method in prose and a mechanism read from this run's numbers, a Discussion that checks the
experiments against each other, and the Limitations and Conclusion. Each sentence is
conditional on the data: a mechanism is named only where its signature is in the numbers
(Welch's t-test through app/experiments/common.py ``versus``/``separated``), and the sentence
says so when it is not."""
