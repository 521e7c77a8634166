"""The escaping of text from run folders (app/text): what each writer makes of hostile strings,
and that the class of hidden characters is Unicode's own."""
from __future__ import annotations

import sys
import unicodedata

from markdown_it import MarkdownIt

from app.text import csv_text, visible
from app.text.markup import Span, export_href, html_inline, literal, md_inline, plain_text, spans

HIDDEN_CATEGORIES = ("Cc", "Cf", "Cs", "Zl", "Zp")


def test_every_control_format_and_separator_character_is_shown_as_an_escape():
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if char in "\t\n\r":
            continue
        category = unicodedata.category(char)   # Cn: format characters of a later Unicode
        shown = visible(char) != char
        assert shown == (category in HIDDEN_CATEGORIES) or (shown and category == "Cn"), \
            (hex(code), category)
    assert visible("exe.\u202etxt") == "exe.\\u202etxt"
    assert visible("a\nb\r\nc\td") == "a b c d"
    assert visible("a\nb\r\nc\rd", lines=True) == "a\nb\nc\\u000dd"
    assert visible("\U000e0041") == "\\U000e0041"


def test_a_csv_text_cell_never_starts_a_formula():
    for text in ('=HYPERLINK("http://x","c")', "+1", "-2+3", "@SUM(A1)", "\uff1d1"):
        assert csv_text(text) == "'" + text
    assert csv_text("\t=1") == " =1" and csv_text("\r\n+1") == " +1"   # one line, as shown
    assert csv_text("\x0b=1") == "\\u000b=1" and csv_text("a\u202eb") == "a\\u202eb"
    assert csv_text("randread") == "randread" and csv_text("") == ""


def test_the_apps_marks_are_read_and_a_literal_value_keeps_its_characters():
    assert spans("**Setup.** a `b` c") == [Span("Setup.", bold=True), Span(" a "),
                                           Span("b", code=True), Span(" c")]
    value = "A*B* `x` **y** \\"
    assert plain_text(f"model {literal(value)}") == f"model {value}"
    assert plain_text(f"`{literal('a`b')}`") == "a`b"
    assert spans("a ** b") == [Span("a ** b")]   # an unclosed mark is text


def _tokens(markdown: str) -> list[str]:
    out = []
    for token in MarkdownIt("commonmark").parse(markdown):
        out.append(token.type)
        out += [child.type for child in token.children or ()]
    return out


def test_markdown_shows_links_images_tags_and_block_starts_as_text():
    hostile = ("[x](javascript:alert(1)) ![i](data:image/png;base64,AA) <img src=x onerror=a()> "
               "<script>s</script> <http://evil> [r]: file:///etc/passwd\n# heading")
    for start in ("", "# ", "- ", "1. ", "> ", "+ "):
        text = md_inline(literal(start + hostile))
        kinds = _tokens(text)
        assert not {"link_open", "image", "html_inline", "html_block", "heading_open",
                    "bullet_list_open", "ordered_list_open", "blockquote_open"} & set(kinds), text
        rendered = MarkdownIt("commonmark").render(text)
        assert "onerror=a()" in rendered and "<img" not in rendered
    heading = MarkdownIt("commonmark").render("## " + md_inline(literal("Drive ##"), block=False))
    assert heading == "<h2>Drive ##</h2>\n"   # its own text, not a closing sequence
    code = md_inline(f"`{literal('a `` b|c')}`", table=True)
    assert code == "```a `` b\\|c```"


def test_html_escapes_everything_but_the_apps_marks():
    out = html_inline(f"**Drive** `{literal('<b>x</b>')}` [x](javascript:alert(1)) \u202e")
    assert out == ("<b>Drive</b> <code>&lt;b&gt;x&lt;/b&gt;</code> [x](javascript:alert(1)) "
                   "\\u202e")


def test_only_files_of_the_export_are_link_targets():
    assert export_href("tables/zero-queue.csv") == "tables/zero-queue.csv"
    assert export_href("figures/a b+c.png") == "figures/a%20b+c.png"
    for bad in ("javascript:alert(1)", "file:///etc/passwd", "/etc/passwd", "../x.csv",
                "tables/../../x", "C:\\x", "", "tables//x"):
        assert export_href(bad) is None, bad
