"""A player's client contributes to the committed shuffles awaiting it (README, "Committed
shuffles"): by `tablelog rng contribute`, and by itself around every command it sends."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from tablelog.rules.rng_commands import Contribute

if TYPE_CHECKING:
    from tablelog.cli.remote import Client


def fresh_value() -> str:
    """32 random bytes of this client's own, as hex."""
    return secrets.token_hex(32)


def contribute_pending(client: Client, campaign: str) -> list[dict[str, Any]]:
    """Contribute to every request still awaiting this client's player (a player's token
    only: the GM's side knows the server seed, and the service refuses its contributions);
    the events the service answered with."""
    if client.me().get("role") != "player":
        return []
    written: list[dict[str, Any]] = []
    for item in client.get(f"/campaigns/{quote(campaign)}/rng/pending"):
        command = Contribute(request=str(item["request"]), value=fresh_value())
        written += client.command(campaign, command)["events"]
    return written
