"""Before a run: the target folder and its drive, the engine, the experiments and their parameters."""
