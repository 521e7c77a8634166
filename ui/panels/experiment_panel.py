"""The experiment catalog with checkboxes, the selected experiment's parameter form, presets, and
the plan summary (trials and estimated time) that updates as you type.

The plan summary comes from the same functions the run uses (app.plan), so the trial count shown
before Run is the count the run will have. Settings are handed to the run as the scoped strings
the command line takes (``zero-queue.runtime=2s``), so window and CLI share one validation.
"""
from __future__ import annotations

import html
import logging
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.experiments import CATALOG, PRESETS
from app.params import ParamError
from app.plan import experiments_from_settings, plan_run
from app.units import human_bytes
from ui.panels.messages import duration_text
from ui.panels.param_form import ParamForm, field_title

PRESET_TITLES = {"course": "Course defaults", "quick": "Quick (5 s trials, 1 repetition)"}
CUSTOM = "custom"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PlanInfo:
    ok: bool
    message: str
    trials: int = 0
    estimated_s: float = 0.0
    size_bytes: int | None = None


class ExperimentPanel(QWidget):
    """Emits ``plan_changed(PlanInfo)`` after every change of selection or value."""

    plan_changed = Signal(object)

    def __init__(self, state: dict | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.forms = {eid: ParamForm(cls) for eid, cls in CATALOG.items()}
        self.plan = PlanInfo(False, "")
        self._applying = False

        self.preset = QComboBox()
        for key in PRESETS:
            self.preset.addItem(PRESET_TITLES.get(key, key.capitalize()), key)
        self.preset.addItem("Custom", CUSTOM)
        self.preset.activated.connect(lambda _i: self.apply_preset(self.preset.currentData()))
        self.catalog = QListWidget()
        for eid, cls in CATALOG.items():
            item = QListWidgetItem(f"{cls.title}  [{eid}]")
            item.setData(Qt.ItemDataRole.UserRole, eid)
            item.setToolTip(cls.summary)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.catalog.addItem(item)
        self.catalog.setMaximumHeight(self.catalog.sizeHintForRow(0) * (len(CATALOG) + 1) + 6)
        self.catalog.currentRowChanged.connect(self._show_form)
        self.catalog.itemChanged.connect(lambda _item: self._update_plan())
        self.stack = QStackedWidget()
        for form in self.forms.values():
            self.stack.addWidget(form)
            form.changed.connect(self._on_edit)
        self.scroll = scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.stack)
        self.summary = QLabel()
        self.summary.setWordWrap(True)

        top = QHBoxLayout()
        top.addWidget(QLabel("Preset:"))
        top.addWidget(self.preset, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(QLabel("Experiments to run (tick), and the one to edit (select):"))
        layout.addWidget(self.catalog)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.summary)
        self.restore(state or {})

    # -- selection and values -------------------------------------------------------------------
    def _items(self):
        return [self.catalog.item(i) for i in range(self.catalog.count())]

    def selected_ids(self) -> list[str]:
        return [it.data(Qt.ItemDataRole.UserRole) for it in self._items()
                if it.checkState() == Qt.CheckState.Checked]

    def set_checked(self, ids: list[str]) -> None:
        for it in self._items():
            on = it.data(Qt.ItemDataRole.UserRole) in ids
            it.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def select(self, eid: str) -> None:
        self.catalog.setCurrentRow(list(CATALOG).index(eid))

    def set_values(self, eid: str, values: dict[str, str]) -> None:
        """Set some fields of one experiment (others keep their text); the preset becomes Custom."""
        form = self.forms[eid]
        form.set_texts({**form.texts(), **values})
        self._on_edit()

    def settings(self) -> dict[str, str]:
        """Scoped NAME=VALUE strings for the ticked experiments (only non-default values)."""
        return {f"{eid}.{name}": text for eid in self.selected_ids()
                for name, text in self.forms[eid].changed_texts().items()}

    def apply_preset(self, key: str) -> None:
        if key == CUSTOM or key not in PRESETS:
            return
        self._applying = True
        try:
            for form in self.forms.values():
                form.set_texts({k: v for k, v in PRESETS[key].items() if k in form.fields})
        finally:
            self._applying = False
        self.preset.setCurrentIndex(self.preset.findData(key))
        self._update_plan()

    def _on_edit(self) -> None:
        if not self._applying:
            self.preset.setCurrentIndex(self.preset.findData(CUSTOM))
        self._update_plan()

    def _show_form(self, row: int) -> None:
        if row >= 0:
            self.stack.setCurrentIndex(row)

    # -- plan -----------------------------------------------------------------------------------
    def _update_plan(self) -> None:
        self.plan = self._compute_plan()
        colour = "#202020" if self.plan.ok else "#b01e1e"
        text = self.plan.message if self.plan.ok else html.escape(self.plan.message)
        self.summary.setText(f"<span style='color:{colour}'>{text}</span>")
        self.plan_changed.emit(self.plan)

    def _compute_plan(self) -> PlanInfo:
        """The plan of the ticked experiments, or why there is none: the first invalid field
        (its reason is beside it in its form), so Run stays disabled while anything is wrong."""
        ids = self.selected_ids()
        if not ids:
            return PlanInfo(False, "Tick at least one experiment to run.")
        bad = [(eid, name, msg) for eid in ids for name, msg in self.forms[eid].validate().items()]
        if bad:
            eid, name, msg = bad[0]
            where = f"{eid} \u2192 {field_title(name)}" if name else eid
            return PlanInfo(False, f"Fix {where}: {msg}"
                            + (f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""))
        try:
            experiments = experiments_from_settings(ids, self.settings())
            plan = plan_run(experiments, seed=0)
        except ParamError as exc:
            eid = exc.name if exc.name in self.forms else next(
                (i for i in ids if exc.name.startswith(i)), ids[0])
            self.forms[eid].show_form_error(exc.message)
            return PlanInfo(False, f"{eid}: {exc.message}")
        except Exception as exc:  # noqa: BLE001 - a stale plan would leave Run enabled: block it
            log.exception("planning failed")
            return PlanInfo(False, f"cannot plan this run ({type(exc).__name__}: {exc})")
        warm = sum(t.warmup for t in plan.trials)
        size = max(e.size for e in experiments)
        message = (f"<b>Plan:</b> {len(plan.trials)} trials ({len(plan.trials) - warm} measured"
                   f"{f' + {warm} warm-up' if warm else ''}) in {len(experiments)} experiment(s); "
                   f"estimated time <b>{duration_text(plan.estimated_s)}</b> of measuring, plus "
                   f"a few seconds per trial and the writing of each test file "
                   f"(largest {human_bytes(size)}).")
        return PlanInfo(True, message, len(plan.trials), plan.estimated_s, size)

    # -- persistence ------------------------------------------------------------------------------
    def state(self) -> dict:
        current = self.catalog.currentItem()
        return {"checked": self.selected_ids(), "preset": self.preset.currentData(),
                "current": current.data(Qt.ItemDataRole.UserRole) if current else None,
                "values": {eid: f.changed_texts() for eid, f in self.forms.items() if f.changed_texts()}}

    def restore(self, state: dict) -> None:
        self._applying = True
        try:
            values = state.get("values") or {}
            for eid, form in self.forms.items():
                form.set_texts(values.get(eid) or {})
            self.set_checked(state.get("checked") or ["zero-queue"])
        finally:
            self._applying = False
        preset = state.get("preset") or "course"
        self.preset.setCurrentIndex(max(0, self.preset.findData(preset)))
        current = state.get("current")
        self.select(current if current in CATALOG else "zero-queue")
        self._update_plan()
