"""Turn notices through the service (issue 28): players' contacts set and refused through the
CLI client, and whole conflicts played by a GM and two players through a real `tablelog
serve`, stopped and started again in the middle, reach a local Discord-like receiver as
exactly the pings the table's `awaiting` calls for: to the right user, in order, once each,
never to the player whose own command began the step, mentioning nobody else, with no
hidden card."""

from __future__ import annotations

import json
import re
import shlex
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.transcript import ok, refused, run
from tests.support.discord import Receiver, discord_like
from tests.support.server import admin_token, running_service

HOOK = "/api/webhooks/31/turn-SECRET"
QUICK = (
    "--webhook-timeout", "0.5", "--webhook-backoff", "0.1", "--webhook-poll", "0.1",
    "--webhook-allow-private",  # the receiver is on 127.0.0.1
)  # fmt: skip
PUBLIC = "https://table.example.org"
IDS = {"gm": "100000000000000001", "bob": "200000000000000002", "susan": "300000000000000003"}
MENTION = re.compile(r"<@[!&]?(\d+)>|@everyone|@here")


def client(url: str, cwd: Path, token: str, *args: str) -> str:
    return ok(run(cwd, "--server", url, "--access-token", token, *args))


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "tablelog.db")
    target: str = request.getfixturevalue("pg_target")
    ok(run(tmp_path, "--db", target, "db", "upgrade"))
    return target


def seated(
    url: str, cwd: Path, campaign: str, ruleset: str, players: tuple[str, ...]
) -> dict[str, str]:
    made = client(url, cwd, admin_token(url), "campaign", "create", campaign,
                  "--ruleset", ruleset, "--json")  # fmt: skip
    tokens = {"gm": json.loads(made)["token"]}
    for player in players:
        invited = client(url, cwd, tokens["gm"], "invite", player, "--json")
        tokens[player] = json.loads(invited)["token"]
    return tokens


def test_contacts_are_set_by_the_gm_or_the_player_and_seen_by_them_only(tmp_path: Path) -> None:
    with running_service(str(tmp_path / "t.db"), tmp_path) as url:
        tokens = seated(url, tmp_path, "heist", "improv", ("bob", "susan"))
        obs = json.loads(client(url, tmp_path, tokens["gm"], "invite", "olga", "--role",
                                "observer", "--json"))["token"]  # fmt: skip
        bob, susan, gm = tokens["bob"], tokens["susan"], tokens["gm"]

        def cli(token: str, *args: str) -> Any:
            return run(tmp_path, "--server", url, "--access-token", token, "player", *args)

        # A player links their own id; the GM anyone's.
        mine = json.loads(ok(cli(bob, "discord", "bob", IDS["bob"], "--json")))
        assert (mine["player"], mine["discord"]) == ("bob", IDS["bob"])
        ok(cli(gm, "email", "susan", "susan@example.org"))
        # Nobody sets or sees another's.
        assert refused(cli(bob, "discord", "susan", IDS["susan"])).startswith("not-yours: ")
        assert refused(cli(bob, "email", "susan", "x@example.org")).startswith("not-yours: ")
        said = refused(cli(bob, "show", "susan"))
        assert said.startswith("not-yours: ")
        assert "example.org" not in said
        assert refused(cli(obs, "show", "bob")).startswith("not-yours: ")
        assert refused(cli(obs, "discord", "olga", IDS["bob"])).startswith("observer: ")
        assert refused(cli(bob, "list")).startswith("gm-only: ")
        # Bad input: one sentence, nothing stored.
        for bad in ("123", "8035111022467891200000", "80351110224678912a", "<@80351110224678912>",
                    "0000000000000000000", "18446744073709551616"):  # fmt: skip
            assert refused(cli(bob, "discord", "bob", bad)).startswith("bad-discord-id: ")
        for bad in (
            "susan",
            "a@b",
            "a@b.c, d@e.fg",
            "a b@example.org",
            "x@example.org\nBcc: y@z.org",
        ):
            assert refused(cli(susan, "email", "susan", bad)).startswith("bad-address: ")
        assert refused(cli(gm, "discord", "zed", IDS["bob"])).startswith("unknown-player: ")
        # What each sees.
        own = json.loads(ok(cli(susan, "show", "susan", "--json")))
        assert (own["email"], own["discord"]) == ("susan@example.org", None)
        assert json.loads(ok(cli(bob, "show", "bob", "--json")))["discord"] == IDS["bob"]
        listed = json.loads(ok(cli(gm, "list", "--json")))["contacts"]
        assert [(c["player"], c["discord"], c["email"]) for c in listed] == [
            ("bob", IDS["bob"], None),
            ("susan", None, "s\u2026@example.org"),
        ]
        # Cleared: gone.
        ok(cli(bob, "discord", "bob", "--clear"))
        assert json.loads(ok(cli(gm, "show", "bob", "--json")))["discord"] is None
        # None of it is in the log, an export or the state.
        for read in (["log", "--json"], ["export"], ["state", "--json"]):
            text = client(url, tmp_path, gm, *read)
            assert "example.org" not in text
            assert IDS["bob"] not in text


def state_now(url: str, gm: str) -> dict[str, Any]:
    """The table as the GM sees it (read over HTTP: the moves themselves go through the CLI)."""
    auth = {"Authorization": f"Bearer {gm}"}
    campaign = httpx.get(f"{url}/me", headers=auth, timeout=30).json()["campaign"]
    answer = httpx.get(f"{url}/campaigns/{campaign}/state", headers=auth, timeout=30)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def awaited_now(url: str, cwd: Path, gm: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = state_now(url, gm)["awaiting"]
    return found


def play(
    url: str, cwd: Path, tokens: dict[str, str], moves: list[tuple[str, str]],
    expected: list[tuple[str, str]], campaign: str, gm_name: str = "gm",
) -> None:  # fmt: skip
    """Play `moves`, adding to `expected` each ping the table's awaiting calls for: each step
    a move began, not optional, not the mover's own, of a seat with a Discord id."""
    for who, line in moves:
        before = state_now(url, tokens["gm"])["seq"]
        client(url, cwd, tokens[who], *shlex.split(line))
        for step in awaited_now(url, cwd, tokens["gm"]):
            seat = "gm" if step["gm"] else step["player"]
            if step["since_seq"] <= before or step["optional"] or seat == who:
                continue
            what = f"{step['what']} ({step['conflict']})" if step["conflict"] else step["what"]
            expected.append((IDS[seat], f"the table waits on you in {campaign}: {what}"))


def pings(receiver: Receiver) -> list[tuple[str, str]]:
    """(user, sentence) of each message the receiver took, checking each mentions its user
    only, allows pinging that user only, and links the page."""
    found = []
    for r in receiver.accepted:
        assert r.path == HOOK
        content = r.json["content"]
        first, rest = content.split("\n", 1)
        mentioned = MENTION.findall(content)
        assert len(mentioned) == 1, content
        assert first.startswith(f"<@{mentioned[0]}>, "), content
        assert r.allowed_mentions == {"parse": [], "users": [mentioned[0]]}
        assert rest.startswith(PUBLIC + "/campaigns/"), rest
        assert rest.endswith("/play"), rest
        found.append((mentioned[0], first.split(", ", 1)[1]))
    return found


def settled(receiver: Receiver, count: int, quiet_s: float = 1.5) -> list[tuple[str, str]]:
    """The pings once `count` arrived and nothing more came for `quiet_s` (bounded)."""
    receiver.wait_for(count)
    time.sleep(quiet_s)
    return pings(receiver)


IMPROV_SETUP = [
    ("bob", "improv character bob Kit --talent Brawler"),
    ("susan", "improv character susan Diana --talent Marksman"),
    ("gm", "session start"),
    ("gm", 'scene start "The vault"'),
    ("gm", "improv open --id c2 --extended --rounds 2"),
    ("gm", 'improv stake c2 Guard "The guard raises the alarm" --gm'),
    ("bob", 'improv stake c2 Kit "Kit cracks the vault" --opposes Guard'),
    ("gm", 'improv stake c2 Dog "The dog barks" --gm'),
    ("susan", 'improv stake c2 Diana "Diana keeps watch" --opposes Dog'),
]
IMPROV_ROUND = [
    ("bob", "improv play c2 Kit JK"),
    ("gm", "improv play c2 Guard QD"),
    ("gm", "improv play c2 Dog 5H"),
    ("susan", "improv play c2 Diana 3C"),
    ("gm", "improv reveal c2"),
    ("bob", "improv play c2 Kit 4S"),
    ("gm", "improv play c2 Guard 7C"),
    ("gm", "improv play c2 Dog 2D"),
    ("susan", "improv play c2 Diana 6H"),
    ("gm", "improv reveal c2"),
    ("bob", 'improv narrate c2 Kit "Kit slips past."'),
    ("susan", 'improv narrate c2 Diana "Diana whistles."'),
    ("gm", "improv close c2"),
    ("gm", "session end"),
]
HIDDEN = ("JK", "QD", "5H", "3C", "4S", "7C", "2D", "6H", "Q\u2666", "\u2663", "\u2660")


def test_an_improv_conflict_pings_exactly_whom_the_table_waits_on_once_across_a_restart(
    db: str, tmp_path: Path
) -> None:
    expected: list[tuple[str, str]] = []
    options = (*QUICK, "--public-url", PUBLIC)
    with discord_like() as receiver:
        receiver.plan = ["429", "500"]  # the first tries fail: retried, never sent twice
        with running_service(db, tmp_path, *options) as url:
            tokens = seated(url, tmp_path, "heist", "improv", ("bob", "susan"))
            client(
                url, tmp_path, tokens["gm"], "webhook", "add", receiver.url + HOOK, "--on", "turn"
            )
            for who in ("gm", "bob", "susan"):
                client(url, tmp_path, tokens[who], "player", "discord", who, IDS[who])
            play(url, tmp_path, tokens, IMPROV_SETUP, expected, "heist")
        with running_service(db, tmp_path, *options) as url:
            play(url, tmp_path, tokens, IMPROV_ROUND, expected, "heist")
            got = settled(receiver, len(expected))
            history = json.loads(
                client(url, tmp_path, tokens["gm"], "player", "show", "gm", "--json")
            )
    users = {user for user, _ in expected}
    assert {IDS["gm"], IDS["bob"], IDS["susan"]} <= users, expected
    assert got == expected
    assert {"429", "500"} <= set(receiver.refused)
    bodies = b"".join(r.body for r in receiver.accepted)
    for card in HIDDEN:
        assert card.encode() not in bodies
    told = [n for n in history["notices"] if n["channel"] != "own-move"]  # their own moves
    assert [n["status"] for n in told] == ["sent"] * len([e for e in expected if e[0] == IDS["gm"]])


DUEL = [
    ("gm", "session start"),
    ("gm", "duel open bob susan"),
    ("bob", "duel play c1 bob 9"),
    ("susan", "duel play c1 susan 12"),
    ("gm", "duel reveal c1"),
    ("gm", "duel open susan bob"),
    ("susan", "duel play c2 susan 4"),
]


def test_a_duel_pings_each_player_for_their_own_step_and_never_for_their_own_move(
    tmp_path: Path,
) -> None:
    expected: list[tuple[str, str]] = []
    with (
        discord_like() as receiver,
        running_service(str(tmp_path / "t.db"), tmp_path, *QUICK, "--public-url", PUBLIC) as url,
    ):
        tokens = seated(url, tmp_path, "d", "duel", ("bob", "susan"))
        client(url, tmp_path, tokens["gm"], "webhook", "add", receiver.url + HOOK, "--on", "turn")
        for who in ("gm", "bob", "susan"):
            client(url, tmp_path, tokens["gm"], "player", "discord", who, IDS[who])
        play(url, tmp_path, tokens, DUEL, expected, "d")
        got = settled(receiver, len(expected))
    users = {user for user, _ in expected}
    assert {IDS["bob"], IDS["susan"]} <= users, expected
    assert got == expected
    for card in ("9", "12", "4"):
        assert not any(re.search(rf"\b{card}\b", text) for _, text in got)


def test_the_service_reminds_a_player_still_awaited_at_most_remind_max_times(
    tmp_path: Path,
) -> None:
    options = (*QUICK, "--public-url", PUBLIC, "--reminder-hour", "0.1")  # a day: 2.4 s
    with (
        discord_like() as receiver,
        running_service(str(tmp_path / "t.db"), tmp_path, *options) as url,
    ):
        made = client(url, tmp_path, admin_token(url), "campaign", "create", "d", "--ruleset",
                      "duel", "--option", "remind_hours=1", "--option", "remind_max=1",
                      "--json")  # fmt: skip
        gm = json.loads(made)["token"]
        for player in ("bob", "susan"):
            client(url, tmp_path, gm, "invite", player)
            client(url, tmp_path, gm, "player", "discord", player, IDS[player])
        client(url, tmp_path, gm, "webhook", "add", receiver.url + HOOK, "--on", "turn")
        client(url, tmp_path, gm, "session", "start")
        client(url, tmp_path, gm, "duel", "open", "bob", "susan")
        receiver.wait_for(4)
        time.sleep(3.0)  # past a day of this clock: remind_max=1 allows no second one
        got = pings(receiver)
        # No mail server: an unsubscribe link no mail carried is unknown, and changes nothing.
        for method in ("GET", "POST"):
            answer = httpx.request(method, f"{url}/unsubscribe/no-such-token-0123456789abc")
            assert answer.status_code == 404
            assert "not known" in answer.text
    assert sorted(text.endswith("(reminder 1)") for _, text in got) == [False, False, True, True]
    assert sorted(user for user, _ in got) == sorted(
        [IDS["bob"], IDS["bob"], IDS["susan"], IDS["susan"]]
    )


def test_a_player_gets_one_mail_per_await_and_none_once_unsubscribed(tmp_path: Path) -> None:
    from tests.support.smtp import smtp_server

    with smtp_server() as mailbox:
        options = (*QUICK, "--public-url", PUBLIC, "--smtp", f"smtp://127.0.0.1:{mailbox.port}",
                   "--mail-from", "notices@example.org")  # fmt: skip
        with running_service(str(tmp_path / "t.db"), tmp_path, *options) as url:
            tokens = seated(url, tmp_path, "d", "duel", ("bob", "susan"))
            client(url, tmp_path, tokens["bob"], "player", "email", "bob", "bob@example.org")
            client(url, tmp_path, tokens["gm"], "session", "start")
            client(url, tmp_path, tokens["gm"], "duel", "open", "bob", "susan")
            deadline = time.monotonic() + 20
            while not mailbox.received and time.monotonic() < deadline:
                time.sleep(0.1)
            [mail] = mailbox.received
            assert mail.rcpt_tos == ["bob@example.org"]
            body = mail.message.get_content()
            assert "the table waits on you in d: play this card (c1)" in body
            assert f"{PUBLIC}/campaigns/d/play" in body
            unsubscribe = mail.message["List-Unsubscribe"].strip("<>")
            assert unsubscribe.startswith(f"{PUBLIC}/unsubscribe/")
            # One click, no sign-in (the link names the public address: ask this service).
            local = url + unsubscribe.removeprefix(PUBLIC)
            assert "Stop these mails" in httpx.get(local).text
            assert httpx.post(local).status_code == 200
            shown = json.loads(client(url, tmp_path, tokens["bob"], "player", "show", "bob",
                                      "--json"))  # fmt: skip
            assert shown["unsubscribed"] is not None
            for who, line in [("bob", "duel play c1 bob 9"), ("susan", "duel play c1 susan 3"),
                              ("gm", "duel reveal c1"), ("gm", "duel open bob susan")]:  # fmt: skip
                client(url, tmp_path, tokens[who], *shlex.split(line))
            time.sleep(1.5)
    assert len(mailbox.received) == 1, "unsubscribed: no more mail"


NIGHT_SETUP = [
    ("ann", "night-terrors character ann Alice KS"),
    ("ben", "night-terrors character ben Bob QH"),
    ("gm", "session start"),
    ("gm", "night-terrors draw Alice 6D KS 2C 3C"),
    ("gm", "night-terrors draw Bob 7C 5H 2D 3D"),
    ("gm", 'night-terrors open alice BOB --type melee --stakes "the ledger"'),
    ("gm", "night-terrors draw Alice 4C 5C 6C 8C"),
]
NIGHT_EXCHANGE = [
    ("gm", "night-terrors draw Bob 2H 3H 4H 6H"),
    ("ann", "night-terrors raise c1 Alice 6D KS"),
    ("ben", "night-terrors see c1 Bob 7C 5H"),
    ("ben", "night-terrors raise c1 Bob 2H 3H"),
    ("ann", "night-terrors see c1 Alice 2C 3C"),
    ("ann", "night-terrors raise c1 Alice 8C 6C"),
    ("ben", "night-terrors see c1 Bob 2D 3D 4H 6H"),
    ("ben", "night-terrors pay Bob --sweat 4"),
    ("ben", "night-terrors pay Bob --sweat 4 --blood 4"),
]
CARD = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b|[\u2660\u2663\u2665\u2666]")


def test_a_night_terrors_exchange_reaches_discord_and_mail_once_each_across_a_restart(
    tmp_path: Path,
) -> None:
    """rules/night-terrors.md's NT-5 exchange through the service: ann on Discord, ben on
    Discord and by mail, the GM on Discord; stopped and started in the middle. Each await
    reaches its player once per channel, in order, naming nobody else and no card."""
    from tests.support.smtp import smtp_server

    ids = {"gm": IDS["gm"], "ann": IDS["bob"], "ben": IDS["susan"]}
    expected: list[tuple[str, str]] = []
    db = str(tmp_path / "t.db")
    with discord_like() as receiver, smtp_server() as mailbox:
        options = (*QUICK, "--public-url", PUBLIC, "--smtp", f"smtp://127.0.0.1:{mailbox.port}",
                   "--mail-from", "notices@example.org")  # fmt: skip
        with running_service(db, tmp_path, *options) as url:
            made = client(url, tmp_path, admin_token(url), "campaign", "create", "night",
                          "--ruleset", "night-terrors", "--option", "deck=recorded",
                          "--json")  # fmt: skip
            tokens = {"gm": json.loads(made)["token"]}
            for player in ("ann", "ben"):
                invited = client(url, tmp_path, tokens["gm"], "invite", player, "--json")
                tokens[player] = json.loads(invited)["token"]
            client(url, tmp_path, tokens["gm"], "webhook", "add", receiver.url + HOOK,
                   "--on", "turn")  # fmt: skip
            for who in ("gm", "ann", "ben"):
                client(url, tmp_path, tokens[who], "player", "discord", who, ids[who])
            client(url, tmp_path, tokens["ben"], "player", "email", "ben", "ben@example.org")
            play_as(url, tmp_path, tokens, NIGHT_SETUP, expected, "night", ids)
        with running_service(db, tmp_path, *options) as url:
            play_as(url, tmp_path, tokens, NIGHT_EXCHANGE, expected, "night", ids)
            got = settled(receiver, len(expected))
            to_ben = [e for e in expected if e[0] == ids["ben"]]
            deadline = time.monotonic() + 20
            while len(mailbox.received) < len(to_ben) and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(1.0)  # nothing more comes
    assert {ids["ann"], ids["ben"]} <= {user for user, _ in expected}, expected
    assert any("answer Alice's raise of 12" in text for _, text in expected), expected
    assert got == expected
    mails = [m.message.get_content() for m in mailbox.received]
    assert [m.rcpt_tos for m in mailbox.received] == [["ben@example.org"]] * len(to_ben)
    assert [text for _, text in to_ben] == [
        next(line for line in body.splitlines() if "the table waits on you" in line)
        for body in mails
    ]
    threads = {m.message["References"] for m in mailbox.received}
    assert len(threads) == 1, threads  # one thread for the campaign
    for text in [body for _, body in got] + mails:
        assert not CARD.search(text), text


def play_as(
    url: str, cwd: Path, tokens: dict[str, str], moves: list[tuple[str, str]],
    expected: list[tuple[str, str]], campaign: str, ids: dict[str, str],
) -> None:  # fmt: skip
    """`play`, with the seats' own Discord ids."""
    for who, line in moves:
        before = state_now(url, tokens["gm"])["seq"]
        client(url, cwd, tokens[who], *shlex.split(line))
        for step in awaited_now(url, cwd, tokens["gm"]):
            seat = "gm" if step["gm"] else step["player"]
            if step["since_seq"] <= before or step["optional"] or seat == who:
                continue
            what = f"{step['what']} ({step['conflict']})" if step["conflict"] else step["what"]
            expected.append((ids[seat], f"the table waits on you in {campaign}: {what}"))
