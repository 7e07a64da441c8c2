"""A `Post` as Markdown, BBCode or Discord messages.

Every text from the account is escaped for the format (`post_escape`: only what could form
markup where it stands), so no user text forms markup; only the renderer's own markup is left
as is. BBCode and Discord write tables as lines; BBCode uses only [b], [i] and [u]. A Discord
post is split between lines into messages of at most 2,000 UTF-16 code units (Discord counts
like JavaScript), separated by a line `----- 8< -----`; a longer line is first wrapped at
spaces (hard-wrapped when it has none), never inside an escape, and a piece that then begins a
line is escaped where it would start a block there (`# `, `> `, `- `).
"""

from __future__ import annotations

from collections.abc import Callable

from tablelog.projections.account import Section, Table
from tablelog.projections.post import Footer, Post, plain, seq_range
from tablelog.projections.post_escape import (
    ZWSP,
    escape_bbcode,
    escape_discord,
    escape_line_start,
    escape_markdown,
    escape_markdown_cell,
)

__all__ = [
    "DISCORD_LIMIT",
    "RENDERERS",
    "SEPARATOR",
    "ZWSP",
    "discord_lines",
    "escape_bbcode",
    "escape_discord",
    "escape_markdown",
    "render_bbcode",
    "render_discord",
    "render_markdown",
    "split_messages",
    "utf16_len",
    "wrap",
]

DISCORD_LIMIT = 2000
SEPARATOR = "----- 8< -----"
_EMPTY_CELLS = {"", "-"}

Escape = Callable[[str], str]


def _code(text: str, escape: Escape) -> str:
    """A code span for the verify command (a campaign name holds no backtick; checked)."""
    return f"`{text}`" if "`" not in text and text == plain(text) else escape(text)


def _row_line(columns: list[str], row: list[str], escape: Escape, bold: str) -> str:
    """`**Kit**: card A♥; bonuses +1 token(s) by Kit; total 17` (empty cells left out)."""
    name = escape(row[0]) if row else ""
    cells = [
        f"{escape(column)} {escape(value)}"
        for column, value in zip(columns[1:], row[1:], strict=False)
        if value.strip() not in _EMPTY_CELLS
    ]
    head = bold.format(name)
    return f"{head}: {'; '.join(cells)}" if cells else head


def _gfm_table(table: Table) -> list[str]:
    width = len(table.columns)
    rows = [[*row[:width], *[""] * (width - len(row))] for row in table.rows]
    return [
        "| " + " | ".join(escape_markdown_cell(c) for c in table.columns) + " |",
        "|" + "|".join(" --- " for _ in table.columns) + "|",
        *("| " + " | ".join(escape_markdown_cell(c) for c in row) + " |" for row in rows),
    ]


def _footer_text(footer: Footer, escape: Escape) -> str:
    text = (
        f"Verified log: campaign {escape(footer.campaign)}, "
        f"{seq_range(footer.first_seq, footer.last_seq)}, head {footer.head}."
    )
    if footer.audit_problems:
        text += " " + escape(
            f"Warning: the audit finds {footer.audit_problems} recorded decision(s) that do "
            "not follow the rules; tablelog audit names them."
        )
    return text


# --- Markdown -------------------------------------------------------------------------------


def _markdown_section(section: Section, level: str) -> list[str]:
    lines = [f"{level} {escape_markdown(section.title)}", ""]
    if section.table is not None:
        lines += [*_gfm_table(section.table), ""]
    if section.notes:
        lines += [*(f"- {escape_markdown(note.text)}" for note in section.notes), ""]
    return lines


def render_markdown(post: Post) -> str:
    e = escape_markdown
    lines = [f"# {e(post.title)}", "", f"*{e(post.subtitle)}*", ""]
    for part in post.parts:
        level = "##"
        if part.title is not None:
            lines += [f"## {e(part.title)}", ""]
            if part.subtitle:
                lines += [f"*{e(part.subtitle)}*", ""]
            level = "###"
        for section in part.sections:
            lines += _markdown_section(section, level)
    if not post.parts:
        lines += ["No conflicts.", ""]
    lines += [
        "---",
        "",
        _footer_text(post.footer, e),
        "",
        f"Check: {_code(post.footer.command, e)}",
    ]
    return "\n".join(lines) + "\n"


# --- BBCode and Discord: the same layout, tables as lines ------------------------------------


def _line_sections(
    post: Post, escape: Escape, *, bold: str, italic: str, heading: str, bullet: str
) -> list[str]:
    lines = [bold.format(escape(post.title)), italic.format(escape(post.subtitle)), ""]
    for part in post.parts:
        if part.title is not None:
            lines.append(bold.format(escape(part.title)))
            if part.subtitle:
                lines.append(italic.format(escape(part.subtitle)))
            lines.append("")
        for section in part.sections:
            lines.append(heading.format(escape(section.title)))
            if section.table is not None:
                columns = section.table.columns
                lines += [_row_line(columns, row, escape, bold) for row in section.table.rows]
            lines += [bullet + escape(note.text) for note in section.notes]
            lines.append("")
    if not post.parts:
        lines += ["No conflicts.", ""]
    return lines


def render_bbcode(post: Post) -> str:
    e = escape_bbcode
    lines = _line_sections(
        post, e, bold="[b]{}[/b]", italic="[i]{}[/i]", heading="[u]{}[/u]", bullet="\u2022 "
    )
    lines += [
        f"[i]{_footer_text(post.footer, e)}[/i]",
        f"Check: {e(post.footer.command)}",
    ]
    return "\n".join(lines) + "\n"


def discord_lines(post: Post) -> list[str]:
    """The Discord post as lines, before it is split into messages."""
    e = escape_discord
    lines = _line_sections(post, e, bold="**{}**", italic="*{}*", heading="__{}__", bullet="- ")
    return [*lines, _footer_text(post.footer, e), f"Check: {_code(post.footer.command, e)}"]


def render_discord(post: Post) -> str:
    """The Discord messages, each with a separator line before the next."""
    return f"\n{SEPARATOR}\n".join(split_messages(discord_lines(post))) + "\n"


# --- splitting into messages --------------------------------------------------------------


def utf16_len(text: str) -> int:
    """Length as Discord (JavaScript) counts it: a character beyond U+FFFF counts twice."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _fit(text: str, budget: int) -> int:
    """How many characters of `text` fit in `budget` UTF-16 code units."""
    used = 0
    for index, char in enumerate(text):
        used += 2 if ord(char) > 0xFFFF else 1
        if used > budget:
            return index
    return len(text)


def wrap(line: str, budget: int = DISCORD_LIMIT) -> list[str]:
    """`line` as pieces of at most `budget` units: cut at a space, else between characters
    (never between a backslash and the character it escapes). A piece after the first gets a
    backslash where it would start a block (`escape_line_start`), so each piece is one
    line of text as the whole line was."""
    if budget < 2:
        raise ValueError(f"the budget must be at least 2 units; got {budget}")
    pieces = []
    while utf16_len(line) > budget:
        cut = _fit(line, budget)
        space = line.rfind(" ", 0, cut + 1)
        if space > 0 and line[:space].strip():
            pieces.append(line[:space])
            line = escape_line_start(line[space + 1 :])
            continue
        backslashes = len(line[:cut]) - len(line[:cut].rstrip("\\"))
        if backslashes % 2 and cut > 1:  # it starts an escape: keep it with its character
            cut -= 1
        pieces.append(line[:cut])
        line = escape_line_start(line[cut:])
    pieces.append(line)
    return pieces


def _size(lines: list[str]) -> int:
    return sum(utf16_len(line) for line in lines) + max(len(lines) - 1, 0)


def split_messages(lines: list[str], budget: int = DISCORD_LIMIT) -> list[str]:
    """Pack lines into messages of at most `budget` UTF-16 units, keeping each paragraph
    (lines between blank lines) in one message when it fits, and never cutting a line."""
    blocks: list[list[str]] = [[]]
    for line in lines:
        if not line.strip():
            if blocks[-1]:
                blocks.append([])
            continue
        blocks[-1].extend(wrap(line, budget))
    messages: list[list[str]] = []
    current: list[str] = []
    for block in (b for b in blocks if b):
        if current and _size([*current, "", *block]) <= budget:
            current += ["", *block]
            continue
        if _size(block) <= budget:
            if current:
                messages.append(current)
            current = list(block)
            continue
        gap = [""] if current else []
        for line in block:
            candidate = [*current, *gap, line]
            if current and _size(candidate) > budget:
                messages.append(current)
                current = [line]
            else:
                current = candidate
            gap = []
    if current:
        messages.append(current)
    return ["\n".join(message) for message in messages]


RENDERERS: dict[str, Callable[[Post], str]] = {
    "markdown": render_markdown,
    "bbcode": render_bbcode,
    "discord": render_discord,
}
