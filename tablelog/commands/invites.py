"""Invites from the web page: a one-time sign-in link for a seat, and the seats as they stand.

The GM's page invites a player or an observer by name; anyone's page adds a device of its
own seat. Both go through `access.grant`, so the rules are the CLI's: a link for the
caller's own seat ends nothing; a new link for a seat someone holds is a re-issue that ends
their other tokens and is logged, which the page asks the GM to confirm first (`confirmed`
False is refused with `seat-held` and the question).
"""

from __future__ import annotations

import msgspec

from tablelog.commands import access, state
from tablelog.commands.access import Caller, gm_only
from tablelog.commands.session_policy import SessionPolicy
from tablelog.storage import EventStore
from tablelog.storage.access import seat_tokens

KIND_WORDS = {"token": "token", "link": "unused link", "session": "browser"}


class LinkMade(msgspec.Struct, frozen=True, kw_only=True):
    """A sign-in link handed out (shown once), and what it did, in one sentence."""

    player: str
    role: str
    link: str
    device: bool  # another device of the caller's own seat: nothing else changed
    reissued: bool
    revoked: int
    seq: int | None
    said: str


class Seat(msgspec.Struct, frozen=True, kw_only=True):
    """A seat of the campaign: who, in which role, and what of theirs works now."""

    player: str
    role: str
    live: dict[str, int]  # kind (token, link, session) -> how many still work
    held: bool  # has held a token here: a new link for them is a re-issue

    @property
    def signed_in(self) -> bool:
        """A browser signed in, or a bearer token that works (an unused link is neither)."""
        return bool(self.live.get("session") or self.live.get("token"))

    @property
    def summary(self) -> str:
        if not self.live:
            return "held a token; none works now" if self.held else "never invited"
        parts = [
            f"{n} {KIND_WORDS.get(kind, kind)}{'s' if n != 1 else ''}"
            for kind, n in sorted(self.live.items())
        ]
        return "live: " + ", ".join(parts)


def _said(given: access.Invited, device: bool) -> str:
    who = given.player
    if device:
        return (
            f"A sign-in link for another device of {who} (it works once); your other devices "
            "stay signed in."
        )
    if given.reissued:
        return (
            f"{who}'s access re-issued: {given.revoked} earlier token(s) and session(s) of "
            f"{who} stopped working, and the log says so at seq {given.seq}. {who}'s new "
            "sign-in link (it works once):"
        )
    return f"{who}'s sign-in link as {given.role} (it works once):"


def invite_link(
    store: EventStore,
    campaign: str,
    player: str,
    role: str,
    *,
    caller: Caller,
    base: str,
    confirmed: bool = False,
) -> LinkMade:
    """A one-time sign-in link for `player` (the caller's own seat: another device), on the
    service at `base`. A re-issue is made only `confirmed`; else refused with the question."""
    given = access.grant(store, campaign, player, role, caller=caller, link=True, reissue=confirmed)
    device = given.player == caller.player
    return LinkMade(
        player=given.player,
        role=given.role,
        link=access.sign_in_link(base, campaign, given.token),
        device=device,
        reissued=given.reissued,
        revoked=given.revoked,
        seq=given.seq,
        said=_said(given, device),
    )


def seats(
    store: EventStore, campaign: str, *, caller: Caller, policy: SessionPolicy | None = None
) -> list[Seat]:
    """Every seat of the campaign (the GM's: GM first, then players, then observers), with
    what of each still works. Never a token: counts only."""
    gm_only(caller, "see every seat")
    with state.reading(store, campaign) as folded:
        gm = str(folded.ruleset.cast.gm(folded.state))
        players = {str(p) for p in getattr(folded.state, "players", ()) if p not in (gm, "gm")}
    idle_before, born_before = (policy or SessionPolicy()).cutoffs()
    held = {
        s.player: s
        for s in seat_tokens(store, campaign, idle_before=idle_before, born_before=born_before)
    }
    found: list[Seat] = []
    for name in sorted({gm} | players | set(held)):
        tokens = held.get(name)
        roles = tokens.roles if tokens is not None else frozenset()
        if name == gm or "gm" in roles:
            role = "gm"
        elif name in players or "player" in roles:
            role = "player"
        else:
            role = "observer"
        live = dict(tokens.live) if tokens is not None else {}
        found.append(Seat(player=name, role=role, live=live, held=tokens is not None))
    order = {"gm": 0, "player": 1, "observer": 2}
    return sorted(found, key=lambda s: (order[s.role], s.player))
