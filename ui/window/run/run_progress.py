"""Progress of the current trial and of the whole run, with elapsed time and ETA.

Updated about once a second from the model's clock (less often where the live charts lengthen
the window's beat to keep within their share of a core): with a sample at least that often, in the
GUI thread's wake-up that brought a sample (the live charts draw it in the same one, so the
window is painted once; ui/window/run/rhythm.py), else by its own timer, so the bars move even
with long sample intervals; the timer costs nothing between runs (it stops). The texts change
once a second, so a faster beat would repaint the strip for nothing and wake the thread for it
(docs/performance.md). A refresh only repaints: the labels never ask for a new layout
(LiveLabel) and the bars (ThinBar) join the window's next paint (the window's budget beside fio
is 1 % of a core).
"""
from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QGridLayout, QWidget

from app.experiments.plan import trial_kind
from app.stats.steady_state import convergence_text
from ui.window.messages import duration_text
from ui.window.plain import plain_tip
from ui.window.run.planned import PlannedTrial
from ui.window.run.run_model import RunModel
from ui.window.run.run_state import RunState
from ui.window.run.run_text import CANCELLED_EARLY, trials_text
from ui.window.run.thin_bar import ThinBar
from ui.window.widgets import LiveLabel

TICK_MS = 1000
LATE_MS = 30     # a tick this long after the shown second changes, never just before it


class RunProgress(QWidget):
    def __init__(self, model: RunModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        # opaque: a bar's repaint then stops here instead of repainting the window beneath it
        self.setAutoFillBackground(True)
        self.trial_label = LiveLabel()   # never widens the window; the whole text is the tooltip
        self.run_label = LiveLabel()
        self.trial_bar = ThinBar(1000)   # painted with the next frame, never at once
        self.run_bar = ThinBar(1000)
        grid = QGridLayout(self)
        grid.setContentsMargins(4, 0, 4, 0)
        grid.setVerticalSpacing(1)
        grid.addWidget(self.trial_label, 0, 0)
        grid.addWidget(self.trial_bar, 0, 1, Qt.AlignmentFlag.AlignVCenter)
        grid.addWidget(self.run_label, 1, 0)
        grid.addWidget(self.run_bar, 1, 1, Qt.AlignmentFlag.AlignVCenter)
        grid.setColumnStretch(0, 3)
        grid.setColumnStretch(1, 2)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._tick)
        model.state_changed.connect(self._on_state)
        model.reset.connect(self.refresh)
        model.trial_started.connect(lambda _t: self._on_state())   # ticks in step with it
        model.trial_ended.connect(lambda _r: self.refresh())
        model.samples_added.connect(self._on_sample)
        self.refresh()

    def _on_state(self) -> None:
        if self.model.live and not self.model.finished and self.model.status is not RunState.REFUSED:
            self._schedule()
        else:
            self._timer.stop()
        self.refresh()

    def _tick(self) -> None:
        self.refresh()
        if self.model.live and not self.model.finished:
            self._schedule()

    def _on_sample(self) -> None:
        """Refreshed on the window's beat (ui/window/run/rhythm.py): in the wake-up that brought
        a sample, the one the live charts draw in, so the window is painted once. Its own timer
        then waits for a beat that does not come (fio's samples come at their own phase, not the
        trial clock's), as long as the beat, which the charts may lengthen (rhythm.py)."""
        rhythm = self.model.rhythm
        if self._timer.isActive() and rhythm.beat:
            self.refresh()
            self._timer.start(int(rhythm.wait_s * 1000) + TICK_MS // 5)

    def _schedule(self) -> None:
        """The next tick when the trial's elapsed time, rounded as shown, reaches its next
        second (without a trial, a second from now)."""
        m = self.model
        phase = (m.current_elapsed_s() - 0.5) % 1.0 if m.current is not None else 0.0
        self._timer.start(int((1.0 - phase) * TICK_MS) + LATE_MS)

    def refresh(self) -> None:
        m = self.model
        total = m.trial_count
        ended = len(m.trials)
        if m.status is RunState.IDLE:
            self.trial_label.setText("No trial running.")
            self.run_label.setText("Run: not started.")
            self.trial_label.set_shorter()
            self.run_label.set_shorter()
            self.trial_bar.setValue(0)
            self.run_bar.setValue(0)
            return
        if m.current is not None and not m.finished:
            t = m.current
            elapsed = m.current_elapsed_s()
            kind = trial_kind(t.warmup, t.repetition, t.precondition, "repetition")
            rounds = convergence(m)   # a convergence round: where the SNIA rule stands instead
            times = f"{duration_text(elapsed)} of {duration_text(t.expected_s)}"
            known = m.precision.get(f"{t.experiment} {t.label}")  # a precision target: its ± now
            times += f", {known}" if known and not t.warmup else ""
            short = trial_kind(t.warmup, t.repetition, t.precondition)
            self.trial_label.setText(f"{t.experiment} {rounds}" if rounds else
                                     f"Trial {t.index + 1} of {total}: {t.experiment} {t.label} "
                                     f"({kind}), {times}")
            self.trial_label.set_shorter(   # reworded to fit, never cut
                f"{t.index + 1}/{total} {t.experiment} {t.label} ({short}), {times}",
                f"{t.index + 1}/{total} {t.label} ({short}), {times}",
                f"{t.index + 1}/{total} {t.label}, {times}")   # the workload stays named
            self.trial_label.setToolTip(plain_tip(f"{t.label} ({kind})" + (
                "; the SNIA rule over the last 5 finished rounds: IOPS excursion and slope as a "
                "share of their average" if rounds else "") + "".join(
                f"\n{label}: {text}" for label, text in m.precision.items())))
            self.trial_bar.setValue(int(1000 * min(1.0, elapsed / t.expected_s)) if t.expected_s else 0)

        else:
            label = {RunState.PREPARING: "Preparing: checking the target and the engine...",
                     RunState.RUNNING: "Writing the test file once before the first read...",
                     RunState.REFUSED: "Not started."}.get(m.status, f"No trial running (run {m.status}).")
            self.trial_label.setText(label)
            self.trial_label.set_shorter(label.split(":")[0])
            self.trial_bar.setValue(1000 if m.finished and ended else 0)
        if m.live and not m.finished:
            done_s = sum(p.expected_s for i, p in m.planned.items()
                         if m.current is not None and i < m.current.index)
            done_s += min(m.current_elapsed_s(), m.current.expected_s) if m.current else 0.0
            whole = m.total_expected_s()
            self.run_bar.setValue(int(1000 * done_s / whole) if whole else 0)
            run_elapsed = duration_text(time.monotonic() - m.run_started)
            left = f"{'up to' if m.open_ended else 'about'} {duration_text(m.eta_s())} left"
            self.run_label.setText(f"Run: {trials_text(m.trials, total)}, elapsed {run_elapsed}, "
                                   f"{left}")
            ended_text = f"{ended}/{total} ended"
            self.run_label.set_shorter(f"Run: {ended_text}, {run_elapsed}, {left}",
                                       f"{ended_text}, {left}", ended_text)
        else:
            self.run_bar.setValue(1000 if m.finished and ended >= total else
                                  int(1000 * ended / total) if total else 0)
            self.run_label.setText(CANCELLED_EARLY if m.finished and not m.run_dir else
                                   f"Run {m.status}: {trials_text(m.trials, total)}.")
            self.run_label.set_shorter(f"Run {m.status}: {ended}/{total} ended." if total else
                                       f"Run {m.status}.")


def convergence(m: RunModel) -> str:
    """'round k of at most N; rounds ..: excursion .., slope ..' while the current trial is a
    convergence round (precondition=steady, or the steady-state experiment), else ''."""
    t = m.current
    if t is None or not (t.precondition or (t.experiment in m.round_experiments and not t.warmup)):
        return ""
    def same(x: PlannedTrial) -> bool:
        return x.experiment == t.experiment and bool(x.precondition) == bool(t.precondition)
    planned = sum(1 for p in m.planned.values() if same(p))
    done = [r.measurement.total_iops if r.measurement else None for r in m.trials
            if r.experiment == t.experiment
            and r.precondition == bool(t.precondition) and r.index < t.index]
    return convergence_text(done, planned)
