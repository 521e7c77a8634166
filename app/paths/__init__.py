"""The one owner of every path the app writes in a target.

``target``: which folder may be written, judged after resolving links and by its file system.
``owned``: the files one run writes there, created exclusively, locked, checked, removed.
``leftovers``: what crashed runs left, shown and removed under the lock.
"""
from app.paths.data_dir import FileSwapped
from app.paths.leftovers import folder_in_use, leftover_test_files, remove_leftovers
from app.paths.owned import TEST_FILE_PREFIX, FolderInUse, OwnedFolder, new_run_id
from app.paths.target import DATA_DIR, CheckedTarget, TargetRefused, check_target, free_space_margin

__all__ = ["DATA_DIR", "TEST_FILE_PREFIX", "CheckedTarget", "FileSwapped", "FolderInUse",
           "OwnedFolder", "TargetRefused", "check_target", "folder_in_use", "free_space_margin",
           "leftover_test_files", "new_run_id", "remove_leftovers"]
