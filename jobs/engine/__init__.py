"""Engine processes on this machine: finding an engine, starting it, streaming its output, ending it with the app."""
