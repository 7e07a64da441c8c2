"""Escaping user text for a post: ordinary text reads as typed, hostile text forms nothing.

A backslash goes only where a character could form markup where it stands
(`tablelog/projections/post_escape.py` lists the rules per format). The ordinary table says
what a reader of the raw post sees; the hostile table and the generated texts are read back
by a CommonMark/GFM parser (Markdown) and by Discord's rules (`tests/support/markup.py`).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.projections.post import plain
from tablelog.projections.post_escape import (
    ZWSP,
    escape_bbcode,
    escape_discord,
    escape_line_start,
    escape_markdown,
    escape_markdown_cell,
)
from tests.support.markup import (
    MARKDOWN_PLACES,
    bbcode_tags,
    cell_breaks,
    discord_forms,
    markdown_extensions,
    markdown_shows,
)

SAME = "same"  # Markdown: the text as typed; Discord: as Markdown

# text, Markdown, Discord (BBCode leaves every one as typed)
ORDINARY = [
    ("Kit (simple): wins!", SAME, SAME),
    ("5 + 3 = 8", SAME, SAME),
    ("it's Riso's turn.", SAME, SAME),
    ('Kit\'s turn, yes; 100% ok? "fine" & done!', SAME, SAME),
    ("+1 token(s) by the GM", SAME, SAME),
    ("Kit 15 > Goons 13 > Riso 12 (each side holds them)", SAME, SAME),
    ("bar-fight, events 12\u201358, head 40:ab12.", SAME, SAME),
    ("10:30, 1d6+2, x=3, C# or F#", SAME, SAME),
    ("R&D <3, 4 <= 5, a <- b", SAME, "R&D <3, 4 \\<= 5, a \\<- b"),
    ("~3 or ~ 4", "\\~3 or ~ 4", SAME),
    ("Kit @ the bar, 50/50, $5, {x}, ^^", SAME, SAME),
    ("back\\slash a\\b", SAME, SAME),
    ("Sk\u00e5l! Fran\u00e7ois, \u00e0 la carte: 2 \u00d7 A\u2665", SAME, SAME),
    ("a | b", SAME, SAME),
    ("snake_case and 5 * 3", SAME, "snake\\_case and 5 \\* 3"),
    ("#1 fan", SAME, "\\#1 fan"),
    # Minimally escaped: where a block would start, a heading would close, a link form.
    ("- not a list", "\\- not a list", SAME),
    ("3. Kit wins", "3\\. Kit wins", SAME),
    ("> not a quote", "\\> not a quote", SAME),
    ("# not a heading", "\\# not a heading", SAME),
    ("ends with #", "ends with \\#", SAME),
    ("---", "\\---", SAME),
    ("mail kit@x.org", "mail kit\\@x.org", f"mail kit@{ZWSP}x.org"),
    ("see www.x.org or http://x.org", "see www\\.x.org or http\\://x.org", SAME),
    ("a *word*, a _word_", "a \\*word\\*, a \\_word\\_", SAME),
]


@pytest.mark.parametrize(("text", "markdown", "discord"), ORDINARY, ids=[r[0] for r in ORDINARY])
def test_ordinary_text_reads_as_typed(text: str, markdown: str, discord: str) -> None:
    markdown = text if markdown == SAME else markdown
    assert escape_markdown(text) == markdown
    assert escape_discord(text) == (markdown if discord == SAME else discord)
    assert escape_bbcode(text) == text
    assert markdown_shows(escape_markdown(text), "list item") == text


def test_a_table_cell_escapes_its_pipes() -> None:
    assert escape_markdown_cell("a | b") == "a \\| b"
    assert escape_markdown_cell("a \\| b") == "a \\\\\\| b"
    assert escape_markdown_cell("||-") == "\\|\\|-"  # one backslash each; `-` is no list there
    assert markdown_shows(escape_markdown_cell("a \\| b||"), "table cell") == "a \\| b||"


HOSTILE = [
    "--",  # after a list item's own `- `, a thematic break (found by hypothesis)
    "- -",
    "**bold** [b]x[/b] <@123> @everyone # head | pipe",
    "line one\nline two\t[url=javascript:alert(1)]x[/url] [img]x[/img] _u_ ~~s~~ `c` "
    "||spoiler|| > quote -# small [link](http://x) <#1> <@&2> @here :smile: &amp; <b>h</b> "
    "back\\slash ----- 8< -----",
    "**b** __u__ *i* _i_ ***bi*** a**b**c a__b__c x*y*z",
    "~~strike~~ ~one~ a~~b~~c",
    "`code` ``two`` ```fence",
    "[link](http://x) ![img](x) [ref] [ref]: http://x [^1] [x](<y>) [x][y]",
    "<http://x> <mailto:a@b.c> <b>html</b> </b> <!-- c --> <?pi?> <!DOCTYPE x> <![CDATA[x]]>",
    "&amp; &#35; &#x41; &copy;",
    "@everyone @here <@123> <@!123> <#1> <@&2> </cmd:1> <t:1700000000:F> <:e:1> <a:e:1>",
    "http://x.org https://x ftp://x www.x.org WWW.X.ORG kit@x.org mailto:kit@x.org :smile:",
    "# h",
    "###### h",
    "h ##",
    "> q",
    ">>> q",
    "- l",
    "* l",
    "+ l",
    "1. l",
    "1) l",
    "-# small",
    "---",
    "***",
    "___",
    "- - -",
    "- [ ] task",
    "[x] done",
    "```",
    "~~~",
    "<div>",
    "back\\slash\\",
    "a\\*b\\_c\\",
    "| a | b |",
    "||",
    "*",
    "_",
    "\\",
    "a*",
    "*a",
    "_a_",
    "a_",
    "#",
    "~",
    "<",
    "&amp",
    "x <y",
    "||s|| |s| ||",
    "\u200b@everyone",
]


@pytest.mark.parametrize("text", HOSTILE)
@pytest.mark.parametrize("place", sorted(MARKDOWN_PLACES))
def test_hostile_text_forms_no_markdown(text: str, place: str) -> None:
    escape = escape_markdown_cell if place == "table cell" else escape_markdown
    escaped = escape(text)
    assert markdown_shows(escaped, place) == plain(text)
    assert markdown_extensions(escaped) == [], escaped
    assert place != "table cell" or cell_breaks(escaped) == [], escaped


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_forms_no_discord_markup(text: str) -> None:
    escaped = escape_discord(text)
    assert discord_forms(escaped) == [], escaped
    for cut in range(1, len(escaped)):  # a long line cut anywhere: the rest begins a line
        if escaped[cut - 1] != "\\":
            assert discord_forms(escape_line_start(escaped[cut:])) == [], escaped[cut:]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_forms_no_bbcode_tag(text: str) -> None:
    assert bbcode_tags(escape_bbcode(text)) == []


# Texts made of the characters that matter, in any order.
TEXTS = st.text(alphabet=" ab1_*~`[]()<>#@:/|\\&;.!-+=\n\u00e9", max_size=24)


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(TEXTS)
def test_no_generated_text_forms_markdown(text: str) -> None:
    for place in MARKDOWN_PLACES:
        escape = escape_markdown_cell if place == "table cell" else escape_markdown
        if plain(text):
            assert markdown_shows(escape(text), place) == plain(text)
    assert markdown_extensions(escape_markdown(text)) == []
    assert cell_breaks(escape_markdown_cell(text)) == []


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(TEXTS)
def test_no_generated_text_forms_discord_markup(text: str) -> None:
    escaped = escape_discord(text)
    assert discord_forms(escaped) == []
    assert discord_forms(escape_line_start(escaped.partition(" ")[2])) == []


def test_a_piece_that_begins_a_line_is_escaped_only_where_a_block_would_start() -> None:
    assert escape_line_start("# head") == "\\# head"
    assert escape_line_start("  > quote") == "  \\> quote"
    assert escape_line_start("12. x") == "12\\. x"
    assert escape_line_start("\\# head") == "\\# head"
    assert escape_line_start("Kit wins") == "Kit wins"
    assert escape_line_start("-5 tokens") == "-5 tokens"
