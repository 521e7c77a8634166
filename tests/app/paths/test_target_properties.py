"""Property: any text typed as a target gives a checked folder or a one-line refusal, never an
exception, and the check itself writes nothing (hypothesis)."""
from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.paths import TargetRefused, check_target

_PIECES = st.sampled_from(["/", "//", ":", "\\", "..", ".", "~", "\n", " ", "\"", "'", "ü", "日本",
                           "/dev", "/dev/shm", "/proc/self", "/sys", "\\\\.\\PhysicalDrive0",
                           "\\\\?\\C:\\", "#1", "C:", "NUL", "x" * 300, "\x00", "\udcff"])
_TARGETS = st.lists(st.one_of(_PIECES, st.text(max_size=12)), max_size=8).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_TARGETS, size=st.integers(min_value=0, max_value=1 << 50))
def test_any_target_text_is_checked_or_refused_in_one_line(tmp_path, text, size):
    before = sorted(os.listdir(tmp_path))
    cwd = os.getcwd()
    os.chdir(tmp_path)  # relative spellings resolve here, where nothing may appear
    try:
        checked = check_target(text, size)
    except TargetRefused as exc:
        message = str(exc)
        assert message and "\n" not in message and len(message) < 2000
    else:
        assert checked.folder.is_absolute() and checked.data_dir.parent == checked.folder
    finally:
        os.chdir(cwd)
    assert sorted(os.listdir(tmp_path)) == before
