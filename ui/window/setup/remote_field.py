"""The drive panel's "Remote fio server" field: empty is this computer, HOST[:PORT]
makes the target folder a path on that host, reached through a running ``fio --server``.

Why a field of its own: a remote target changes what the panel may say. There is no folder
chooser and no existence check here (this computer's file system knows nothing of that host);
the folder's *spelling* is judged as the user types with app/remote/target.py, the same
rules the run applies, and everything else (the folder exists, the server's fio version) is
probed through the server when Run starts, in the run's worker thread. The security note is
always one hover away: a fio server has no authentication, so it should listen on loopback and
be reached through an SSH tunnel.
"""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from app.paths import TargetRefused
from app.remote.target import DEFAULT_PORT, check_remote_folder, parse_remotes
from ui.window import theme

SERVER_COMMAND = f"fio --server=ip:127.0.0.1,{DEFAULT_PORT}"
TUNNEL_COMMAND = f"ssh -N -L {DEFAULT_PORT}:127.0.0.1:{DEFAULT_PORT} you@labserver"
SECURITY_TIP = (
    "<p>Runs every trial on another machine through fio's own server. Empty: this computer.</p>"
    f"<p>On that machine, as an ordinary user who owns the test folder:<br><tt>{SERVER_COMMAND}"
    f"</tt><br>then on this one: <tt>{TUNNEL_COMMAND}</tt><br>and enter "
    f"<tt>127.0.0.1:{DEFAULT_PORT}</tt> here.</p>"
    "<p><b>fio --server has no password:</b> whoever reaches its port can read, write and delete "
    "files as its user. Never let it listen on a network address, never run it as root, stop it "
    "when done (docs/usage.md, Remote profiling).</p>")
HELP_LINE = (f"On the remote machine: <tt>{SERVER_COMMAND}</tt> (loopback only: fio's server has "
             f"no password), reached through an SSH tunnel: <tt>{TUNNEL_COMMAND}</tt>. The folder "
             "below is a path on that machine.")


def remote_problem(remote: str, folder: str) -> str:
    """Why ``folder`` on ``remote`` would be refused by its spelling alone ('' when it would
    not); no I/O, the same checks as the run (jobs/remote/remote_session.py) makes first."""
    try:
        parse_remotes(remote)
        check_remote_folder(folder)
    except TargetRefused as exc:
        return str(exc)
    return ""


def remote_address(remote: str) -> str:
    """HOST:PORT as the command line takes it (the default port written out; several hosts as a
    comma list, which runs every trial on all of them), or the text as typed when it does not
    parse (the run refuses it then with the reason)."""
    try:
        return ",".join(map(str, parse_remotes(remote)))
    except TargetRefused:
        return remote.strip()


def remote_lines(remote: str, folder: str, size: str) -> tuple[str, str]:
    """(space line, ready line) for a remote target whose spelling passed."""
    where = remote_address(remote)
    data = folder.rstrip("/") + "/ssd-profiler-data"
    return (f"Free space on {where} is not checked (not available remotely: a fio server does not "
            f"report it); make room there for the planned test file: {size}.",
            f"Ready to try: test files go to {data} on {where} and are removed afterwards. The "
            "server, its fio version and the folder are checked through fio when Run starts.")


class RemoteField(QWidget):
    """``changed(text)`` when the server text changes; ``address()`` is the stripped text."""

    changed = Signal(str)

    def __init__(self, remote: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.edit = QLineEdit(remote)
        self.edit.setPlaceholderText("empty: this computer; or HOST[:PORT], e.g. 127.0.0.1:8765 "
                                     "(several: a comma list)")
        self.edit.setToolTip(SECURITY_TIP)
        self.edit.textChanged.connect(self._on_text)
        label = QLabel("Remote fio server:")
        label.setToolTip(SECURITY_TIP)
        self.help = QLabel(HELP_LINE)
        self.help.setWordWrap(True)
        self.help.setToolTip(SECURITY_TIP)
        theme.set_tone(self.help, "muted")
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(label)
        row.addWidget(self.edit, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(row)
        layout.addWidget(self.help)
        self.help.setVisible(bool(self.address()))

    def address(self) -> str:
        return self.edit.text().strip()

    def set_address(self, text: str) -> None:
        self.edit.setText(text)

    def _on_text(self, _text: str) -> None:
        self.help.setVisible(bool(self.address()))
        self.changed.emit(self.address())
