"""Beer Run's sealed pools (option sealed_plays) as transcripts: a pool bought hidden is
stored as a commitment over its content, never its dice or price, until every pool is in;
a wrong opening is refused with nothing appended; a pool never opened is forfeit after the
GM's deadline (an empty pool); the audit decides every seal, opening and forfeit again."""

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
from tablelog.rules import sealing
from tablelog.rulesets.beer_run import events as ev
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules.sealed import pool_choice
from tests.unit.beer_run.table import Table, Tables, character, goal, only, roll

SEALED = {"dice": "recorded", "sealed_plays": "true"}


class Purse:
    """A player's client: seals a pool's content with a fresh salt and keeps the opening."""

    def __init__(self, actor: str, base: list[str], extras: tuple[str, ...] = ()) -> None:
        self.actor, self.base, self.extras, self.round = actor, base, list(extras), 1
        self.salt = secrets.token_bytes(32)

    @property
    def commitment(self) -> str:
        choice = pool_choice(self.base, self.extras)
        return sealing.commitment("t", "c1", self.round, self.actor, choice, self.salt).hex()

    def buy(self) -> c.AssemblePool:
        return c.AssemblePool(
            conflict="c1", actor=self.actor, base=[], commitment=self.commitment, round=self.round
        )

    def opening(self, *, extras: list[str] | None = None, salt: bytes | None = None) -> c.OpenPool:
        return c.OpenPool(
            conflict="c1",
            actor=self.actor,
            base=self.base,
            extras=self.extras if extras is None else extras,
            salt=(salt if salt is not None else self.salt).hex(),
        )


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with Tables(tmp_path) as tables:
        yield tables(SEALED).given(
            character("Alice", "Body:Body:d8", "Mind:Mind:d6", "Kit:Kit:d4", "Brawl:Body:d10"),
            character("Bob", "Body:Body:d8", "Resolve:Mind:d6", "Kit:Kit:d6", player="gm"),
            c.OpenConflict(conflict="c1", sides={"a": ["Alice"], "b": ["Bob"]}),
            goal("Alice", "Bob"),
            goal("Bob", "Alice"),
        )


def raw_payloads(table: Table) -> bytes:
    path = table.store.engine.url.database
    assert path is not None
    with closing(sqlite3.connect(path)) as conn, conn:
        return b"\n".join(bytes(r[0]) for r in conn.execute("SELECT payload FROM events"))


def test_a_sealed_pool_stores_only_its_commitment_until_every_pool_is_in(table: Table) -> None:
    alice = Purse("alice", ["Body", "Mind", "Kit"], ("Brawl",))
    plain = c.AssemblePool(conflict="c1", actor="alice", base=["Body", "Mind", "Kit"])
    table.refuse(plain, "sealed-play", InvalidInput)
    assert table.when(alice.buy()) == [
        ev.PoolSealed(conflict="c1", round=1, actor="alice", commitment=alice.commitment)
    ]
    raw = raw_payloads(table)  # as the operator reads the database: no pool, no price
    assert b"br.pool_assembled" not in raw
    assert b"br.pool_opened" not in raw
    assert table.intensity("Alice") == 10  # nothing is paid before the opening
    table.refuse(alice.opening(), "open-too-early", RuleViolation)  # Bob's pool is not in
    bob = Purse("bob", ["Body", "Resolve", "Kit"])
    table.given(bob.buy())
    # A changed content, a changed salt, the opening of another: refused, nothing appended.
    table.refuse(alice.opening(extras=[]), "bad-opening", RuleViolation)
    table.refuse(alice.opening(salt=bytes(32)), "bad-opening", RuleViolation)
    swapped = msgspec.structs.replace(bob.opening(), actor="alice")
    table.refuse(swapped, "bad-opening", RuleViolation)
    opened = only(table.when(alice.opening()), ev.PoolOpened)
    assert opened.choice == "base=Body,Mind,Kit;extras=Brawl"
    assert opened.intensity_cost == 2
    assert table.intensity("Alice") == 8
    table.refuse(alice.opening(), "nothing-sealed", RuleViolation)  # open once
    table.given(bob.opening(), roll("alice", 7, 5, 3, 2), roll("bob", 7, 4, 6))
    compared = only(table.events(), ev.RollsCompared)
    assert compared.kept == {"alice": 1, "bob": 2}  # BR-2's numbers
    account = account_of(table.log())
    assert account.ok, account.discrepancies
    assert account.conflicts[0].guarantees["sealed"].startswith("held")
    # An opening rewritten to another pool (hashes recomputed) is named by the audit.
    log = table.log()
    at = next(e.seq for e in log if e.type == "br.pool_opened")
    event = msgspec.structs.replace(log[at - 1].event(), choice="base=Body,Mind,Kit;extras=")
    log[at - 1] = msgspec.structs.replace(log[at - 1], payload=encode(event))
    found = account_of(log).discrepancies
    assert found[0].seq == at
    assert "does not match its commitment" in str(found[0].expected)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    now = [1_800_000_000_000_000]
    monkeypatch.setattr(table_module.time, "time_ns", lambda: now[0] * 1000)
    return now


def test_a_pool_never_opened_is_forfeit_after_the_deadline(table: Table, clock: list[int]) -> None:
    alice, bob = Purse("alice", ["Body", "Mind", "Kit"]), Purse("bob", ["Body", "Resolve", "Kit"])
    table.given(alice.buy(), bob.buy(), bob.opening())
    forfeit = c.ForfeitPool(conflict="c1", actor="alice")
    table.refuse(forfeit, "no-deadline", RuleViolation)
    table.given(c.SetPoolDeadline(conflict="c1", minutes=60))
    deadline = clock[0] + 60 * 60_000_000
    clock[0] = deadline - 1
    table.refuse(forfeit, "deadline-not-passed", RuleViolation)
    clock[0] = deadline
    table.refuse(c.ForfeitPool(conflict="c1", actor="bob"), "nothing-to-forfeit", RuleViolation)
    assert table.when(forfeit)[0] == ev.PoolForfeited(
        conflict="c1", round=1, actor="alice", deadline=deadline, at=deadline
    )
    assert table.intensity("Alice") == 10  # an empty pool pays nothing
    table.given(roll("bob", 7, 4, 6))  # the last pool rolled: the comparison follows
    compared = only(table.events(), ev.RollsCompared)
    assert compared.a_values == [1, 1, 1] or compared.b_values == [1, 1, 1]
    assert compared.upper_hand == "bob"
    account = account_of(table.log())
    assert account.ok, account.discrepancies
    assert [n.kind for n in account.conflicts[0].sections[0].notes].count("forfeit") == 1


def test_a_sealed_pool_the_rules_refuse_opens_as_an_empty_pool(table: Table) -> None:
    alice = Purse("alice", ["Body", "Mnd", "Kit"])  # a typo, sealed: nobody could see it
    bob = Purse("bob", ["Body", "Resolve", "Kit"])
    table.given(alice.buy(), bob.buy())
    opened = only(table.when(alice.opening()), ev.PoolOpened)
    assert opened.dice == []
    assert opened.refused.startswith("unknown-ability: ")
    assert table.intensity("Alice") == 10  # an empty pool pays nothing
    table.given(bob.opening(), roll("bob", 7, 4, 6))  # the round plays on
    assert only(table.events(), ev.RollsCompared).upper_hand == "bob"
    account = account_of(table.log())
    assert account.ok, account.discrepancies
