"""Committed shuffles on a real SQLite file: a command that needs randomness waits for every
player's contribution, is then drawn from the committed seed, and `verify --rng` recomputes
it once the seed is revealed, naming a one-byte change of the seed or of an order."""

from __future__ import annotations

import json
import secrets
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select, update

from tablelog.commands import access
from tablelog.commands.access import Caller
from tablelog.commands.audit import audit
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import execute
from tablelog.errors import Forbidden, RuleViolation
from tablelog.events.chain import chained_hash
from tablelog.events.envelope import Envelope
from tablelog.rules import rng
from tablelog.rules.common import EndSession, StartSession
from tablelog.rules.rng_commands import CloseRequest, Contribute, Pledge, RevealSeed
from tablelog.rulesets.beer_run.rules import commands as br
from tablelog.rulesets.improv.rules.commands import CreateCharacter
from tablelog.storage import EventStore, open_store
from tablelog.storage.schema import campaigns, events, rng_seeds
from tests.e2e.transcript import broken, ok, run

HEADER = ("campaign_id", "seq", "event_id", "type", "schema_version", "actor", "recorded_at")


def ability(spec: str) -> br.AbilitySpec:
    name, category, size = spec.split(":")
    return br.AbilitySpec(name=name, category=category, size=size)


def pub_at_the_roll(store: EventStore, *options: tuple[str, str]) -> None:
    """A committed Beer Run campaign whose pools are bought; players ann and cat invited."""
    create_campaign(
        store, "pub", ruleset="beer-run", options={"committed_rng": "true", **dict(options)}
    )
    access.invite(store, "pub", "ann")
    access.invite(store, "pub", "cat")
    alice = ["Body:Body:d8", "Mind:Mind:d6", "Kit:Kit:d4"]
    bob = ["Body:Body:d8", "Resolve:Mind:d6", "Kit:Kit:d6"]
    execute(
        store,
        "pub",
        br.CreateCharacter(player="ann", character="Alice", abilities=[ability(a) for a in alice]),
    )
    execute(
        store,
        "pub",
        br.CreateCharacter(player="gm", character="Bob", abilities=[ability(a) for a in bob]),
    )
    execute(store, "pub", br.OpenConflict(sides={"heroes": ["alice"], "thugs": ["bob"]}))
    execute(
        store,
        "pub",
        br.DeclareGoal(conflict="c1", actor="alice", text="Bob backs down", ability="Resolve"),
    )
    execute(store, "pub", br.DeclareGoal(conflict="c1", actor="bob", text="Alice is beaten"))
    execute(
        store, "pub", br.AssemblePool(conflict="c1", actor="alice", base=["Body", "Mind", "Kit"])
    )
    execute(
        store, "pub", br.AssemblePool(conflict="c1", actor="bob", base=["Body", "Resolve", "Kit"])
    )


def types(written: list[Envelope]) -> list[str]:
    return [e.type for e in written]


def pledge(store: EventStore, campaign: str, request: str, player: str, value: bytes) -> list[str]:
    """`player` pledges `value` (the operator relays it); the types written."""
    commitment = rng.pledge(campaign, request, player, value)
    return types(
        execute(store, campaign, Pledge(request=request, player=player, commitment=commitment))
    )


def reveal(
    store: EventStore, campaign: str, request: str, player: str, value: bytes
) -> list[Envelope]:
    return execute(store, campaign, Contribute(request=request, player=player, value=value.hex()))


def everyone_gives(store: EventStore, campaign: str, request: str, *players: str) -> list[Envelope]:
    """Each player pledges fresh bytes, then each reveals them: what the last reveal wrote."""
    values = {p: secrets.token_bytes(32) for p in players}
    for player, value in values.items():
        pledge(store, campaign, request, player, value)
    written: list[Envelope] = []
    for player, value in values.items():
        written = reveal(store, campaign, request, player, value)
    return written


def seed_of(store: EventStore, request: str) -> bytes:
    with store.engine.connect() as conn:
        row = conn.execute(select(rng_seeds.c.seed).where(rng_seeds.c.request == request)).one()
    return bytes(row[0])


def test_a_roll_waits_for_every_player_then_draws_from_the_committed_seed(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "pub.db"), create=True)
    pub_at_the_roll(store)
    # When the GM rolls, only the commitment is logged: the dice wait for ann and cat.
    written = execute(store, "pub", br.Roll(conflict="c1"))
    assert types(written) == ["rng.committed"]
    committed = written[0].event()
    assert committed.awaited == ["ann", "cat"]
    seed = seed_of(store, committed.request)
    assert committed.commitment == rng.commitment(seed)
    assert not any(seed.hex().encode() in e.payload for e in store.read("pub"))  # not in the log
    mine = secrets.token_bytes(32), secrets.token_bytes(32)
    # Each awaited player first pledges: only the commitment of its bytes is logged.
    assert pledge(store, "pub", committed.request, "ann", mine[0]) == ["rng.pledged"]
    # No value may be revealed while a pledge is awaited: the last to pledge could choose.
    with pytest.raises(RuleViolation, match="still awaits the pledges of cat"):
        reveal(store, "pub", committed.request, "ann", mine[0])
    # A second pledge of ann's, or one of someone not awaited, is refused.
    with pytest.raises(RuleViolation, match="ann has already pledged"):
        pledge(store, "pub", committed.request, "ann", mine[1])
    with pytest.raises(RuleViolation, match="awaits ann, cat, not bob"):
        pledge(store, "pub", committed.request, "bob", mine[1])
    # cat's pledge is the last: the pledges close, and the two now reveal.
    assert pledge(store, "pub", committed.request, "cat", mine[1]) == [
        "rng.pledged",
        "rng.pledges_closed",
    ]
    assert types(reveal(store, "pub", committed.request, "ann", mine[0])) == ["rng.contributed"]
    with pytest.raises(RuleViolation, match="ann has already contributed"):
        reveal(store, "pub", committed.request, "ann", mine[0])
    written = reveal(store, "pub", committed.request, "cat", mine[1])
    assert types(written) == [
        "rng.contributed",
        "rng.drawn",
        "br.pool_rolled",
        "br.pool_rolled",
        "br.rolls_compared",
    ]
    drawn = written[1].event()
    assert drawn.players == ["ann", "cat"]
    assert drawn.absent == []
    # Each die is the top face of its shuffled faces, from the seed of both contributions.
    orders = rng.recomputed(rng.shuffle_seed(seed, list(mine)), [d.cards for d in drawn.draws])
    assert [d.order for d in drawn.draws] == orders
    faces = [r.value for e in written[2:4] for r in e.event().results]
    assert faces == [int(order[0]) for order in orders]
    # The seed stays secret while the conflict is open; the GM cannot reveal it yet.
    with pytest.raises(RuleViolation, match="still open"):
        execute(store, "pub", RevealSeed(request=committed.request))
    verdict = audit(store, "pub").conflicts[0].guarantees["committed"]
    assert verdict.startswith(f"pending: the seed of request {committed.request}")
    # A drawn request takes no close (nor any late contribution).
    with pytest.raises(RuleViolation, match="already drawn"):
        execute(store, "pub", CloseRequest(request=committed.request))
    store.close()


def test_the_gms_contribution_is_refused_and_nothing_is_appended(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "pub.db"), create=True)
    pub_at_the_roll(store)
    request = execute(store, "pub", br.Roll(conflict="c1"))[0].event().request
    head = store.head("pub")
    gm = Caller(campaign="pub", player="gm", role="gm", digest="d")
    with pytest.raises(Forbidden, match="only players contribute"):
        execute(store, "pub", Contribute(request=request, value=secrets.token_hex(32)), caller=gm)
    ann = Caller(campaign="pub", player="ann", role="player", digest="a")
    with pytest.raises(Forbidden, match="only for themselves"):
        execute(
            store,
            "pub",
            Contribute(request=request, value=secrets.token_hex(32), player="cat"),
            caller=ann,
        )
    assert store.head("pub") == head
    store.close()


def test_the_gm_closes_a_request_only_after_its_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store(str(tmp_path / "pub.db"), create=True)
    pub_at_the_roll(store, ("rng_deadline_minutes", "5"))
    request = execute(store, "pub", br.Roll(conflict="c1"))[0].event().request
    value = secrets.token_bytes(32)
    pledge(store, "pub", request, "ann", value)
    with pytest.raises(RuleViolation, match="may be closed from"):
        execute(store, "pub", CloseRequest(request=request))
    later = time.time_ns() + 6 * 60 * 10**9
    monkeypatch.setattr(time, "time_ns", lambda: later)
    # Closing the pledges logs cat absent; ann, who pledged, now reveals.
    written = execute(store, "pub", CloseRequest(request=request))
    assert types(written) == ["rng.pledges_closed"]
    assert (written[0].event().pledged, written[0].event().absent) == (["ann"], ["cat"])
    with pytest.raises(RuleViolation, match="cat did not pledge"):
        reveal(store, "pub", request, "cat", secrets.token_bytes(32))
    written = reveal(store, "pub", request, "ann", value)
    assert types(written)[:3] == ["rng.contributed", "rng.drawn", "br.pool_rolled"]
    drawn = written[1].event()
    assert (drawn.players, drawn.absent, drawn.withheld) == (["ann"], ["cat"], [])
    # Once drawn, a late contribution counts for nothing.
    with pytest.raises(RuleViolation, match="already drawn"):
        reveal(store, "pub", request, "cat", secrets.token_bytes(32))
    store.close()


def a_revealed_deal(db: Path) -> None:
    """A committed Improv campaign with managed decks: each session's deal waits for both
    players; a deal's seed is revealed once the next session's new decks replace its own."""
    store = open_store(str(db), create=True)
    options = {"deck_mode": "managed", "committed_rng": "true"}
    create_campaign(store, "night", ruleset="improv", options=options)
    access.invite(store, "night", "ann")
    access.invite(store, "night", "cat")
    execute(store, "night", CreateCharacter(player="ann", character="Kit"))
    execute(store, "night", CreateCharacter(player="cat", character="Vex"))
    first = deal(store)
    with pytest.raises(RuleViolation, match="hidden cards"):
        execute(store, "night", RevealSeed(request=first))
    # The session's end reveals nothing: its decks could carry on.
    assert "rng.revealed" not in types(execute(store, "night", EndSession()))
    second = deal(store, then="rng.revealed")
    assert second != first
    store.close()


def deal(store: EventStore, then: str | None = None) -> str:
    """A session starts; ann and cat contribute; the deal is made (and `then` logged)."""
    request: str = execute(store, "night", StartSession())[0].event().request
    written = everyone_gives(store, "night", request, "ann", "cat")
    assert "improv.deck_shuffled" in types(written)
    if then is not None:
        assert types(written)[-1] == then
    return request


def rewrite(db: Path, campaign: str, kind: str, change: object) -> int:
    """Change the payload of the first event of type `kind` behind tablelog's back and
    recompute every hash after it: plain `verify` still passes. Its seq."""
    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:
        rows = conn.execute(
            select(events).where(events.c.campaign_id == campaign).order_by(events.c.seq)
        ).all()
        target = next(r.seq for r in rows if r.type == kind)
        prev = next(r.prev_hash for r in rows if r.seq == target)
        for row in rows:
            if row.seq < target:
                continue
            values = dict(row._mapping)
            if row.seq == target:
                payload = json.loads(values["payload"])
                change(payload)  # type: ignore[operator]
                values["payload"] = json.dumps(payload, separators=(",", ":")).encode()
            digest = chained_hash(prev, tuple(values[c] for c in HEADER), values["payload"])
            conn.execute(
                update(events)
                .where(events.c.campaign_id == campaign, events.c.seq == row.seq)
                .values(payload=values["payload"], prev_hash=prev, hash=digest)
            )
            prev = digest
        conn.execute(update(campaigns).where(campaigns.c.name == campaign).values(head_hash=prev))
    engine.dispose()
    return target


def flip_seed(payload: dict[str, object]) -> None:
    seed = str(payload["seed"])
    payload["seed"] = seed[:-2] + f"{int(seed[-2:], 16) ^ 1:02x}"


def swap_order(payload: dict[str, object]) -> None:
    draws = payload["draws"]
    assert isinstance(draws, list)
    order = draws[1]["order"]
    order[0], order[1] = order[1], order[0]


def swap_deck(payload: dict[str, object]) -> None:
    order = payload["order"]
    assert isinstance(order, list)
    order[0], order[1] = order[1], order[0]


@pytest.mark.parametrize(
    ("kind", "change", "named"),
    [
        ("rng.revealed", flip_seed, "not to its commitment"),
        ("rng.drawn", swap_order, "shuffle 2 of request"),
        ("improv.deck_shuffled", swap_deck, "improv.deck_shuffled logs order"),
    ],
)
def test_verify_rng_recomputes_the_deal_and_names_a_one_byte_change(
    tmp_path: Path, kind: str, change: object, named: str
) -> None:
    db = tmp_path / "night.db"
    a_revealed_deal(db)
    # $ tablelog verify --rng
    assert "1 committed shuffle request(s) recomputed exactly" in ok(
        run(tmp_path, "--db", str(db), "verify", "--rng")
    )
    seq = rewrite(db, "night", kind, change)
    ok(run(tmp_path, "--db", str(db), "verify"))  # the chain alone holds
    line = broken(run(tmp_path, "--db", str(db), "verify", "--rng")).stderr
    assert f"seq {seq}:" in line
    assert named in line
