"""User text escaped for a forum post: only what could form markup where it stands.

Every text a post holds is user-influenced and is placed inline by the renderers: after a
heading's `# `, a list's `- `, in a table cell, between `*` or `**`, or mid-line; a text
may also begin a line (Discord lines wrapped to fit a message). A backslash is put before a
character only where that character, in that place, could start or end markup, so ordinary
text reads as typed ("Kit (simple): wins!", "5 + 3 = 8") where the post is pasted raw.

Markdown (CommonMark with GFM's tables, strikethrough, task lists and autolinks; the
shortcodes and @mentions many forums add):

- always: `` ` `` (code spans, fences), `[` and `]` (links, images, references, footnotes,
  task boxes: a bracket pairs with one in another text of the same line);
- `*` and `~` unless a space stands on both sides (a delimiter run flanked by spaces can
  neither open nor close emphasis or strikethrough); `_` unless between two ASCII letters or
  digits (intraword, it can do neither);
- `\\` unless a letter, digit or space follows it (only then is it no escape of its own);
- `<` unless a space, digit, `=`, `-` or `<` follows (no tag, comment or autolink starts so),
  and then the `>` that would close it;
  `&` that starts an entity (`&amp;`, `&#35;`);
- `|` next to another or at the text's edge (`||spoiler||`, as chat sites and some forums
  read it);
- `@` followed by a character (an e-mail autolink, a forum's mention); `:` of a URL (`://`)
  or opening a shortcode (`:smile:`), and the dot of `www.` (GFM's extended autolinks);
- at the start of the text (it may start a block, as a list item's text does): `#` of a
  heading, `>`, a bullet `-`/`+`/`*` before a space, `-#`, a thematic break (`---`), the
  `.`/`)` of an ordered list's number; at its end, the `#`s that would close a heading;
- a table cell (`escape_markdown_cell`) escapes every `|`, which would end the cell, and no
  block start: a cell holds inline text only.

Discord (its own markdown, which has no flanking rules: `**`, `__`, `~~` and `||` pair
anywhere) escapes as Markdown does, and also every `*` and `_`, a `#` before a character (the
client makes a `#channel` mention of it), and `<` unless a space or digit follows (mentions
`<@id>`, `<#id>`, `<@&id>`, `</cmd:id>`, timestamps, custom emoji, `<url>`). An `@` before a
character gets a zero-width space after it instead of a backslash (both after a `<`): no
`@everyone`, `@here` or `@name` can ping. `&` stays as it is: Discord decodes no entity.

BBCode (vBulletin/phpBB/Myth-Weavers; RPoL's HTML-like tags): there is no standard escape,
so a zero-width space follows every `[`, and every `<` before a letter or `/`; no tag can
form.
"""

from __future__ import annotations

import re
import string

from tablelog.projections.post import plain

ZWSP = "\u200b"
_ALNUM = frozenset(string.ascii_letters + string.digits)
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});")
_SHORTCODE = re.compile(r":[A-Za-z0-9_+\-]+:")
_WWW_DOT = re.compile(r"(?<![A-Za-z0-9])www(\.)", re.IGNORECASE)
_ORDERED = re.compile(r"[0-9]{1,9}([.)])(?: |$)")
_BREAK = re.compile(r"(?:[-*_] *){3,}$")
# Two hyphens are enough after a list item's own `- `: `- --` is a thematic break.
_DASHES = re.compile(r"(?:- *){2,}$")
_HEADING_END = re.compile(r"(?:^| )(#+)$")
_CLOSING = re.compile(r"[^<>]*>")
_MENTION = re.compile(r"@(?=[^ ])")
_CANDIDATES = re.compile(r"[`\[\]*_~|\\<&@:#]")  # the characters the rules below look at


def _start(text: str) -> int | None:
    """The index of the character that makes `text` start a block if it began a line."""
    if not text:
        return None
    first, second = text[0], text[1:2]
    if first == ">" or _BREAK.match(text) or _DASHES.match(text):
        return 0
    if first == "#" and text.lstrip("#")[:1] in ("", " "):
        return 0
    if (first in "-+*" and second in ("", " ")) or text.startswith("-#"):
        return 0
    ordered = _ORDERED.match(text)
    return ordered.start(1) if ordered else None


def _marks(text: str, *, discord: bool, cell: bool = False) -> set[int]:
    """The indices of `text` that take a backslash before them: in a table `cell`, every
    `|` and no block start (a cell holds inline text only); elsewhere, what would start or
    close a block were the text to begin a line or end a heading."""
    marks: set[int] = set()
    last = len(text) - 1
    for found in _CANDIDATES.finditer(text):
        i, char = found.start(), found.group()
        before = text[i - 1] if i > 0 else ""  # "": the renderer's, so anything
        after = text[i + 1] if i < last else ""
        if char in "`[]":
            marks.add(i)
        elif char == "*":
            if discord or not (before == " " and after == " "):
                marks.add(i)
        elif char == "_":
            if discord or not (before in _ALNUM and after in _ALNUM):
                marks.add(i)
        elif char == "~":
            if not (before == " " and after == " "):
                marks.add(i)
        elif char == "|":
            if cell or before in ("", "|") or after in ("", "|"):
                marks.add(i)
        elif char == "\\":
            if not (after in _ALNUM or after == " "):
                marks.add(i)
        elif char == "<":
            if not (after == " " or after.isdigit() or (not discord and after in ("=", "-", "<"))):
                marks.add(i)
                closing = _CLOSING.match(text, i + 1)
                if closing:  # the `>` of the would-be tag too: `\<b\>` reads as one
                    marks.add(closing.end() - 1)
        elif char == "&":
            if not discord and _ENTITY.match(text, i):
                marks.add(i)
        elif char == "@":
            if after not in ("", " ") and (not discord or before == "<"):
                marks.add(i)
        elif char == ":":
            if text.startswith("//", i + 1) or _SHORTCODE.match(text, i):
                marks.add(i)
        elif char == "#" and discord and after not in ("", " "):
            marks.add(i)
    marks.update(m.start(1) for m in _WWW_DOT.finditer(text))
    if cell:
        return marks
    start = _start(text)
    if start is not None:
        marks.add(start)
    heading_end = _HEADING_END.search(text)
    if heading_end:
        marks.add(heading_end.start(1))
    return marks


def _escaped(text: str, *, discord: bool, cell: bool = False) -> str:
    marks = _marks(text, discord=discord, cell=cell)
    breaks = {m.start() for m in _MENTION.finditer(text)} if discord else set()
    if not marks and not breaks:
        return text
    out, done = [], 0
    for i in sorted(marks | breaks):
        out.append(text[done:i])
        if i in marks:
            out.append("\\")
        if i in breaks:  # `@` + a zero-width space (a backslash too when marked)
            out.append("@" + ZWSP)
            done = i + 1
        else:
            done = i
    out.append(text[done:])
    return "".join(out)


def escape_markdown(text: str) -> str:
    """`text` on one line (`post.plain`), for CommonMark/GFM outside a table."""
    return _escaped(plain(text), discord=False)


def escape_markdown_cell(text: str) -> str:
    """`text` for a GFM table cell: `|` would end the cell, and nothing starts a block in
    one (a cell `-` stays as it is)."""
    return _escaped(plain(text), discord=False, cell=True)


def escape_discord(text: str) -> str:
    return _escaped(plain(text), discord=True)


def escape_bbcode(text: str) -> str:
    return re.sub(r"<(?=[A-Za-z/!])", "<" + ZWSP, plain(text).replace("[", "[" + ZWSP))


def escape_line_start(line: str) -> str:
    """`line`, a piece of an escaped text that now begins a line (a long Discord line cut in
    two), with a backslash where it would otherwise start a block (`# `, `> `, `- `, `1. `)."""
    body = line.lstrip(" ")
    start = _start(body)
    if start is None:
        return line
    at = len(line) - len(body) + start
    return line[:at] + "\\" + line[at:]
