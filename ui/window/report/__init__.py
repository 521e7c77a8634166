"""What a run gave: results and findings, figures, the vendor comparison, export, past runs."""
