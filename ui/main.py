"""The one entry point: no arguments opens the window, a subcommand runs the command line."""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        from ui.app import run_window  # Qt is imported only when the window is wanted
        return run_window()
    from ui.cli import main as cli_main
    return cli_main(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
