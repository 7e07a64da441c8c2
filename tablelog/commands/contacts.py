"""`tablelog player discord|email|show|list`: how the table reaches each player (issue 28).

A contact is a seat's Discord user id and e-mail address, kept beside the log (never in an
event, an export or a post). The address is sealed with the webhook key like a webhook's URL
(commands/webhooks.py) with a redacted hint beside it. The GM sets anyone's; through the
service a player sets and sees only their own, and nobody else sees anything of it. The GM's
seat is kept under the key `gm`, as the awaited steps name it.
"""

from __future__ import annotations

import re

import msgspec

from tablelog.commands import state
from tablelog.commands.access import Caller
from tablelog.commands.awaits import iso
from tablelog.commands.webhooks import seal, unseal
from tablelog.errors import Forbidden, InvalidInput, NotFound
from tablelog.rules.names import player_name
from tablelog.rules.table import GM
from tablelog.storage import EventStore
from tablelog.storage.access import seat_roles
from tablelog.storage.notices import (
    OWN_MOVE,
    ContactRow,
    NoticeRow,
    contact_of,
    contacts_of,
    notices_of,
)
from tablelog.storage.notices import save_contact as _save

DISCORD_ID = re.compile(r"[0-9]{17,20}")
# One plausible address: a local part and a dotted domain, nothing a header could split on.
ADDRESS = re.compile(
    r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,63}"
)
MAX_ADDRESS = 254


class NoticeInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One notice of a player, as the GM and the player see it."""

    channel: str  # a webhook's id, or mail
    kind: str  # turn or reminder
    number: int
    what: str
    status: str  # sent, waiting or dropped
    at: str  # when it was sent or dropped, else queued
    last_error: str | None


class Contact(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    player: str  # the seat's name (the GM's name for the GM)
    discord: str | None
    email: str | None
    unsubscribed: str | None  # when the player unsubscribed from the mails
    notices: list[NoticeInfo] = msgspec.field(default_factory=list)


def _seat(store: EventStore, campaign: str, name: str) -> tuple[str, str]:
    """(the contact's key, the seat's name) of NAME: the GM's seat (`gm` or the GM's name)
    or a player of the campaign; anyone else is refused in one sentence."""
    key = player_name(name, "player name")
    with state.reading(store, campaign) as folded:
        gm = str(folded.ruleset.cast.gm(folded.state))
        players = [str(p) for p in getattr(folded.state, "players", ()) if p not in (gm, GM)]
    if key in (GM, gm):
        return GM, gm
    seats = seat_roles(store, campaign)
    if key in players or "player" in seats.get(key, frozenset()):
        return key, key
    if contact_of(store, campaign, key) is not None:  # a seat played from Discord alone
        return key, key
    raise NotFound(
        f"{name.strip()} is no player of campaign {campaign}; its players: "
        f"{', '.join(players) or 'none yet'}, and the GM ({gm})",
        code="unknown-player",
    )


def _may_change(caller: Caller | None, key: str, gm: str) -> None:
    if caller is None or caller.role == "gm":
        return
    if caller.role == "observer":
        raise Forbidden(f"{caller.player} is an observer and may only read", code="observer")
    if caller.player != key:
        raise Forbidden(
            f"a player sets only their own contact; {caller.player} may not set "
            f"{gm if key == GM else key}'s",
            code="not-yours",
        )


def _may_see(caller: Caller | None, key: str) -> None:
    if caller is None or caller.role == "gm" or (caller.role == "player" and caller.player == key):
        return
    raise Forbidden(
        "only the GM and the player themselves see a player's contact", code="not-yours"
    )


def checked_discord(text: str) -> str:
    given = text.strip()
    # A Discord id is a 64-bit snowflake: digits alone, no leading zero, below 2^64.
    if not DISCORD_ID.fullmatch(given) or given.startswith("0") or int(given) >= 2**64:
        raise InvalidInput(
            "a Discord user id is 17 to 20 digits (Discord: User Settings, Advanced, Developer "
            "Mode, then Copy User ID on the user)",
            code="bad-discord-id",
        )
    return given


def checked_address(text: str) -> str:
    given = text.strip()
    if len(given) > MAX_ADDRESS or not ADDRESS.fullmatch(given) or ".." in given:
        raise InvalidInput(
            "an e-mail address is one address such as ben@example.org, nothing more",
            code="bad-address",
        )
    return given


def hint(address: str) -> str:
    """What a listing may show of an address: its first character and its domain."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}\u2026@{domain}"


def set_discord(
    store: EventStore,
    campaign: str,
    name: str,
    user_id: str | None,
    caller: Caller | None = None,
) -> Contact:
    """Link (or, with None, unlink) a seat's Discord user id: the account then acts for the
    seat from Discord. (A code's link, `tablelog discord code`, is said in the log; one set
    here by hand is not yet.)"""
    if caller is not None and caller.role == "observer":
        _may_change(caller, "", "")
    key, seat = _seat(store, campaign, name)
    _may_change(caller, key, seat)
    checked = None if user_id is None else checked_discord(user_id)
    old = contact_of(store, campaign, key) or ContactRow(campaign=campaign, player=key)
    _save(store, msgspec.structs.replace(old, discord_id=checked))
    return shown(store, campaign, name, caller)


def set_email(
    store: EventStore,
    campaign: str,
    name: str,
    address: str | None,
    caller: Caller | None = None,
) -> Contact:
    """Set (or, with None, clear) a seat's address; setting one subscribes it again."""
    if caller is not None and caller.role == "observer":
        _may_change(caller, "", "")
    key, seat = _seat(store, campaign, name)
    _may_change(caller, key, seat)
    checked = None if address is None else checked_address(address)
    old = contact_of(store, campaign, key) or ContactRow(campaign=campaign, player=key)
    _save(
        store,
        msgspec.structs.replace(
            old,
            email_sealed=None if checked is None else seal(store, checked),
            email_hint=None if checked is None else hint(checked),
            unsubscribed_at=None,
        ),
    )
    return shown(store, campaign, name, caller)


def _info(row: NoticeRow) -> NoticeInfo:
    if row.channel == OWN_MOVE:
        status = "not sent: their own move"
    else:
        status = "sent" if row.sent_at else ("dropped" if row.dropped_at else "waiting")
    return NoticeInfo(
        channel=row.channel,
        kind=row.kind,
        number=row.number,
        what=row.sentence,
        status=status,
        at=iso(row.sent_at or row.dropped_at or row.created_at),
        last_error=row.last_error,
    )


def _contact(store: EventStore, row: ContactRow | None, key: str, seat: str) -> Contact:
    campaign = row.campaign if row is not None else ""
    address = None
    if row is not None and row.email_sealed is not None:
        address = unseal(store, row.email_sealed)
    return Contact(
        campaign=campaign,
        player=seat,
        discord=None if row is None else row.discord_id,
        email=address,
        unsubscribed=None
        if row is None or row.unsubscribed_at is None
        else iso(row.unsubscribed_at),
    )


def shown(store: EventStore, campaign: str, name: str, caller: Caller | None = None) -> Contact:
    """A seat's contact and its latest notices (the GM's or the player's own)."""
    if caller is not None and caller.role == "observer":
        _may_see(caller, "")
    key, seat = _seat(store, campaign, name)
    _may_see(caller, key)
    found = _contact(store, contact_of(store, campaign, key), key, seat)
    recent = [_info(n) for n in notices_of(store, campaign, key)][-20:]
    return msgspec.structs.replace(found, campaign=campaign, notices=recent)


def listed(store: EventStore, campaign: str, caller: Caller | None = None) -> list[Contact]:
    """Every seat's contact, addresses as hints, with the notices still waiting and the
    latest trouble (the GM's)."""
    if caller is not None and caller.role != "gm":
        raise Forbidden(
            "only the GM lists the players' contacts; `tablelog player show NAME` shows your own",
            code="gm-only",
        )
    if store.head(campaign) is None:
        raise NotFound(f"campaign {campaign!r} does not exist in {store.label}")
    with state.reading(store, campaign) as folded:
        gm = str(folded.ruleset.cast.gm(folded.state))
    found = []
    for row in contacts_of(store, campaign):
        pending = [
            _info(n)
            for n in notices_of(store, campaign, row.player)
            if n.sent_at is None and n.dropped_at is None
        ]
        found.append(
            Contact(
                campaign=campaign,
                player=gm if row.player == GM else row.player,
                discord=row.discord_id,
                email=row.email_hint,
                unsubscribed=None if row.unsubscribed_at is None else iso(row.unsubscribed_at),
                notices=pending,
            )
        )
    return found
