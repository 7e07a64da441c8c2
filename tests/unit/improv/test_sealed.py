"""Sealed plays (option sealed_plays): the log holds a commitment, never the card, until its
owner opens it; a wrong opening is refused; a missing one is forfeit after the GM's deadline.

Transcripts on a real SQLite log (tests/unit/improv/table.py)."""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import msgspec
import pytest

from tablelog.commands import table as table_module
from tablelog.commands.audit import account_of
from tablelog.errors import InvalidInput, RuleViolation
from tablelog.events.codec import encode
from tablelog.events.envelope import Envelope
from tablelog.rules import sealing
from tablelog.rulesets.improv.events import (
    CardOpened,
    CardSealed,
    ConflictClosed,
    OpeningForfeited,
    RoundRevealed,
)
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.rules import sealed
from tests.unit.improv.table import KIT, Table, Tables, only

SEALED = {"sealed_plays": "true"}


@pytest.fixture
def new(tmp_path: Path) -> Iterator[Tables]:
    with Tables(tmp_path) as tables:
        yield tables


def fight(table: Table, *, extended: bool = False) -> Table:
    return table.given(
        KIT,
        c.StartSession(),
        c.OpenConflict(conflict="c1", extended=extended, rounds=3 if extended else None),
        c.SetStake(conflict="c1", side="Riso", gm=True, text="Riso gets away"),
        c.SetStake(conflict="c1", side="Kit", text="Kit catches Riso", opposes="Riso"),
    )


class Hand:
    """A player's client: seals a card with a fresh salt and keeps the opening."""

    def __init__(self, side: str, card: str, round_number: int = 1) -> None:
        self.side, self.card, self.round = side, card, round_number
        self.salt = secrets.token_bytes(32)

    @property
    def commitment(self) -> str:
        digest = sealing.commitment("t", "c1", self.round, self.side, self.card, self.salt)
        return digest.hex()

    def play(self) -> c.PlayCard:
        return c.PlayCard(
            conflict="c1", side=self.side, commitment=self.commitment, round=self.round
        )

    def opening(self, card: str | None = None, salt: bytes | None = None) -> c.OpenCard:
        chosen = salt if salt is not None else self.salt
        return c.OpenCard(conflict="c1", side=self.side, card=card or self.card, salt=chosen.hex())


def raw_payloads(table: Table) -> bytes:
    """Every payload byte of the database file, read as the operator could read it."""
    path = table.store.engine.url.database
    assert path is not None
    with closing(sqlite3.connect(path)) as conn, conn:
        rows = conn.execute("SELECT payload FROM events").fetchall()
    return b"\n".join(bytes(r[0]) for r in rows)


def test_the_log_holds_no_sealed_card_until_it_is_opened(new: Tables) -> None:
    table = fight(new(SEALED))
    kit, riso = Hand("kit", "AH"), Hand("riso", "QD")
    # Before the reveal every seal is in the log, and no card is: not in a row, not a view.
    assert table.when(kit.play()) == [
        CardSealed(conflict="c1", round=1, side="kit", commitment=kit.commitment)
    ]
    table.given(riso.play())
    rows = raw_payloads(table)
    assert b'"AH"' not in rows
    assert b'"QD"' not in rows
    assert b'"card"' not in rows
    plays = table.show("c1")["rounds"][0]["plays"]
    assert {plays[s]["card"] for s in plays} == {None}
    assert plays["kit"]["commitment"] == kit.commitment
    # The reveal waits for the openings.
    table.refuse(c.Reveal(conflict="c1"), "openings-missing", RuleViolation)
    opened = table.when(kit.opening())
    assert opened == [
        CardOpened(conflict="c1", round=1, side="kit", card="AH", salt_hex=kit.salt.hex())
    ]
    table.given(riso.opening())
    result = only(table.when(c.Reveal(conflict="c1")), RoundRevealed)
    assert result.winners == ["kit"]


def test_a_forged_replayed_or_resalted_opening_is_refused(new: Tables) -> None:
    table = fight(new(SEALED), extended=True)
    kit, riso = Hand("kit", "AH"), Hand("riso", "QD")
    table.given(kit.play())
    # Opening before every side has played would show a card before all are committed.
    table.refuse(kit.opening(), "open-too-early", RuleViolation)
    table.given(riso.play())
    table.refuse(kit.opening(card="KH"), "bad-opening", RuleViolation)  # forged card
    changed = bytearray(kit.salt)
    changed[0] ^= 1
    table.refuse(kit.opening(salt=bytes(changed)), "bad-opening", RuleViolation)
    table.refuse(kit.opening(salt=b"\x00" * 5), "bad-salt", InvalidInput)
    table.given(kit.opening(), riso.opening(), c.Reveal(conflict="c1"))
    table.refuse(kit.opening(), "nothing-sealed", RuleViolation)  # the round is revealed

    # Round 2: Kit seals 10S; its round-1 opening, replayed, does not open it.
    kit2, riso2 = Hand("kit", "10S", 2), Hand("riso", "3C", 2)
    table.given(kit2.play(), riso2.play())
    table.refuse(kit.opening(), "bad-opening", RuleViolation)
    # A round-1 seal replayed into round 2 is refused before it is stored.
    table.refuse(kit.play(), "second-card", RuleViolation)
    table.given(kit2.opening())
    table.refuse(kit2.opening(), "already-open", RuleViolation)


def test_what_a_sealed_campaign_refuses(new: Tables) -> None:
    table = fight(new(SEALED))
    table.refuse(c.PlayCard(conflict="c1", side="kit", card="AH"), "sealed-play", InvalidInput)
    table.refuse(c.PlayCard(conflict="c1", side="kit"), "commitment-required", InvalidInput)
    stale = Hand("kit", "AH", round_number=2)
    table.refuse(stale.play(), "round-moved", RuleViolation)
    bad = c.PlayCard(conflict="c1", side="kit", commitment="zz", round=1)
    table.refuse(bad, "bad-commitment", InvalidInput)
    plain = fight(new())
    table = plain
    table.refuse(Hand("kit", "AH").play(), "not-sealed", InvalidInput)
    with pytest.raises(InvalidInput, match="needs deck_mode recorded"):
        new({"sealed_plays": "true", "deck_mode": "managed"})


class Clock:
    """The clock `execute` stamps Clocked commands with, set by the test (microseconds)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = 1_800_000_000_000_000
        monkeypatch.setattr(table_module.time, "time_ns", lambda: self.now * 1000)


def test_a_missing_opening_is_forfeit_only_after_the_deadline(
    new: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = fight(new(SEALED))
    kit, riso = Hand("kit", "AH"), Hand("riso", "QD")
    table.given(kit.play(), riso.play(), riso.opening())
    clock = Clock(monkeypatch)
    t0 = clock.now
    # Without a deadline, nobody forfeits.
    table.refuse(c.ForfeitOpening(conflict="c1", side="kit"), "no-deadline", RuleViolation)
    # The GM sets one; `now` is the service's clock, whatever the caller sends.
    table.given(c.SetOpeningDeadline(conflict="c1", minutes=60, now=2**62))
    deadline = t0 + 60 * 60_000_000
    assert table.show("c1")["deadline"] == deadline
    clock.now = deadline - 1
    late = c.ForfeitOpening(conflict="c1", side="kit", now=2**62)
    error = table.refuse(late, "deadline-not-passed", RuleViolation)
    assert "1 minute(s) to go" in str(error)
    clock.now = deadline
    table.refuse(c.ForfeitOpening(conflict="c1", side="riso"), "nothing-to-forfeit", RuleViolation)
    assert table.when(c.ForfeitOpening(conflict="c1", side="kit")) == [
        OpeningForfeited(conflict="c1", round=1, side="kit", deadline=deadline, at=deadline)
    ]
    result = only(table.when(c.Reveal(conflict="c1")), RoundRevealed)
    assert result.winners == ["riso"]  # Kit's card counts as the lowest, a 2 of clubs
    table.refuse(kit.opening(), "nothing-sealed", RuleViolation)


def test_a_deadline_is_now_to_sixty_days(new: Tables) -> None:
    table = fight(new(SEALED))
    table.refuse(c.SetOpeningDeadline(conflict="c1", minutes=5), "nothing-sealed", RuleViolation)
    table.given(Hand("kit", "AH").play(), Hand("riso", "QD").play())
    table.refuse(c.SetOpeningDeadline(conflict="c1", minutes=-1), "bad-deadline", InvalidInput)
    limit = sealed.MAX_MINUTES + 1
    table.refuse(c.SetOpeningDeadline(conflict="c1", minutes=limit), "bad-deadline", InvalidInput)


def forged(envelope: Envelope, **changes: object) -> Envelope:
    """`envelope` with its event's fields changed (the payload re-encoded, as a rewrite would)."""
    event = msgspec.structs.replace(envelope.event(), **changes)
    return msgspec.structs.replace(envelope, payload=encode(event))


def test_the_audit_decides_every_opening_again(new: Tables) -> None:
    table = fight(new(SEALED))
    kit, riso = Hand("kit", "AH"), Hand("riso", "QD")
    table.given(kit.play(), riso.play(), kit.opening(), riso.opening(), c.Reveal(conflict="c1"))
    account = table.audit()
    assert account.ok
    guarantees = account.conflicts[0].guarantees
    assert guarantees["sealed"].startswith("held")
    assert guarantees["committed"].startswith("not used")
    assert guarantees["checkpointed"].startswith("not yet")
    assert [n.split(":")[0] for n in table.notes("opened")] == [
        "Kit opens A♥",
        "Riso opens Q♦",
    ]
    log = table.log()
    opened_at = next(e.seq for e in log if e.type == "improv.card_opened")
    # A log whose opening names another card (a rewrite, hashes recomputed): named.
    rewritten = [forged(e, card="KH") if e.seq == opened_at else e for e in log]
    rewritten_account = account_of(rewritten)
    found = rewritten_account.discrepancies
    assert found[0].seq == opened_at
    assert "bad-opening" in str(found[0].expected)
    verdict = rewritten_account.conflicts[0].guarantees["sealed"]
    assert verdict == f"broken: the seal at seq {opened_at} does not hold"
    # An opening moved before the other side's seal: the commitment order is checked too.
    early = [*log[: opened_at - 2], log[opened_at - 1], log[opened_at - 2]]
    early = [msgspec.structs.replace(e, seq=i + 1) for i, e in enumerate(early)]
    found = account_of(early).discrepancies
    assert found[0].seq == opened_at - 1
    assert "open-too-early" in str(found[0].expected)


def test_an_abandoned_conflict_turns_up_only_opened_cards(new: Tables) -> None:
    table = fight(new(SEALED))
    kit, riso = Hand("kit", "AH"), Hand("riso", "QD")
    table.given(kit.play(), riso.play(), riso.opening())
    closed = only(table.when(c.Abandon(conflict="c1", reason="the bar burns")), ConflictClosed)
    assert closed.cards == {"riso": "QD"}
    assert closed.abandoned


def test_the_audit_says_which_guarantees_held(new: Tables) -> None:
    plain = fight(new())
    plain.given(
        c.PlayCard(conflict="c1", side="kit", card="AH"),
        c.PlayCard(conflict="c1", side="riso", card="QD"),
        c.Reveal(conflict="c1"),
        c.Close(conflict="c1"),
    )
    assert plain.audit().conflicts[0].guarantees["sealed"] == "not used"
    plain.given(c.EndSession())
    ended = plain.log()[-1].seq
    checkpointed = plain.audit().conflicts[0].guarantees["checkpointed"]
    assert checkpointed == f"held: a checkpoint of the session's end at seq {ended} covers it"
