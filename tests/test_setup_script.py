"""setup.sh says in its last line that set-up worked, and an editable install of the project is
one .pth line: pip 26 showed setuptools' boxed "Editable installation... be careful with folders
of the same name" warning as the only output of `bash setup.sh app`, read as an error. Checked by
hand with pip 26.3 in a fresh venv; here what removes it and the closing line are pinned down."""
import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_the_packages_sit_in_the_project_folder_as_pyproject_says():
    """With package-dir {"" = "."} setuptools writes a .pth line instead of an import hook, and
    the hook is what printed the box."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["setuptools"]["package-dir"] == {"": "."}
    found = config["tool"]["setuptools"]["packages"]["find"]["include"]
    assert all((REPO / name.rstrip("*")).is_dir() for name in found)


def test_setup_ends_with_one_line_that_says_what_it_did_and_how_to_start():
    script = (REPO / "setup.sh").read_text(encoding="utf-8")
    before_start = script[:script.index('case "$mode" in')]
    last = before_start.rstrip().splitlines()[-2:]   # the echo and its continuation
    line = " ".join(last)
    assert line.lstrip().startswith('echo "Set-up done: $installed;')
    assert ".venv/bin/ssd-profiler" in line and "bash setup.sh app" in line
    assert re.search(r"pip install -q .*-e", script)   # pip itself says nothing more
