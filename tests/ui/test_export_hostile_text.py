"""A shared run folder's strings are data in every file the export writes (docs/report.md,
"Text is data").

A genuine run folder of six experiments (tests/fixtures/runs/) is copied and every string a
report shows is replaced by hostile text: links with ``javascript:``, ``file:`` and ``data:``
targets, an image, an ``<img onerror>``, a ``<script>``, spreadsheet formulas, a newline with a
heading after it and a right-to-left override; the run folder's own name carries them too, and
a vendor spec given for the export as well. It is exported for real (``ssd-profiler export``:
figures, report.md, report.html, report.pdf, tables). Then: report.html links only files of the
export (and embeds its own ``data:`` figures), has no script or event attribute; report.pdf has
no link annotation but to the export's files; report.md and tables/*.md, parsed by a CommonMark
parser, have no link, image, tag or heading from data; no CSV text cell starts a formula; the
override is shown as ``\\u202e``; and the run folder's bytes are unchanged.
"""
from __future__ import annotations

import csv
import html.parser
import io
import json
import shutil
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from pypdf import PdfReader

from conftest import FIXTURES, run_cli
from safety_support import snapshot

(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]
FIO = FIXTURES / "fio" / "fio-3.16-linux-libaio-randrw-qd1-nj1-json.json"
MARKUP = ("[x](javascript:alert(1)) [y](file:///etc/passwd) ![i](data:image/png;base64,AAAA) "
          "<img src=x onerror=alert(1)> <script>alert(1)</script>\n# injected heading \u202eevil")
FORMULAS = ('=HYPERLINK("http://evil","c")', "+1", "@SUM(A1)", "-2+3")
#: A folder name cannot hold "/": the same attack without it.
FOLDER = '=HYPERLINK("evil") [x](javascript:alert(1)) <img src=x onerror=alert(1)>\n# h \u202e'


def hostile(k: int) -> str:
    return f"{FORMULAS[k % len(FORMULAS)]} {MARKUP}"


def _poison(record: dict) -> dict:
    k = iter(range(1000))
    record["drive"].update(model=hostile(next(k)), firmware=hostile(next(k)),
                           device=hostile(next(k)), fstype=hostile(next(k)))
    record["host"].update(hostname=hostile(next(k)), os=hostile(next(k)), cpu=hostile(next(k)),
                          os_release=hostile(next(k)))
    record["engine"].update(name=hostile(next(k)), version=hostile(next(k)), path=hostile(next(k)))
    record["temperature"]["reason"] = hostile(next(k))
    record["target"]["folder"] = hostile(next(k))
    for exp in record["experiments"]:
        exp["title"] = hostile(next(k))
    for t in record["trials"]:
        t["label"] = hostile(next(k))
        t["argv"] = [t["argv"][0], f"--opt={hostile(next(k))}", *t["argv"][1:]]
        if t.get("measurement"):
            t["measurement"]["job"] = hostile(next(k))
    failed = record["trials"][-1]
    failed.update(status="failed", error=hostile(next(k)), measurement=None)
    return record


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[Path, Path, dict[str, bytes]]:
    root = tmp_path_factory.mktemp("hostile")
    run = shutil.copytree(RUN, root / FOLDER)
    path = run / "run.json"
    path.write_text(json.dumps(_poison(json.loads(path.read_text()))))
    spec = root / "spec.json"
    spec.write_text(json.dumps({
        "id": hostile(1), "model_regex": ".", "source_url": "javascript:alert(1)",
        "source_kind": "review", "vendor": hostile(2), "family": hostile(3),
        "notes": hostile(0), "seq_read_mbps": 3500, "rand_read_iops": 500000,
        "interface": hostile(3)}))
    before = snapshot(run)
    out = root / "export"
    done = run_cli("export", str(run), "--out", str(out), "--vendor-spec", str(spec), timeout=600)
    assert done.returncode == 0, done.stderr
    assert "\u202e" not in done.stdout + done.stderr and "\\u202e" in done.stderr  # the path
    return run, out, before


def test_a_workload_whose_rw_is_text_refuses_the_export_in_one_line(tmp_path):
    """A workload's rw is one of fio's modes, typed where run.json is read: a formula or markup
    there is a damaged run, refused in one line (the whole line: the folder's name holds a line
    break), never a CSV cell."""
    run = shutil.copytree(RUN, tmp_path / FOLDER)
    record = json.loads((run / "run.json").read_text())
    for t in record["trials"]:
        if t["experiment"] == "rw-mix":
            t["workload"]["rw"] = t["measurement"]["workload"]["rw"] = hostile(0)
    (run / "run.json").write_text(json.dumps(record))
    done = run_cli("export", str(run), "--out", str(tmp_path / "export"), timeout=300)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "is damaged" in done.stderr and "unknown rw mode" in done.stderr
    assert not (tmp_path / "export").exists()


def test_the_run_folder_is_unchanged(exported):
    run, _, before = exported
    assert snapshot(run) == before


class _Tags(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _export_file(out: Path, target: str) -> bool:
    return not target.startswith(("/", "\\")) and ":" not in target and ".." not in target \
        and (out / target).is_file()


def test_report_html_links_only_the_exports_own_files(exported):
    _, out, _ = exported
    page = (out / "report.html").read_text()
    tags = _Tags()
    tags.feed(page)
    names = {t for t, _ in tags.tags}
    assert "script" not in names and "iframe" not in names
    hrefs = [a["href"] for t, a in tags.tags if "href" in a]
    srcs = [a["src"] for t, a in tags.tags if "src" in a]
    assert hrefs and all(_export_file(out, h) for h in hrefs), hrefs
    assert srcs and all(s.startswith(("data:image/svg+xml;base64,", "data:image/png;base64,"))
                        and len(s) > 1000 for s in srcs)   # the app's figures, not data's
    assert not [a for _, attrs in tags.tags for a in attrs if a.startswith("on")]
    title = page.split("<title>", 1)[1].split("</title>", 1)[0]
    assert "<" not in title and "\\u202e" in title
    assert "\u202e" not in page and "\\u202e" in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page   # shown, as text


def test_report_pdf_has_no_link_but_to_export_files(exported):
    _, out, _ = exported
    reader = PdfReader(out / "report.pdf")
    targets = []
    for page in reader.pages:
        for ref in page.get("/Annots") or []:
            annot = ref.get_object()
            if annot.get("/Subtype") == "/Link":
                action = annot.get("/A")
                assert action is not None and action.get("/S") == "/URI", annot
                targets.append(str(action["/URI"]))
    assert targets and all(_export_file(out, t) for t in targets), targets
    text = "".join(page.extract_text() for page in reader.pages)
    assert "onerror" in text   # the hostile text is there, printed as text


def _markdown_problems(text: str, own_headings: int | None = None) -> list[str]:
    """Links and images not to export files, raw HTML, and headings whose text came from data."""
    problems = []
    for token in MarkdownIt("commonmark").parse(text):
        if token.type == "html_block":
            problems.append(token.content)
        if token.type == "heading_open" and own_headings is not None and \
                int(token.tag[1]) <= own_headings:
            problems.append(token.markup)
        for child in token.children or ():
            if child.type == "html_inline":
                problems.append(child.content)
            if child.type in ("link_open", "image"):
                target = str(child.attrs.get("href") or child.attrs.get("src"))
                if ":" in target or ".." in target or target.startswith("/"):
                    problems.append(target)
    headings = [line for line in text.splitlines() if line.lstrip().startswith("# injected")]
    return problems + headings


def test_markdown_files_have_no_link_tag_or_heading_from_data(exported):
    _, out, _ = exported
    report = (out / "report.md").read_text()
    assert _markdown_problems(report) == []
    for token in MarkdownIt("commonmark").parse(report):
        for child in token.children or ():
            if child.type in ("link_open", "image"):
                target = child.attrs.get("href") or child.attrs.get("src")
                assert (out / str(target)).is_file(), target
    heading_texts = [line for line in report.splitlines() if line.startswith("#")]
    assert all("injected" not in line.split("# injected", 1)[0] for line in heading_texts)
    assert "\\u202e" in report and "\u202e" not in report
    tables = sorted((out / "tables").glob("*.md"))
    assert tables
    for table in tables:
        text = table.read_text()
        assert _markdown_problems(text) == [], table.name
        assert "\u202e" not in text


def _csv_cells(path: Path) -> list[str]:
    return [c for row in csv.reader(io.StringIO(path.read_text())) for c in row]


def _formula(cell: str) -> bool:
    """A cell a spreadsheet evaluates: = + @ tab CR first, or a - that is not a number."""
    if cell[:1] in ("=", "+", "@", "\t", "\r"):
        return True
    if cell.startswith("-"):
        try:
            float(cell)
        except ValueError:
            return True
    return False


def test_no_csv_cell_starts_a_formula(exported):
    _, out, _ = exported
    files = sorted((out / "tables").glob("*.csv"))
    cells = [c for f in files for c in _csv_cells(f)]
    # no cell starts a formula: the texts that reach a CSV are neutralized (a workload's rw, the
    # column that carried one, is typed now: tests/app/test_text_escape.py checks csv_text)
    assert [c for c in cells if _formula(c)] == []
    assert not [c for c in cells if "\u202e" in c or "\n" in c]   # shown as in the reports


def test_an_imported_job_name_reaches_no_spreadsheet_or_report_as_markup(tmp_path):
    doc = json.loads(FIO.read_text())
    for job in doc["jobs"]:
        job["jobname"] = hostile(0)
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(doc))
    run = tmp_path / "run"
    done = run_cli("import", str(forged), "--save", str(run))
    assert done.returncode == 0, done.stderr
    assert "\u202e" not in done.stdout + done.stderr
    done = run_cli("export", str(run), "--out", str(tmp_path / "out"), timeout=300)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    cells = [c for f in (out / "tables").glob("*.csv") for c in _csv_cells(f)]
    assert [c for c in cells if _formula(c)] == []
    assert _markdown_problems((out / "report.md").read_text()) == []


def test_comparison_csv_and_markdown_keep_hostile_labels_as_data(tmp_path):
    runs = [shutil.copytree(RUN, tmp_path / "a"), shutil.copytree(RUN, tmp_path / "b")]
    for k, run in enumerate(runs):
        path = run / "run.json"
        record = json.loads(path.read_text())
        record["drive"]["model"] = hostile(k)
        path.write_text(json.dumps(record))
    done = run_cli("compare", *map(str, runs), "--out", str(tmp_path / "cmp"), timeout=600)
    assert done.returncode == 0, done.stderr
    assert "\u202e" not in done.stdout and "\\u202e" in done.stdout
    cells = _csv_cells(tmp_path / "cmp" / "comparison.csv")
    assert any(c.startswith("'=HYPERLINK") for c in cells)
    assert [c for c in cells if _formula(c)] == []
    for name in ("comparison.md", "report.md"):
        assert _markdown_problems((tmp_path / "cmp" / name).read_text()) == [], name
