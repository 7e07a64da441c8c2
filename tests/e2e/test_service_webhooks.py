"""Webhooks through the service: the whole bar fight played through `tablelog serve`, with
the service stopped and started again in the middle, reaches a local receiver that behaves
like Discord (429 with retry_after, 5xx, slow answers, the 2,000-character limit) in order
and exactly once; a json receiver gets signed events; the URL shows up nowhere."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import shlex
import time
from pathlib import Path

import pytest

from tests.e2e.test_service import BAR_FIGHT, PLAYERS
from tests.e2e.transcript import ok, refused, run
from tests.support.discord import Receiver, discord_like
from tests.support.server import admin_token, running_service

SECRET_PATH = "/api/webhooks/777/SECRET-TOKEN-of-the-channel"
QUICK = (
    "--webhook-timeout", "0.5", "--webhook-backoff", "0.1", "--webhook-poll", "0.1",
    "--webhook-allow-private",  # the receiver is on 127.0.0.1
)  # fmt: skip
HEAD = re.compile(r"--head (\d+):")
# Stop the service after round 2's reveal: the posts queued before it must still arrive.
RESTART_AFTER = next(i for i, (_, line) in enumerate(BAR_FIGHT) if "award bob susan" in line)


def client(url: str, cwd: Path, token: str, *args: str) -> str:
    return ok(run(cwd, "--server", url, "--access-token", token, *args))


def drained(url: str, cwd: Path, gm: str, deadline_s: float = 60.0) -> list[dict[str, object]]:
    """The webhooks once nothing waits any more (bounded wait)."""
    deadline = time.monotonic() + deadline_s
    while True:
        hooks = json.loads(client(url, cwd, gm, "webhook", "list", "--json"))["webhooks"]
        if all(h["pending"] == 0 for h in hooks) or time.monotonic() > deadline:
            return list(hooks)
        time.sleep(0.2)


def discord_posts(receiver: Receiver) -> list[list[str]]:
    """The messages Discord got, grouped into posts (a post's last message has the footer)."""
    posts: list[list[str]] = [[]]
    for r in receiver.accepted:
        if r.path == SECRET_PATH:
            posts[-1].append(r.json["content"])
            if HEAD.search(r.json["content"]):
                posts.append([])
    return [p for p in posts if p]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "tablelog.db")
    target: str = request.getfixturevalue("pg_target")
    ok(run(tmp_path, "--db", target, "db", "upgrade"))
    return target


def test_the_bar_fight_reaches_discord_in_order_once_across_a_restart(
    db: str, tmp_path: Path
) -> None:
    outputs: list[str] = []
    with discord_like() as receiver:
        receiver.plan = ["429", "slow", "500", "late"]
        with running_service(db, tmp_path, *QUICK) as url:
            made = client(
                url, tmp_path, admin_token(url), "campaign", "create", "bar-fight",
                "--ruleset", "improv", "--json",
            )  # fmt: skip
            tokens = {"gm": json.loads(made)["token"]}
            for player in PLAYERS:
                invited = client(url, tmp_path, tokens["gm"], "invite", player, "--json")
                tokens[player] = json.loads(invited)["token"]
            # Only the GM registers webhooks; a player is refused in one sentence.
            no = run(tmp_path, "--server", url, "--access-token", tokens["bob"],
                     "webhook", "add", receiver.url + SECRET_PATH)  # fmt: skip
            assert "SECRET-TOKEN" not in refused(no)
            outputs.append(
                client(url, tmp_path, tokens["gm"], "webhook", "add", receiver.url + SECRET_PATH)
            )
            signed = json.loads(
                client(
                    url,
                    tmp_path,
                    tokens["gm"],
                    "webhook",
                    "add",
                    receiver.url + "/generic",
                    "--format",
                    "json",
                    "--json",
                )
            )
            for who, line in BAR_FIGHT[: RESTART_AFTER + 1]:
                client(url, tmp_path, tokens[who], *shlex.split(line))
        # The service is down; what it queued is in the database, not in its memory.
        with running_service(db, tmp_path, *QUICK) as url:
            for who, line in [*BAR_FIGHT[RESTART_AFTER + 1 :], ("gm", "session end")]:
                client(url, tmp_path, tokens[who], *shlex.split(line))
            hooks = drained(url, tmp_path, tokens["gm"])
            assert [h["status"] for h in hooks] == ["ok", "ok"], hooks
            outputs.append(client(url, tmp_path, tokens["gm"], "webhook", "list"))
            for read in (["log"], ["export"], ["audit"]):
                outputs.append(client(url, tmp_path, tokens["gm"], *read))
            conflict = client(url, tmp_path, tokens["gm"], "export", "--format", "discord",
                              "--conflict", "fight")  # fmt: skip
            session = client(url, tmp_path, tokens["gm"], "export", "--format", "discord",
                             "--session", "1")  # fmt: skip

    assert {"429", "slow", "500"} <= set(receiver.refused)
    assert "too long" not in receiver.refused, "every message fits in 2,000 characters"
    posts = discord_posts(receiver)
    # Three reveals, the close and the session's end, in the order they happened, once each.
    heads = [int(HEAD.findall(post[-1])[-1]) for post in posts]
    assert len(posts) == 5, heads
    assert heads == sorted(set(heads)), "each post once, in order"
    for post in posts:  # a message sent twice would repeat inside its post
        assert len(post) == len(set(post)), post

    def messages(export: str) -> list[str]:
        return [m.rstrip("\n") for m in export.rstrip("\n").split("\n----- 8< -----\n")]

    assert [m.rstrip("\n") for m in posts[3]] == messages(conflict), "the close: the export"
    assert [m.rstrip("\n") for m in posts[4]] == messages(session), "the session: the export"

    generic = [r for r in receiver.accepted if r.path == "/generic"]
    assert [r.json["trigger"] for r in generic] == ["reveal"] * 3 + ["close", "session"]
    for r in generic:
        mac = hmac.new(signed["secret"].encode(), r.body, hashlib.sha256).hexdigest()
        assert r.headers["X-Tablelog-Signature"] == f"sha256={mac}"
    # The URL is a secret: nowhere in what the CLI printed, nor in the service's own log.
    service_logs = "".join(p.read_text() for p in tmp_path.glob("serve-*.log"))
    for text in (*outputs, service_logs):
        assert "SECRET-TOKEN" not in text


def test_the_service_posts_to_public_addresses_only_unless_told(tmp_path: Path) -> None:
    with running_service(str(tmp_path / "t.db"), tmp_path) as url:
        made = client(url, tmp_path, admin_token(url), "campaign", "create", "bar",
                      "--ruleset", "improv", "--json")  # fmt: skip
        gm = json.loads(made)["token"]
        for private in ("http://127.0.0.1:9", "http://localhost:9", "http://169.254.169.254"):
            said = refused(
                run(
                    tmp_path,
                    "--server",
                    url,
                    "--access-token",
                    gm,
                    "webhook",
                    "add",
                    private + SECRET_PATH,
                )
            )
            assert said.startswith("private-url: ")
            assert "SECRET-TOKEN" not in said
        listed = json.loads(client(url, tmp_path, gm, "webhook", "list", "--json"))
        assert listed["webhooks"] == []
