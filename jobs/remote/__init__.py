"""Remote runs through fio servers: checks, set-up, the engine that drives `fio --client`, the remote folder and ssh SMART."""
