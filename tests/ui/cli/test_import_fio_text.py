"""`ssd-profiler import` reads fio's normal and terse outputs as it reads JSON, and a damaged
one costs one line naming the file (exit 2), never a traceback."""
from __future__ import annotations

import json

from conftest import FIXTURES, run_cli

TEXT_FILES = sorted((FIXTURES / "fio-text").glob("*.txt"))


def test_every_text_fixture_imports_like_json(tmp_path):
    done = run_cli("import", *map(str, TEXT_FILES), "--json", "--save", str(tmp_path / "run"))
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.rsplit("\n", 2)[0])
    assert {r["source"] for r in results} == {str(p) for p in TEXT_FILES}
    assert all(r["engine"] == "fio" and r["status"] == "ok" and r["total"] for r in results)
    assert (tmp_path / "run" / "run.json").is_file()


def test_a_damaged_text_output_is_one_line(tmp_path):
    normal = next(p for p in TEXT_FILES if p.name.endswith("-normal.txt")).read_text()
    terse = next(p for p in TEXT_FILES if "-terse-" in p.name).read_text()
    cases = {"cut-normal.txt": normal[: normal.index(" read:") + 12],
             "cut-terse.txt": terse[:300],
             "garbage.txt": "fio-3.33\nStarting 1 process\n\x01\x02 not an output at all\n"}
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        done = run_cli("import", str(path))
        assert done.returncode == 2, (name, done.stdout)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and str(path) in lines[0] and "Traceback" not in done.stderr, lines
