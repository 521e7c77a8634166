"""The experiment catalog with checkboxes (LIST_ROWS in view, then it scrolls: no layout depends
on the catalog's length), the selected experiment's form, presets, and the plan summary.

The plan summary (trials and estimated time, updated as you type) comes from the functions the
run uses (app.experiments.plan), so the trial count shown before Run is the run's. Settings go
to the run as the CLI's scoped strings (``zero-queue.runtime=2s``): window and CLI share one validation.

Each form has its own scroll area, shown from the top whenever another experiment is selected;
the box above it says whether the selected experiment is ticked (editing one that is not would
otherwise change nothing that runs). "Apply to all ticked experiments": ``apply_common``.
With ``later`` the forms are made as needed, the rest by ``stack.build_all`` (form_stack.py).
"""
from __future__ import annotations

import html
import logging
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.experiments import CATALOG, PRESET_TITLES, PRESETS
from app.experiments.plan import experiments_from_settings, kept_own, plan_run
from app.params import ParamError
from ui.window import theme
from ui.window.setup.form_stack import FormStack
from ui.window.setup.param_form import COMMON, ParamForm, common_values
from ui.window.setup.plan_text import plan_message
from ui.window.widgets import em

CUSTOM = "custom"
LIST_ROWS = 9   # the experiment list's rows in view; a longer catalog scrolls
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

    def __init__(self, state: dict | None = None, parent: QWidget | None = None,
                 later: bool = False):
        super().__init__(parent)
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
        rows = min(len(CATALOG), LIST_ROWS)
        self.catalog.setFixedHeight(self.catalog.sizeHintForRow(0) * rows + 2 * self.catalog.frameWidth() + 2)
        self.catalog.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # elides
        self.catalog.currentRowChanged.connect(self._show_form)
        self.catalog.itemChanged.connect(self._on_tick)
        self.include_box = QCheckBox()
        self.include_box.toggled.connect(self._include_current)
        self.stack = FormStack(self._form_made)
        self.forms, self.scrolls = self.stack.forms, self.stack.scrolls   # those made so far
        if not later:
            self.stack.build_all()
        self.summary = QLabel()
        self.summary.setWordWrap(True)

        top = QHBoxLayout()
        top.addWidget(QLabel("Preset:"))
        top.addWidget(self.preset, 1)
        what = QLabel("Tick the experiments to run; select one to edit its parameters:")
        what.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addWidget(what)
        layout.addWidget(self.catalog)
        layout.addWidget(self.include_box)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.summary)
        self.restore(state or {})

    def form(self, eid: str) -> ParamForm:
        """Experiment ``eid``'s form, made now if it was not (FormStack)."""
        return self.stack.form(eid)

    def _form_made(self, eid: str, form: ParamForm) -> None:
        form.changed.connect(self._on_edit)
        form.apply_common.connect(lambda: self.apply_common(eid))

    # -- layout -----------------------------------------------------------------------------------
    @property
    def form_scroll(self) -> QScrollArea:
        """The scroll area of the form in view (not ``scroll``: that is QWidget's own method)."""
        area = self.stack.currentWidget()
        assert isinstance(area, QScrollArea)  # the stack holds one scroll area per form
        return area

    def current_id(self) -> str | None:
        item = self.catalog.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    def comfortable_height(self) -> int:
        """Preset, list, the selected form with about four fields in view, and the plan."""
        unit = em(self)
        return (self.preset.sizeHint().height() + self.catalog.height()
                + self.include_box.sizeHint().height() + 4 * 3 * unit + 5 * unit)

    def focus_chain(self) -> list[QWidget]:
        """Tab order after the list: the box, then each form's fields (hidden ones are skipped)."""
        chain: list[QWidget] = [self.include_box]
        for form in self.stack.made_in_order():
            chain += [w for name in form.meta if name not in COMMON
                      for w in (form.editors[name],)]
            chain.append(form.apply_button)
            chain += [form.editors[name] for name in form.meta if name in COMMON]
        return chain

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
        form = self.form(eid)
        form.set_texts({**form.texts(), **values})
        self._on_edit()

    def settings(self) -> dict[str, str]:
        """Scoped NAME=VALUE strings for the ticked experiments (only non-default values)."""
        return {f"{eid}.{name}": text for eid in self.selected_ids()
                for name, text in self.form(eid).changed_texts().items()}

    def apply_preset(self, key: str) -> None:
        if key == CUSTOM or key not in PRESETS:
            return
        self.stack.build_all()
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
            self.form(list(CATALOG)[row])
            self.stack.setCurrentIndex(row)
            self.form_scroll.verticalScrollBar().setValue(0)   # another form: from its top
            self.form_scroll.horizontalScrollBar().setValue(0)
            self._sync_include()

    def _sync_include(self) -> None:
        item = self.catalog.currentItem()
        if item is None:
            return
        eid = item.data(Qt.ItemDataRole.UserRole)
        self.include_box.blockSignals(True)
        self.include_box.setChecked(item.checkState() == Qt.CheckState.Checked)
        self.include_box.blockSignals(False)
        self.include_box.setText(f"Run {eid} (ticked in the list)")

    def _include_current(self, on: bool) -> None:
        item = self.catalog.currentItem()
        if item is not None:
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def _on_tick(self, _item) -> None:
        self._sync_include()
        self._update_plan()

    def apply_common(self, source: str) -> str:
        """The common parameters of ``source``'s form into every other ticked experiment, as
        ``--set NAME=VALUE`` would (app.experiments.plan.kept_own: a sustained write keeps its
        own duration and volume; param_form.common_values: an untouched default is not forced on
        an experiment whose default differs); returns and shows what was done."""
        form = self.form(source)
        targets = [e for e in self.selected_ids() if e != source]
        own = kept_own(self.selected_ids(), {name: "" for name in COMMON if name in form.fields})
        kept: dict[str, list[str]] = {}
        self._applying = True
        try:
            for eid in targets:
                other = self.form(eid)
                values, skipped = common_values(form, other)
                values = {k: v for k, v in values.items() if k not in own.get(eid, ())}
                other.set_texts({**other.texts(), **values})
                names = [n for n in COMMON if n in skipped or n in own.get(eid, ())]
                if names:
                    kept[eid] = [other.title_of(n).lower() for n in names]
        finally:
            self._applying = False
        message = (f"Applied to {', '.join(targets)}." + (
            " " + "; ".join(f"{eid} keeps its own {', '.join(names)}" for eid, names in kept.items())
            + " (its result rests on them, or its own default differs; change them in its form)."
            if kept else "") if targets else
            "Tick other experiments in the list to apply these values to them.")
        self._on_edit()
        form.show_applied(message)
        return message

    # -- plan -----------------------------------------------------------------------------------
    def _update_plan(self) -> None:
        self.plan = self._compute_plan()
        text = self.plan.message if self.plan.ok else html.escape(self.plan.message)
        self.summary.setText(theme.span("text" if self.plan.ok else "error", text))
        self.plan_changed.emit(self.plan)

    def _compute_plan(self) -> PlanInfo:
        """The plan of the ticked experiments, or why there is none: the first invalid field
        (its reason is beside it in its form), so Run stays disabled while anything is wrong."""
        ids = self.selected_ids()
        if not ids:
            return PlanInfo(False, "Tick at least one experiment to run.")
        bad = [(eid, name, msg) for eid in ids for name, msg in self.form(eid).validate().items()]
        if bad:
            eid, name, msg = bad[0]
            where = f"{eid} \u2192 {self.form(eid).title_of(name)}" if name else eid
            return PlanInfo(False, f"Fix {where}: {msg}"
                            + (f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""))
        try:
            experiments = experiments_from_settings(ids, self.settings())
            plan = plan_run(experiments, seed=0)
        except ParamError as exc:
            eid = exc.name if exc.name in CATALOG else next(
                (i for i in ids if exc.name.startswith(i)), ids[0])
            self.form(eid).show_form_error(exc.message)
            return PlanInfo(False, f"{eid}: {exc.message}")
        except Exception as exc:  # noqa: BLE001 - a stale plan would leave Run enabled: block it
            log.exception("planning failed")  # the exception's type goes to the log, not the user
            return PlanInfo(False, f"cannot plan this run: {exc}")
        size = max(e.size for e in experiments)
        message = plan_message(ids, experiments, plan)
        return PlanInfo(True, message, len(plan.trials), plan.estimated_s, size)

    # -- persistence ------------------------------------------------------------------------------
    def state(self) -> dict:
        self.stack.build_all()
        current = self.catalog.currentItem()
        return {"checked": self.selected_ids(), "preset": self.preset.currentData(),
                "current": current.data(Qt.ItemDataRole.UserRole) if current else None,
                "values": {eid: f.changed_texts() for eid, f in self.forms.items() if f.changed_texts()}}

    def restore(self, state: dict) -> None:
        self._applying = True
        try:
            self.stack.restore(state.get("values") or {})
            self.set_checked(state.get("checked") or ["zero-queue"])
        finally:
            self._applying = False
        preset = state.get("preset") or "course"
        self.preset.setCurrentIndex(max(0, self.preset.findData(preset)))
        current = state.get("current")
        self.select(current if current in CATALOG else "zero-queue")
        self._update_plan()
