"""A forum post of a conflict, a session or a whole campaign, built from its account.

A `Post` is format-neutral: titles, the account's sections (the table round by round, every
note) and a verification footer. The renderers in `post_formats` turn it into Markdown, BBCode
or Discord messages. A post is built from an `Account` only, and an account never holds a card
still face down or a hand, so no post can show one. Every text that comes from the account is
plain, user-influenced text: the renderers escape all of it for their format.
"""

from __future__ import annotations

import re

import msgspec

from tablelog.projections.account import Account, ConflictAccount, Section, SessionSpan

_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


class Footer(msgspec.Struct, frozen=True, kw_only=True):
    """What a reader needs to check the post against a copy of the log."""

    campaign: str
    first_seq: int
    last_seq: int
    head_seq: int
    head_hash: str  # the full SHA-256 of the event at head_seq, 64 hex digits
    # Recorded decisions the audit finds do not follow: an intact chain proves no edit since
    # the head was published, not that the rules were kept, so a post says so.
    audit_problems: int = 0

    @property
    def head(self) -> str:
        return f"{self.head_seq}:{self.head_hash}"

    @property
    def command(self) -> str:
        return f"tablelog verify -c {self.campaign} --head {self.head}"


class Part(msgspec.Struct, frozen=True, kw_only=True):
    """One conflict of the post; `title` is None when the post is about that conflict alone."""

    title: str | None
    subtitle: str | None
    sections: list[Section]


class Post(msgspec.Struct, frozen=True, kw_only=True):
    title: str
    subtitle: str
    parts: list[Part]
    footer: Footer


def plain(text: str) -> str:
    """A text on one line: line breaks, tabs and other control characters become spaces."""
    return _BREAKS.sub(" ", text).strip()


def seq_range(first: int, last: int) -> str:
    return f"event {first}" if first == last else f"events {first}\u2013{last}"


def _session(conflict: ConflictAccount) -> str:
    return f", session {conflict.session}" if conflict.session is not None else ""


def _footer(account: Account, first: int, last: int, head_hash: bytes) -> Footer:
    if len(head_hash) != 32:
        raise ValueError(f"a head hash is 32 bytes; got {len(head_hash)}")
    return Footer(
        campaign=account.campaign,
        audit_problems=len(account.discrepancies),
        first_seq=first,
        last_seq=last,
        head_seq=last,
        head_hash=head_hash.hex(),
    )


def _parts(conflicts: list[ConflictAccount]) -> list[Part]:
    return [
        Part(
            title=c.title,
            subtitle=seq_range(c.first_seq, c.last_seq),
            sections=list(c.sections),
        )
        for c in conflicts
    ]


def _count(conflicts: list[ConflictAccount]) -> str:
    n = len(conflicts)
    return f"{n} conflict" + ("" if n == 1 else "s")


def conflict_post(account: Account, conflict: ConflictAccount, head_hash: bytes) -> Post:
    """A post of one conflict; `head_hash` is the hash of the event at `conflict.last_seq`."""
    return Post(
        title=conflict.title,
        subtitle=(
            f"campaign {account.campaign}{_session(conflict)}, "
            f"{seq_range(conflict.first_seq, conflict.last_seq)}"
        ),
        parts=[Part(title=None, subtitle=None, sections=list(conflict.sections))],
        footer=_footer(account, conflict.first_seq, conflict.last_seq, head_hash),
    )


def session_post(account: Account, span: SessionSpan, head_hash: bytes) -> Post:
    """A post of every conflict of one session; `head_hash` is that of `span.last_seq`."""
    conflicts = [c for c in account.conflicts if c.session == span.session]
    return Post(
        title=f"session {span.session}",
        subtitle=(
            f"campaign {account.campaign}, {seq_range(span.first_seq, span.last_seq)}, "
            f"{_count(conflicts)}"
        ),
        parts=_parts(conflicts),
        footer=_footer(account, span.first_seq, span.last_seq, head_hash),
    )


def campaign_post(account: Account, head_hash: bytes) -> Post:
    """A post of every conflict of the campaign; `head_hash` is that of `account.seq`."""
    return Post(
        title=f"campaign {account.campaign}",
        subtitle=(f"{account.ruleset}, {seq_range(1, account.seq)}, {_count(account.conflicts)}"),
        parts=_parts(account.conflicts),
        footer=_footer(account, 1, account.seq, head_hash),
    )


def find_conflict(account: Account, given: str) -> ConflictAccount | None:
    wanted = given.strip().lower()
    return next((c for c in account.conflicts if c.conflict == wanted), None)


def find_session(account: Account, number: int) -> SessionSpan | None:
    return next((s for s in account.sessions if s.session == number), None)
