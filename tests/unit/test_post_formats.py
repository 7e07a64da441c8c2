"""Forum posts from an account: user text never forms markup, Discord messages fit.

Every text in an account is user-influenced (stakes, narration, names, conflict ids), so the
hostile account below puts markup of every format into titles, table cells and notes, and each
renderer must show it as literal text.
"""

from __future__ import annotations

import re

import pytest

from tablelog.projections.account import (
    Account,
    ConflictAccount,
    Note,
    Section,
    SessionSpan,
    Table,
)
from tablelog.projections.post import (
    Post,
    campaign_post,
    conflict_post,
    find_conflict,
    find_session,
    plain,
    session_post,
)
from tablelog.projections.post_formats import (
    DISCORD_LIMIT,
    RENDERERS,
    SEPARATOR,
    ZWSP,
    discord_lines,
    escape_bbcode,
    escape_discord,
    escape_markdown,
    render_bbcode,
    render_discord,
    render_markdown,
    split_messages,
    utf16_len,
    wrap,
)
from tests.support.markup import MD, bbcode_tags, discord_forms, markdown_extensions

HOSTILE = "**bold** [b]x[/b] <@123> @everyone # head | pipe"
MORE = (
    "line one\nline two\t[url=javascript:alert(1)]x[/url] [img]x[/img] _u_ ~~s~~ `c` "
    "||spoiler|| > quote -# small [link](http://x) <#1> <@&2> @here :smile: &amp; <b>h</b> "
    "back\\slash ----- 8< -----"
)
HASH = bytes(range(32))
HEX = HASH.hex()


def _conflict(
    key: str, session: int | None, first: int, last: int, *, hostile: bool
) -> ConflictAccount:
    text = HOSTILE if hostile else "Riso shoots Vinny"
    return ConflictAccount(
        conflict=key,
        title=f"conflict {key} (extended, 3 rounds), closed" + (f" {HOSTILE}" if hostile else ""),
        session=session,
        first_seq=first,
        last_seq=last,
        sections=[
            Section(
                title="Stakes",
                notes=[Note(seq=first + 1, kind="stake", text=f"Riso (GM stake): {text}")],
            ),
            Section(
                title=f"Round 1 {HOSTILE}" if hostile else "Round 1",
                table=Table(
                    columns=["side", "card", "bonuses", "total"],
                    rows=[
                        [HOSTILE if hostile else "Kit", "A♥", HOSTILE if hostile else "-", "17"],
                        ["Riso", "A♣", "+1 token(s) by the GM", "17"],
                    ],
                ),
                notes=[
                    Note(seq=last, kind="comparison", text="Kit 17 vs Riso 17: Kit wins"),
                    Note(seq=last, kind="narration", text=f"Kit: {MORE}" if hostile else "Kit"),
                ],
            ),
        ],
    )


def _account(*, hostile: bool = True) -> Account:
    return Account(
        campaign="bar-fight",
        ruleset="improv",
        seq=60,
        conflicts=[
            _conflict("fight", 1, 12, 40, hostile=hostile),
            _conflict("chase", 2, 45, 58, hostile=False),
        ],
        discrepancies=[],
        sessions=[
            SessionSpan(session=1, first_seq=8, last_seq=42),
            SessionSpan(session=2, first_seq=43, last_seq=60),
        ],
    )


def _fight_post(*, hostile: bool = True) -> Post:
    account = _account(hostile=hostile)
    return conflict_post(account, account.conflicts[0], HASH)


# --- building the post ----------------------------------------------------------------------


def test_a_conflict_post_covers_the_conflict_and_names_its_head() -> None:
    post = _fight_post()
    assert (post.footer.first_seq, post.footer.last_seq, post.footer.head_seq) == (12, 40, 40)
    assert post.footer.head == f"40:{HEX}"
    assert post.footer.command == f"tablelog verify -c bar-fight --head 40:{HEX}"
    assert [p.title for p in post.parts] == [None]
    assert post.subtitle == "campaign bar-fight, session 1, events 12\u201340"


def test_a_session_post_holds_that_sessions_conflicts_and_its_span() -> None:
    account = _account(hostile=False)
    span = find_session(account, 2)
    assert span is not None
    post = session_post(account, span, HASH)
    assert [p.title for p in post.parts] == ["conflict chase (extended, 3 rounds), closed"]
    assert (post.footer.first_seq, post.footer.last_seq) == (43, 60)
    assert post.title == "session 2"
    assert find_session(account, 3) is None


def test_a_campaign_post_holds_every_conflict_from_seq_one() -> None:
    post = campaign_post(_account(), HASH)
    assert len(post.parts) == 2
    assert (post.footer.first_seq, post.footer.last_seq) == (1, 60)


def test_conflicts_are_found_case_insensitively() -> None:
    account = _account()
    assert find_conflict(account, " FIGHT ") is account.conflicts[0]
    assert find_conflict(account, "nope") is None


def test_a_head_hash_must_be_a_whole_sha256() -> None:
    account = _account()
    with pytest.raises(ValueError, match="32 bytes"):
        conflict_post(account, account.conflicts[0], HASH[:8])


def test_line_breaks_and_tabs_in_a_text_become_spaces() -> None:
    assert plain(" a\nb\r\nc\td\u2028e\x00f ") == "a b  c d e f"


# --- escaping: each rendered post, read back ------------------------------------------------


def test_markdown_user_text_forms_no_markup() -> None:
    out = render_markdown(_fight_post())
    body, footer = out.split("\n---\n")
    for text in (HOSTILE, MORE):
        assert escape_markdown(text) in body
    tokens = MD.parse(body)
    # The renderer's blocks only: a heading per title, a list item per note, one table per
    # round (4 columns), no quote, no code block, no rule, no HTML.
    assert {t.type for t in tokens} == {
        *("heading_open", "heading_close", "paragraph_open", "paragraph_close", "inline"),
        *("bullet_list_open", "bullet_list_close", "list_item_open", "list_item_close"),
        *("table_open", "thead_open", "tbody_open", "tr_open", "th_open", "td_open"),
        *("table_close", "thead_close", "tbody_close", "tr_close", "th_close", "td_close"),
    }
    assert sum(t.type == "heading_open" for t in tokens) == 3
    assert sum(t.type == "list_item_open" for t in tokens) == 3
    assert sum(t.type == "th_open" for t in tokens) == 4
    inline = [c.type for t in tokens if t.type == "inline" for c in t.children or []]
    assert set(inline) == {"text", "em_open", "em_close"}  # the subtitle's italics only
    assert inline.count("em_open") == 1
    shown = "".join(c.content for t in tokens if t.type == "inline" for c in t.children or [])
    for text in (HOSTILE, plain(MORE)):
        assert text in shown
    for line in body.splitlines():
        assert markdown_extensions(line) == [], line
    assert f"head 40:{HEX}." in footer
    assert f"`tablelog verify -c bar-fight --head 40:{HEX}`" in footer


def test_bbcode_user_text_forms_no_tag() -> None:
    out = render_bbcode(_fight_post())
    tags = re.findall(r"\[(?!\u200b)[^\]\n]*\]", out)
    assert set(tags) <= {"[b]", "[/b]", "[i]", "[/i]", "[u]", "[/u]"}, tags
    for tag in ("b", "i", "u"):
        assert tags.count(f"[{tag}]") == tags.count(f"[/{tag}]")
    assert f"[{ZWSP}b]x[{ZWSP}/b]" in out
    assert f"[{ZWSP}url=javascript:alert(1)]" in out
    assert f"<{ZWSP}b>h<{ZWSP}/b>" in out  # RPoL's HTML-like tags
    assert escape_bbcode(HOSTILE) in out
    assert [t for t in bbcode_tags(out) if t not in tags] == []
    assert f"Check: tablelog verify -c bar-fight --head 40:{HEX}" in out


def test_bbcode_tables_are_lines_with_the_empty_cells_left_out() -> None:
    out = render_bbcode(_fight_post(hostile=False))
    assert "[b]Kit[/b]: card A♥; total 17" in out
    assert "[b]Riso[/b]: card A♣; bonuses +1 token(s) by the GM; total 17" in out


def test_discord_user_text_forms_no_markup_and_pings_nobody() -> None:
    out = render_discord(_fight_post())
    for mention in ("@everyone", "@here", "<@", "<#"):
        assert mention not in out
    assert re.search(r"@\d|@&", out) is None
    assert escape_discord(HOSTILE) in out
    body = out[: out.index("\nVerified log:")]
    for line in body.splitlines():
        # The renderer's own markup: a bold name, an italic subtitle, a heading, a bullet.
        content = re.sub(r"^(\*\*|__|- |\*)", "", line)
        content = re.sub(r"(\*\*: |\*\*$|__$|\*$)", " ", content, count=1)
        assert discord_forms(content) == [], line
    assert f"`tablelog verify -c bar-fight --head 40:{HEX}`" in out


def test_ordinary_text_in_a_post_reads_as_typed() -> None:
    post = _fight_post(hostile=False)
    for fmt in RENDERERS:
        out = RENDERERS[fmt](post)
        assert "conflict fight (extended, 3 rounds), closed" in out, fmt
        assert "Riso (GM stake): Riso shoots Vinny" in out, fmt
        assert "+1 token(s) by the GM" in out, fmt
        assert "Kit 17 vs Riso 17: Kit wins" in out, fmt
        assert "campaign bar-fight, session 1, events 12\u201340" in out, fmt


@pytest.mark.parametrize("fmt", sorted(RENDERERS))
def test_a_separator_line_never_comes_from_user_text(fmt: str) -> None:
    out = RENDERERS[fmt](_fight_post())
    lines = out.splitlines()
    assert SEPARATOR not in lines or fmt == "discord"
    assert "----- 8< -----" in MORE
    if fmt == "discord":
        messages = out.split(f"\n{SEPARATOR}\n")
        assert lines.count(SEPARATOR) == len(messages) - 1


FOOTER = f"Verified log: campaign bar-fight, events 12\u201340, head 40:{HEX}."
CHECK = f"tablelog verify -c bar-fight --head 40:{HEX}"


@pytest.mark.parametrize(
    ("fmt", "tail"),
    [
        ("markdown", ["---", "", FOOTER, "", f"Check: `{CHECK}`"]),
        ("bbcode", [f"[i]{FOOTER}[/i]", f"Check: {CHECK}"]),
        ("discord", [FOOTER, f"Check: `{CHECK}`"]),
    ],
)
def test_every_format_ends_with_the_verification_footer(fmt: str, tail: list[str]) -> None:
    # As the README shows it: the campaign, the seq range, the head SEQ:HASH, and the
    # command that checks it, the same for an ordinary and a hostile post.
    for hostile in (False, True):
        out = RENDERERS[fmt](_fight_post(hostile=hostile))
        assert out.endswith("\n".join(tail) + "\n"), out[-400:]


# --- Discord messages -----------------------------------------------------------------------


def _long_post() -> Post:
    """A conflict with many notes and one narration of 4,000 characters."""
    account = _account()
    words = " ".join(f"w{i:03d}" for i in range(800))  # 800 words, 4,000 characters
    assert len(words) == 3999
    notes = [Note(seq=20, kind="narration", text=f"Kit: note {i} {HOSTILE} 😀") for i in range(80)]
    notes.append(Note(seq=21, kind="narration", text=words))
    account.conflicts[0].sections.append(Section(title="Gifts", notes=notes))
    return conflict_post(account, account.conflicts[0], HASH)


def test_discord_messages_fit_and_keep_every_line_whole() -> None:
    post = _long_post()
    out = render_discord(post)
    messages = out.rstrip("\n").split(f"\n{SEPARATOR}\n")
    assert len(messages) >= 4
    assert all(utf16_len(m) <= DISCORD_LIMIT for m in messages)
    sent = [line for m in messages for line in m.splitlines()]
    original = discord_lines(post)
    for line in original:
        if line and utf16_len(line) <= DISCORD_LIMIT:
            assert line in sent, line
    long_line = next(line for line in original if utf16_len(line) > DISCORD_LIMIT)
    pieces = [line for line in sent if line.startswith("w") or line.startswith("- w000 ")]
    assert len(pieces) >= 2
    assert " ".join(pieces) == long_line  # wrapped at spaces; nothing lost
    assert sent.count(SEPARATOR) == 0


def test_discord_counts_utf16_code_units() -> None:
    assert utf16_len("😀") == 2
    assert utf16_len("♥a") == 2
    lines = ["😀" * 600, "😀" * 600]  # 1,200 units each: two messages, not one
    assert split_messages(lines) == ["😀" * 600, "😀" * 600]


def test_a_line_without_spaces_is_hard_wrapped_and_kept_whole() -> None:
    line = "😀" * 1500 + "x" * 1500  # 4,500 units, no space
    pieces = wrap(line)
    assert len(pieces) == 3
    assert "".join(pieces) == line
    assert all(utf16_len(p) <= DISCORD_LIMIT for p in pieces)


def test_a_hard_wrap_never_separates_an_escape_from_its_character() -> None:
    line = "a" + escape_discord("*" * 2500)  # an odd offset: a naive cut would split an escape
    pieces = wrap(line)
    assert "".join(pieces) == line
    for piece in pieces:
        assert utf16_len(piece) <= DISCORD_LIMIT
        trailing = len(piece) - len(piece.rstrip("\\"))
        assert trailing % 2 == 0, "a piece ends inside an escape"
    assert all(p.startswith("\\*") for p in pieces[1:])


def test_paragraphs_stay_together_when_they_fit() -> None:
    first = ["a" * 900, "b" * 900]
    second = ["c" * 500, "d" * 500]
    assert split_messages([*first, "", *second]) == ["\n".join(first), "\n".join(second)]
    assert split_messages(["x", "", "y"]) == ["x\n\ny"]


def test_a_piece_of_a_wrapped_line_never_starts_a_block() -> None:
    line = escape_discord("Kit wins # the head > a quote - an item 1. one")
    assert line == "Kit wins # the head > a quote - an item 1. one"  # mid-line: as typed
    pieces = wrap(line, 8)
    assert pieces == ["Kit wins", "\\# the", "head > a", "quote -", "an item", "1\\. one"]
    assert [p for p in pieces if discord_forms(p)] == []
    hard = wrap("aaaaaaaa> quote", 8)  # no space before the cut
    assert hard == ["aaaaaaaa", "\\> quote"]
