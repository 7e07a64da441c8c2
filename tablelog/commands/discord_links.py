"""Who acts from Discord, and where (issue 30): the GM binds a channel to a campaign, and a
Discord user acts for the seat whose contact names them (`tablelog player discord`, or a
one-time code traded with `/tl link CODE`). Anyone else in a bound channel reads what an
observer may, and nothing more.
"""

from __future__ import annotations

import hashlib
import secrets

import msgspec

from tablelog.commands.access import Caller, gm_only
from tablelog.commands.access_links import gm_name as _gm_name
from tablelog.commands.access_links import link_account
from tablelog.commands.contacts import _seat, checked_discord
from tablelog.errors import InvalidInput, NotFound
from tablelog.rules.names import player_name
from tablelog.rules.table import GM
from tablelog.storage import EventStore
from tablelog.storage import discord as rows
from tablelog.storage.notices import contacts_of
from tablelog.storage.store import now_us

# A code is read aloud and typed on a phone: no 0/O or 1/I, grouped in fours.
_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_HOURS = 48
_CODE_LENGTH = 8


class Bound(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    channel: str
    bound: bool  # False: it was not bound (an unbind that found nothing)


class LinkCode(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    player: str
    code: str
    expires: str  # ISO 8601, UTC


class Linked(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    player: str  # the seat's name (the GM's name for the GM's seat)
    moved_from: list[str]  # seats of the campaign this user acted for before


def checked_channel(text: str) -> str:
    given = text.strip()
    if not given.isdigit() or not 17 <= len(given) <= 20 or given.startswith("0"):
        raise InvalidInput(
            "a Discord channel id is 17 to 20 digits (Discord: User Settings, Advanced, "
            "Developer Mode, then Copy Channel ID on the channel)",
            code="bad-channel-id",
        )
    return given


def bind(store: EventStore, campaign: str, channel: str, caller: Caller | None = None) -> Bound:
    """Bind a channel to the campaign: its slash commands act on it (one campaign per
    channel; binding it again to the same campaign changes nothing)."""
    gm_only(caller, "bind a Discord channel")
    given = checked_channel(channel)
    if store.head(campaign) is None:
        raise NotFound(f"campaign {campaign!r} does not exist in {store.label}")
    held = rows.bind_channel(store, given, campaign)
    if held is not None:
        raise InvalidInput(
            f"channel {given} already plays campaign {held}; one campaign per channel "
            f"(`tablelog discord unbind {given} -c {held}` first)",
            code="channel-taken",
        )
    return Bound(campaign=campaign, channel=given, bound=True)


def unbind(store: EventStore, campaign: str, channel: str, caller: Caller | None = None) -> Bound:
    gm_only(caller, "unbind a Discord channel")
    given = checked_channel(channel)
    held = rows.channel_campaign(store, given)
    if held is not None and held != campaign:
        raise InvalidInput(
            f"channel {given} plays campaign {held}, not {campaign}", code="channel-elsewhere"
        )
    return Bound(campaign=campaign, channel=given, bound=rows.unbind_channel(store, given))


def channels(store: EventStore, campaign: str) -> list[str]:
    return rows.channels_of(store, campaign)


def _digest(code: str) -> str:
    plain = "".join(ch for ch in code.upper() if ch.isalnum())
    return hashlib.sha256(f"discord-link:{plain}".encode()).hexdigest()


def new_code(store: EventStore, campaign: str, name: str, caller: Caller | None = None) -> LinkCode:
    """A one-time code that links whoever types `/tl link CODE` to NAME's seat (the GM's
    for any seat; a player's for their own). Only the newest code of a seat links."""
    from tablelog.commands.awaits import iso

    if caller is not None and caller.role == "observer":
        gm_only(caller, "link a Discord user")
    try:
        key, seat = _seat(store, campaign, name)
    except NotFound:
        # A new player's code is their invite (the GM's, as `tablelog invite` makes one).
        gm_only(caller, f"invite {name.strip()}")
        key = seat = player_name(name, "player name")
    if caller is not None and caller.role != "gm" and caller.player != key:
        gm_only(caller, f"make {seat}'s Discord code")
    plain = "".join(secrets.choice(_ALPHABET) for _ in range(_CODE_LENGTH))
    code = f"{plain[:4]}-{plain[4:]}"
    expires = now_us() + CODE_HOURS * 3600 * 1_000_000
    made_by = "operator" if caller is None else ("gm" if caller.role == "gm" else "player")
    rows.save_code(store, _digest(code), campaign, key, made_by, expires)
    return LinkCode(campaign=campaign, player=seat, code=code, expires=iso(expires))


def redeem(store: EventStore, code: str, user_id: str) -> Linked:
    """Link a Discord user to the seat a code was made for; the code is spent, and the log
    says so (`access.linked`, public)."""
    user = checked_discord(user_id)
    found = rows.take_code(store, _digest(code), now_us())
    if found is None:
        raise InvalidInput(
            "that code links nothing: it is mistyped, used already, replaced by a newer one, "
            f"or older than {CODE_HOURS} hours; ask for a new one (your page's Discord box, "
            "or the GM's `tablelog discord code PLAYER`)",
            code="bad-link-code",
        )
    campaign, key, made_by = found
    actor = _gm_name(store, campaign) if made_by == "gm" else key
    moved = link_account(store, campaign, key, user, by=made_by, actor=actor)
    return Linked(
        campaign=campaign,
        player=_gm_name(store, campaign) if key == GM else key,
        moved_from=[_gm_name(store, campaign) if m == GM else m for m in moved],
    )


def channel_campaign(store: EventStore, channel: str) -> str | None:
    """The campaign a channel plays, if any."""
    return rows.channel_campaign(store, channel)


def linked_users(store: EventStore, campaign: str) -> dict[str, str]:
    """Each linked seat's Discord user (seats by key: a player's name, or `gm`)."""
    return {c.player: c.discord_id for c in contacts_of(store, campaign) if c.discord_id}


def caller_of(store: EventStore, campaign: str, user_id: str) -> Caller:
    """The caller a Discord user is in `campaign`: the seat linked to them (the GM, or a
    player), else an observer. A user whose id several seats' contacts name acts for none
    of them until a code links one."""
    seats = rows.seats_of_user(store, campaign, user_id)
    digest = hashlib.sha256(f"discord:{user_id}".encode()).hexdigest()
    if len(seats) == 1:
        key = seats[0]
        if key == GM:
            return Caller(
                campaign=campaign, player=_gm_name(store, campaign), role="gm", digest=digest
            )
        return Caller(campaign=campaign, player=key, role="player", digest=digest)
    return Caller(campaign=campaign, player=f"discord-{user_id}", role="observer", digest=digest)


def linked_seats(store: EventStore, campaign: str, user_id: str) -> list[str]:
    return rows.seats_of_user(store, campaign, user_id)
