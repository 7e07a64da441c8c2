"""The Discord stand-in itself (tests/support/discord_app.py), with no tablelog service.

The service's Discord tests trust it to refuse what Discord refuses and to sign as Discord
signs, so those are checked here against Discord's documented rules.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from tests.support.discord_app import (
    DiscordApi,
    DiscordUser,
    Interactor,
    discord_api,
    response_problems,
)

APP = "100000000000000001"
GUILD = "300000000000000001"
CHANNEL = "500000000000000001"
BOT = {"Authorization": "Bot test-bot-token"}
ALICE = DiscordUser("400000000000000001", "alice", global_name="Alice")


def put_commands(api: DiscordApi, body: Any, *, guild: str | None = None) -> httpx.Response:
    where = f"/applications/{APP}" + (f"/guilds/{guild}" if guild else "") + "/commands"
    return httpx.put(api.url + where, json=body, headers=BOT, timeout=10.0)


def nested_command() -> dict[str, Any]:
    """`/tl state`, `/tl improv play [from-deck]` and `/tl improv say <text> [tone]`."""
    return {
        "name": "tl",
        "description": "Play and read your table's log",
        "options": [
            {"type": 1, "name": "state", "description": "The table as it stands"},
            {
                "type": 2,
                "name": "improv",
                "description": "The improv ruleset",
                "options": [
                    {
                        "type": 1,
                        "name": "play",
                        "description": "Play a card",
                        "options": [
                            {"type": 5, "name": "from-deck", "description": "Draw first"},
                        ],
                    },
                    {
                        "type": 1,
                        "name": "say",
                        "description": "Say a line",
                        "options": [
                            {"type": 3, "name": "text", "description": "What", "required": True},
                            {
                                "type": 3,
                                "name": "tone",
                                "description": "How",
                                "choices": [
                                    {"name": "Calm", "value": "calm"},
                                    {"name": "Loud", "value": "loud"},
                                ],
                            },
                        ],
                    },
                ],
            },
        ],
    }


def command_size(command: dict[str, Any]) -> int:
    """Discord's size of a command: every name, description and choice name and value."""
    total = len(command["name"]) + len(command.get("description", ""))
    for choice in command.get("choices", []):
        total += len(choice["name"]) + len(str(choice["value"]))
    return total + sum(command_size(o) for o in command.get("options", []))


def sized_command(total: int) -> dict[str, Any]:
    """A command of exactly `total` characters whose every field is within its own limit."""
    options: list[dict[str, Any]] = [
        {"type": 3, "name": f"o{k}", "description": "d" * 100, "choices": []} for k in range(3)
    ]
    left = total - len("big") - 100 - sum(len(o["name"]) + 100 for o in options)
    n = 0
    while left > 0:
        take = min(left, 200)
        name = f"{n:03d}".ljust(take // 2, "n")
        options[n // 25]["choices"].append({"name": name, "value": "v" * (take - len(name))})
        left -= take
        n += 1
    command = {"name": "big", "description": "d" * 100, "options": options}
    assert command_size(command) == total
    return command


def test_a_good_nested_command_is_registered_with_ids() -> None:
    with discord_api() as api:
        response = put_commands(api, [nested_command()])
        assert response.status_code == 200, response.text
        (echoed,) = response.json()
        assert echoed["name"] == "tl"
        assert echoed["application_id"] == APP
        assert echoed["id"].isdigit()
        assert echoed["options"] == nested_command()["options"]
        assert api.commands[(APP, None)] == [echoed]
        # Overwriting again keeps the command's id, as Discord does; a guild has its own set.
        again = put_commands(api, [nested_command()]).json()
        assert again[0]["id"] == echoed["id"]
        in_guild = put_commands(api, [nested_command()], guild=GUILD)
        assert in_guild.status_code == 200
        assert in_guild.json()[0]["guild_id"] == GUILD
        assert set(api.commands) == {(APP, None), (APP, GUILD)}
        listed = httpx.get(f"{api.url}/applications/{APP}/commands", headers=BOT, timeout=10.0)
        assert listed.json() == again


def test_a_command_of_8000_characters_is_accepted() -> None:
    with discord_api() as api:
        assert put_commands(api, [sized_command(8000)]).status_code == 200


def _with_option(option: dict[str, Any]) -> dict[str, Any]:
    command = nested_command()
    command["options"][1]["options"][1]["options"].append(option)
    return command


def _options(count: int) -> list[dict[str, Any]]:
    return [{"type": 3, "name": f"o{n}", "description": "x"} for n in range(count)]


REFUSED: dict[str, tuple[dict[str, Any], str]] = {
    "a 101-character description": (
        {"name": "tl", "description": "d" * 101},
        '"description": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH"',
    ),
    "an empty description": ({"name": "tl", "description": ""}, "BASE_TYPE_BAD_LENGTH"),
    "no description": ({"name": "tl"}, "BASE_TYPE_REQUIRED"),
    "26 options": (
        {"name": "tl", "description": "d", "options": _options(26)},
        '"options": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH"',
    ),
    "26 options in a subcommand": (
        {
            "name": "tl",
            "description": "d",
            "options": [{"type": 1, "name": "s", "description": "d", "options": _options(26)}],
        },
        '"0": {"options": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH"',
    ),
    "26 choices": (
        _with_option(
            {
                "type": 4,
                "name": "n",
                "description": "d",
                "choices": [{"name": str(n), "value": n} for n in range(26)],
            }
        ),
        '"choices": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH"',
    ),
    "an 8001-character command": (sized_command(8001), "APPLICATION_COMMAND_TOO_LARGE"),
    "an upper-case name": ({"name": "Tl", "description": "d"}, "APPLICATION_COMMAND_INVALID_NAME"),
    "a name with a space": (
        {"name": "t l", "description": "d"},
        "APPLICATION_COMMAND_INVALID_NAME",
    ),
    "a 33-character option name": (
        _with_option({"type": 3, "name": "n" * 33, "description": "d"}),
        '"options": {"2": {"name": {"_errors": [{"code": "APPLICATION_COMMAND_INVALID_NAME"',
    ),
    "an upper-case subcommand name": (
        {
            "name": "tl",
            "description": "d",
            "options": [{"type": 1, "name": "St", "description": "d"}],
        },
        "APPLICATION_COMMAND_INVALID_NAME",
    ),
    "a 101-character choice name": (
        _with_option(
            {
                "type": 3,
                "name": "c",
                "description": "d",
                "choices": [{"name": "c" * 101, "value": "c"}],
            }
        ),
        "BASE_TYPE_BAD_LENGTH",
    ),
    "a required option after an optional one": (
        _with_option({"type": 3, "name": "late", "description": "d", "required": True}),
        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
    ),
    "a plain option in a group": (
        {
            "name": "tl",
            "description": "d",
            "options": [
                {"type": 2, "name": "g", "description": "d", "options": _options(1)},
            ],
        },
        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
    ),
    "a subcommand in a subcommand": (
        {
            "name": "tl",
            "description": "d",
            "options": [
                {
                    "type": 1,
                    "name": "s",
                    "description": "d",
                    "options": [{"type": 1, "name": "t", "description": "d"}],
                },
            ],
        },
        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
    ),
    "subcommands beside plain options": (
        {
            "name": "tl",
            "description": "d",
            "options": [{"type": 1, "name": "s", "description": "d"}, *_options(1)],
        },
        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
    ),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_what_discord_refuses_is_refused(case: str) -> None:
    command, named = REFUSED[case]
    with discord_api() as api:
        response = put_commands(api, [nested_command(), command])
        assert response.status_code == 400
        body = response.json()
        assert body["code"] == 50035
        assert body["message"] == "Invalid Form Body"
        assert "1" in body["errors"]  # the second command, by its index, as Discord names it
        assert named in json.dumps(body["errors"])
        assert api.commands == {}


def test_the_bot_token_is_required() -> None:
    with discord_api() as api:
        for headers in ({}, {"Authorization": "Bot wrong"}, {"Authorization": "test-bot-token"}):
            refused = httpx.put(
                f"{api.url}/applications/{APP}/commands", json=[], headers=headers, timeout=10.0
            )
            assert refused.status_code == 401
            assert refused.json() == {"message": "401: Unauthorized", "code": 0}
        posted = httpx.post(
            f"{api.url}/channels/{CHANNEL}/messages", json={"content": "hi"}, timeout=10.0
        )
        assert posted.status_code == 401
        assert api.channel_messages == []
        posted = httpx.post(
            f"{api.url}/channels/{CHANNEL}/messages",
            json={"content": "hi"},
            headers=BOT,
            timeout=10.0,
        )
        assert posted.status_code == 200
        assert posted.json()["channel_id"] == CHANNEL
        (message,) = api.wait_for("channel_messages", 1)
        assert (message.channel_id, message.content) == (CHANNEL, "hi")


def test_follow_ups_and_edits_are_recorded() -> None:
    with discord_api() as api:
        hook = f"{api.url}/webhooks/{APP}/a-token"
        answer = httpx.post(hook, json={"content": "seen", "flags": 64}, timeout=10.0)
        assert answer.status_code == 200
        assert answer.json()["content"] == "seen"
        assert answer.json()["flags"] == 64
        assert answer.json()["id"].isdigit()
        httpx.post(hook, json={"content": "public"}, timeout=10.0)
        edited = httpx.patch(hook + "/messages/@original", json={"content": "done"}, timeout=10.0)
        assert edited.status_code == 200
        first, second = api.wait_for("followups", 2)
        assert (first.app_id, first.token, first.flags, first.ephemeral) == (
            APP,
            "a-token",
            64,
            True,
        )
        assert (second.flags, second.ephemeral) == (0, False)
        (edit,) = api.wait_for("edits", 1)
        assert (edit.message_id, edit.body) == ("@original", {"content": "done"})

        too_long = httpx.post(hook, json={"content": "x" * 2001}, timeout=10.0)
        assert too_long.status_code == 400
        assert too_long.json()["code"] == 50035
        assert "content" in too_long.json()["errors"]
        empty = httpx.post(hook, json={"content": ""}, timeout=10.0)
        assert empty.json() == {"message": "Cannot send an empty message", "code": 50006}
        unknown = httpx.get(f"{api.url}/users/@me", headers=BOT, timeout=10.0)
        assert unknown.status_code == 404
        assert unknown.json() == {"message": "404: Not Found", "code": 0}
        assert len(api.wait_for("followups", 2)) == 2  # the refused ones are not kept


def test_a_linked_interactor_makes_unknown_tokens_unknown_webhooks() -> None:
    with discord_api() as api:
        interactor = Interactor("http://127.0.0.1:9", api=api)  # never posted to
        token = interactor.command(ALICE, CHANNEL, "state")["token"]
        known = httpx.post(
            f"{api.url}/webhooks/{APP}/{token}", json={"content": "ok"}, timeout=10.0
        )
        assert known.status_code == 200
        assert known.json()["channel_id"] == CHANNEL
        unknown = httpx.post(
            f"{api.url}/webhooks/{APP}/forged", json={"content": "ok"}, timeout=10.0
        )
        assert unknown.json() == {"message": "Unknown Webhook", "code": 10015}


@dataclass
class Captured:
    requests: list[tuple[str, dict[str, str], bytes]] = field(default_factory=list)


@contextmanager
def receiver() -> Iterator[tuple[str, Captured]]:
    """A tiny service on 127.0.0.1 that keeps what it is sent and answers a PONG."""
    captured = Captured()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            captured.requests.append((self.path, dict(self.headers), body))
            data = b'{"type": 1}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", captured
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_the_interactor_signs_as_discord_does() -> None:
    with receiver() as (url, captured):
        interactor = Interactor(url)
        assert len(interactor.public_key_hex) == 64
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(interactor.public_key_hex))
        payload = interactor.command(ALICE, CHANNEL, "state")
        assert interactor.post(payload) == (200, {"type": 1})
        interactor.post(interactor.ping(), timestamp="1700000000")
        interactor.post(interactor.ping(), signature="ab" * 64)
        interactor.post(interactor.ping(), sign=False)
        interactor.post(payload, raw=b'{"type": 1}')

    signed, stamped, forged, unsigned, raw = captured.requests
    path, headers, body = signed
    assert path == "/discord/interactions"
    assert headers["Content-Type"] == "application/json"
    assert json.loads(body) == payload
    timestamp = headers["X-Signature-Timestamp"]
    public.verify(bytes.fromhex(headers["X-Signature-Ed25519"]), timestamp.encode() + body)
    with pytest.raises(InvalidSignature):  # the signature covers the timestamp
        public.verify(bytes.fromhex(headers["X-Signature-Ed25519"]), b"1" + body)

    _, headers, body = stamped
    assert headers["X-Signature-Timestamp"] == "1700000000"
    public.verify(bytes.fromhex(headers["X-Signature-Ed25519"]), b"1700000000" + body)
    assert forged[1]["X-Signature-Ed25519"] == "ab" * 64
    assert "X-Signature-Ed25519" not in unsigned[1]
    assert "X-Signature-Timestamp" not in unsigned[1]
    _, headers, body = raw
    assert body == b'{"type": 1}'
    public.verify(
        bytes.fromhex(headers["X-Signature-Ed25519"]),
        headers["X-Signature-Timestamp"].encode() + body,
    )


def test_payloads_have_discords_shapes() -> None:
    interactor = Interactor("http://127.0.0.1:9")
    play = interactor.command(ALICE, CHANNEL, "improv play", opts={"from-deck": True}, times=2)
    assert play["type"] == 2
    assert play["version"] == 1
    assert play["guild_id"] == GUILD
    assert play["member"]["user"] == {**play["member"]["user"], "id": ALICE.id, "username": "alice"}
    assert play["member"]["user"]["global_name"] == "Alice"
    assert "user" not in play
    assert play["data"]["name"] == "tl"
    assert play["data"]["options"] == [
        {
            "name": "improv",
            "type": 2,
            "options": [
                {
                    "name": "play",
                    "type": 1,
                    "options": [
                        {"name": "from-deck", "type": 5, "value": True},
                        {"name": "times", "type": 4, "value": 2},
                    ],
                }
            ],
        }
    ]
    other = interactor.command(ALICE, CHANNEL, "state", guild_id=None)
    assert other["token"] != play["token"]
    assert other["user"]["id"] == ALICE.id
    assert "member" not in other
    assert "guild_id" not in other
    assert other["data"]["options"] == [{"name": "state", "type": 1}]

    typing = interactor.autocomplete(ALICE, CHANNEL, "improv say", "tone", text="hi", tone="lo")
    assert typing["type"] == 4
    leaf = typing["data"]["options"][0]["options"][0]["options"]
    assert leaf[1] == {"name": "tone", "type": 3, "value": "lo", "focused": True}
    assert "focused" not in leaf[0]

    click = interactor.button(ALICE, CHANNEL, "tl:undo", message_id="600000000000000001")
    assert click["type"] == 3
    assert click["data"] == {"custom_id": "tl:undo", "component_type": 2}
    assert click["message"]["id"] == "600000000000000001"

    submit = interactor.modal_submit(ALICE, CHANNEL, "tl:say", {"text": "hello", "tone": "calm"})
    assert submit["type"] == 5
    assert submit["data"] == {
        "custom_id": "tl:say",
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": "text", "value": "hello"}]},
            {"type": 1, "components": [{"type": 4, "custom_id": "tone", "value": "calm"}]},
        ],
    }
    assert interactor.ping()["type"] == 1


def test_response_problems_follow_discords_rules() -> None:
    interactor = Interactor("http://127.0.0.1:9")
    command = interactor.command(ALICE, CHANNEL, "state")
    assert response_problems(command, 200, {"type": 4, "data": {"content": "ok"}}) == []
    assert response_problems(command, 200, {"type": 5, "data": {"flags": 64}}) == []
    assert response_problems(command, 200, {"type": 8, "data": {"choices": []}})
    assert response_problems(command, 200, {"type": 4, "data": {"content": "x" * 2001}})
    assert response_problems(command, 500, None)
    typing = interactor.autocomplete(ALICE, CHANNEL, "state", "x")
    assert response_problems(typing, 200, {"type": 8, "data": {"choices": []}}) == []
    assert response_problems(interactor.ping(), 200, {"type": 1}) == []
