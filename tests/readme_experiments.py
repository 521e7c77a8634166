"""README.md's experiments table and its "`run all` leaves out" sentence, made from the registry.

The block between BEGIN and END in README.md is what :func:`render` makes of the catalog: one
row per experiment in catalog order, then the sentence naming what `run all` leaves out. The
"what" and "defaults" cells of an experiment the README already lists are prose kept as written
there; a new experiment's row starts from its summary and the labels of its default workloads
(reword them in the README, they are kept from then on). tests/test_readme.py checks that the
README holds exactly this block; after adding or removing an experiment, regenerate it:

    .venv/bin/python tests/readme_experiments.py
"""
from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
BEGIN = "<!-- experiments: made from app/experiments/registry.py by tests/readme_experiments.py -->"
END = "<!-- /experiments -->"
HEADER = "| id | what | defaults |\n|---|---|---|"


def block_of(text: str) -> str:
    """The text between the markers (without them); ValueError when they are missing."""
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[start:end].strip("\n")


def prose_of(block: str) -> dict[str, tuple[str, str]]:
    """id -> (what, defaults): the cells of each row of a block as written."""
    rows = {}
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if line.startswith("| `") and len(cells) == 3:
            rows[cells[0].strip("`")] = (cells[1], cells[2])
    return rows


def _words(ids: list[str]) -> str:
    quoted = [f"`{eid}`" for eid in ids]
    return ", ".join(quoted[:-1]) + " and " + quoted[-1] if len(quoted) > 1 else "".join(quoted)


def render(catalog: Mapping[str, type], prose: Mapping[str, tuple[str, str]]) -> str:
    """The block for ``catalog`` (id -> experiment class), keeping ``prose`` for known ids."""
    from app.params import build

    rows = []
    for eid, cls in catalog.items():
        what, defaults = prose.get(eid) or (
            cls.summary, ", ".join(w.label for w in build(cls).workloads()))
        rows.append(f"| `{eid}` | {what} | {defaults} |")
    left_out = [eid for eid, cls in catalog.items() if not cls.in_all]
    sentence = f"`run all` leaves out {_words(left_out)}." if left_out else \
        "`run all` runs every experiment."
    return "\n".join([HEADER, *rows, "", sentence])


def expected(text: str, catalog: Mapping[str, type]) -> str:
    """``text`` (README.md's) with its block made from ``catalog``."""
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return f"{text[:start]}\n{render(catalog, prose_of(block_of(text)))}\n{text[end:]}"


def main() -> int:
    sys.path.insert(0, str(REPO))
    from app.experiments import CATALOG

    text = README.read_text(encoding="utf-8")
    new = expected(text, CATALOG)
    if new != text:
        README.write_text(new, encoding="utf-8")
        print("README.md: experiments table rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
