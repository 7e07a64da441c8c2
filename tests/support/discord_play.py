"""Discord without Discord, for playing by hand (the held-out play of `/tl`): a stand-in
API that collects what the service sends, and a client that types slash commands, presses
buttons and fills modals as a Discord user would, printing what Discord would show.

    python -m tests.support.discord_play key DIR          # prints the application's public key
    python -m tests.support.discord_play api DIR &        # Discord's API (follow-ups, bot posts)
    tablelog serve --discord-public-key KEY --discord-api $(cat DIR/api-url)
    python -m tests.support.discord_play send DIR URL USER CHANNEL '/tl improv open'
    python -m tests.support.discord_play send DIR URL USER CHANNEL \\
        '/tl improv play conflict:c1 card:' --complete card     # what the option offers
    python -m tests.support.discord_play button DIR URL USER CHANNEL CUSTOM_ID
    python -m tests.support.discord_play modal DIR URL USER CHANNEL CUSTOM_ID card=AH

USER is a name: each name is one Discord account (its id kept in DIR/users.json).
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
)

from tablelog.discord.tree import command_set
from tests.support.discord_app import DiscordUser, Interactor, discord_api, snowflake

_OPTION = re.compile(r"(?:^|\s)([a-z0-9_-]+):")


def _key(folder: Path) -> Ed25519PrivateKey:
    path = folder / "key.pem"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        made = Ed25519PrivateKey.generate()
        pem = made.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
        path.write_bytes(pem)
    loaded = load_pem_private_key(path.read_bytes(), None)
    assert isinstance(loaded, Ed25519PrivateKey)
    return loaded


def _user(folder: Path, name: str) -> DiscordUser:
    path = folder / "users.json"
    users = json.loads(path.read_text()) if path.exists() else {}
    if name not in users:
        users[name] = snowflake()
        path.write_text(json.dumps(users))
    return DiscordUser(users[name], name)


def _types() -> dict[tuple[str, ...], dict[str, int]]:
    """Each subcommand's options and their Discord types, from the command set."""
    found: dict[tuple[str, ...], dict[str, int]] = {}
    (tl,) = command_set()
    for node in tl["options"]:
        if node["type"] == 1:
            found[(node["name"],)] = {o["name"]: o["type"] for o in node.get("options", [])}
        for sub in node.get("options", []) if node["type"] == 2 else []:
            found[(node["name"], sub["name"])] = {o["name"]: o["type"] for o in sub["options"]}
    return found


def _parsed(text: str) -> tuple[str, dict[str, Any]]:
    """`/tl improv play conflict:c1 card:AH` as ("improv play", {"conflict": "c1", ...})."""
    body = text.strip().removeprefix("/tl").strip()
    first = _OPTION.search(body)
    path = (body[: first.start()] if first else body).strip()
    options: dict[str, Any] = {}
    marks = list(_OPTION.finditer(body))
    types = _types().get(tuple(path.split()), {})
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(body)
        name, value = mark.group(1), body[mark.end() : end].strip()
        kind = types.get(name, 3)
        if kind == 5:
            options[name] = value.casefold() in ("true", "yes", "1")
        elif kind == 4:
            options[name] = int(value) if value.lstrip("-").isdigit() else value
        else:
            options[name] = value
    return path, options


def _show(status: int, body: Any) -> None:
    if not isinstance(body, dict):
        print(f"[HTTP {status}] {body}")
        return
    kind, data = body.get("type"), body.get("data") or {}
    if kind == 9:
        print(f"[a form opens: {data.get('title')}]  (custom_id {data.get('custom_id')})")
        for row in data.get("components", []):
            for field in row["components"]:
                extra = f" = {field['value']!r}" if field.get("value") else ""
                hint = f"  ({field['placeholder']})" if field.get("placeholder") else ""
                print(f"  field {field['custom_id']}: {field['label']}{extra}{hint}")
        return
    if kind == 8:
        print("[suggestions] " + ", ".join(f"{c['name']} -> {c['value']}" for c in data["choices"]))
        return
    if kind == 5:
        print("[tablelog is thinking...]")
        return
    _message(data, "only you" if int(data.get("flags") or 0) & 64 else "in the channel")


def _message(data: dict[str, Any], where: str) -> None:
    print(f"[{where}]")
    print(data.get("content", ""))
    for row in data.get("components", []):
        for button in row["components"]:
            print(f"  [button: {button['label']}]  (custom_id {button['custom_id']})")


def _later(folder: Path, token: str, since: int, channel: str) -> None:
    """What the service sent through Discord's API after the answer (bounded wait)."""
    log = folder / "messages.jsonl"
    deadline = time.monotonic() + 2.5
    shown = since
    while time.monotonic() < deadline:
        lines = log.read_text().splitlines() if log.exists() else []
        for line in lines[shown:]:
            item = json.loads(line)
            if item.get("token") == token:
                _message(item["body"], "only you" if item["ephemeral"] else "in the channel")
            elif item.get("channel") == channel:
                _message(item["body"], "in the channel, from the bot")
        shown = len(lines)
        time.sleep(0.2)


def _count(folder: Path) -> int:
    log = folder / "messages.jsonl"
    return len(log.read_text().splitlines()) if log.exists() else 0


def main(argv: list[str]) -> None:
    verb, folder = argv[0], Path(argv[1])
    if verb == "key":
        raw = (
            _key(folder)
            .public_key()
            .public_bytes(
                Encoding.Raw,
                __import__(
                    "cryptography.hazmat.primitives.serialization", fromlist=["PublicFormat"]
                ).PublicFormat.Raw,
            )
        )
        print(raw.hex())
        return
    if verb == "api":
        with discord_api() as api:
            (folder / "api-url").write_text(api.url)
            print(f"Discord's API stand-in at {api.url}", flush=True)
            seen = {"followups": 0, "edits": 0, "channel_messages": 0}
            log = folder / "messages.jsonl"
            while True:
                for kind in seen:
                    items = list(getattr(api, kind))
                    for item in items[seen[kind] :]:
                        entry = {"kind": kind, "body": item.body}
                        if kind == "channel_messages":
                            entry["channel"] = item.channel_id
                            entry["ephemeral"] = False
                        else:
                            entry["token"] = item.token
                            entry["ephemeral"] = item.ephemeral
                        with log.open("a") as out:
                            out.write(json.dumps(entry) + "\n")
                    seen[kind] = len(items)
                time.sleep(0.2)
    url, user, channel = argv[2], _user(folder, argv[3]), argv[4]
    discord = Interactor(url, key=_key(folder))
    since = _count(folder)
    if verb == "send":
        path, options = _parsed(argv[5])
        if "--complete" in argv:
            focused = argv[argv.index("--complete") + 1]
            options.setdefault(focused, "")
            status, body = discord.send_autocomplete(user, channel, path, focused, options)
        else:
            status, body = discord.send_command(user, channel, path, options)
    elif verb == "button":
        status, body = discord.send_button(user, channel, argv[5])
    elif verb == "modal":
        values = dict(pair.split("=", 1) for pair in argv[6:])
        status, body = discord.send_modal_submit(user, channel, argv[5], values)
    else:
        raise SystemExit(__doc__)
    _show(status, body)
    _later(folder, discord.last["token"], since, channel)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except httpx.HTTPError as exc:
        raise SystemExit(f"cannot reach the service: {exc}") from None
