"""The page's "Notices" box: how the table reaches the signed-in player (issue 28).

A player or the GM sees their own linked Discord id and only a hint of their own address
(the page may be read over a shoulder; the address was typed by them and is not needed to
recognise it), whether they stopped the mails, and sets or clears either through the
contact routes (http/contacts.py), which decide and authorize as for the CLI. The GM's box
also lists every seat's contact as `tablelog player list` gives it: hints only.

Contacts live beside the log, not in it: the box is never part of the page model kept per
head (`commands.page`) nor of the table fragment the live feed swaps in, so no address ever
travels to another viewer's page or feed. An observer gets no box.
"""

from __future__ import annotations

import msgspec

from tablelog.commands import contacts
from tablelog.commands.access import Caller
from tablelog.errors import TablelogError
from tablelog.rules.table import GM
from tablelog.storage import EventStore


class Seat(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's contact as the GM's list shows it: an address's hint, never the address."""

    player: str
    discord: str | None
    email_hint: str | None
    unsubscribed: str | None
    waiting: int  # notices queued and not sent yet


class NoticesBox(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    seat: str  # the name the contact routes take for the caller's own seat
    player: str
    role: str
    discord: str | None
    email_hint: str | None
    unsubscribed: str | None
    seats: list[Seat] | None = None  # the GM's only
    # Why the contact could not be read (a webhook key the service cannot open, say): the
    # page still renders, and says so in the box.
    trouble: str | None = None


def notices_box(store: EventStore, campaign: str, caller: Caller) -> NoticesBox | None:
    """The caller's box, or None for an observer (who has no contact to set)."""
    if caller.role not in ("gm", "player"):
        return None
    seat = GM if caller.role == "gm" else caller.player
    try:
        return _box(store, campaign, caller, seat)
    except TablelogError as exc:
        return NoticesBox(
            campaign=campaign,
            seat=seat,
            player=caller.player,
            role=caller.role,
            discord=None,
            email_hint=None,
            unsubscribed=None,
            trouble=str(exc),
        )


def _box(store: EventStore, campaign: str, caller: Caller, seat: str) -> NoticesBox:
    own = contacts.shown(store, campaign, seat, caller)
    listed = None
    if caller.role == "gm":
        listed = [
            Seat(
                player=c.player,
                discord=c.discord,
                email_hint=c.email,  # `listed` gives hints only
                unsubscribed=c.unsubscribed,
                waiting=len(c.notices),
            )
            for c in contacts.listed(store, campaign, caller)
        ]
    return NoticesBox(
        campaign=campaign,
        seat=seat,
        player=own.player,
        role=caller.role,
        discord=own.discord,
        email_hint=None if own.email is None else contacts.hint(own.email),
        unsubscribed=own.unsubscribed,
        seats=listed,
    )
