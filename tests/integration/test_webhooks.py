"""Webhooks on a real SQLite file: posts queued with the events, built from the export's own
machinery for every ruleset, and sent by `tablelog webhook deliver` to a local receiver
that behaves like Discord (tests/support/discord.py)."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from pathlib import Path

import msgspec
import pytest

from tablelog.commands import webhooks
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.demo import demo_of
from tablelog.commands.post_of import bodies
from tablelog.commands.table import execute
from tablelog.rules import registry
from tablelog.storage import EventStore, open_store
from tablelog.storage.store import now_us
from tablelog.storage.webhooks import Due, due_posts, webhooks_of
from tests.e2e.transcript import ok, refused, run
from tests.support.discord import discord_like

SECRET_PATH = "/api/webhooks/4242/SECRET-TOKEN-never-shown"
WITH_DEMO = [n for n in registry.names() if registry.get(n).demo is not None]


def play_demo(
    store: EventStore, ruleset: str, *hooks: tuple[str, str], on: str = "reveal,close,session"
) -> str:
    """The ruleset's demo played into a new campaign with these (url, format) webhooks
    registered before its first command; the campaign's name."""
    rules, play = demo_of(ruleset)
    created = create_campaign(store, play.name, ruleset=rules.name, options=play.options)
    for url, fmt in hooks:
        webhooks.add(store, created.campaign, url, fmt, on)
    for command in play.commands:
        execute(store, created.campaign, command, ruleset=rules.name)
    return created.campaign


@pytest.mark.parametrize("ruleset", WITH_DEMO)
def test_every_rulesets_demo_queues_posts_that_fit_discord(ruleset: str, tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "t.db"), create=True)
    try:
        campaign = play_demo(store, ruleset, ("https://discord.test" + SECRET_PATH, "discord"))
        due = due_posts(store, now_us())
        assert len(due) == 1, "one webhook: its oldest post is due"
        [hook] = webhooks.listed(store, campaign)
        assert hook.pending >= 1, f"{ruleset}'s demo made no post due"
        assert SECRET_PATH not in json.dumps([hook.url, hook.id])
        messages = bodies(store, due[0])
        assert messages, "a post of something that happened"
        for message in messages:
            content = json.loads(message)["content"]
            assert len(content.encode("utf-16-le")) // 2 <= 2000
        assert "tablelog verify" in json.loads(messages[-1])["content"], "the footer"
    finally:
        store.close()


@pytest.mark.parametrize("trigger", ["reveal", "close"])
@pytest.mark.parametrize("ruleset", WITH_DEMO)
def test_every_rulesets_demo_reveals_and_closes(ruleset: str, trigger: str, tmp_path: Path) -> None:
    """What `reveal` and `close` mean comes from each ruleset's views and state: every demo,
    which plays a whole conflict, makes each due at least once."""
    store = open_store(str(tmp_path / "t.db"), create=True)
    try:
        campaign = play_demo(store, ruleset, ("https://example.test/h", "json"), on=trigger)
        [hook] = webhooks.listed(store, campaign)
        assert hook.pending >= 1, f"{ruleset}: no {trigger} post"
        [due] = due_posts(store, now_us())
        assert due.trigger == trigger
        assert json.loads(bodies(store, due)[0])["events"], "the command's events"
    finally:
        store.close()


def test_a_face_down_card_never_reaches_a_post(tmp_path: Path) -> None:
    """Bob's card is face down: a post of that moment (as a json receiver gets the events,
    and as Discord gets the conflict) holds no trace of it."""
    from tablelog.rulesets.improv.rules import commands as c

    store = open_store(str(tmp_path / "t.db"), create=True)
    try:
        _, play = demo_of("improv")
        made = create_campaign(store, "bar", ruleset="improv", options=play.options)
        hook = webhooks.add(store, "bar", "https://example.test/hook", "json", "reveal")
        opening = [cmd for cmd in play.commands if not isinstance(cmd, c.PlayCard)]
        for command in opening[
            : opening.index(next(x for x in opening if isinstance(x, c.Reveal)))
        ]:
            execute(store, made.campaign, command, ruleset="improv")
        played = execute(
            store, "bar", c.PlayCard(conflict="fight", side="Kit", card="QH"), ruleset="improv"
        )
        [row] = [h for h in webhooks_of(store, "bar") if h.id == hook.id]
        seq = played[-1].seq
        for fmt in ("json", "discord"):
            due = Due(
                outbox_id=0,
                hook=msgspec.structs.replace(row, format=fmt),
                first_seq=played[0].seq,
                seq=seq,
                trigger="reveal",
                parts_sent=0,
                attempts=0,
            )
            for body in bodies(store, due):
                assert b"QH" not in body, fmt
                assert "Q\u2665".encode() not in body, fmt
        assert b"QH" in b"".join(e.payload for e in store.read("bar")), "it is in the log"
    finally:
        store.close()


def test_deliver_sends_in_order_once_retries_and_signs(tmp_path: Path) -> None:
    with discord_like() as receiver:
        receiver.plan = ["429", "500", "late"]
        ok(run(tmp_path, "demo"))
        added = json.loads(
            ok(run(tmp_path, "webhook", "add", receiver.url + SECRET_PATH, "--json"))
        )
        signed = json.loads(
            ok(
                run(
                    tmp_path,
                    "webhook",
                    "add",
                    receiver.url + "/generic",
                    "--format",
                    "json",
                    "--json",
                )
            )
        )
        assert signed["secret"]
        assert added["secret"] is None
        # The demo was written before the webhooks, and left its session running.
        ok(run(tmp_path, "session", "end"))
        listed = ok(run(tmp_path, "webhook", "list"))
        assert listed.count("1 waiting") == 2, "one post queued for each webhook"
        for _ in range(20):  # bounded: each run sends what is due, retries wait for the next
            out = ok(run(tmp_path, "webhook", "deliver", "--backoff", "0.05", "--timeout", "1"))
            assert SECRET_PATH not in out
            state = json.loads(ok(run(tmp_path, "webhook", "list", "--json")))
            if all(h["pending"] == 0 for h in state["webhooks"]):
                break
            time.sleep(0.1)
        assert receiver.refused[:2] == ["429", "500"]
        # Discord gets the export's own messages of the session, in order, each once.
        export = ok(run(tmp_path, "export", "--format", "discord", "--session", "1"))
        messages = export.rstrip("\n").split("\n----- 8< -----\n")
        assert len(messages) > 1, "a post longer than one message"
        sent = [r.json["content"].rstrip("\n") for r in receiver.accepted if r.path == SECRET_PATH]
        assert sent == [m.rstrip("\n") for m in messages]
        assert [r.path for r in receiver.accepted].count("/generic") == 1
        generic = next(r for r in receiver.accepted if r.path == "/generic")
        expected = (
            "sha256="
            + hmac.new(signed["secret"].encode(), generic.body, hashlib.sha256).hexdigest()
        )
        assert generic.headers["X-Tablelog-Signature"] == expected
        assert generic.json["trigger"] == "session"
        for read in (["webhook", "list"], ["webhook", "list", "--json"], ["log"], ["export"]):
            assert SECRET_PATH not in ok(run(tmp_path, *read)), read


def test_bad_webhooks_are_refused_in_one_sentence(tmp_path: Path) -> None:
    ok(run(tmp_path, "demo"))
    for args in (
        ["webhook", "add", "ftp://x/SECRET-TOKEN"],
        ["webhook", "add", "https://x/SECRET-TOKEN", "--on", "everything"],
        ["webhook", "remove", "wh-nope"],
        ["webhook", "deliver", "--backoff", "0"],
    ):
        message = refused(run(tmp_path, *args))
        assert "SECRET-TOKEN" not in message, args
    # A format that is none of the choices is a usage error (exit 2), URL not repeated.
    usage = run(tmp_path, "webhook", "add", "https://x/SECRET-TOKEN", "--format", "xml")
    assert usage.returncode == 2
    assert "SECRET-TOKEN" not in usage.stderr + usage.stdout
    assert json.loads(ok(run(tmp_path, "webhook", "list", "--json")))["webhooks"] == []


def test_a_webhook_failing_too_long_is_disabled_and_says_why(tmp_path: Path) -> None:
    with discord_like() as receiver:
        receiver.plan = ["500"] * 10
        ok(run(tmp_path, "demo"))
        ok(run(tmp_path, "webhook", "add", receiver.url + SECRET_PATH))
        ok(run(tmp_path, "session", "end"))
        options = ["--backoff", "0.01", "--disable-after", "0.2"]
        ok(run(tmp_path, "webhook", "deliver", *options))
        time.sleep(0.3)
        ok(run(tmp_path, "webhook", "deliver", *options))
        [hook] = json.loads(ok(run(tmp_path, "webhook", "list", "--json")))["webhooks"]
        assert hook["status"] == "disabled"
        assert "500" in hook["disabled_reason"]
        assert "disabled: the receiver answered 500" in ok(run(tmp_path, "webhook", "list"))
        assert receiver.accepted == []


def test_a_lost_key_is_a_failure_the_gm_sees_never_a_crash(tmp_path: Path) -> None:
    with discord_like() as receiver:
        ok(run(tmp_path, "demo"))
        ok(run(tmp_path, "webhook", "add", receiver.url + SECRET_PATH))
        ok(run(tmp_path, "session", "end"))
        [key] = tmp_path.glob("*.webhook-key")
        key.unlink()
        ok(run(tmp_path, "webhook", "deliver", "--backoff", "60"))
        [hook] = json.loads(ok(run(tmp_path, "webhook", "list", "--json")))["webhooks"]
        assert hook["status"] == "failing"
        assert "no webhook key" in hook["last_error"]
        assert hook["pending"] == 1, "kept for when the key is back"
        assert receiver.accepted == []
