"""Running a plan: the session that checks and sets up, the trial runner, held starts, and each trial's record and samples."""
