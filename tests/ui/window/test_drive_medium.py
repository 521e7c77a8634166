"""The drive panel names what the target folder really sits on, and what that means for the
numbers, before Run is pressed (app/paths/medium.py): from describe_drive dicts, and
for a real folder in the window."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from app.drive.facts import DriveFacts  # noqa: E402
from app.paths.medium import (
    Medium,  # noqa: E402
    classify,  # noqa: E402
)
from ui.window.setup import drive_text  # noqa: E402
from ui.window.setup.drive_info import medium_html  # noqa: E402

import gui_support  # noqa: E402

make_window = gui_support.make_window


def medium_text(record):
    return drive_text.medium_text(Medium.from_json(record))


def summarize(path, record):
    return drive_text.summarize(path, DriveFacts.from_json(record))

NFS = {"kind": "network", "fs_type": "nfs4", "mount_point": "/srv/share", "source": "server:/export",
       "stack": ["nfs4 server:/export"], "line": "nfs4 server:/export",
       "note": "is a network share (nfs4): the network is part of every number"}


def test_medium_line_and_note_from_the_record():
    assert medium_text(None) == ("", "", "")
    line, note, kind = medium_text(NFS)
    assert (line, kind) == ("nfs4 server:/export", "network")
    assert note == "the folder is a network share (nfs4): the network is part of every number"
    summary = summarize("/srv/share/bench", {"medium": NFS, "smart": None})
    assert (summary.medium, summary.medium_kind) == (line, "network")
    shown = medium_html(summary)
    assert "nfs4 server:/export<br>" in shown and "the network is part of every number" in shown
    plain = summarize("/x", {"medium": {"kind": "drive", "stack": ["ext4", "nvme0n1p2", "nvme0n1"],
                                        "note": ""}, "smart": None})
    assert plain.medium == "ext4 on nvme0n1p2 on nvme0n1" and plain.medium_note == ""
    assert medium_html(plain) == "ext4 on nvme0n1p2 on nvme0n1"
    assert summarize("/x", {"smart": None}).medium == ""        # a record from before: no line


def test_the_window_shows_the_medium_before_run(qtbot, make_window, tmp_path):
    window = make_window(size=(1280, 690))   # a 1280x720 screen
    target = tmp_path / "bench"
    window.drive_panel.set_target(str(target))
    info = window.drive_panel.info
    qtbot.waitUntil(lambda: info.summary is not None and info.summary.path == str(target),
                    timeout=15000)
    medium = classify(tmp_path)
    assert info.medium.text().startswith(medium.line().replace("<", "&lt;"))
    if medium.note:   # a virtual disk, an overlay, a loop image here: said in the panel
        assert medium.note.split(":")[-1].strip().replace("'", "&#x27;") in info.medium.text()
    assert not window.control.running
    qtbot.wait(100)   # the wrapped medium note is shown whole, not cut off a line short
    for label in (info.identity, info.medium, info.health, info.temperature):
        assert label.height() >= label.heightForWidth(label.width()), label.text()
