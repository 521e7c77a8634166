"""Run progress on a terminal, drawn by rich: one live line (trial k/N, workload, live MB/s and
IOPS, time left from the plan) above which each finished trial prints its result line.

Off a terminal (a pipe, a log file, CI) :class:`ui.cli.views.Progress` prints plain lines instead:
no cursor movement, nothing overwritten. A terminal that goes away (SIGHUP) only stops the
drawing; the run still ends cleanly.
"""
from __future__ import annotations

import time
from typing import TextIO

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn

from app.units import duration_text
from jobs.events import (
    Event,
    LogMessage,
    RunFinished,
    RunStarted,
    Sample,
    TrialFailed,
    TrialFinished,
    TrialStarted,
)
from ui.cli import views as cli_text
from ui.cli.terminal import SafeConsole


def progress_for(stream: TextIO, levels: frozenset[str] = cli_text.EVENT_LEVELS,
                 lines: bool = True) -> RichProgress | cli_text.Progress:
    """Rich progress on a terminal, plain lines elsewhere; ``levels``: the run's messages shown
    (-v/-q); ``lines=False`` (-q): those messages only, no progress."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    return RichProgress(stream, levels) if tty and lines else cli_text.Progress(stream, levels, lines)


class RichProgress:
    def __init__(self, stream: TextIO, levels: frozenset[str] = cli_text.EVENT_LEVELS) -> None:
        self.console = SafeConsole(file=stream, highlight=False)  # engine text is data
        self.levels = levels
        self.plain = cli_text.Progress(None)  # the same line texts and ETA, without its output
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(bar_width=20),
                            MofNCompleteColumn(), TextColumn("{task.fields[live]}"),
                            TextColumn("[dim]{task.fields[eta]}"), console=self.console,
                            transient=True)
        self.task: TaskID | None = None
        self.current = ""
        self.live = ""  # the live MB/s and IOPS of the trial under way
        self.alive = True

    def show(self, event: Event) -> None:
        if not self.alive:
            return
        try:
            self._show(event)
        except (OSError, ValueError):  # the terminal is gone: keep running, stop drawing
            self.alive = False

    def _show(self, event: Event) -> None:
        now, plain = time.monotonic(), self.plain
        if isinstance(event, RunStarted):
            plain.show(event)
            self.console.print(f"run: {', '.join(event.experiments)}: {event.trial_count} trials, "
                               f"{cli_text.about(event)} {duration_text(event.estimated_s)} with "
                               f"{event.engine_version} (seed {event.seed})", markup=False)
            self.console.print(f"run folder: {event.run_dir}", markup=False)
            self.bar.start()
            self.task = self.bar.add_task("starting", total=event.trial_count, live="", eta="")
        elif isinstance(event, TrialStarted):
            plain.show(event)
            self.current = cli_text.trial_line(event, plain.total)
            if "command" in self.levels:
                self.console.print(cli_text.command_line(event.argv), markup=False, soft_wrap=True)
            self._update(description=self.current, live="")
        elif isinstance(event, Sample):
            self._update(live=cli_text.live_text(event))
        elif isinstance(event, TrialFinished | TrialFailed):
            plain.show(event)
            self.console.print(self.current, markup=False)
            self.console.print(plain.ended_text(event, now), markup=False)
            self._update(advance=1)
        elif isinstance(event, LogMessage) and event.level in self.levels:
            self.console.print(cli_text.message_line(event), markup=False)
        elif isinstance(event, RunFinished):
            self.bar.stop()
            self.console.print(cli_text.run_end_line(event, now - plain.started), markup=False)

    def _update(self, advance: int = 0, description: str | None = None, live: str | None = None) -> None:
        """Advance the bar; a None ``description`` or ``live`` keeps the one shown."""
        if self.task is None:
            return
        if live is not None:
            self.live = live
        left = self.plain.eta.seconds_left(time.monotonic())
        self.bar.update(self.task, advance=advance, description=description, live=self.live,
                        eta=f"{duration_text(left)} left")
