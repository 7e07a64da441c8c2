"""Committed shuffles that no seat can steer (issue 25): contributions are pledged first and
revealed only once every pledge is in, on a real SQLite file.

The attack this stops: an operator who runs the service knows the server seed; with a puppet
seat that is the last one awaited, it saw the others' contributions and tried values offline
until the deal suited it. Now the puppet must pledge before any value is out, so all it can
still choose is to reveal its pledged value or to withhold it, and a withholding is named by
`rng.drawn`, the audit and `verify --rng`."""

from __future__ import annotations

import random
import secrets
import shlex
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from tablelog.commands import access
from tablelog.commands.audit import audit
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.state import state_at
from tablelog.commands.table import execute
from tablelog.errors import InvalidInput, RuleViolation
from tablelog.events.envelope import Envelope
from tablelog.events.rng import RngDrawn
from tablelog.projections.fairness import missing_of
from tablelog.rules import rng
from tablelog.rules.common import EndSession, StartSession
from tablelog.rules.rng_commands import CloseRequest, Contribute, Pledge
from tablelog.rulesets.beer_run.rules import commands as br
from tablelog.rulesets.improv.rules.commands import CreateCharacter
from tablelog.storage import EventStore, open_store
from tablelog.storage.schema import rng_seeds
from tests.e2e.transcript import ok, refused, run
from tests.integration.test_committed_rng import pub_at_the_roll

FIXTURES = Path(__file__).parent.parent / "fixtures"
TRIES = 256  # values the attacker tries for its puppet seat (a d8 face: all but surely found)


def types(written: list[Envelope]) -> list[str]:
    return [e.type for e in written]


def pledge(store: EventStore, request: str, player: str, value: bytes) -> list[Envelope]:
    commitment = rng.pledge("pub", request, player, value)
    return execute(store, "pub", Pledge(request=request, player=player, commitment=commitment))


def reveal(store: EventStore, request: str, player: str, value: bytes) -> list[Envelope]:
    return execute(store, "pub", Contribute(request=request, player=player, value=value.hex()))


def server_seed(store: EventStore, request: str) -> bytes:
    """What the operator can read in its own database."""
    with store.engine.connect() as conn:
        row = conn.execute(select(rng_seeds.c.seed).where(rng_seeds.c.request == request)).one()
    return bytes(row[0])


def first_die(seed: bytes, values: list[bytes], faces: list[list[str]]) -> str:
    """The first die's face a draw gives: what the attacker wants to choose."""
    return rng.recomputed(rng.shuffle_seed(seed, values), faces)[0][0]


def rolled(store: EventStore, *options: tuple[str, str]) -> str:
    """The pub at the roll, ann honest and cat the operator's puppet (the last awaited)."""
    pub_at_the_roll(store, *options)
    execute(store, "pub", StartSession())
    written = execute(store, "pub", br.Roll(conflict="c1"))
    committed = written[0].event()
    assert committed.awaited == ["ann", "cat"]
    assert committed.pledges
    return str(committed.request)


def test_an_operator_holding_the_last_seat_can_only_reveal_or_withhold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store(str(tmp_path / "pub.db"), create=True)
    request = rolled(store, ("rng_deadline_minutes", "5"))
    seed = server_seed(store, request)
    honest = secrets.token_bytes(32)
    pledge(store, request, "ann", honest)
    # All the log holds of ann's value while cat may still pledge is its commitment.
    assert not any(honest.hex().encode() in e.payload for e in store.read("pub"))
    # The puppet pledges blind (it must, to take part at all): one value, fixed now.
    puppet = secrets.token_bytes(32)
    assert types(pledge(store, request, "cat", puppet)) == ["rng.pledged", "rng.pledges_closed"]
    with pytest.raises(RuleViolation, match=r"pledges of request .* are closed"):
        pledge(store, request, "cat", secrets.token_bytes(32))
    reveal(store, request, "ann", honest)
    # Now the attacker knows everything and tries values offline; the service takes none
    # but the one pledged, and nothing is appended for any of them.
    head = store.head("pub")
    faces = [d.cards for d in _dice_asked(store, request, seed, honest, puppet)]
    revealed = first_die(seed, [honest, puppet], faces)
    withheld = first_die(seed, [honest], faces)
    # The face it would force: one neither choice gives. Offline, one-step contributions
    # would have let it find a value giving that face in a few tries; the service now takes
    # none of them, nor any other value but the one pledged, and appends nothing.
    wanted = next(f for f in faces[0] if f not in (revealed, withheld))
    tries = random.Random(25)
    forcing = [tries.randbytes(32) for _ in range(TRIES)]
    assert any(first_die(seed, [honest, v], faces) == wanted for v in forcing)
    for value in forcing:
        with pytest.raises(RuleViolation, match="not the one cat pledged"):
            reveal(store, request, "cat", value)
    assert store.head("pub") == head
    # It withholds: before the reveal deadline the GM cannot close ...
    with pytest.raises(RuleViolation, match="its reveals may be closed from"):
        execute(store, "pub", CloseRequest(request=request))
    later = time.time_ns() + 6 * 60 * 10**9
    monkeypatch.setattr(time, "time_ns", lambda: later)
    written = execute(store, "pub", CloseRequest(request=request))
    drawn = written[0].event()
    assert (drawn.players, drawn.absent, drawn.withheld) == (["ann"], [], ["cat"])
    assert drawn.draws[0].order[0] == first_die(seed, [honest], faces)
    # ... and the withholding is in the log by name, for everyone: the audit names it.
    account = audit(store, "pub")
    assert any("withheld (pledged, never revealed): cat" in n.text for n in account.shuffles)
    store.close()
    # Once the seed is out, `verify --rng` recomputes the draw and names the withheld seat.
    store = open_store(str(tmp_path / "pub.db"))
    assert "rng.revealed" in types(execute(store, "pub", EndSession()))
    store.close()
    out = ok(run(tmp_path, "--db", str(tmp_path / "pub.db"), "verify", "--rng"))
    assert "cat withheld their reveal" in out
    audited = ok(run(tmp_path, "--db", str(tmp_path / "pub.db"), "audit"))
    assert "withheld (pledged, never revealed): cat" in audited
    assert (
        f"partly: drawn with contributions missing, or lapsed (request {request}: withheld"
        in audited
    )


def _dice_asked(
    store: EventStore, request: str, seed: bytes, honest: bytes, puppet: bytes
) -> list[rng.Draw]:
    """The shuffles the waiting roll asks for (the dice's faces), as the operator can work
    out from its own copy of the rules: here, from a throwaway draw with any values."""
    shuffle = rng.CommittedShuffle(rng.shuffle_seed(seed, [honest, puppet]))
    head = store.head("pub")
    assert head is not None
    folded = state_at(store, "pub", head.seq)
    folded.ruleset.decide(folded.state, br.Roll(conflict="c1"), shuffle)
    return shuffle.draws


def test_a_replayed_or_mismatched_contribution_is_refused_and_nothing_is_appended(
    tmp_path: Path,
) -> None:
    """An Improv campaign with managed decks: each session's deal is a committed shuffle."""
    store = open_store(str(tmp_path / "night.db"), create=True)
    options = {"deck_mode": "managed", "committed_rng": "true"}
    create_campaign(store, "night", ruleset="improv", options=options)
    for player, character in (("ann", "Kit"), ("cat", "Vex")):
        access.invite(store, "night", player)
        execute(store, "night", CreateCharacter(player=player, character=character))

    def give(request: str, player: str, *, value: bytes, commitment: str | None = None) -> None:
        pledged = commitment or rng.pledge("night", request, player, value)
        execute(store, "night", Pledge(request=request, player=player, commitment=pledged))

    def opened(request: str, player: str, value: bytes) -> list[Envelope]:
        return execute(
            store, "night", Contribute(request=request, player=player, value=value.hex())
        )

    first = execute(store, "night", StartSession())[0].event().request
    ann = secrets.token_bytes(32)
    give(first, "ann", value=ann)
    head = store.head("night")
    # cat copies ann's pledge (it could never open it: it binds ann's name): refused.
    copied = rng.pledge("night", first, "ann", ann)
    with pytest.raises(RuleViolation, match="already logged"):
        give(first, "cat", value=ann, commitment=copied)
    # A pledge that is not 64 hex digits is refused too.
    with pytest.raises(InvalidInput, match="64 hex digits"):
        give(first, "cat", value=ann, commitment="abc")
    assert store.head("night") == head
    cat = secrets.token_bytes(32)
    give(first, "cat", value=cat)
    head = store.head("night")
    # ann's value revealed under cat's name, cat's under ann's, or any other: refused.
    for player, value in (("cat", ann), ("ann", cat), ("ann", secrets.token_bytes(32))):
        with pytest.raises(RuleViolation, match=f"not the one {player} pledged"):
            opened(first, player, value)
    assert store.head("night") == head
    opened(first, "ann", ann)
    assert "rng.drawn" in types(opened(first, "cat", cat))
    # The next session's deal: ann's earlier pledge, replayed, binds the earlier request, so
    # ann's earlier value does not open it here; cat's earlier value under ann's name neither.
    execute(store, "night", EndSession())
    second = execute(store, "night", StartSession())[0].event().request
    give(second, "ann", value=ann, commitment=copied)
    give(second, "cat", value=secrets.token_bytes(32))
    head = store.head("night")
    for player, value in (("ann", ann), ("ann", cat)):
        with pytest.raises(RuleViolation, match="not the one ann pledged"):
            opened(second, player, value)
    assert store.head("night") == head
    store.close()


def test_a_revoked_seat_leaves_the_awaited_players_in_plain_sight(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "pub.db"), create=True)
    pub_at_the_roll(store)
    access.revoke(store, "pub", "cat")
    written = execute(store, "pub", br.Roll(conflict="c1"))
    assert written[0].event().awaited == ["ann"]
    revoked = [e for e in store.read("pub") if e.type == "access.revoked"]
    assert [(e.event().player, e.event().by, e.actor) for e in revoked] == [
        ("cat", "operator", "operator")
    ]
    assert any("revoked cat's access" in n.text for n in audit(store, "pub").access)
    store.close()


def test_a_log_of_one_step_contributions_still_verifies(tmp_path: Path) -> None:
    """Written by the tablelog before issue 25 (tests/fixtures/README.md)."""
    db = str(tmp_path / "old.db")
    ok(run(tmp_path, "--db", db, "import", str(FIXTURES / "committed-rng-c6a0998.jsonl")))
    out = ok(run(tmp_path, "--db", db, "verify", "--rng"))
    assert "1 committed shuffle request(s) recomputed exactly" in out
    assert "every recorded decision" in ok(run(tmp_path, "--db", db, "audit"))


def test_one_shuffle_waits_at_a_time_and_the_table_cannot_void_it(tmp_path: Path) -> None:
    """Held-out attack: with two requests open for one command, a seat that saw every deal
    revealed for the one it liked, and the others lapsed, unnamed. Now a command that needs a
    shuffle waits while one is open, and no command may leave the waiting one unplayable."""

    def tl(*args: str) -> str:
        return ok(run(tmp_path, "--db", "l.db", *args))

    tl(
        "campaign",
        "create",
        "fight",
        "--ruleset",
        "ace-of-cards",
        "--deck-mode",
        "recorded",
        "--option",
        "committed_rng=true",
    )
    for line in (
        "invite ann",
        "ace-of-cards character ann Kit --hp 40 --mp 35",
        "ace-of-cards deck Kit --benefit mp -s clubs=fire -s diamonds=earth -s hearts=ice "
        "-s spades=air",
        "session start",
        "ace-of-cards open --party Kit --enemy Goblin --hand Kit=3C,4C,5C,6C,JK1",
        "ace-of-cards check c1 Kit --kind accuracy --dice d8,d10 --dl 9 --target Goblin",
    ):
        tl(*shlex.split(line))
    assert "committed" in tl("ace-of-cards", "roll", "c1", "k1")
    seq = len(tl("log", "--json").splitlines())
    # A second shuffle while the first waits, or an end of the conflict it is drawn for:
    # refused, nothing appended.
    for line in ("ace-of-cards roll c1 k1", "ace-of-cards end c1"):
        said = refused(run(tmp_path, "--db", "l.db", *shlex.split(line)))
        assert said.startswith("rng-waiting: request "), said
    assert len(tl("log", "--json").splitlines()) == seq
    # ann's client pledges and reveals (the operator relays it here): drawn; the table moves on.
    assert "drawn" in tl("rng", "contribute", "--as", "ann")
    tl("ace-of-cards", "end", "c1")


def test_a_lapsed_draw_is_named() -> None:
    """A draw whose command was refused when drawn dealt nothing: whoever saw the reveals may
    have wanted a new deal, so the audit and `verify --rng` say so (logs written before a
    waiting command was kept playable may hold one)."""
    drawn = RngDrawn(request="r1", players=["ann"], absent=[], draws=[], lapsed="conflict-ended")
    assert missing_of(drawn) == "lapsed (the command was refused when drawn: conflict-ended)"


def test_the_table_waits_on_each_pledge_then_each_reveal_of_a_committed_shuffle(
    tmp_path: Path,
) -> None:
    """Whom a committed shuffle waits on is in `awaiting` for every ruleset (the requests
    live beside the table): each awaited seat's pledge, then each pledged seat's reveal, the
    GM's close as an option; the same from the tracking cache and from a fresh process."""
    from tablelog.commands import state
    from tablelog.commands.rng_awaits import CLOSE, PLEDGE, REVEAL

    db = str(tmp_path / "pub.db")
    store = open_store(db, create=True)

    def shuffle_steps(where: EventStore) -> list[tuple[str, str, bool]]:
        return [
            (s.step.player, s.step.what, s.step.optional)
            for s in state.awaited(where, "pub")
            if s.step.what in (PLEDGE, REVEAL, CLOSE)
        ]

    try:
        pub_at_the_roll(store)
        execute(store, "pub", StartSession())
        assert shuffle_steps(store) == []
        request = str(execute(store, "pub", br.Roll(conflict="c1"))[0].event().request)
        assert shuffle_steps(store) == [
            ("ann", PLEDGE, False),
            ("cat", PLEDGE, False),
            ("gm", CLOSE, True),
        ]
        values = {who: secrets.token_bytes(32) for who in ("ann", "cat")}
        pledge(store, request, "ann", values["ann"])
        assert shuffle_steps(store)[0] == ("cat", PLEDGE, False)
        pledge(store, request, "cat", values["cat"])  # the pledges close: reveals are due
        assert shuffle_steps(store) == [
            ("ann", REVEAL, False),
            ("cat", REVEAL, False),
            ("gm", CLOSE, True),
        ]
        reveal(store, request, "ann", values["ann"])
        fresh = open_store(db)  # a new process's cache: folded afresh from the log
        try:
            assert (
                shuffle_steps(fresh)
                == shuffle_steps(store)
                == [
                    ("cat", REVEAL, False),
                    ("gm", CLOSE, True),
                ]
            )
        finally:
            fresh.close()
        reveal(store, request, "cat", values["cat"])  # drawn: nothing more to wait on
        assert shuffle_steps(store) == []
    finally:
        store.close()
