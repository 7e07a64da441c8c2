"""What a reader of each format makes of a text in a post: the markup it forms, if any.

Markdown is read by a real CommonMark parser with GFM's tables and strikethrough
(markdown-it-py, which rich brings): `markdown_shows` places an escaped text where a renderer
places it and returns the text a reader sees, failing when it forms a block or an inline
construct of its own. GFM's extended autolinks, task lists, single-tilde strikethrough and
the shortcodes and mentions forums add are not in that parser: `markdown_extensions` names
those a text would form. Discord has no parser to borrow: `discord_forms` names each of its
constructs (docs: Discord's markdown, mentions, timestamps) a text would form, after taking
out what its escapes make literal. `bbcode_tags` names the tags (and RPoL's HTML-like ones)
a text forms.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])
SLOT = "SLOT"

# Where the renderers put a text (post_formats.py): a heading, a list item, an italic line,
# mid-line, a table cell (the cell's own escape).
MARKDOWN_PLACES = {
    "heading": "# SLOT",
    "list item": "- SLOT",
    "italic": "*SLOT*",
    "mid-line": "Verified log: campaign SLOT, event 3.",
    "table cell": "| x | y |\n| --- | --- |\n| z | SLOT |",
}


def _read(source: str) -> tuple[list[str], list[str], str]:
    """Block token types, inline token types (runs of text as one) and the text shown."""
    tokens = MD.parse(source)
    children = [c for t in tokens if t.type == "inline" for c in t.children or []]
    kinds: list[str] = []
    for child in children:
        if not (child.type == "text" and kinds and kinds[-1] == "text"):
            kinds.append(child.type)
    text = "".join(c.content for c in children if c.type == "text")
    return [t.type for t in tokens], kinds, text


def markdown_shows(escaped: str, place: str) -> str:
    """The text a reader sees for `escaped` at `place`; AssertionError when it forms markup
    (the blocks or inline constructs differ from those of a plain word there)."""
    template = MARKDOWN_PLACES[place]
    blocks, kinds, text = _read(template.replace(SLOT, escaped))
    plain_blocks, plain_kinds, plain_text = _read(template)
    assert (blocks, kinds) == (plain_blocks, plain_kinds), (place, escaped, blocks, kinds)
    prefix, _, suffix = plain_text.partition(SLOT)
    assert text.startswith(prefix), (escaped, text)
    assert text.endswith(suffix), (escaped, text)
    return text[len(prefix) : len(text) - len(suffix)]


_MD_ESCAPE = re.compile(r"\\[!-/:-@\[-`{-~]")
MARKDOWN_EXTENSIONS = {
    "autolink (GFM)": r"[A-Za-z][A-Za-z0-9+.\-]*://|(?<![A-Za-z0-9])www\.",
    "e-mail autolink or mention": r"@[^\s]",
    "strikethrough (GFM, one tilde)": r"(?<! )~|~(?! )",
    "spoiler (chat sites)": r"\|\|",
    "shortcode": r":[A-Za-z0-9_+\-]+:",
    "task box": r"^\[[ xX]\]",
}


def cell_breaks(escaped: str) -> list[str]:
    """The pipes that end a GFM table cell in `escaped`: any after an even run of
    backslashes (cmark-gfm reads `\\\\|` as an escaped backslash, then a cell's end)."""
    return re.findall(r"(?<!\\)(?:\\\\)*\|", escaped)


def markdown_extensions(escaped: str) -> list[str]:
    bare = _MD_ESCAPE.sub("\x00", escaped)
    return [name for name, pattern in MARKDOWN_EXTENSIONS.items() if re.search(pattern, bare)]


_DISCORD_ESCAPE = re.compile(r"\\[^0-9A-Za-z\s]")  # as Discord reads an escape
DISCORD_MARKUP = {
    "italic or bold": r"\*",
    "italic or underline": r"_",
    "strikethrough": r"~~",
    "spoiler": r"\|\|",
    "code": r"`",
    "masked link": r"[\[\]]",
    "mention": r"@[^\s\u200b]",
    "mention, emoji, timestamp or <url>": r"<(?![\s0-9])",
    "autolink": r"[A-Za-z][A-Za-z0-9+.\-]*://",
    "emoji shortcode": r":[A-Za-z0-9_+\-]+:",
    "channel": r"#[^\s]",
}
# What starts a block where a line starts: heading, quote, subtext, list.
DISCORD_LINE_START = re.compile(r" *(?:#+(?: |$)|>|-# |[-*+](?: |$)|[0-9]+[.)](?: |$))")


def discord_forms(line: str, *, line_start: bool = True) -> list[str]:
    """The Discord constructs `line` forms (`line_start`: it may begin a line)."""
    bare = _DISCORD_ESCAPE.sub("\x00", line)
    found = [name for name, pattern in DISCORD_MARKUP.items() if re.search(pattern, bare)]
    if line_start and DISCORD_LINE_START.match(bare):
        found.append("a block at the line's start")
    return found


def bbcode_tags(text: str) -> list[str]:
    return re.findall(r"\[(?!\u200b)[^\]\n]*\]|<(?!\u200b)[A-Za-z/!][^>\n]*>?", text)
