"""A player's client takes its part in the committed shuffles awaiting it (README,
"Committed shuffles"): by `tablelog rng contribute`, and by itself around every command it
sends. Two steps (commands/rng_answer.py): a pledge of fresh bytes, kept on this machine
(cli/pledges.py), then, once the service has signed the close of the pledges (checked and
kept: commands/rng_witness.py), the value itself."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from tablelog.cli import pledges
from tablelog.cli.kept import keep
from tablelog.cli.output import decoded, say
from tablelog.commands.checkpoints import Checkpoint
from tablelog.commands.rng_witness import doubt
from tablelog.rules import rng
from tablelog.rules.rng_commands import Contribute, Pledge

if TYPE_CHECKING:
    from tablelog.cli.remote import Client
    from tablelog.rules.common import Command

PASSES = 2  # a pledge may close the pledges: the reveal then follows in the same call


def fresh_value() -> str:
    """32 random bytes of this client's own, as hex."""
    return secrets.token_hex(32)


Witness = Callable[[dict[str, Any]], str | None]  # why not to reveal yet, or None


def step_for(item: dict[str, Any], player: str, witness: Witness | None = None) -> Command | None:
    """The command that takes `player`'s next step in a pending request (`rng_reads`), or
    None when this machine holds no value to reveal (the pledge then ends withheld) or the
    `witness` doubts that the pledges are closed."""
    campaign, request = str(item["campaign"]), str(item["request"])
    if item["phase"] == "pledge":
        value = fresh_value()
        pledges.keep(campaign, request, player, value)  # kept before the pledge leaves
        commitment = rng.pledge(campaign, request, player, bytes.fromhex(value))
        return Pledge(request=request, commitment=commitment, player=player)
    if item["phase"] == "reveal":
        kept = pledges.kept_value(campaign, request, player)
        if kept is None:
            say(
                f"the value {player} pledged to shuffle {request} is not kept on this "
                "machine; unless it is revealed from where it was pledged, it will count "
                "as withheld",
                err=True,
            )
            return None
        doubt = witness(item) if witness is not None else None
        if doubt is not None:
            say(f"not revealing your value for shuffle {request}: {doubt}", err=True)
            return None
        return Contribute(request=request, value=kept, player=player)
    return Contribute(request=request, value=fresh_value(), player=player)


def take_part(
    player: str,
    listed: Callable[[], list[dict[str, Any]]],
    send: Callable[[Command], list[Any]],
    witness: Witness | None = None,
) -> list[Any]:
    """Pledge and reveal in every request awaiting `player`, as far as the service lets
    now; what `send` answered, in order."""
    written: list[Any] = []
    skipped: set[str] = set()
    for _ in range(PASSES):
        pledged = False
        for item in listed():
            if item["request"] in skipped:
                continue
            command = step_for(item, player, witness)
            if command is None:
                skipped.add(item["request"])
                continue
            written += send(command)
            pledged = pledged or isinstance(command, Pledge)
        if not pledged:
            break
    return written


def contribute_pending(client: Client, campaign: str) -> list[dict[str, Any]]:
    """Take part in every request still awaiting this client's player (a player's token
    only: the GM's side knows the server seed, and the service refuses its contributions);
    the events the service answered with."""
    me = client.me()
    if me.get("role") != "player":
        return []
    path = f"/campaigns/{quote(campaign)}/rng/pending"

    def send(command: Command) -> list[Any]:
        events: list[Any] = client.command(campaign, command)["events"]
        return events

    def witness(item: dict[str, Any]) -> str | None:
        return _witnessed(client, campaign, item)

    return take_part(str(me["player"]), lambda: list(client.get(path)), send, witness)


def _witnessed(client: Client, campaign: str, item: dict[str, Any]) -> str | None:
    """Fetch the close of the pledges and the service's checkpoint over it; keep the
    checkpoint if it holds (commands/rng_witness.py says why)."""
    closed_seq = item.get("closed_seq")
    if not isinstance(closed_seq, int):
        return "the service names no close of the pledges"
    base = f"/campaigns/{quote(campaign)}"
    lines = client.get(f"{base}/log", since=closed_seq - 1)
    line = next((str(e["line"]) for e in lines if e.get("seq") == closed_seq), None)
    if line is None:
        return f"the service shows no event at seq {closed_seq}"
    checkpoint = decoded(client.get(f"{base}/checkpoint", seq=closed_seq), Checkpoint)
    found = doubt(
        line,
        checkpoint,
        campaign=campaign,
        request=str(item["request"]),
        player=str(item["player"]),
        closed_seq=closed_seq,
    )
    if found is None:
        keep([checkpoint])
    return found
