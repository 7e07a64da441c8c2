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
from tests.e2e.transcript import ok, refused, run
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
    """A card as the page shows it: 10H is 10♥, JK the Joker."""
    return "Joker" if card == "JK" else card[:-1] + SUITS[card[-1]]


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
    hide a face-down card's hash aside), without who was linked to which seat (`access.`)."""
    return [
        (e["type"], {**e["payload"], "campaign": None, "salt": None})
        for e in t.log()
        if not e["type"].startswith("access.")
    ]


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


def test_a_link_is_said_in_the_log_and_a_takeover_cannot_hide(setup: Setup) -> None:
    t = table(setup, "takeover", "-r", "improv")
    t.link(BOB, "bob")
    (linked,) = [e for e in t.log() if e["type"] == "access.linked"]
    assert linked["payload"] == {
        "type": "access.linked",
        "player": "bob",
        "by": "operator",
        "replaced": False,
    }
    # Another account takes the seat with a code the GM made: the log says so, publicly.
    t.link(STRANGER, "bob")
    last = t.log()[-1]
    assert (last["type"], last["payload"]["replaced"]) == ("access.linked", True)
    words = t.tl("log")
    assert "linked a Discord account to bob's seat; the account linked before no longer" in words
    assert "hold no seat" in t.read(BOB, "hand")


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


ANN = DiscordUser(snowflake(), "ann")
CAT = DiscordUser(snowflake(), "cat")
ALICE = "Body:Body:d8;Mind:Mind:d6;Kit:Kit:d4;Brawl:Body:d10;Health:Body:d6"
CARA = "Body:Body:d6;Mind:Mind:d6;Kit:Kit:d4;Health:Body:d6"
BOB_NPC = "Body:Body:d8;Mind:Mind:d8;Kit:Kit:d6;Brawn:Body:d10;Resolve:Mind:d4;Health:Body:d8"
Step = tuple[DiscordUser, str, dict[str, Any], tuple[str, ...]]


def _beer_run_round(t: Table, *, through: str) -> None:
    """One Beer Run round (recorded dice) by the GM and two players: Discord or the CLI."""

    def ab(spec: str) -> tuple[str, ...]:
        return tuple(a for s in spec.split(";") for a in ("-a", s))

    steps: list[Step] = [
        (
            ANN,
            "beer-run character",
            {"player": "ann", "name": "Alice", "ability": ALICE},
            ("ann", "Alice", *ab(ALICE)),
        ),
        (
            CAT,
            "beer-run character",
            {"player": "cat", "name": "Cara", "ability": CARA},
            ("cat", "Cara", *ab(CARA)),
        ),
        (
            GM,
            "beer-run character",
            {"player": "gm", "name": "Bob", "ability": BOB_NPC},
            ("gm", "Bob", *ab(BOB_NPC)),
        ),
        (
            GM,
            "beer-run open",
            {"side": "heroes=alice,cara;thugs=bob"},
            ("--side", "heroes=alice,cara", "--side", "thugs=bob"),
        ),
        (
            ANN,
            "beer-run goal",
            {"conflict": "c1", "actor": "alice", "text": "Bob backs down", "ability": "Resolve"},
            ("c1", "alice", "Bob backs down", "--ability", "Resolve"),
        ),
        (
            CAT,
            "beer-run goal",
            {
                "conflict": "c1",
                "actor": "cara",
                "text": "Distract Bob",
                "ally": "alice",
                "die": "d8",
            },
            ("c1", "cara", "Distract Bob", "--ally", "alice", "--die", "d8"),
        ),
        (
            GM,
            "beer-run goal",
            {"conflict": "c1", "actor": "bob", "text": "Alice is beaten", "against": "alice"},
            ("c1", "bob", "Alice is beaten", "--against", "alice"),
        ),
        (
            GM,
            "beer-run difficulty",
            {"conflict": "c1", "against": "cara", "replace": 3},
            ("c1", "cara", "--replace", "3"),
        ),
        (
            CAT,
            "beer-run pool",
            {"conflict": "c1", "actor": "cara", "base": "Body Mind Kit"},
            ("c1", "cara", "Body", "Mind", "Kit"),
        ),
        (
            GM,
            "beer-run roll",
            {"conflict": "c1", "actor": "cara", "values": "6 5 2", "difficulty": "8,3,1,2"},
            ("c1", "cara", "6", "5", "2", "--difficulty", "8,3,1,2"),
        ),
        (
            ANN,
            "beer-run pool",
            {"conflict": "c1", "actor": "alice", "base": "Body Mind Kit", "extra": "Brawl"},
            ("c1", "alice", "Body", "Mind", "Kit", "--extra", "Brawl"),
        ),
        (
            GM,
            "beer-run pool",
            {"conflict": "c1", "actor": "bob", "base": "Body Mind Kit", "extra": "Brawn"},
            ("c1", "bob", "Body", "Mind", "Kit", "--extra", "Brawn"),
        ),
        (
            ANN,
            "beer-run roll",
            {"conflict": "c1", "actor": "alice", "values": "6 5 2 4 6"},
            ("c1", "alice", "6", "5", "2", "4", "6"),
        ),
        (
            GM,
            "beer-run roll",
            {"conflict": "c1", "actor": "bob", "values": "3 3 1 10"},
            ("c1", "bob", "3", "3", "1", "10"),
        ),
        (
            GM,
            "beer-run allocate",
            {"conflict": "c1", "by": "bob", "against": "alice", "pips": "Health=1"},
            ("c1", "bob", "alice", "Health=1"),
        ),
        (
            ANN,
            "beer-run allocate",
            {"conflict": "c1", "by": "alice", "against": "bob", "pips": "Resolve=1 Health=1"},
            ("c1", "alice", "bob", "Resolve=1", "Health=1"),
        ),
    ]
    for user, path, options, args in steps:
        if through == "discord":
            t.act(user, path, **options)
        else:
            t.tl(*path.split(), *args)


def test_a_beer_run_round_from_discord_alone_logs_what_the_cli_would(setup: Setup) -> None:
    t = table(setup, "pub", "-r", "beer-run", "-o", "dice=recorded")
    for user, seat in ((GM, "gm"), (ANN, "ann"), (CAT, "cat")):
        t.link(user, seat)
    # A pool is its buyer's alone until rolled: the channel reads only that one was bought.
    _beer_run_round(t, through="discord")
    cli = table(setup, "pub-cli", "-r", "beer-run", "-o", "dice=recorded")
    _beer_run_round(cli, through="cli")
    assert _played(t) == _played(cli)
    state = json.loads(t.tl("state", "--json"))
    assert state["characters"]["bob"]["abilities"]["resolve"]["size"] == 3, state["characters"]
    # A player is refused another's character, with the rules' sentence.
    said = t.refused(CAT, "beer-run cede", conflict="c1", actor="alice")
    assert "belongs to ann" in said, said


def test_a_turn_notice_button_opens_the_step_and_its_modal_sends_it(setup: Setup) -> None:
    t = table(setup, "buttons", "-r", "improv")
    for user, seat in ((GM, "gm"), (BOB, "bob"), (SUE, "susan")):
        t.link(user, seat)
    t.act(GM, "improv character", player="bob", name="Kit")
    t.act(GM, "session start")
    t.act(GM, "improv open")
    t.act(GM, "improv stake", conflict="c1", side="guard", text="The alarm", gm=True)
    body = t.send(BOB, "improv stake", conflict="c1", side="kit", text="Kit runs", opposes="guard")
    data = body["data"]
    # The table now waits on bob to play and on the GM: each mentioned, each with a button.
    assert f"<@{BOB.id}>" in data["content"], data["content"]
    assert BOB.id in data["allowed_mentions"]["users"]
    assert data["allowed_mentions"]["parse"] == []
    buttons = [b for row in data["components"] for b in row["components"]]
    by_label = {b["label"]: b["custom_id"] for b in buttons}
    play = by_label["Play a card face down (bob)"]
    # Another seat's button is refused to them alone.
    status, other = setup.discord.send_button(SUE, t.channel, play)
    assert status == 200
    assert other["data"]["flags"] & EPHEMERAL
    assert "not yours" in other["data"]["content"]
    # Its own seat gets the form as a modal, the card asked.
    status, modal = setup.discord.send_button(BOB, t.channel, play)
    assert (status, modal["type"]) == (200, 9), modal
    inputs = [c for row in modal["data"]["components"] for c in row["components"]]
    assert [i["custom_id"] for i in inputs] == ["card"], inputs
    before = t.seq()
    status, sent = setup.discord.send_modal_submit(
        BOB, t.channel, modal["data"]["custom_id"], {"card": "7S"}
    )
    assert status == 200, sent
    assert "face down" in sent["data"]["content"], sent
    assert not sent["data"].get("flags", 0) & EPHEMERAL
    assert t.seq() == before + 1
    shown = json.loads(t.tl("improv", "show", "c1", "--json"))
    assert shown["rounds"][-1]["plays"]["kit"]["card"] == "7S"


def test_sealed_plays_are_refused_and_pointed_to_the_page(setup: Setup) -> None:
    t = table(setup, "sealed", "-r", "improv", "-o", "sealed_plays=true")
    for user, seat in ((GM, "gm"), (BOB, "bob")):
        t.link(user, seat)
    t.act(GM, "improv character", player="bob", name="Kit")
    t.act(GM, "session start")
    t.act(GM, "improv open")
    t.act(GM, "improv stake", conflict="c1", side="guard", text="The alarm", gm=True)
    t.act(BOB, "improv stake", conflict="c1", side="kit", text="Kit runs", opposes="guard")
    said = t.refused(BOB, "improv play", conflict="c1", side="kit", card="AH")
    assert "seals its plays" in said, said
    assert "page" in said, said
    said = t.refused(BOB, "improv unseal", conflict="c1", side="kit")
    assert "cannot run from Discord" in said, said


def test_register_puts_the_command_set_on_the_application(setup: Setup) -> None:
    app_id = "100000000000000001"
    base = ("discord", "register", "--app-id", app_id, "--api", setup.api.url)
    line = refused(setup.tl(*base, "--ruleset", "improv"))
    assert line.startswith("no-bot-token:"), line
    env = {"TABLELOG_DISCORD_BOT_TOKEN": "wrong"}
    line = refused(run(setup.cwd, "--db", setup.db, *base, "--ruleset", "improv", env=env))
    assert line.startswith("bad-bot-token:"), line
    env = {"TABLELOG_DISCORD_BOT_TOKEN": setup.api.bot_token}
    out = ok(
        run(
            setup.cwd,
            "--db",
            setup.db,
            *base,
            "--ruleset",
            "improv",
            "--ruleset",
            "beer-run",
            env=env,
        )
    )
    assert "registered /tl (improv, beer-run)" in out
    (tl,) = setup.api.commands[(app_id, None)]
    groups = [o["name"] for o in tl["options"] if o["type"] == 2]
    assert groups == ["session", "scene", "improv", "beer-run"]
    # Every ruleset at once is more than Discord takes in one command: said before sending.
    every = [
        a for r in ("improv", "beer-run", "ace-of-cards", "night-terrors") for a in ("--ruleset", r)
    ]
    line = refused(run(setup.cwd, "--db", setup.db, *base, *every, env=env))
    assert line.startswith("too-many-commands:"), line


def test_a_slow_answer_is_deferred_then_sent(tmp_path: Path) -> None:
    db = str(tmp_path / "tablelog.db")
    with discord_api() as api:
        discord = Interactor("http://127.0.0.1:1", api=api)
        options = (
            "--discord-public-key",
            discord.public_key_hex,
            "--discord-api",
            api.url,
            "--discord-defer-after",
            "0",
        )
        with running_service(db, tmp_path, *options) as url:
            discord.service_url = url
            ok(run(tmp_path, "--db", db, "campaign", "create", "slow", "-r", "improv"))
            channel = snowflake()
            ok(run(tmp_path, "--db", db, "discord", "bind", channel, "-c", "slow"))
            status, body = discord.send_command(GM, channel, "state")
            assert (status, body["type"]) == (200, 5), body
            (edit,) = api.wait_for("edits", 1)
            assert edit.token == discord.last["token"]
            assert "campaign slow" in (edit.content or ""), edit.body


def test_the_bot_posts_turn_notices_with_a_button_for_the_step(tmp_path: Path) -> None:
    db = str(tmp_path / "tablelog.db")
    with discord_api() as api:
        discord = Interactor("http://127.0.0.1:1", api=api)
        options = (
            "--discord-public-key",
            discord.public_key_hex,
            "--discord-api",
            api.url,
            "--webhook-poll",
            "0.05",
        )
        env = {"TABLELOG_DISCORD_BOT_TOKEN": api.bot_token}
        with running_service(db, tmp_path, *options, env=env) as url:
            discord.service_url = url
            t = Table(Setup(api, discord, url, db, tmp_path), "notices")
            ok(t.setup.tl("campaign", "create", "notices", "--gm", "amanda", "-r", "improv"))
            t.tl("discord", "bind", t.channel)
            t.link(GM, "gm")
            # Moves made from the CLI: the bot still tells the GM in the channel.
            t.tl("improv", "character", "bob", "Kit")
            t.tl("session", "start")
            t.tl("improv", "open")
            t.tl("improv", "stake", "c1", "guard", "The alarm", "--gm")
            t.tl("improv", "stake", "c1", "kit", "Kit runs", "--opposes", "guard")
            posted = api.wait_for("channel_messages", 1)
            assert posted, "no notice was posted"
            notice = next(m for m in posted if "play" in (m.content or ""))
            assert notice.channel_id == t.channel
            assert (notice.content or "").startswith(f"<@{GM.id}>, the table waits on you")
            assert notice.body["allowed_mentions"] == {"parse": [], "users": [GM.id]}
            (button,) = notice.body["components"][0]["components"]
            # Only the seat it is for may take it.
            status, other = discord.send_button(BOB, t.channel, button["custom_id"])
            assert status == 200
            assert other["data"]["flags"] & EPHEMERAL
            status, modal = discord.send_button(GM, t.channel, button["custom_id"])
            assert (status, modal["type"]) == (200, 9), modal
            status, sent = discord.send_modal_submit(
                GM, t.channel, modal["data"]["custom_id"], {"card": "9D"}
            )
            assert status == 200, sent
            assert "face down" in sent["data"]["content"], sent


def test_revoking_a_seat_ends_its_discord_link_too(setup: Setup) -> None:
    t = table(setup, "revoked", "-r", "improv")
    for user, seat in ((GM, "gm"), (BOB, "bob")):
        t.link(user, seat)
    t.act(GM, "improv character", player="bob", name="Kit")
    # The rules' pointers to a command are Discord's when Discord has it.
    said = t.refused(BOB, "improv award", giver="bob", receiver="gm")
    assert said.startswith("no session is running; `/tl session start` starts one"), said
    t.tl("revoke", "bob")
    said = t.refused(BOB, "improv character", player="bob", name="Kat")
    assert "/tl link CODE" in said, said
    assert "hold no seat" in t.read(BOB, "hand")


@pytest.mark.postgresql
def test_an_improv_conflict_from_discord_on_postgresql(tmp_path: Path, pg_target: str) -> None:
    ok(run(tmp_path, "--db", pg_target, "db", "upgrade"))
    with discord_api() as api:
        discord = Interactor("http://127.0.0.1:1", api=api)
        options = ("--discord-public-key", discord.public_key_hex, "--discord-api", api.url)
        with running_service(pg_target, tmp_path, *options) as url:
            discord.service_url = url
            t = table(Setup(api, discord, url, pg_target, tmp_path), "heist", "-r", "improv")
            for user, seat in ((GM, "gm"), (BOB, "bob"), (SUE, "susan")):
                t.link(user, seat)
            _improv_conflict(t, through="discord")
            state = json.loads(t.tl("state", "--json"))
            assert state["conflicts"]["c1"]["beats"] == [["guard", "kit"], ["guard", "diana"]]


def test_a_players_words_cannot_ping_format_or_forge_a_line(setup: Setup) -> None:
    t = table(setup, "words", "-r", "improv")
    for user, seat in ((GM, "gm"), (BOB, "bob")):
        t.link(user, seat)
    t.act(GM, "improv character", player="bob", name="Kit")
    t.act(GM, "session start")
    t.act(GM, "improv open")
    sneaky = f"@everyone <@{SUE.id}> **bold** ||AS|| [link](http://evil.example)"
    said = t.act(GM, "improv stake", conflict="c1", side="guard", text=sneaky, gm=True)
    assert "@everyone" not in said, said  # a zero-width space after every @
    assert f"<@{SUE.id}>" not in said, said
    for mark in ("**", "||", "[link]"):
        assert mark not in said, said
    assert said.count("\n") == 0, said  # the table waits on nobody yet: one line


def test_hand_shows_a_beer_run_pool_to_its_buyer_alone(setup: Setup) -> None:
    t = table(setup, "pools", "-r", "beer-run", "-o", "dice=recorded")
    for user, seat in ((GM, "gm"), (ANN, "ann"), (CAT, "cat")):
        t.link(user, seat)
    t.act(ANN, "beer-run character", player="ann", name="Alice", ability=ALICE)
    t.act(CAT, "beer-run character", player="cat", name="Cara", ability=CARA)
    t.act(GM, "beer-run open", side="heroes=alice;thugs=cara")
    t.act(ANN, "beer-run goal", conflict="c1", actor="alice", text="Cara falls", against="cara")
    t.act(CAT, "beer-run goal", conflict="c1", actor="cara", text="Alice falls", against="alice")
    said = t.act(
        ANN, "beer-run pool", conflict="c1", actor="alice", base="Body Mind Kit", extra="Brawl"
    )
    assert "brawl" not in said.casefold(), said
    own = t.read(ANN, "hand")
    assert "brawl" in own.casefold(), own
    assert "brawl" not in t.read(CAT, "hand").casefold()
