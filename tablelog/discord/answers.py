"""One interaction, answered: Discord's JSON in, a `Reply` out (no HTTP here).

The channel names the campaign (`tablelog discord bind`), the user's linked seat decides
what they may do and see (`commands/discord_links.py`); every refusal is said to the caller
alone, and nothing is appended.
"""

from __future__ import annotations

import logging
from typing import Any

from tablelog.commands.database import EventStore
from tablelog.commands.discord_links import caller_of, channel_campaign, redeem
from tablelog.discord import acting, complete, reads
from tablelog.discord.reply import AUTOCOMPLETE, PONG, Reply, refused, told
from tablelog.errors import StorageError, TablelogError, for_clients

PING, COMMAND, COMPONENT, COMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
_log = logging.getLogger(__name__)


class Asked:
    """What a `/tl` interaction asks: the group (a ruleset, or None for a core
    subcommand), the subcommand, its options, and the option being typed (autocomplete)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.group: str | None = None
        self.name = ""
        self.given: dict[str, Any] = {}
        self.focused = ""
        self.typed = ""
        options = data.get("options") or []
        node = options[0] if options else {}
        if node.get("type") == 2:  # a subcommand group: a ruleset
            self.group = str(node.get("name", ""))
            node = (node.get("options") or [{}])[0]
        self.name = str(node.get("name", ""))
        for option in node.get("options") or []:
            if option.get("focused"):
                self.focused, self.typed = str(option.get("name")), str(option.get("value", ""))
            else:
                self.given[str(option.get("name"))] = option.get("value")


def _user(interaction: dict[str, Any]) -> str:
    member = interaction.get("member") or {}
    user = member.get("user") or interaction.get("user") or {}
    return str(user.get("id", ""))


def _channel(interaction: dict[str, Any]) -> str:
    channel = interaction.get("channel") or {}
    return str(interaction.get("channel_id") or channel.get("id") or "")


def unbound(channel: str) -> str:
    return (
        "this channel plays no campaign: the GM binds it with "
        f"`tablelog discord bind {channel or 'CHANNEL_ID'} -c CAMPAIGN`"
    )


def answer(store: EventStore, interaction: dict[str, Any], *, bot_notices: bool = False) -> Reply:
    """The reply to one interaction; with `bot_notices` (the service's bot posts the turn
    notices, which ping), answers name the players the table waits on without pinging."""
    kind = interaction.get("type")
    if kind == PING:
        return Reply({"type": PONG})
    token = acting.pings.set(not bot_notices)
    try:
        return _answer(store, interaction, kind)
    except TablelogError as exc:
        if kind == COMPLETE:
            return Reply({"type": AUTOCOMPLETE, "data": {"choices": []}})
        if isinstance(exc, StorageError):
            _log.error("a Discord interaction: the database failed: %s", exc.message)
        return refused(for_clients(exc))
    finally:
        acting.pings.reset(token)


def _answer(store: EventStore, interaction: dict[str, Any], kind: object) -> Reply:
    data = interaction.get("data") or {}
    user, channel = _user(interaction), _channel(interaction)
    if kind == COMMAND and not Asked(data).group and Asked(data).name == "link":
        return _link(store, user, Asked(data).given)
    campaign = channel_campaign(store, channel) if channel else None
    if kind == COMPLETE:
        if campaign is None:
            return Reply({"type": AUTOCOMPLETE, "data": {"choices": []}})
        asked = Asked(data)
        caller = caller_of(store, campaign, user)
        found = complete.choices(
            store,
            campaign,
            caller,
            asked.group,
            asked.name,
            asked.given,
            asked.focused,
            asked.typed,
        )
        return Reply({"type": AUTOCOMPLETE, "data": {"choices": found}})
    if campaign is None:
        return refused(unbound(channel))
    if kind == COMPONENT:
        return acting.pressed(store, campaign, user, str(data.get("custom_id", "")))
    if kind == MODAL_SUBMIT:
        values = {
            str(c.get("custom_id")): str(c.get("value") or "")
            for row in data.get("components") or []
            for c in row.get("components") or []
        }
        return acting.submitted(store, campaign, user, str(data.get("custom_id", "")), values)
    if kind != COMMAND:
        return refused("tablelog does not answer this kind of interaction")
    asked = Asked(data)
    caller = caller_of(store, campaign, user)
    if asked.group is not None:
        return acting.slash(store, campaign, caller, asked.group, asked.name, asked.given)
    if asked.name == "state":
        return told(reads.state_read(store, campaign, caller), code=True)
    if asked.name == "waiting":
        return told(reads.waiting_read(store, campaign, caller))
    if asked.name == "show":
        conflict = str(asked.given.get("conflict", ""))
        return told(reads.show_read(store, campaign, caller, conflict), code=True)
    if asked.name == "hand":
        return told(reads.hand_read(store, campaign, caller))
    return refused(f"/tl has no command {asked.name!r}")


def _link(store: EventStore, user: str, given: dict[str, Any]) -> Reply:
    linked = redeem(store, str(given.get("code", "")), user)
    moved = f" (no longer for {', '.join(linked.moved_from)})" if linked.moved_from else ""
    return told(
        [
            f"you now act for {linked.player} in campaign {linked.campaign}{moved}: "
            "`/tl hand` shows what is yours alone to see, `/tl waiting` whom the table waits on"
        ]
    )
