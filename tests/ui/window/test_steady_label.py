"""A caption whose counts change at every trial's end (ui/window/widgets.py SteadyLabel) is
repainted, not laid out, while its line count stays: with the results under the charts, each
new layout made the tab widget above it repaint its frame and page beside fio."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QObject  # noqa: E402
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget  # noqa: E402

from ui.window.widgets import SteadyLabel  # noqa: E402


class LayoutRequests(QObject):
    def __init__(self):
        super().__init__()
        self.count = 0

    def eventFilter(self, _obj, event):  # noqa: N802 - Qt's name
        self.count += event.type() == QEvent.Type.LayoutRequest
        return False


def _shown(qtbot, label_type):
    page = QWidget()
    layout = QVBoxLayout(page)
    label = label_type()
    layout.addWidget(label)
    layout.addWidget(QLabel("a table under it"), 1)
    label.setText("<b>Trials</b> of /tmp/run: 1 of 4 trials done; status <b>running</b>")
    qtbot.addWidget(page)
    page.resize(700, 200)
    page.show()
    qtbot.waitExposed(page)
    qtbot.wait(100)   # the first layout settles
    requests = LayoutRequests()
    page.installEventFilter(requests)
    return page, label, requests


def test_a_new_count_on_as_many_lines_is_painted_not_laid_out(qtbot):
    page, label, requests = _shown(qtbot, SteadyLabel)
    label.setText("<b>Trials</b> of /tmp/run: 2 of 4 trials done; status <b>running</b>")
    qtbot.wait(50)
    assert requests.count == 0
    assert label.text().startswith("<b>Trials</b> of /tmp/run: 2 of 4")
    label.grab()   # painted from the new text without an error


def test_a_text_that_needs_more_lines_is_laid_out_again(qtbot):
    page, label, requests = _shown(qtbot, SteadyLabel)
    before = label.height()
    label.setText("<b>Trials</b> of " + "/a/very/long/folder" * 12 + ": 2 of 4 trials done")
    qtbot.waitUntil(lambda: requests.count > 0, timeout=5000)
    qtbot.waitUntil(lambda: label.height() > before, timeout=5000)


def test_qlabel_itself_asks_for_a_layout_for_the_same_change(qtbot):
    """The cost the label avoids (if Qt stops asking, the label can go)."""
    page, label, requests = _shown(qtbot, QLabel)
    label.setWordWrap(True)
    qtbot.wait(50)
    requests.count = 0
    label.setText("<b>Trials</b> of /tmp/run: 2 of 4 trials done; status <b>running</b>")
    qtbot.waitUntil(lambda: requests.count > 0, timeout=5000)


def test_a_narrower_label_lays_out_the_text_it_shows(qtbot):
    """A count painted in place, then the window narrowed: the layout takes the shown text,
    whose wrapping may differ from the one laid out before."""
    page, label, _requests = _shown(qtbot, SteadyLabel)
    label.setText("<b>Trials</b> of /tmp/run: 2 of 4 trials done; status <b>running</b>")
    page.resize(160, 200)
    qtbot.waitUntil(lambda: QLabel.text(label).startswith("<b>Trials</b> of /tmp/run: 2"), timeout=5000)
    qtbot.waitUntil(lambda: label.height() >= label.heightForWidth(label.width()), timeout=5000)
