"""Discord's slash commands against a real service: a stand-in Discord (tests/support/
discord_app.py) signs each interaction with its own Ed25519 key and POSTs it to `tablelog
serve --discord-public-key ... --discord-api ...` on 127.0.0.1, and receives the follow-ups.

A GM and two players, each linked to their seat with a one-time code, play from Discord
alone; what they may not do is refused to them alone (ephemeral) with nothing appended, and
no hidden card ever reaches a message the channel sees."""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tablelog.storage import open_store
from tests.e2e.transcript import ok, run
from tests.support.discord_app import (
    EPHEMERAL,
    DiscordApi,
    DiscordUser,
    Interactor,
    discord_api,
    snowflake,
)
from tests.support.server import running_service

SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def pretty(card: str) -> str:
    """A card as the page shows it: 10H is 10♥."""
    return card if card == "JK" else card[:-1] + SUITS[card[-1]]


CARD = re.compile(r"\b(?:10|[2-9JQKA])[CDHS]\b|\bJK\b")


@dataclass
class Setup:
    api: DiscordApi
    discord: Interactor
    url: str
    db: str
    cwd: Path

    def tl(self, *args: str) -> subprocess.CompletedProcess[str]:
        """`tablelog --db DB ARGS...`: the host's CLI over the service's database."""
        return run(self.cwd, "--db", self.db, *args)


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    cwd = tmp_path_factory.mktemp("discord")
    db = str(cwd / "tablelog.db")
    with discord_api() as api:
        discord = Interactor("http://127.0.0.1:1", api=api)
        options = ("--discord-public-key", discord.public_key_hex, "--discord-api", api.url)
        with running_service(db, cwd, *options) as url:
            discord.service_url = url
            yield Setup(api, discord, url, db, cwd)


@dataclass
class Table:
    """One campaign played from one Discord channel."""

    setup: Setup
    campaign: str
    channel: str = field(default_factory=snowflake)
    seen: list[str] = field(default_factory=list)  # every message the channel saw

    def tl(self, *args: str) -> str:
        return ok(self.setup.tl(*args, "-c", self.campaign))

    def log(self) -> list[dict[str, Any]]:
        return [json.loads(x) for x in self.tl("log", "--json").splitlines()]

    def seq(self) -> int:
        """The campaign's head, read in this process (the service keeps the file open)."""
        store = open_store(self.setup.db)
        try:
            head = store.head(self.campaign)
            return 0 if head is None else head.seq
        finally:
            store.close()

    def send(self, user: DiscordUser, path: str, **options: Any) -> dict[str, Any]:
        opts = {k.replace("_", "-"): v for k, v in options.items()}
        status, body = self.setup.discord.send_command(user, self.channel, path, opts)
        assert status == 200, (path, status, body)
        assert isinstance(body, dict)
        if not body.get("data", {}).get("flags", 0) & EPHEMERAL:
            self.seen.append(json.dumps(body))
        return body

    def act(self, user: DiscordUser, path: str, **options: Any) -> str:
        """A command that appends: answered publicly, in the log's words."""
        before = self.seq()
        body = self.send(user, path, **options)
        assert body["type"] == 4, body
        data = body["data"]
        assert not data.get("flags", 0) & EPHEMERAL, (path, data["content"])
        assert self.seq() > before, (path, data["content"])
        content: str = data["content"]
        return content

    def refused(self, user: DiscordUser, path: str, **options: Any) -> str:
        """A refusal: to the caller alone, and nothing appended."""
        before = self.seq()
        body = self.send(user, path, **options)
        assert body["type"] == 4, body
        assert body["data"]["flags"] & EPHEMERAL, body
        assert self.seq() == before, f"{path} appended"
        content: str = body["data"]["content"]
        return content

    def read(self, user: DiscordUser, path: str, **options: Any) -> str:
        body = self.send(user, path, **options)
        assert body["type"] == 4, body
        assert body["data"]["flags"] & EPHEMERAL, body
        content: str = body["data"]["content"]
        return content

    def link(self, user: DiscordUser, seat: str) -> None:
        code = json.loads(self.tl("discord", "code", seat, "--json"))["code"]
        said = self.read(user, "link", code=code)
        assert "you now act for" in said, said

    def complete(self, user: DiscordUser, path: str, focused: str, **options: Any) -> list[str]:
        opts = {k.replace("_", "-"): v for k, v in options.items()}
        status, body = self.setup.discord.send_autocomplete(user, self.channel, path, focused, opts)
        assert status == 200, body
        assert body["type"] == 8, body
        return [c["value"] for c in body["data"]["choices"]]


GM = DiscordUser(snowflake(), "amanda")
BOB = DiscordUser(snowflake(), "bob")
SUE = DiscordUser(snowflake(), "susan")
STRANGER = DiscordUser(snowflake(), "stranger")


def table(setup: Setup, name: str, *create: str) -> Table:
    ok(setup.tl("campaign", "create", name, "--gm", "amanda", *create))
    found = Table(setup, name)
    found.tl("discord", "bind", found.channel)
    return found


def test_ping_and_signatures(setup: Setup) -> None:
    assert setup.discord.send_ping() == (200, {"type": 1})
    ping = setup.discord.ping()
    assert setup.discord.post(ping, signature="00" * 64)[0] == 401
    assert setup.discord.post(ping, sign=False)[0] == 401
    status, body = setup.discord.post(ping, timestamp=str(int(time.time()) - 301))
    assert (status, body["code"]) == (401, "bad-signature"), body
    assert "five minutes" in body["message"]
    other = Interactor(setup.url)  # signed, but not with the application's key
    assert other.send_ping()[0] == 401
    assert setup.discord.verify_endpoint() == []


def test_an_unbound_channel_says_how_to_bind_it(setup: Setup) -> None:
    status, body = setup.discord.send_command(GM, snowflake(), "state")
    assert status == 200
    assert body["data"]["flags"] & EPHEMERAL
    assert "tablelog discord bind" in body["data"]["content"]


def _improv_conflict(t: Table, *, through: str) -> None:
    """One Improv conflict (recorded cards), from Discord or the CLI: the same commands."""
    steps: list[tuple[DiscordUser, str, dict[str, Any], tuple[str, ...]]] = [
        (GM, "improv character", {"player": "bob", "name": "Kit"}, ("bob", "Kit")),
        (GM, "improv character", {"player": "susan", "name": "Diana"}, ("susan", "Diana")),
        (GM, "session start", {}, ()),
        (GM, "improv open", {}, ()),
        (
            GM,
            "improv stake",
            {"conflict": "c1", "side": "guard", "text": "The alarm rings", "gm": True},
            ("c1", "guard", "The alarm rings", "--gm"),
        ),
        (
            BOB,
            "improv stake",
            {"conflict": "c1", "side": "kit", "text": "Kit slips past", "opposes": "guard"},
            ("c1", "kit", "Kit slips past", "--opposes", "guard"),
        ),
        (
            SUE,
            "improv stake",
            {"conflict": "c1", "side": "diana", "text": "Diana opens the safe", "opposes": "guard"},
            ("c1", "diana", "Diana opens the safe", "--opposes", "guard"),
        ),
        (
            BOB,
            "improv play",
            {"conflict": "c1", "side": "kit", "card": "10H"},
            ("c1", "kit", "10H"),
        ),
        (
            SUE,
            "improv play",
            {"conflict": "c1", "side": "diana", "card": "3C"},
            ("c1", "diana", "3C"),
        ),
        (
            GM,
            "improv play",
            {"conflict": "c1", "side": "guard", "card": "QC", "from_deck": True},
            ("c1", "guard", "QC", "--from-deck"),
        ),
        (GM, "improv reveal", {"conflict": "c1"}, ("c1",)),
        (GM, "improv close", {"conflict": "c1"}, ("c1",)),
    ]
    for user, path, options, args in steps:
        if through == "discord":
            t.act(user, path, **options)
        else:
            t.tl(*path.split(), *args)


def _played(t: Table) -> list[tuple[str, Any]]:
    """Each event's type and payload (the campaign's own name and the random salts that
    hide a face-down card's hash aside)."""
    return [(e["type"], {**e["payload"], "campaign": None, "salt": None}) for e in t.log()]


def test_an_improv_conflict_from_discord_alone_logs_what_the_cli_would(setup: Setup) -> None:
    t = table(setup, "heist", "-r", "improv")
    for user, seat in ((GM, "gm"), (BOB, "bob"), (SUE, "susan")):
        t.link(user, seat)
    _improv_conflict(t, through="discord")
    state = json.loads(t.tl("state", "--json"))
    assert state["conflicts"]["c1"]["status"] == "closed"
    assert state["conflicts"]["c1"]["beats"] == [["guard", "kit"], ["guard", "diana"]]
    # The same play through the CLI writes the same events.
    cli = table(setup, "heist-cli", "-r", "improv")
    _improv_conflict(cli, through="cli")
    assert _played(t) == _played(cli)
    # Each seat's events are its own: the players' plays are theirs, not the GM's.
    plays = [e for e in t.log() if e["type"] == "improv.card_played"]
    assert [e["actor"] for e in plays] == ["bob", "susan", "amanda"]


def test_refusals_are_the_callers_alone_and_append_nothing(setup: Setup) -> None:
    t = table(setup, "refusals", "-r", "improv")
    for user, seat in ((GM, "gm"), (BOB, "bob"), (SUE, "susan")):
        t.link(user, seat)
    t.act(GM, "improv character", player="bob", name="Kit")
    t.act(GM, "improv character", player="susan", name="Diana")
    t.act(GM, "session start")
    t.act(GM, "improv open")
    t.act(GM, "improv stake", conflict="c1", side="guard", text="The alarm", gm=True)
    t.act(BOB, "improv stake", conflict="c1", side="kit", text="Kit runs", opposes="guard")
    # An unlinked user reads as an observer and may do nothing.
    said = t.refused(STRANGER, "improv play", conflict="c1", side="kit", card="AH")
    assert "/tl link CODE" in said
    assert "c1" in t.read(STRANGER, "state")
    # A player may not act for another's side.
    said = t.refused(SUE, "improv play", conflict="c1", side="kit", card="AH")
    assert said == "susan may not play this side's card: it belongs to bob", said
    # The rules' own sentences, as the CLI says them.
    assert "only the GM may play blind" in t.refused(
        BOB, "improv play", conflict="c1", side="kit", from_deck=True
    )
    assert "11H" in t.refused(BOB, "improv play", conflict="c1", side="kit", card="11H")
    # The campaign's ruleset only; a code links once.
    assert "plays improv" in t.refused(GM, "beer-run open", side="a=x")
    code = json.loads(t.tl("discord", "code", "bob", "--json"))["code"]
    t.read(BOB, "link", code=code)
    assert "links nothing" in t.read(STRANGER, "link", code=code)


def test_core_reads_are_ephemeral_and_from_the_callers_view(setup: Setup) -> None:
    t = table(setup, "reads", "-r", "improv", "--deck-mode", "managed")
    for user, seat in ((GM, "gm"), (BOB, "bob"), (SUE, "susan")):
        t.link(user, seat)
    t.act(GM, "improv character", player="bob", name="Kit")
    t.act(GM, "improv character", player="susan", name="Diana")
    t.act(GM, "session start")
    bob_hand = json.loads(t.tl("improv", "hand", "bob", "--json"))["cards"]
    sue_hand = json.loads(t.tl("improv", "hand", "susan", "--json"))["cards"]
    hand = t.read(BOB, "hand")
    assert hand.startswith("Your hand:\n  in your hand: "), hand
    assert all(pretty(card) in hand for card in bob_hand), (hand, bob_hand)
    assert not any(pretty(card) in hand for card in sue_hand), hand
    assert "hold no seat" in t.read(STRANGER, "hand")
    assert "reads" in t.read(BOB, "state")
    t.act(GM, "improv open")
    t.act(GM, "improv stake", conflict="c1", side="guard", text="The alarm", gm=True)
    t.act(BOB, "improv stake", conflict="c1", side="kit", text="Kit runs", opposes="guard")
    waiting = t.read(SUE, "waiting")
    assert "bob" in waiting, waiting
    assert "play" in waiting, waiting
    # Autocomplete: only the caller's own cards, and the conflicts they act in.
    offered = t.complete(BOB, "improv play", "card", conflict="c1", side="kit", card="")
    assert sorted(offered) == sorted(bob_hand), offered
    assert t.complete(BOB, "improv play", "conflict", conflict="") == ["c1"]
    assert t.complete(BOB, "improv play", "side", conflict="c1", side="") == ["kit"]
    assert t.complete(STRANGER, "improv play", "card", conflict="c1", side="kit", card="") == []
    # A face-down play: the channel reads that a card was played, the player alone which.
    played = bob_hand[0]
    earlier = len(t.setup.api.followups)
    answer = t.act(BOB, "improv play", conflict="c1", side="kit", card=played)
    assert "face down" in answer, answer
    assert played not in answer, answer
    (own,) = t.setup.api.wait_for("followups", earlier + 1)[earlier:]
    assert own.ephemeral, own
    assert own.token == t.setup.discord.last["token"], own
    assert (own.content or "").startswith("Only you see:"), own.content
    assert f"kit: {pretty(played)}" in (own.content or ""), own.content
    show = t.read(BOB, "show", conflict="c1")
    assert played in show or pretty(played) in show, show
    sue_show = t.read(SUE, "show", conflict="c1")
    assert played not in sue_show, sue_show
    assert pretty(played) not in sue_show, sue_show
    # Nothing the channel saw ever named a card still hidden in a hand or face down.
    for message in t.seen:
        for card in CARD.findall(message):
            assert card not in bob_hand + sue_hand, (card, message)
