"""Turn notices on a real database (SQLite and PostgreSQL): queued in the append's own
transaction, exactly once per await and channel, dropped when the step ended before its turn
to be sent came, reminders after `remind_hours` at most `remind_max` times, a mail waiting
visibly while no mail server is configured, and an unsubscribe stopping the mails. Sent by
the service's own sender function to the local Discord-like receiver."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
from tablelog_duel.rules import JoinPlayer, OpenDuel, Play

from tablelog.commands import contacts, database, notice_history, notices, webhooks
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.deliver import Policy
from tablelog.commands.table import execute
from tablelog.commands.waiting import waiting_in
from tablelog.rules.common import StartSession
from tablelog.storage import EventStore, open_store
from tablelog.storage.notices import NewNotice, add_reminders, notices_of, record_sent
from tests.support.discord import Receiver, discord_like

HOOK = "/api/webhooks/9/turn-SECRET"
ANN, BOB = "400000000000000004", "500000000000000005"
QUICK = Policy(timeout=1.0, backoff=0.05, poll=0.05)


@pytest.fixture
def store(target: str) -> Iterator[EventStore]:
    database.upgrade(target)
    opened = open_store(target)
    try:
        yield opened
    finally:
        opened.close()


def duel(store: EventStore, receiver: Receiver, **options: str) -> None:
    create_campaign(store, "d", ruleset="duel", options=options)
    for player in ("ann", "bob"):
        execute(store, "d", JoinPlayer(player=player))
    webhooks.add(store, "d", receiver.url + HOOK, "discord", "turn")
    contacts.set_discord(store, "d", "ann", ANN)
    contacts.set_discord(store, "d", "bob", BOB)
    execute(store, "d", StartSession())


def send(store: EventStore, policy: notices.NoticePolicy, rounds: int = 3) -> None:
    with httpx.Client(timeout=2.0) as client:
        for _ in range(rounds):
            notices.deliver_notices(store, client, QUICK, policy)


def pinged(receiver: Receiver) -> list[str]:
    return [r.allowed_mentions["users"][0] for r in receiver.accepted]


def test_a_step_ended_before_delivery_is_dropped_not_sent(store: EventStore) -> None:
    with discord_like() as receiver:
        duel(store, receiver)
        execute(store, "d", OpenDuel(first="ann", second="bob", conflict="c1"))
        queued = notices_of(store, "d")
        assert sorted(n.player for n in queued) == ["ann", "bob"], "the GM's own move: no GM"
        execute(store, "d", Play(conflict="c1", player="ann", card=9))  # before any delivery
        send(store, notices.NoticePolicy(public_url="https://t.example"))
        assert pinged(receiver) == [BOB]
        rows = {n.player: n for n in notices_of(store, "d")}
        assert rows["ann"].dropped_at is not None
        assert rows["ann"].last_error == notices.NOT_AWAITED
        assert rows["bob"].sent_at is not None
        # Bob's play begins no step of anyone with a contact but the GM's (none linked).
        execute(store, "d", Play(conflict="c1", player="bob", card=12))
        send(store, notices.NoticePolicy())
        assert pinged(receiver) == [BOB], "each await once"


def test_each_notice_is_queued_once_per_await_and_channel(store: EventStore) -> None:
    with discord_like() as receiver:
        duel(store, receiver)
        execute(store, "d", OpenDuel(first="ann", second="bob", conflict="c1"))
        [ann] = [n for n in notices_of(store, "d") if n.player == "ann"]
        again = NewNotice(
            player="ann", channel=ann.channel, kind="turn", step_key=ann.step_key,
            sentence=ann.sentence, conflict=ann.conflict, since_seq=ann.since_seq, number=0,
        )  # fmt: skip
        assert add_reminders(store, "d", [again]) == 0
        assert len(notices_of(store, "d")) == 2


def test_reminders_come_after_remind_hours_then_a_day_apart_at_most_remind_max(
    store: EventStore,
) -> None:
    hour_s = 0.05  # an hour of the options lasts 50 ms here: a day 1.2 s
    policy = notices.NoticePolicy(hour_s=hour_s)
    with discord_like() as receiver:
        duel(store, receiver, remind_hours="1", remind_max="2")
        execute(store, "d", OpenDuel(first="ann", second="bob", conflict="c1"))
        send(store, policy)
        assert sorted(pinged(receiver)) == sorted([ANN, BOB])
        execute(store, "d", Play(conflict="c1", player="ann", card=9))  # ann is done
        deadline = time.monotonic() + 3 * 24 * hour_s  # past a second reminder, and a third day
        while time.monotonic() < deadline:
            send(store, policy, rounds=1)
            time.sleep(hour_s / 2)
        assert pinged(receiver).count(ANN) == 1, "ann acted: never reminded"
        assert pinged(receiver).count(BOB) == 3, "the notice and two reminders"
        told = notice_history.history(store, "d")
        assert [t.number for t in told["bob"]] == [0, 1, 2]
        first, one, two = (t.at_us for t in told["bob"])
        assert one - first >= hour_s * 1e6
        assert two - one >= 24 * hour_s * 1e6
        texts = [r.json["content"] for r in receiver.accepted if BOB in r.json["content"]]
        assert texts[-1].endswith("(reminder 2)")
        # `tablelog waiting` says who was told and reminded when (the GM's view).
        (waits,) = waiting_in(store, "d")
        assert (waits.player, waits.notified) == ("bob", told["bob"][0].at)
        assert waits.reminded == [told["bob"][1].at, told["bob"][2].at]
        assert waiting_in(store, "d", notices=False)[0].reminded == []


def test_no_reminder_when_remind_hours_is_zero(store: EventStore) -> None:
    policy = notices.NoticePolicy(hour_s=0.01)
    with discord_like() as receiver:
        duel(store, receiver, remind_hours="0")
        execute(store, "d", OpenDuel(first="ann", second="bob", conflict="c1"))
        for _ in range(20):
            send(store, policy, rounds=1)
            time.sleep(0.02)
        assert sorted(pinged(receiver)) == sorted([ANN, BOB])


def test_a_mail_waits_visibly_without_a_mail_server_and_an_unsubscribe_stops_it(
    store: EventStore,
) -> None:
    with discord_like() as receiver:
        duel(store, receiver)
        contacts.set_email(store, "d", "bob", "bob@example.org")
        execute(store, "d", OpenDuel(first="ann", second="bob", conflict="c1"))
        send(store, notices.NoticePolicy())
        [bob] = [c for c in contacts.listed(store, "d") if c.player == "bob"]
        assert [(n.channel, n.status, n.last_error) for n in bob.notices] == [
            ("mail", "waiting", notices.NO_MAIL_SERVER)
        ]
        # A mail that went out carried a token whose digest only is kept: its link stops
        # the mails, without signing in.
        [mail] = [n for n in notices_of(store, "d") if n.channel == "mail"]
        token = "a-token-of-a-mail-that-went-out-0123456789"
        record_sent(store, mail.id, notices.unsubscribe_digest(token))
        assert notices.unsubscribe_known(store, "no-such-token-at-all-000000") is None
        assert notices.unsubscribed(store, token) == ("d", "bob")
        shown = contacts.shown(store, "d", "bob")
        assert shown.unsubscribed is not None
        assert shown.email == "bob@example.org", "kept, but no more mail"
        execute(store, "d", Play(conflict="c1", player="ann", card=9))
        execute(store, "d", OpenDuel(first="bob", second="ann", conflict="c2"))
        assert [
            n.channel for n in notices_of(store, "d", "bob") if n.since_seq > mail.since_seq
        ] == [receiver_hook(store)], "Discord only: the mail is unsubscribed"


def receiver_hook(store: EventStore) -> str:
    [hook] = webhooks.listed(store, "d")
    return hook.id


def test_a_step_begun_by_the_players_own_move_is_not_told_but_is_reminded(
    store: EventStore,
) -> None:
    """bob's stake makes the table wait on his card: his own move, so no ping; should he then
    leave the table waiting `remind_hours`, he is reminded as after a first notice."""
    from tablelog.rulesets.improv.rules import commands as c

    hour_s = 1.0  # an hour of the options lasts a second here
    policy = notices.NoticePolicy(hour_s=hour_s)
    with discord_like() as receiver:
        create_campaign(store, "h", ruleset="improv", options={"remind_hours": "1"})
        execute(store, "h", c.CreateCharacter(player="bob", character="Kit"))
        webhooks.add(store, "h", receiver.url + HOOK, "discord", "turn")
        contacts.set_discord(store, "h", "bob", BOB)
        for command in (c.StartSession(), c.OpenConflict(conflict="c1")):
            execute(store, "h", command)
        execute(store, "h", c.SetStake(conflict="c1", side="Riso", gm=True, text="keep it"))
        execute(store, "h", c.SetStake(conflict="c1", side="Kit", text="out", opposes="Riso"),
                actor="bob")  # fmt: skip
        send(store, policy)
        assert pinged(receiver) == [], "his own move: not told"
        (own,) = [n for n in notices_of(store, "h") if n.player == "bob"]
        assert (own.channel, own.number) == ("own-move", 0)
        assert waiting_in(store, "h")[-1].notified is None  # nobody was told
        deadline = time.monotonic() + 3 * hour_s
        while not pinged(receiver) and time.monotonic() < deadline:
            send(store, policy, rounds=1)
            time.sleep(hour_s / 10)
        assert pinged(receiver) == [BOB]
        assert receiver.accepted[0].json["content"].split("\n")[0].endswith("(reminder 1)")
