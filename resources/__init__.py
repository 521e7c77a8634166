"""Package data: vendor specs, presets, icons (loaded with importlib.resources)."""
