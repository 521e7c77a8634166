"""The settings a run shares (set once, above the list: shared_settings.py), the experiment
catalog with checkboxes (LIST_ROWS in view, then it scrolls: no layout depends on the catalog's
length), the selected experiment's form, presets, and the plan summary.

The plan summary (trials and estimated time, updated as you type) comes from the functions the
run uses (app.experiments.plan), so the trial count shown before Run is the run's. Settings go
to the run as the CLI's scoped strings (``zero-queue.runtime=2s``): window and CLI share one validation.

Each form has its own scroll area, shown from the top whenever another experiment is selected;
the box above it says whether the selected experiment is ticked (editing one that is not would
otherwise change nothing that runs). Each form follows the shared settings (``_follow``) except
where the user overrode one in it. A preset sets exactly the values `ssd-profiler presets` lists,
and the line under it says which (``apply_preset``). With ``later`` the forms are made as
needed, the rest by ``stack.build_all`` (form_stack.py).
"""
from __future__ import annotations

import html

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
from ui.window import theme
from ui.window.panel_state import PanelState
from ui.window.setup.form_stack import FormStack
from ui.window.setup.param_form import COMMON, ParamForm
from ui.window.setup.plan_text import PlanInfo, compute_plan
from ui.window.setup.presets import apply_preset
from ui.window.setup.shared_settings import SHARED, SharedSettings
from ui.window.widgets import em

CUSTOM = "custom"
LIST_ROWS = 9   # the experiment list's rows in view; a longer catalog scrolls
__all__ = ["CUSTOM", "LIST_ROWS", "ExperimentPanel", "PlanInfo"]


class ExperimentPanel(QWidget):
    """Emits ``plan_changed(PlanInfo)`` after every change of selection or value."""

    plan_changed = Signal(object)

    def __init__(self, state: PanelState | None = None, parent: QWidget | None = None,
                 later: bool = False):
        super().__init__(parent)
        self.plan = PlanInfo(False, "")
        self._applying = False

        self.preset = QComboBox()
        for key in PRESETS:
            self.preset.addItem(PRESET_TITLES.get(key, key.capitalize()), key)
        self.preset.addItem("Custom", CUSTOM)
        self.preset.activated.connect(lambda _i: self.apply_preset(self.preset.currentData()))
        self.preset_note = QLabel()
        self.preset_note.setWordWrap(True)
        theme.set_tone(self.preset_note, "muted", "font-size:small")
        self.preset_note.hide()
        self.shared = SharedSettings()
        self.shared.changed.connect(self._on_shared)
        self._overrides: dict[str, list[str]] = {}   # for forms not made yet
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
        self.catalog.setToolTip("Tick the experiments to run; select one to edit its own parameters")
        self.include_box = QCheckBox()
        bold = self.include_box.font()
        bold.setBold(True)
        self.include_box.setFont(bold)
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
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.setSpacing(2)   # the form's height is scarce at 1280x720
        layout.addLayout(top)
        layout.addWidget(self.preset_note)
        layout.addWidget(self.shared)
        layout.addWidget(self.catalog)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.summary)
        self.restore(state or PanelState())

    def form(self, eid: str) -> ParamForm:
        """Experiment ``eid``'s form, made now if it was not (FormStack)."""
        return self.stack.form(eid)

    def _form_made(self, eid: str, form: ParamForm) -> None:
        form.changed.connect(self._on_edit)
        form.reset_requested.connect(lambda name: self.reset_override(eid, name))
        form.set_overridden(self._overrides.pop(eid, ()))
        self._follow(eid)

    def _follow(self, eid: str) -> None:
        """Experiment ``eid``'s form to the shared settings: a shared value set (not the common
        default) for all; otherwise the experiment's own default (the quick check's 5 s)."""
        form = self.forms[eid]
        values = self.shared.texts()
        form.follow({n: values[n] if self.shared.is_set(n) else form.meta[n]["default_text"]
                     for n in form.following})

    def _on_shared(self) -> None:
        for eid in self.forms:
            self._follow(eid)
        self._on_edit()

    def reset_override(self, eid: str, name: str) -> None:
        """Field ``name`` of ``eid`` follows the shared setting again."""
        form = self.form(eid)
        form.set_overridden(form.overridden - {name})
        self._follow(eid)
        self._on_edit()

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
        """Preset, shared settings, list, the selected form with about three fields in view
        (its shared ones are set above), and the plan."""
        unit = em(self)
        return (self.preset.sizeHint().height() + self.shared.sizeHint().height() + self.catalog.height()
                + 3 * 3 * unit + 5 * unit)

    def focus_chain(self) -> list[QWidget]:
        """Tab order after the list: the box, then each form's fields (hidden ones are skipped)."""
        chain: list[QWidget] = [self.include_box]
        for form in self.stack.made_in_order():
            chain += [form.editors[name] for name in form.meta if name not in COMMON]
            for name in (n for n in form.meta if n in COMMON):
                chain += [form.editors[name]] + ([form.resets[name]] if name in form.resets else [])
        return chain

    # -- selection and values -------------------------------------------------------------------
    def _items(self) -> list[QListWidgetItem]:
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
        """Set some fields of one experiment as typed in its form (others keep their text; a
        shared setting becomes this experiment's override); the preset becomes Custom."""
        form = self.form(eid)
        form.set_texts({**form.texts(), **values})
        form.set_overridden(form.overridden | set(values))
        self._on_edit()

    def settings(self) -> dict[str, str]:
        """Scoped NAME=VALUE strings for the ticked experiments (only non-default values)."""
        return {f"{eid}.{name}": text for eid in self.selected_ids()
                for name, text in self.form(eid).changed_texts().items()}

    def apply_preset(self, key: str) -> str:
        """Exactly the values `ssd-profiler presets` lists for ``key`` (presets.py); returns and
        shows what changed."""
        if key == CUSTOM or key not in PRESETS:
            return ""
        self.stack.build_all()
        self._applying = True
        try:
            message = apply_preset(self.preset.itemText(self.preset.findData(key)), PRESETS[key],
                                   self.shared, self.forms)
            for eid in self.forms:
                self._follow(eid)
        finally:
            self._applying = False
        self.preset.setCurrentIndex(self.preset.findData(key))
        self.preset_note.setText(message)
        self.preset_note.show()
        self._update_plan()
        return message

    def _on_edit(self) -> None:
        if not self._applying:
            self.preset.setCurrentIndex(self.preset.findData(CUSTOM))
            self.preset_note.hide()   # what the preset did is no longer what is set
        self._update_plan()

    def _show_form(self, row: int) -> None:
        if row >= 0:
            self.form(list(CATALOG)[row]).hold(self.include_box)   # in place of its title
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

    def _on_tick(self, _item: QListWidgetItem) -> None:
        self._sync_include()
        self.shared.show_kept(self.selected_ids())
        self._update_plan()

    # -- plan -----------------------------------------------------------------------------------
    def _update_plan(self) -> None:
        self.plan = self._compute_plan()
        text = self.plan.message if self.plan.ok else html.escape(self.plan.message)
        self.summary.setText(theme.span("text" if self.plan.ok else "error", text))
        self.plan_changed.emit(self.plan)

    def _compute_plan(self) -> PlanInfo:
        """The plan of the ticked experiments, or why there is none (plan_text.compute_plan)."""
        ids = self.selected_ids()
        if ids and self.shared.validate():
            return PlanInfo(False, "Fix the settings for every ticked experiment (above the list).")
        return compute_plan(ids, self.form, self.settings)

    # -- persistence ------------------------------------------------------------------------------
    def state(self) -> PanelState:
        self.stack.build_all()
        current = self.catalog.currentItem()
        return PanelState(
            tuple(self.selected_ids()), self.preset.currentData(),
            current.data(Qt.ItemDataRole.UserRole) if current else None,
            {eid: f.changed_texts() for eid, f in self.forms.items() if f.changed_texts()},
            self.shared.changed_texts(),
            {eid: tuple(sorted(f.overridden)) for eid, f in self.forms.items() if f.overridden})

    def restore(self, state: PanelState) -> None:
        values = state.values
        overrides = state.overrides
        if overrides is None:   # saved before shared settings: a common value set in a form is its own
            overrides = {eid: tuple(n for n in v if n in SHARED) for eid, v in values.items()}
        self._applying = True
        try:
            self.shared.set_texts(dict(state.shared))
            self.stack.restore({eid: dict(v) for eid, v in values.items()})
            self._overrides = {eid: list(v) for eid, v in overrides.items() if eid not in self.forms}
            for eid, form in self.forms.items():
                form.set_overridden(overrides.get(eid, ()))
                self._follow(eid)
            self.set_checked(list(state.checked) or ["zero-queue"])
        finally:
            self._applying = False
        preset = state.preset or "course"
        self.preset.setCurrentIndex(max(0, self.preset.findData(preset)))
        current = state.current
        self.select(current if current in CATALOG else "zero-queue")
        self._update_plan()
