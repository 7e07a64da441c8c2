"""Names and texts full of quotes, SQL, markup, control and Unicode characters, through the
real CLI: stored byte for byte, shown as given in every JSON read, never run as SQL, and never
rendered as markup in a forum post (where they are escaped, and unescaping gives them back)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.e2e.transcript import ok, refused, run

TEXTS = [
    "'; DROP TABLE events; --",
    'Robert"); DELETE FROM campaigns WHERE (1=1',
    "<script>alert('x')</script> <img src=x onerror=alert(1)>",
    "[url=https://example.invalid]click[/url] [b]bold[/b] [quote]q[/quote]",
    "**bold** __under__ ~~gone~~ `code` ||spoiler|| > quote # head @everyone <@123>",
    "[a link](https://example.invalid) ![an image](https://example.invalid/x.png)",
    "\u202eRTL override\u202c, emoji \U0001f3b2\U0001f0cf, e\u0301 and \u00e9, \u4e2d\u6587",
    "back\\slash %s %(name)s {0} ${HOME} $(id) `id` \\n not a newline",
]
NAME = "O'Brien-\u00e9lan"  # a player name may hold an apostrophe, a hyphen and accents


@pytest.fixture
def table(tmp_path: Path) -> Path:
    ok(run(tmp_path, "campaign", "create", "heist", "--ruleset", "improv"))
    ok(run(tmp_path, "improv", "character", NAME, "Kit", "--talent", "Brawler"))
    ok(run(tmp_path, "session", "start"))
    ok(run(tmp_path, "improv", "open"))
    ok(run(tmp_path, "improv", "stake", "c1", "amanda", TEXTS[0], "--gm"))
    ok(run(tmp_path, "improv", "stake", "c1", "kit", TEXTS[1], "--opposes", "amanda"))
    for text in TEXTS:
        ok(run(tmp_path, "improv", "narrate", "c1", "amanda", text))
    return tmp_path


def test_every_text_is_stored_and_read_back_exactly(table: Path) -> None:
    lines = ok(run(table, "log", "--json")).splitlines()
    payloads = [json.loads(line)["payload"] for line in lines]
    narrated = [p["text"] for p in payloads if p["type"] == "improv.narrated"]
    assert narrated == TEXTS
    state = json.loads(ok(run(table, "state", "--json")))
    sides = state["conflicts"]["c1"]["sides"]
    assert (sides["amanda"]["stake"], sides["kit"]["stake"]) == (TEXTS[0], TEXTS[1])
    assert NAME.casefold() in state["tokens"]["players"]
    assert ok(run(table, "verify")).startswith("ok")  # the SQL in them ran nowhere


def _unescaped_markdown(post: str) -> str:
    return re.sub(r"\\(.)", r"\1", post)


def test_no_text_forms_markup_in_a_post(table: Path) -> None:
    markdown = ok(run(table, "export", "--format", "markdown", "--conflict", "c1"))
    bbcode = ok(run(table, "export", "--format", "bbcode", "--conflict", "c1"))
    discord = ok(run(table, "export", "--format", "discord", "--conflict", "c1"))
    for raw in ("<script>", "**bold**", "`code`", "||spoiler||", "[a link](", "![an image]("):
        assert raw not in markdown, raw
        assert raw not in discord, raw
    for raw in ("[url=https", "[b]bold[/b]", "[quote]q[/quote]", "click[/url]"):
        assert raw not in bbcode, raw  # the post's own tags are there; the texts' are not
    assert "@everyone" not in discord
    assert "<@123>" not in discord
    for text in TEXTS[2:6]:  # escaped, not lost: taking the escapes out gives the text back
        assert " ".join(text.split()) in _unescaped_markdown(markdown)


def test_an_over_long_text_is_refused_in_one_sentence(table: Path) -> None:
    before = ok(run(table, "log", "--json"))
    line = refused(run(table, "improv", "narrate", "c1", "amanda", "x" * 5000))
    assert "4000" in line
    assert ok(run(table, "log", "--json")) == before
