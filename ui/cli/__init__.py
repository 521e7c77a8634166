"""The terminal interface: ``run_cmd`` parses the command line and runs each subcommand. No Qt,
except ``export`` (figures) and ``--self-test`` (opens the window offscreen), which load it lazily."""
