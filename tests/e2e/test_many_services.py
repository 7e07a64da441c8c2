"""Two `tablelog serve` processes on one PostgreSQL database, as a host runs them behind a load
balancer (issue 31): commands spread over both land exactly once with the seqs gapless and the
chain whole; a live feed on one service hears of appends made through the other (and through
the CLI) without polling, and of a revocation made there; a lost listening connection catches
up; clients of a service killed outright resume on the other with `Last-Event-ID`, missing
and repeating nothing; the limits hold across the two; idempotency keys, committed shuffles'
seeds and the webhooks' sender are shared.

Every wait is bounded; the delays asserted are far above the figures bench/scale.py measures
(they say the feed was told, not polled for minutes), never timings."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from sqlalchemy import create_engine, text

from tablelog.storage.listen import APPLICATION_NAME
from tests.conftest import pg_base_url
from tests.e2e.transcript import ok, run
from tests.support.discord import discord_like
from tests.support.server import admin, process_of, running_service

pytestmark = pytest.mark.postgresql

TOLD_S = 5.0  # how long a feed may take to hear of a change (it takes milliseconds)
HTTP = httpx.Timeout(30.0)
# Quick to retry and to look for posts, but patient with an answer: a post whose answer
# came after a timeout is sent again (at least once, as webhooks are), which on a loaded
# machine would read as a post sent twice by two services.
QUICK_HOOKS = (
    "--webhook-timeout", "10", "--webhook-backoff", "0.1", "--webhook-poll", "0.1",
    "--webhook-allow-private",
)  # fmt: skip


@contextmanager
def fresh_schema() -> Iterator[str]:
    """A database URL whose search_path is a new, empty schema (as conftest's pg_target, for
    a whole module)."""
    base = pg_base_url()
    schema = f"tl_{uuid.uuid4().hex[:16]}"
    engine = create_engine(base.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    separator = "&" if "?" in base else "?"
    try:
        yield f"{base}{separator}options={quote(f'-csearch_path={schema}')}"
    finally:
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@dataclass
class Pair:
    db: str
    cwd: Path
    a: str
    b: str
    admin: dict[str, str]

    def campaign(self, name: str, *players: str, session: bool = True) -> dict[str, str]:
        """A new Improv campaign made through A, its players (and `kit`, whom every table
        has) invited through B with a character each, its first session started: the
        tokens."""
        with httpx.Client(timeout=HTTP) as http:
            made = http.post(
                f"{self.a}/campaigns",
                json={"name": name, "ruleset": "improv", "gm": "gm"},
                headers=self.admin,
            )
            assert made.status_code == 201, made.text
            tokens = {"gm": made.json()["token"]}
            for player in ("kit", *players):
                invited = http.post(
                    f"{self.b}/campaigns/{name}/players/{player}/tokens",
                    json={},
                    headers=bearer(tokens["gm"]),
                )
                assert invited.status_code == 201, invited.text
                tokens[player] = invited.json()["token"]
                joined = http.post(
                    f"{self.a}/campaigns/{name}/improv/characters",
                    json={"player": player, "character": player.title()},
                    headers=bearer(tokens[player]),
                )
                assert joined.status_code == 201, joined.text
            if session:
                started = http.post(
                    f"{self.a}/campaigns/{name}/sessions", json={}, headers=bearer(tokens["gm"])
                )
                assert started.status_code == 201, started.text
        return tokens


@contextmanager
def two_services(*options: str) -> Iterator[Pair]:
    """Services A and B on one new schema, as two machines would run them: each its own
    configuration directory, one key file given to both (README, Hosting)."""
    with ExitStack() as stack:
        db = stack.enter_context(fresh_schema())
        cwd = Path(stack.enter_context(_tmp()))
        ok(run(cwd, "--db", db, "db", "upgrade"))
        # As README's Hosting says: every service names the same key file (and finds the
        # webhook key beside it), whatever its own configuration directory holds.
        key = ("--key-file", str(cwd / "keys" / "service.key"))
        (cwd / "keys").mkdir()
        a_env = {"XDG_CONFIG_HOME": str(cwd / "config-a")}
        a = stack.enter_context(running_service(db, cwd, *options, *key, env=a_env))
        keys = admin(a)  # printed by the first service only
        b_env = {"XDG_CONFIG_HOME": str(cwd / "config-b")}
        b = stack.enter_context(running_service(db, cwd, *options, *key, env=b_env))
        yield Pair(db, cwd, a, b, keys)


@contextmanager
def _tmp() -> Iterator[str]:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="tablelog-two-") as path:
        yield path


@pytest.fixture(scope="module")
def pair() -> Iterator[Pair]:
    with two_services(*QUICK_HOOKS, "--campaign-limit", "1000") as made:
        yield made


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def scene(url: str, campaign: str, token: str, title: str, key: str | None = None) -> Any:
    """One command: the GM opens a conflict named `title` (any number may be open)."""
    headers = {**bearer(token), **({"Idempotency-Key": key} if key else {})}
    name = title.replace(" ", "-")
    with httpx.Client(timeout=HTTP) as http:
        return http.post(
            f"{url}/campaigns/{campaign}/improv/conflicts", json={"conflict": name}, headers=headers
        )


def log_of(url: str, campaign: str, token: str) -> list[dict[str, Any]]:
    with httpx.Client(timeout=HTTP) as http:
        got = http.get(f"{url}/campaigns/{campaign}/log", headers=bearer(token))
    assert got.status_code == 200, got.text
    items: list[dict[str, Any]] = got.json()
    return items


class Feed:
    """A live feed read in a thread of its own: each message with the moment it came."""

    def __init__(self, url: str, campaign: str, token: str, after: int | None = None) -> None:
        self.got: list[tuple[str, int | None, str, float]] = []  # event, id, data, when
        self.status: int | None = None
        self.ended = threading.Event()
        self._response: httpx.Response | None = None
        headers = bearer(token)
        if after is not None:
            headers["Last-Event-ID"] = str(after)
        self._thread = threading.Thread(
            target=self._read, args=(f"{url}/campaigns/{campaign}/events", headers), daemon=True
        )
        self._opened = threading.Event()
        self._thread.start()
        assert self._opened.wait(TOLD_S * 2), "the feed did not open"

    def _read(self, url: str, headers: dict[str, str]) -> None:
        event, seq, data = "message", None, ""
        try:
            # The service sends `alive` every 15 s: a read never waits longer than that.
            timeout = httpx.Timeout(10.0, read=30.0)
            with (
                httpx.Client(timeout=timeout) as http,
                http.stream("GET", url, headers=headers) as r,
            ):
                self._response = r
                self.status = r.status_code
                self._opened.set()
                for line in r.iter_lines():  # bounded: `close` cuts it, or the feed ends
                    if line == "":
                        if data:
                            self.got.append((event, seq, data, time.monotonic()))
                        event, seq, data = "message", None, ""
                    elif line.startswith("event:"):
                        event = line[6:].strip()
                    elif line.startswith("id:"):
                        seq = int(line[3:].strip())
                    elif line.startswith("data:"):
                        data = line[5:].strip()
        except (httpx.HTTPError, OSError, RuntimeError):
            pass  # the service went away, or the test closed the feed: `ended` says so
        finally:
            self._opened.set()
            self.ended.set()

    def seqs(self) -> list[int]:
        return [seq for event, seq, _, _ in self.got if event == "event" and seq is not None]

    def wait_for(self, seq: int, deadline_s: float = TOLD_S) -> float | None:
        """When the event `seq` came (monotonic), waiting up to `deadline_s`."""
        deadline = time.monotonic() + deadline_s
        while time.monotonic() < deadline:
            for event, got, _, when in list(self.got):
                if event == "event" and got == seq:
                    return when
            if self.ended.is_set():
                return None
            time.sleep(0.01)
        return None

    def close(self) -> None:
        """Hang up, as a browser closing its tab: the socket is shut under the reading
        thread, which then ends."""
        response = self._response
        if response is not None:
            stream = response.extensions.get("network_stream")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
        self._thread.join(timeout=5)


def verify(pair: Pair) -> str:
    return ok(run(pair.cwd, "--db", pair.db, "verify"))


# --- commands spread over both ---------------------------------------------------------------


def test_commands_spread_over_both_services_land_once_gapless_and_chained(pair: Pair) -> None:
    """Eight clients over three campaigns, each command sent to one service and retried with
    its Idempotency-Key on the other (a load balancer's retry): each lands exactly once."""
    campaigns = ["spread-1", "spread-2", "spread-3"]
    gms = {name: pair.campaign(name)["gm"] for name in campaigns}
    heads = {name: len(log_of(pair.a, name, gms[name])) for name in campaigns}

    def client(number: int) -> list[tuple[str, str, int]]:
        sent = []
        for step in range(12):
            name = campaigns[(number + step) % len(campaigns)]
            first, second = (pair.a, pair.b) if (number + step) % 2 else (pair.b, pair.a)
            key = f"c{number}-s{step}"
            title = f"c{number}s{step}"
            one = scene(first, name, gms[name], title, key)
            again = scene(second, name, gms[name], title, key)
            assert one.status_code == 201, one.text
            assert again.status_code == 201, again.text
            assert again.json() == one.json()  # the first answer, from the other service
            sent.append((name, title, one.json()["seq"]))
        return sent

    with ThreadPoolExecutor(8) as pool:
        sent = [item for items in pool.map(client, range(8)) for item in items]

    for name in campaigns:
        log = log_of(pair.b, name, gms[name])
        assert [item["seq"] for item in log] == list(range(1, len(log) + 1))  # gapless
        lines = [json.loads(item["line"]) for item in log]
        titles = [e["payload"]["conflict"] for e in lines if e["type"] == "improv.conflict_opened"]
        mine = [title.replace(" ", "-") for campaign, title, _ in sent if campaign == name]
        assert sorted(titles) == sorted(mine)  # each once
        assert len(log) == heads[name] + len(mine)
        seqs = {seq for campaign, _, seq in sent if campaign == name}
        assert len(seqs) == len(mine)
    assert "every chain intact" in verify(pair)


# --- live feeds ------------------------------------------------------------------------------


def test_a_feed_on_one_service_hears_appends_through_the_other_and_the_cli(pair: Pair) -> None:
    tokens = pair.campaign("heard", "bob")
    head = len(log_of(pair.a, "heard", tokens["gm"]))
    feed = Feed(pair.a, "heard", tokens["bob"], after=head)
    try:
        assert feed.status == 200
        delays = []
        for n in range(5):
            sent = time.monotonic()
            made = scene(pair.b, "heard", tokens["gm"], f"through B {n}")
            assert made.status_code == 201, made.text
            came = feed.wait_for(made.json()["seq"])
            assert came is not None, f"A's feed never heard of seq {made.json()['seq']}"
            delays.append(came - sent)
        # The CLI on the database (no service at all) is heard too.
        ok(run(pair.cwd, "--db", pair.db, "scene", "start", "By hand", "--campaign", "heard"))
        assert feed.wait_for(head + 6) is not None
        assert feed.seqs() == list(range(head + 1, head + 7))  # in order, once each
        assert max(delays) < TOLD_S
    finally:
        feed.close()


def test_a_revocation_through_one_service_ends_feeds_on_the_other(pair: Pair) -> None:
    tokens = pair.campaign("revoked", "bob", "sue")
    bob, sue = Feed(pair.a, "revoked", tokens["bob"]), Feed(pair.a, "revoked", tokens["sue"])
    try:
        assert bob.status == sue.status == 200
        with httpx.Client(timeout=HTTP) as http:
            gone = http.delete(
                f"{pair.b}/campaigns/revoked/players/bob/tokens", headers=bearer(tokens["gm"])
            )
        assert gone.status_code == 200, gone.text
        assert bob.ended.wait(TOLD_S), "bob's feed on A outlived his revocation through B"
        assert [event for event, *_ in bob.got][-1] == "revoked"
        assert not sue.ended.is_set()  # another token's feed goes on
        made = scene(pair.b, "revoked", tokens["gm"], "after")
        assert made.status_code == 201, made.text
        assert sue.wait_for(made.json()["seq"]) is not None
    finally:
        bob.close()
        sue.close()


def _listeners(pair: Pair) -> int:
    """End every service's listening connection (as a restarted server or a proxy would);
    how many there were."""
    engine = create_engine(pg_base_url().replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.begin() as conn:
            ended = conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = :name AND pid <> pg_backend_pid()"
                ),
                {"name": APPLICATION_NAME},
            ).all()
    finally:
        engine.dispose()
    return len(ended)


def test_a_lost_listening_connection_reconnects_and_misses_nothing(pair: Pair) -> None:
    tokens = pair.campaign("deaf", "bob")
    head = len(log_of(pair.a, "deaf", tokens["gm"]))
    feed = Feed(pair.a, "deaf", tokens["bob"], after=head)
    try:
        assert _listeners(pair) >= 2  # both services' (other tests' services' too)
        sent = [scene(pair.b, "deaf", tokens["gm"], f"while deaf {n}") for n in range(3)]
        assert [s.status_code for s in sent] == [201] * 3
        assert feed.wait_for(head + 3) is not None
        later = scene(pair.b, "deaf", tokens["gm"], "listening again")
        assert feed.wait_for(later.json()["seq"]) is not None
        assert feed.seqs() == list(range(head + 1, head + 5))
    finally:
        feed.close()


# --- shared state: idempotency keys, committed shuffles, the webhooks' sender ---------------


def cli(pair: Pair, url: str, token: str, *args: str) -> str:
    return ok(run(pair.cwd, "--server", url, "--access-token", token, *args))


def test_a_committed_shuffle_is_pledged_and_answered_across_both(pair: Pair) -> None:
    made = json.loads(
        cli(pair, pair.a, pair.admin["Authorization"].split()[1], "campaign", "create",
            "deal", "--ruleset", "improv", "--option", "deck_mode=managed",
            "-o", "committed_rng=true", "--json")
    )  # fmt: skip
    gm = made["token"]
    ann = json.loads(cli(pair, pair.b, gm, "invite", "ann", "--json"))["token"]
    bert = json.loads(cli(pair, pair.a, gm, "invite", "bert", "--json"))["token"]
    cli(pair, pair.a, ann, "improv", "character", "ann", "Kit")
    cli(pair, pair.b, bert, "improv", "character", "bert", "Vex")
    assert "awaiting ann, bert" in cli(pair, pair.a, gm, "session", "start")
    assert "ann pledged" in cli(pair, pair.b, ann, "rng", "contribute")
    assert "bert contributed" in cli(pair, pair.a, bert, "rng", "contribute")
    assert "drawn" in cli(pair, pair.b, ann, "rng", "contribute")
    # The next session's decks replace these: the first deal's seed is revealed then.
    cli(pair, pair.b, gm, "session", "end")
    cli(pair, pair.a, gm, "session", "start")
    cli(pair, pair.a, ann, "rng", "contribute")
    cli(pair, pair.b, bert, "rng", "contribute")
    assert "server seed revealed" in cli(pair, pair.a, ann, "rng", "contribute")
    out = ok(run(pair.cwd, "--db", pair.db, "verify", "--rng", "--campaign", "deal"))
    assert "1 committed shuffle request(s) recomputed exactly" in out


def test_the_webhooks_sender_posts_each_once_across_both(pair: Pair) -> None:
    gm = pair.campaign("hooked", session=False)["gm"]
    with discord_like() as receiver:
        cli(pair, pair.a, gm, "webhook", "add", receiver.url + "/generic", "--format", "json",
            "--on", "session")  # fmt: skip
        for n in range(4):
            url = (pair.a, pair.b)[n % 2]
            cli(pair, url, gm, "session", "start")
            cli(pair, (pair.b, pair.a)[n % 2], gm, "session", "end")
        posts = receiver.wait_for(4)
        time.sleep(1.0)  # a second sender that would post again has had its chance
        bodies = [p.body for p in receiver.accepted]
    # The webhook's URL was sealed by A and opened by whichever sender took each post: the
    # key lies beside the one given, not in a service's own directory.
    assert (pair.cwd / "keys" / "service.key.webhook-key").is_file()
    assert not (pair.cwd / "config-a").exists() or not any((pair.cwd / "config-a").rglob("*key*"))
    # One post per session's end (the trigger), whichever service's sender took it.
    seqs = [json.loads(body)["seq"] for body in bodies]
    assert len(posts) == 4, seqs
    assert len(seqs) == len(set(seqs)) == 4, "a post went out twice"


# --- the limits, counted together ------------------------------------------------------------


def test_campaigns_created_are_counted_across_both_services() -> None:
    with two_services("--campaign-limit", "3") as pair, httpx.Client(timeout=HTTP) as http:
        answers = []
        for n, url in enumerate([pair.a, pair.b, pair.a, pair.b, pair.a]):
            made = http.post(
                f"{url}/campaigns",
                json={"name": f"limit-{n}", "ruleset": "improv"},
                headers=pair.admin,
            )
            answers.append((made.status_code, made.json().get("code")))
        assert answers[:3] == [(201, None)] * 3, answers
        assert answers[3:] == [(429, "too-many-campaigns")] * 2, answers


def test_failed_sign_ins_are_counted_across_both_services() -> None:
    with two_services("--auth-failures", "4") as pair, httpx.Client(timeout=HTTP) as http:
        wrong = bearer("tl_" + "0" * 40)
        answers = [
            http.get(f"{url}/campaigns/nothing/log", headers=wrong).status_code
            for url in [pair.a, pair.b, pair.a, pair.b, pair.a, pair.b]
        ]
        assert answers == [401, 401, 401, 401, 429, 429], answers


def test_a_tokens_feeds_are_counted_across_both_services() -> None:
    with two_services("--feeds-per-token", "3") as pair:
        tokens = pair.campaign("capped", "bob")
        feeds = [Feed(url, "capped", tokens["bob"]) for url in [pair.a, pair.b, pair.a]]
        try:
            assert [f.status for f in feeds] == [200, 200, 200]
            fourth = [Feed(url, "capped", tokens["bob"]) for url in [pair.b, pair.a]]
            assert [f.status for f in fourth] == [429, 429]
            feeds[1].close()  # B's feed ends: its place is free on A too
            deadline = time.monotonic() + TOLD_S
            while True:  # bounded: a closed feed's row goes in milliseconds
                again = Feed(pair.a, "capped", tokens["bob"])
                if again.status == 200 or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
            feeds.append(again)
            assert again.status == 200
        finally:
            for feed in feeds:
                feed.close()


# --- a service killed while its clients stream -----------------------------------------------


def test_clients_of_a_killed_service_resume_on_the_other_missing_nothing() -> None:
    with two_services() as pair:
        tokens = pair.campaign("killed", "bob", "sue")
        head = len(log_of(pair.a, "killed", tokens["gm"]))
        watchers = {who: Feed(pair.a, "killed", tokens[who], after=head) for who in ("bob", "sue")}
        written: list[int] = []
        stop = threading.Event()

        def writer() -> None:
            n = 0
            while not stop.is_set() and n < 200:  # bounded
                made = scene(pair.b, "killed", tokens["gm"], f"scene {n}")
                assert made.status_code == 201, made.text
                written.append(made.json()["seq"])
                n += 1
                time.sleep(0.02)

        thread = threading.Thread(target=writer, daemon=True)
        thread.start()
        try:
            time.sleep(1.0)
            os.kill(process_of(pair.a).pid, signal.SIGKILL)
            for feed in watchers.values():
                assert feed.ended.wait(TOLD_S), "a feed of the killed service did not end"
            resumed = {}
            for who, feed in watchers.items():
                seen = feed.seqs()
                last = seen[-1] if seen else head
                resumed[who] = Feed(pair.b, "killed", tokens[who], after=last)
            time.sleep(1.0)
        finally:
            stop.set()
            thread.join(timeout=30)
        try:
            final = written[-1]
            for who, feed in watchers.items():
                assert resumed[who].wait_for(final) is not None, who
                got = feed.seqs() + resumed[who].seqs()
                assert got == list(range(head + 1, final + 1)), who  # no gap, no repeat
        finally:
            for feed in [*watchers.values(), *resumed.values()]:
                feed.close()
        assert "every chain intact" in verify(pair)


def test_a_service_with_few_connections_serves_many_campaigns_written_at_once() -> None:
    """Commands wait for their campaigns' writers without threads (http/commands.py), so many
    campaigns may be written at once; their writers must give connections back to the pool
    (storage/store.py), or the sign-ins' reads would wait for one that never comes."""
    with two_services("--db-connections", "6", "--campaign-limit", "1000") as pair:
        campaigns = {f"few-{n}": pair.campaign(f"few-{n}")["gm"] for n in range(12)}
        answers: list[int] = []
        refusals: list[str] = []
        lock = threading.Lock()

        def client(number: int) -> None:
            with httpx.Client(timeout=httpx.Timeout(20.0)) as http:
                for i in range(8):
                    name = f"few-{(number + i) % 12}"
                    done = http.post(
                        f"{(pair.a, pair.b)[number % 2]}/campaigns/{name}/improv/conflicts",
                        json={"conflict": f"c{number}-{i}"},
                        headers=bearer(campaigns[name]),
                    )
                    with lock:
                        answers.append(done.status_code)
                        if done.status_code != 201:
                            refusals.append(done.text)

        threads = [threading.Thread(target=client, args=(n,)) for n in range(24)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert answers == [201] * (24 * 8), refusals[:3]
        for name, gm in campaigns.items():
            lines = [json.loads(i["line"]) for i in log_of(pair.a, name, gm)]
            opened = [e["payload"]["conflict"] for e in lines if "conflict_opened" in e["type"]]
            assert len(opened) == len(set(opened)) == 16, (name, opened)
