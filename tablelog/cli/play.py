"""Shared plumbing for commands that change a campaign: run one, print what it appended."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import typer

from tablelog.cli.options import collecting, remote, target
from tablelog.cli.output import emit_json, say
from tablelog.commands.database import opened, resolve_campaign
from tablelog.commands.reads import items_of
from tablelog.commands.table import execute
from tablelog.rules.common import Command
from tablelog.rules.rng_commands import RNG_COMMANDS


class Appended(msgspec.Struct, frozen=True, kw_only=True):
    """One appended event as the caller sees it (locally, or from the service)."""

    seq: int
    text: str
    conflict: str | None


def run(
    ctx: typer.Context,
    campaign: str | None,
    command: Command,
    *,
    ruleset: str | None = None,
    echo: bool = True,
) -> list[Appended]:
    """Execute one command on the chosen campaign and print its events (unless `echo` is off)."""
    collected = collecting.get()
    if collected is not None:  # a what-if file read for the service: sent, not run, here
        collected.append(command)
        return []
    client = remote(ctx)
    if client is not None:
        from tablelog.cli.contributing import contribute_pending

        name = client.campaign(campaign)
        # A player's client contributes to every committed shuffle awaiting it, before its
        # command and after one that asked for a shuffle of its own (rng_flow.py).
        events = [] if isinstance(command, RNG_COMMANDS) else contribute_pending(client, name)
        result = client.command(name, command)
        events += result["events"]
        if any(_type(e["line"]) == "rng.committed" for e in result["events"]):
            events += contribute_pending(client, name)
        written = [
            Appended(seq=e["seq"], text=e["text"], conflict=_conflict(e["line"])) for e in events
        ]
    else:
        with opened(target(ctx)) as store:
            name = resolve_campaign(store, campaign)
            envelopes = execute(store, name, command, ruleset=ruleset)
            written = [
                Appended(seq=item.seq, text=item.text, conflict=e.event().conflict_id())
                for item, e in zip(items_of(store, name, envelopes, None), envelopes, strict=True)
            ]
    if echo:
        report(written)
    return written


def _type(line: str) -> str | None:
    data = msgspec.json.decode(line)
    return data.get("type") if isinstance(data, dict) else None


def _conflict(line: str) -> str | None:
    data = msgspec.json.decode(line)
    payload = data.get("payload") if isinstance(data, dict) else None
    value = payload.get("conflict") if isinstance(payload, dict) else None
    return value if isinstance(value, str) else None


def report(written: Sequence[Appended]) -> None:
    for item in written:
        say(f"{item.seq:>5}  {item.text}")


def open_conflict(
    ctx: typer.Context, campaign: str | None, command: Command, ruleset: str, json: bool
) -> None:
    """Run a command that opens a conflict; with `json`, print only `{"conflict": ID}`."""
    written = run(ctx, campaign, command, ruleset=ruleset, echo=not json)
    if json and written:
        emit_json({"conflict": written[0].conflict})
